/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * One input's analysis: a tep handle's records in, lib/'s statistics
 * out.  Used by stat (a trace.dat or one of its buffer instances) and
 * live (an instance read from tracefs).
 */
#ifndef TRACE_KMEM_SESSION_H
#define TRACE_KMEM_SESSION_H

#include <limits.h>
#include <stdio.h>

#include <event-parse.h>

#include "analysis/agg.h"
#include "analysis/timeline.h"
#include "base/numa.h"
#include "cli.h"
#include "event/decode.h"
#include "event/symbols.h"
#include "feed/loop.h"
#include "options/render_cfg.h"
#include "render/report.h"

struct tk_session {
	struct tep_handle *tep;
	const struct tk_args *args;
	struct kmem_symbolizer sym;
	struct kmem_agg agg;
	struct kmem_feed feed;		/* event id -> decode -> agg */
	struct u64_index comm_ix;	/* --comm: pid -> 1 match, 2 not */
	uint64_t records;		/* records read */
	uint64_t filtered;		/* kmem records the filters left out */
	struct kmem_timeline *timeline; /* plot: follows the events */
	bool quiet;			/* plot's first pass: said once */
	struct tk_progress *progress;	/* tk_session_count_fn()'s */
	char label[PATH_MAX + 64];
	const char *path; /* stat: made ready after counting */
	/* the recording machine, where the trace says (else NULL) */
	const char *host, *release;
};

int tk_session_init(struct tk_session *s, struct tep_handle *tep,
		    const struct tk_args *a, const struct kmem_numa *numa);
void tk_session_comms_changed(struct tk_session *s);
bool tk_session_all_tasks(const struct tk_session *s);
bool tk_session_later_failed(const struct tk_session *s, FILE *err);
int tk_session_report(struct tk_session *s, struct kmem_outputs *outs,
		      FILE *err);
void tk_session_release(struct tk_session *s);

struct tk_progress;
void tk_session_block(struct tk_session *s, struct tk_progress *progress,
		      const char *buf, size_t used);
void tk_session_count(struct tk_session *s, struct tk_progress *progress,
		      const struct tep_record *rec);
/* a record counted where it lies (tdat_record_fn's shape); 0: go on */
typedef int (*tk_count_fn)(void *s, const struct tep_record *rec);
tk_count_fn tk_session_count_fn(const struct tk_session *s);

__attribute__((cold)) void tk_session_no_format(struct tk_session *s,
						const struct tep_record *rec);
__attribute__((cold)) void tk_session_other(struct tk_session *s,
					    const struct tep_record *rec);

/**
 * tk_session_record_as - account one record
 * @s: the session
 * @rec: the record, in time order across CPUs
 * @plain: a constant: true when tk_session_plain(s), which leaves the
 *	filter and timeline tests out of that instance of the loop
 *
 * Losses count for every record of a selected CPU and time, whatever
 * its event; kmem events count when they pass the task filters too.
 * The per-record path: the filters around lib/'s loop (feed/loop.h: an
 * array lookup by event id, the decoder, the aggregator); no
 * allocation, no formatting, no search.  Inline, in the counting loops.
 */
static inline __attribute__((always_inline)) void
tk_session_record_as(struct tk_session *s, const struct tep_record *rec,
		     bool plain)
{
	const struct tk_filter *f = &s->args->filter;
	struct kmem_event ev;
	int slot;

	s->records++;
	if (!plain && ((f->cpus && !CPU_ISSET_S((size_t)rec->cpu, f->cpus_size,
						f->cpus)) ||
		       (f->time && (rec->ts < f->start || rec->ts > f->end)))) {
		s->filtered += kmem_feed_slot(&s->feed, rec) >= 0;
		return;
	}
	if (rec->missed_events) {
		kmem_feed_missed(&s->feed, rec->missed_events);
		if (!plain && s->timeline)
			kmem_timeline_loss(s->timeline, rec->ts,
					   rec->missed_events);
	}
	slot = kmem_feed_slot(&s->feed, rec);
	if (__builtin_expect(slot < 0, 0)) {
		if (slot == KMEM_FEED_NO_FORMAT)
			tk_session_no_format(s, rec);
		else
			tk_session_other(s, rec);
		return;
	}
	switch (kmem_feed_step_as(&s->feed, slot, rec, &ev, !plain)) {
	case 0:
		if (!plain && s->timeline)
			kmem_timeline_event(s->timeline, &s->agg, &ev);
		break;
	case 1:
		s->filtered++; /* --pid, --comm */
		break;
	}
}

/**
 * tk_session_plain - does a session count every record, follow none?
 * @s: the session
 *
 * Return: true without --cpu, --time, --pid, --comm and a timeline: its
 * records take tk_session_record_as(s, rec, true).
 */
static inline bool tk_session_plain(const struct tk_session *s)
{
	return !s->args->filter.cpus && !s->args->filter.time && !s->timeline &&
	       !s->feed.keep;
}

/**
 * tk_session_record - account one record (tk_session_record_as())
 * @s: the session
 * @rec: the record, in time order across CPUs
 */
static inline void tk_session_record(struct tk_session *s,
				     const struct tep_record *rec)
{
	tk_session_record_as(s, rec, false);
}

/* The merged summary of several sessions. */
struct tk_merged {
	struct kmem_agg agg;
	struct kmem_symbolizer sym;
	const char **labels;
	int n;
};

int tk_merged_init(struct tk_merged *m, const struct kmem_numa *numa);
int tk_merged_add(struct tk_merged *m, const struct tk_session *s);
int tk_merged_report(struct tk_merged *m, const struct kmem_opts *o,
		     struct kmem_outputs *outs, FILE *err);
void tk_merged_release(struct tk_merged *m);

#endif
