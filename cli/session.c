// SPDX-License-Identifier: LGPL-2.1
/*
 * One input's analysis (see session.h, where tk_session_record(), the
 * per-record path, is inline).
 */
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "event/fmtlater.h"
#include "event/tep_names.h"
#include "feed/feed.h"
#include "block.h"
#include "fault.h"
#include "options/config.h"
#include "progress.h"
#include "session.h"

/* Is @pid's command the --comm name?  Cached once the comm is known. */
static bool comm_matches(struct tk_session *s, int pid)
{
	uint32_t v = u64_index_find(&s->comm_ix, (uint64_t)pid);
	const char *comm;

	if (v != U64_INDEX_NONE)
		return v == 1;
	kmem_comms_need(s->tep); /* once a pid; only the first registers */
	comm = tep_data_comm_from_pid(s->tep, pid);
	if (!strcmp(comm, "<...>"))
		return false; /* unknown yet: live mode may learn it */
	v = strcmp(comm, s->args->filter.comm) ? 2 : 1;
	u64_index_insert(&s->comm_ix, (uint64_t)pid, v);
	return v == 1;
}

/* The feed's keep(): does the event's task pass --pid and --comm? */
static bool wanted_task(void *arg, const struct kmem_event *ev)
{
	struct tk_session *s = arg;
	const struct tk_filter *f = &s->args->filter;

	if (f->pids &&
	    u64_index_find(&f->pid_ix, (uint64_t)(unsigned int)ev->pid) ==
		    U64_INDEX_NONE)
		return false;
	return !f->comm || comm_matches(s, ev->pid);
}

/**
 * tk_session_init - start the analysis of one input
 * @s: the session
 * @tep: the input's handle (its formats, kallsyms and comms)
 * @a: the options and filters
 * @numa: a topology, or NULL
 *
 * Return: 0, or -1 when memory ran out.
 */
int tk_session_init(struct tk_session *s, struct tep_handle *tep,
		    const struct tk_args *a, const struct kmem_numa *numa)
{
	struct kmem_collect_cfg cc;
	char msg[256];

	memset(s, 0, sizeof(*s));
	s->tep = tep;
	s->args = a;
	kmem_tep_symbolizer(&s->sym, tep);
	if (kmem_agg_init(&s->agg))
		return -1;
	cc = kmem_opts_collect_cfg(&a->opts);
	kmem_agg_keep_rows(&s->agg, &cc);
	if (kmem_agg_configure(&s->agg, &s->sym, a->opts.skip, msg,
			       sizeof(msg)))
		fprintf(stderr, KMEM_BAD_SKIP_FMT, kmem_prog, a->opts.skip,
			msg);
	kmem_agg_set_numa(&s->agg, numa);
	kmem_feed_page_geometry(&s->agg, tep);
	if (a->filter.comm && u64_index_init(&s->comm_ix, 64))
		return -1;
	if (kmem_feed_init(&s->feed, tep, &s->agg, KMEM_FEED_MAP_IDS))
		return -1;
	if (a->filter.pids || a->filter.comm) {
		s->feed.keep = wanted_task;
		s->feed.keep_arg = s;
	}
	return 0;
}

/**
 * tk_session_comms_changed - the tep handle learnt new comms (live)
 * @s: the session
 */
void tk_session_comms_changed(struct tk_session *s)
{
	if (!s->args->filter.comm)
		return;
	u64_index_free(&s->comm_ix);
	u64_index_init(&s->comm_ix, 64);
}

/*
 * One record accounted, the progress ticked: the body of the counting
 * loops, tk_session_block()'s and tk_session_count()'s.  @plain is a
 * constant: true when tk_session_plain(s), which leaves the filter and
 * timeline tests out of that instance.
 */
static inline __attribute__((always_inline)) void
count_as(struct tk_session *s, struct tk_progress *progress,
	 const struct tep_record *rec, bool plain)
{
	tk_session_record_as(s, rec, plain);
	if (!(s->records % TK_PROGRESS_EVERY))
		tk_progress_tick(progress, s->records);
}

/* tk_session_block()'s loop, made twice: @plain is a constant. */
static inline __attribute__((always_inline)) void
count_block(struct tk_session *s, struct tk_progress *progress, const char *buf,
	    size_t used, bool plain)
{
	struct tk_block_reader b = { buf, buf + used };
	struct tep_record rec;

	memset(&rec, 0, sizeof(rec));
	while (tk_block_next(&b, &rec))
		count_as(s, progress, &rec, plain);
}

/**
 * tk_session_block - account a block of records, in order
 * @s: the session
 * @progress: ticked every TK_PROGRESS_EVERY records
 * @buf: the block's records (block.h), as the pipeline hands them over
 * @used: their bytes
 */
void tk_session_block(struct tk_session *s, struct tk_progress *progress,
		      const char *buf, size_t used)
{
	if (tk_session_plain(s))
		count_block(s, progress, buf, used, true);
	else
		count_block(s, progress, buf, used, false);
}

/**
 * tk_session_count - account one record where it lies
 * @s: the session
 * @progress: ticked every TK_PROGRESS_EVERY records
 * @rec: the record, in time order across CPUs
 *
 * The pipeline's one-thread path (pipeline.c): the reader's own record,
 * not a copy in a block.
 */
void tk_session_count(struct tk_session *s, struct tk_progress *progress,
		      const struct tep_record *rec)
{
	if (tk_session_plain(s))
		count_as(s, progress, rec, true);
	else
		count_as(s, progress, rec, false);
}

/**
 * tk_session_no_format - count a record of an event id no format has
 * @s: the session
 * @rec: the record
 *
 * kmem_feed_no_format(), called with the session: its feed's address
 * computed here, not on the path of every record (one instruction a
 * record, callgrind).
 */
void tk_session_no_format(struct tk_session *s, const struct tep_record *rec)
{
	kmem_feed_no_format(&s->feed, rec);
}

/**
 * tk_session_other - check a record of another event than ours
 * @s: the session
 * @rec: the record
 *
 * kmem_feed_other(), as tk_session_no_format() calls its own.
 */
void tk_session_other(struct tk_session *s, const struct tep_record *rec)
{
	kmem_feed_other(&s->feed, rec);
}

/* tk_session_count_fn()'s callbacks: each one instance of the loop. */
static int count_plain_cb(void *s, const struct tep_record *rec)
{
	struct tk_session *ss = s;

	count_as(ss, ss->progress, rec, true);
	return 0;
}

static int count_filtered_cb(void *s, const struct tep_record *rec)
{
	struct tk_session *ss = s;

	count_as(ss, ss->progress, rec, false);
	return 0;
}

/**
 * tk_session_count_fn - tk_session_count() as a reader's callback
 * @s: the session, its filters and timeline as they stay for the reading
 *
 * For tdat_iterate(), which then calls the counting loop with no other
 * function between; the session (its progress in @s->progress, or
 * NULL) is the callback's argument.  The callback returns 0: go on.
 *
 * Return: the instance of the loop for @s: without the filter and
 * timeline tests when tk_session_plain(s).
 */
tk_count_fn tk_session_count_fn(const struct tk_session *s)
{
	return tk_session_plain(s) ? count_plain_cb : count_filtered_cb;
}

/**
 * tk_session_all_tasks - does the session trace every task?
 * @s: the session
 *
 * Return: true for live with no COMMAND to follow and no --pid or
 * --comm (which live applies as it records): no task left out.
 */
bool tk_session_all_tasks(const struct tk_session *s)
{
	const struct tk_args *a = s->args;

	return a->cmd == TK_LIVE && !a->command && !a->filter.pids &&
	       !a->filter.comm;
}

/**
 * tk_session_later_failed - did memory run out for a part read later?
 * @s: the session
 * @err: where it is said, in one line
 *
 * What the reader leaves for later (a print format, the symbols' index)
 * and could not make: the report would print what another kernel means,
 * or addresses for names.
 *
 * Return: true, said on @err, when it did.
 */
bool tk_session_later_failed(const struct tk_session *s, FILE *err)
{
	if (!kmem_fmt_failed(s->tep))
		return false;
	fprintf(err,
		TK_NAME ": %s: out of memory (an event's print format or the "
			"kernel's symbols)\n",
		s->label);
	return true;
}

/**
 * tk_session_report - the end of the input: print its report
 * @s: the session
 * @outs: where it goes (opened once for all reports of the run)
 * @err: where problems go
 *
 * Return: 0, or -1 when an output file could not be written, or when
 * memory ran out for a print format or the symbols the report reads
 * (then said on @err, before the report when it ran out while counting).
 */
int tk_session_report(struct tk_session *s, struct kmem_outputs *outs,
		      FILE *err)
{
	const struct tk_filter *f = &s->args->filter;
	struct kmem_input in = { .label = s->label,
				 .host = s->host,
				 .release = s->release,
				 .all_tasks = tk_session_all_tasks(s) };
	struct kmem_render_cfg rc;
	struct kmem_report_ctx r = { &s->agg, &rc, &s->sym, &in, NULL };
	char filters[64];
	int ret;

	snprintf(filters, sizeof(filters), "%s%s%s%s",
		 f->time ? ", --time" : "", f->pids ? ", --pid" : "",
		 f->comm ? ", --comm" : "", f->cpus ? ", --cpu" : "");
	in.filtered = s->filtered;
	in.filters = filters[0] ? filters + 2 : NULL;
	kmem_feed_finish(&s->agg, &s->sym, s->tep);
	if (tk_session_later_failed(s, err))
		return -1;
	tk_fault_guard_report(s->label); /* the symbols are read */
	kmem_opts_render_cfg(&s->args->opts, kmem_out_stream(&outs->tables),
			     &rc);
	ret = kmem_outputs_report(&r, outs, err);
	tk_fault_guard_report(NULL);
	if (!ret && tk_session_later_failed(s, err))
		ret = -1;
	return ret;
}

/**
 * tk_session_release - free the session
 * @s: the session
 */
void tk_session_release(struct tk_session *s)
{
	kmem_agg_release(&s->agg);
	if (s->args && s->args->filter.comm)
		u64_index_free(&s->comm_ix);
	kmem_feed_release(&s->feed);
}

/**
 * tk_merged_init - an empty merged summary
 * @m: the merged summary
 * @numa: the topology the inputs used, or NULL
 *
 * Return: 0, or -1 when memory ran out.
 */
int tk_merged_init(struct tk_merged *m, const struct kmem_numa *numa)
{
	memset(m, 0, sizeof(*m));
	if (kmem_agg_init(&m->agg))
		return -1;
	kmem_agg_set_numa(&m->agg, numa);
	return 0;
}

/**
 * tk_merged_add - add a reported session's summaries
 * @m: the merged summary
 * @s: the session, after tk_session_report()
 *
 * Return: 0, or -1 when memory ran out (said on stderr).
 */
int tk_merged_add(struct tk_merged *m, const struct tk_session *s)
{
	const char **l = realloc(m->labels, (m->n + 1) * sizeof(*l));
	char *label = strdup(s->label);

	if (!l || !label) {
		free(label);
		if (l)
			m->labels = l;
		fprintf(stderr, TK_NAME ": out of memory\n");
		return -1;
	}
	m->labels = l;
	m->labels[m->n++] = label;
	kmem_agg_merge(&m->agg, &s->agg, s->sym.old_migratetypes > 0);
	return 0;
}

/**
 * tk_merged_report - print the merged summary (more than one input)
 * @m: the merged summary
 * @o: the options
 * @outs: where it goes, after the inputs' reports
 * @err: where problems go
 *
 * Return: 0, or -1 when an output file could not be written.
 */
int tk_merged_report(struct tk_merged *m, const struct kmem_opts *o,
		     struct kmem_outputs *outs, FILE *err)
{
	struct kmem_input in = { .label = "(merged)",
				 .merged = m->n,
				 .inputs = m->labels };
	struct kmem_render_cfg rc;
	struct kmem_report_ctx r = { &m->agg, &rc, &m->sym, &in, NULL };

	kmem_opts_render_cfg(o, kmem_out_stream(&outs->tables), &rc);
	return kmem_outputs_report(&r, outs, err);
}

/**
 * tk_merged_release - free the merged summary
 * @m: the merged summary
 */
void tk_merged_release(struct tk_merged *m)
{
	int i;

	for (i = 0; i < m->n; i++)
		free((char *)m->labels[i]);
	free(m->labels);
	kmem_agg_release(&m->agg);
}
