/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Live memory over the trace's time, for trace-kmem plot and the JSON
 * document's "timeline": the live bytes of each allocator with
 * KMEM_CAP_TIMELINE (slab, page, vmalloc) and of the call sites with the
 * highest peaks, each line a bounded number of points taken from the
 * exact running values.
 *
 * Two passes over the same records.  The first finds the time range and
 * every call site's peak (kmem_timeline_select() then picks the lines);
 * the second samples the chosen lines into KMEM_TL_BUCKETS equal spans
 * of time.  Per span and line it keeps the lowest and the highest value
 * and the last, each with the time it was reached, so no peak falls
 * between points: at most 3 points a span, whatever the events.
 *
 * The values are those of the tables (lib/alloc/), read after each
 * event: a page or vmalloc allocation counts for its call site once the
 * site is known (Documentation/kmem-stat-definitions.txt, "Timeline").
 */
#ifndef KMEM_TIMELINE_H
#define KMEM_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "alloc/registry.h"
#include "base/hashtab.h"
#include "base/json.h"

struct kmem_agg;
struct kmem_event;
struct kmem_symbolizer;

#define KMEM_TL_BUCKETS 400
/* call-site lines drawn at most, of each allocator */
#define KMEM_TL_MAX_SITES 32

enum kmem_tl_kind {
	KMEM_TL_TOTAL, /* an allocator's live bytes */
	KMEM_TL_SITE,  /* ... of one of its call sites (its rows) */
};

/* One span of one line: lowest, highest and last value, and when. */
struct kmem_tl_span {
	uint64_t min, max, last;
	uint64_t tmin, tmax, tlast;
	bool set;		/* the line changed in this span */
};

struct kmem_tl_line {
	enum kmem_tl_kind kind;
	enum kmem_alloc_id alloc; /* whose */
	uint64_t callsite;	/* the call site lines */
	uint64_t value;		/* now */
	uint64_t peak;		/* highest value */
	struct kmem_tl_span *spans;	/* KMEM_TL_BUCKETS, if drawn */
};

/* Losses the ring buffer reported in one span. */
struct kmem_tl_loss {
	uint64_t ts;		/* the first record after a loss in it */
	uint64_t events;	/* events lost, where the count is known */
	uint64_t unknown;	/* losses of unknown size */
};

/* An allocator's call-site rows, each on its call site's line. */
struct kmem_tl_rows {
	struct u64_index ix; /* call site -> line */
	uint32_t *line;	     /* site row -> line */
	uint64_t *prev;	     /* ... its live bytes last seen */
	size_t nr, cap;
	/* in the aggregate of the pass: its statistics, what they log */
	void *st;
	struct kmem_touched *touched;
	const uint64_t *live_bytes; /* the summary's */
};

struct kmem_timeline {
	int pass;			/* 1: ranking, 2: sampling */
	bool seen;			/* an event or a loss was seen */
	uint64_t start, end;		/* first and last time (pass 1) */
	uint64_t span_ns;		/* one span (pass 2) */

	struct kmem_tl_line *lines; /* totals (the allocators with
				     * KMEM_CAP_TIMELINE, by id), then
				     * sites */
	size_t nr_lines, cap_lines;
	/* by enum kmem_alloc_id: its call-site rows followed */
	struct kmem_tl_rows rows[KMEM_NR_ALLOC];
	size_t nr_totals; /* lines of totals, first */
	struct kmem_tl_rows *total_rows[KMEM_NR_ALLOC]; /* ... their rows */
	uint32_t skip_kinds; /* bit 1 << kind: events of allocators not drawn */

	uint32_t *drawn;		/* the call-site lines drawn */
	size_t nr_drawn;
	struct kmem_tl_loss *losses;	/* KMEM_TL_BUCKETS (pass 2) */
	uint64_t oom;			/* rows not followed: no memory
					 * (the lines are wrong then) */
};

int kmem_timeline_init(struct kmem_timeline *tl, struct kmem_agg *agg);
void kmem_timeline_event(struct kmem_timeline *tl, struct kmem_agg *agg,
			 const struct kmem_event *ev);
void kmem_timeline_loss(struct kmem_timeline *tl, uint64_t ts,
			long long missed);
void kmem_timeline_end(struct kmem_timeline *tl, struct kmem_agg *agg);
int kmem_timeline_select(struct kmem_timeline *tl, unsigned int n,
			 const bool *shown);
void kmem_timeline_restart(struct kmem_timeline *tl, struct kmem_agg *agg);
void kmem_timeline_release(struct kmem_timeline *tl);
char *kmem_timeline_name(char *buf, const struct kmem_tl_line *l,
			 const struct kmem_symbolizer *sym, int raw_ip);
size_t kmem_timeline_points(const struct kmem_tl_line *l, uint64_t (*pt)[2]);
void kmem_timeline_json(const struct kmem_timeline *tl,
			const struct kmem_symbolizer *sym, int raw_ip,
			struct json *j);

#endif
