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
	char label[PATH_MAX + 64];
	const char *path; /* stat: made ready after counting */
	/* the recording machine, where the trace says (else NULL) */
	const char *host, *release;
};

int tk_session_init(struct tk_session *s, struct tep_handle *tep,
		    const struct tk_args *a, const struct kmem_numa *numa);
void tk_session_record(struct tk_session *s, struct tep_record *rec);
void tk_session_comms_changed(struct tk_session *s);
int tk_session_report(struct tk_session *s, struct kmem_outputs *outs,
		      FILE *err);
void tk_session_release(struct tk_session *s);

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
