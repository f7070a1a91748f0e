// SPDX-License-Identifier: LGPL-2.1
/*
 * A record from libtracecmd, checked and pushed (see tracecmd_push.h).
 */
#include <stdlib.h>
#include <string.h>

#include "event/extent.h"
#include "tracecmd_push.h"

/**
 * tk_tc_push_init - the bounds of a trace's records
 * @tp: the state, its pipe set later (tk_pipeline_run() gives it)
 * @tep: the trace's handle (its sub-buffer and page sizes, its CPUs)
 *
 * Return: 0, or -1 out of memory.
 */
int tk_tc_push_init(struct tk_tc_push *tp, struct tep_handle *tep)
{
	int page = tep_get_sub_buffer_size(tep);
	int cpus = tep_get_cpus(tep);

	memset(tp, 0, sizeof(*tp));
	tp->max_size = page > 0 ? page : 1 << 20;
	tp->page = kmem_page_bound(tep);
	tp->round_cpu = -1;
	if (cpus > 0) {
		tp->furthest = calloc((size_t)cpus, sizeof(*tp->furthest));
		tp->behind = calloc((size_t)cpus, sizeof(*tp->behind));
		if (!tp->furthest || !tp->behind) {
			tk_tc_push_release(tp);
			return -1;
		}
		tp->nr_cpus = cpus;
	}
	return tk_pageout_init(&tp->pageout, cpus);
}

/**
 * tk_tc_moving - is libtracecmd moving on?
 * @tp: the state
 * @rec: a record libtracecmd handed over (pushed or not)
 * @cpu: its CPU
 *
 * A CPU's records come in file order: one that is not past the furthest
 * yet is damage (a length word that sent libtracecmd back), and
 * TK_TC_GOING_ROUND of them in a row a loop libtracecmd will not leave
 * (tracecmd_peek_data() would give that record for ever): its place is
 * kept in @tp->round_cpu and @tp->round_offset.  tk_tc_push() asks;
 * a caller that leaves a record out before pushing it must ask too.
 *
 * Return: 1 (past the furthest), 0 (behind), or -1 (going round:
 * reading must stop).
 */
int tk_tc_moving(struct tk_tc_push *tp, const struct tep_record *rec, int cpu)
{
	if (cpu < 0 || cpu >= tp->nr_cpus)
		return 1;
	if (tp->furthest[cpu] && rec->offset <= tp->furthest[cpu]) {
		if (++tp->behind[cpu] >= TK_TC_GOING_ROUND &&
		    tp->round_cpu < 0) {
			tp->round_cpu = cpu;
			tp->round_offset = rec->offset;
		}
		return tp->round_cpu < 0 ? 0 : -1;
	}
	tp->furthest[cpu] = rec->offset;
	tp->behind[cpu] = 0;
	return 1;
}

/**
 * tk_tc_push - check one record libtracecmd handed over and push it
 * @tp: the state
 * @rec: the record (libtracecmd's: its data valid until this returns)
 * @cpu: its CPU
 *
 * A record of a negative size, larger than a page, running past the end
 * of its page (kmem_record_in_page()), or not past the furthest record
 * of its CPU yet, is counted in @tp->skipped, the first one's place
 * kept, and its data never read.  After TK_TC_GOING_ROUND of the last
 * kind in a row, libtracecmd is going round in circles on a damaged page
 * (tk_tc_moving()) and reading stops.
 *
 * Return: 1 (pushed), 0 (skipped), or -1 when the pipe refused it
 * (tk_pipe_push()) or reading must stop.
 */
int tk_tc_push(struct tk_tc_push *tp, const struct tep_record *rec, int cpu)
{
	int moving = tk_tc_moving(tp, rec, cpu);

	if (moving < 0)
		return -1;
	/*
	 * libtracecmd hands over sizes like -4 from damaged pages, and
	 * records that run past the end of their page (of its buffer)
	 */
	if (!moving || rec->size < 0 || rec->size > tp->max_size ||
	    !kmem_record_in_page(rec, tp->page)) {
		if (!tp->skipped++) {
			tp->first_cpu = cpu;
			tp->first_offset = rec->offset;
		}
		return 0;
	}
	if (tk_pipe_push(tp->pipe, rec))
		return -1;
	tk_pageout_record(&tp->pageout, cpu, rec->data);
	return 1;
}

/**
 * tk_tc_push_release - free what tk_tc_push_init() took
 * @tp: the state
 */
void tk_tc_push_release(struct tk_tc_push *tp)
{
	tk_pageout_release(&tp->pageout);
	free(tp->furthest);
	free(tp->behind);
	tp->furthest = NULL;
	tp->behind = NULL;
}
