// SPDX-License-Identifier: LGPL-2.1
/*
 * A record from libtracecmd, checked and pushed (see tracecmd_push.h).
 */
#include <string.h>

#include "extent.h"
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
	return tk_pageout_init(&tp->pageout, cpus);
}

/**
 * tk_tc_push - check one record libtracecmd handed over and push it
 * @tp: the state
 * @rec: the record (libtracecmd's: its data valid until this returns)
 * @cpu: its CPU
 *
 * A record of a negative size, larger than a page, or running past the
 * end of its page (kmem_record_in_page()) is counted in @tp->skipped,
 * the first one's place kept, and its data never read.
 *
 * Return: 1 (pushed), 0 (skipped), or -1 when the pipe refused it
 * (tk_pipe_push()).
 */
int tk_tc_push(struct tk_tc_push *tp, const struct tep_record *rec, int cpu)
{
	/*
	 * libtracecmd hands over sizes like -4 from damaged pages, and
	 * records that run past the end of their page (of its buffer)
	 */
	if (rec->size < 0 || rec->size > tp->max_size ||
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
}
