// SPDX-License-Identifier: LGPL-2.1
/*
 * Live memory over time (see timeline.h).  Per event: the two totals
 * compared, and the call-site rows the allocators logged as changed
 * (touched.h) read; no search, no allocation but when a row is new.
 */
#define _GNU_SOURCE	/* qsort_r */
#include <stdlib.h>
#include <string.h>

#include "agg.h"
#include "event/symbols.h"
#include "timeline.h"

_Static_assert(KMEM_NR_KINDS <= 32, "skip_kinds: a bit a kind of record");

/* The line of allocator @id's call site @callsite, added if new. */
static uint32_t new_line(struct kmem_timeline *tl, enum kmem_alloc_id id,
			 uint64_t callsite)
{
	bool added;
	uint32_t i =
		index_get(&tl->rows[id].ix, (void **)&tl->lines, &tl->cap_lines,
			  &tl->nr_lines, sizeof(*tl->lines), callsite, &added);

	if (i != U64_INDEX_NONE && added) {
		tl->lines[i].kind = KMEM_TL_SITE;
		tl->lines[i].alloc = id;
		tl->lines[i].callsite = callsite;
	}
	return i;
}

/*
 * The allocators drawn (@tl's totals) log their changed rows in @agg,
 * read from there, or stop.
 */
static void follow(struct kmem_timeline *tl, struct kmem_agg *agg, bool on)
{
	size_t k;

	for (k = 0; k < tl->nr_totals; k++) {
		enum kmem_alloc_id id = tl->lines[k].alloc;
		const struct kmem_alloc_desc *d = &kmem_allocs[id];
		struct kmem_tl_rows *rows = &tl->rows[id];

		rows->st = kmem_agg_stats(agg, id);
		rows->touched = kmem_alloc_touched(d, rows->st);
		rows->live_bytes = &kmem_alloc_counts(d, rows->st)->live_bytes;
		rows->touched->on = on;
		rows->touched->n = 0;
	}
}

/**
 * kmem_timeline_init - start the first pass
 * @tl: the timeline
 * @agg: the aggregate whose events it follows, before the first event
 *
 * Return: 0, or -1 when memory ran out.
 */
int kmem_timeline_init(struct kmem_timeline *tl, struct kmem_agg *agg)
{
	unsigned int id, k;

	memset(tl, 0, sizeof(*tl));
	tl->pass = 1;
	tl->cap_lines = 16;
	tl->lines = calloc(tl->cap_lines, sizeof(*tl->lines));
	if (!tl->lines)
		return -1;
	for (id = 0; id < KMEM_NR_ALLOC; id++) {
		if (!(kmem_allocs[id].caps & KMEM_CAP_TIMELINE))
			continue;
		if (u64_index_init(&tl->rows[id].ix, 64))
			return -1;
		tl->lines[tl->nr_totals].kind = KMEM_TL_TOTAL;
		tl->lines[tl->nr_totals].alloc = id;
		tl->total_rows[tl->nr_totals++] = &tl->rows[id];
	}
	for (k = 0; k < KMEM_NR_KINDS; k++) {
		id = kmem_alloc_of((enum kmem_ev_kind)k);
		if (id != KMEM_NR_ALLOC &&
		    !(kmem_allocs[id].caps & KMEM_CAP_TIMELINE))
			tl->skip_kinds |= 1u << k;
	}
	tl->nr_lines = tl->nr_totals;
	follow(tl, agg, true);
	return 0;
}

static unsigned int span_of(const struct kmem_timeline *tl, uint64_t ts)
{
	uint64_t b;

	if (ts <= tl->start || !tl->span_ns)
		return 0;
	b = (ts - tl->start) / tl->span_ns;
	return b >= KMEM_TL_BUCKETS ? KMEM_TL_BUCKETS - 1 : (unsigned int)b;
}

static void set_value(struct kmem_timeline *tl, struct kmem_tl_line *l,
		      uint64_t v, uint64_t ts)
{
	struct kmem_tl_span *sp;

	if (l->value == v)
		return;
	l->value = v;
	if (v > l->peak)
		l->peak = v;
	if (!l->spans)
		return;
	sp = &l->spans[span_of(tl, ts)];
	if (!sp->set) {
		sp->set = true;
		sp->min = sp->max = v;
		sp->tmin = sp->tmax = ts;
	} else if (v < sp->min) {
		sp->min = v;
		sp->tmin = ts;
	} else if (v > sp->max) {
		sp->max = v;
		sp->tmax = ts;
	}
	sp->last = v;
	sp->tlast = ts;
}

/* Room for @n entries of @size in *@arr, doubling: 0, or -1 (no memory) */
static int reserve(void **arr, size_t *cap, size_t n, size_t size)
{
	size_t c = *cap ? *cap : 64;
	void *p;

	if (n <= *cap)
		return 0;
	while (c < n)
		c *= 2;
	p = realloc(*arr, c * size);
	if (!p)
		return -1;
	*arr = p;
	*cap = c;
	return 0;
}

/*
 * Site row @r of allocator @id (@nr rows): its call site's line, moved
 * by its change.
 */
static void row_changed(struct kmem_timeline *tl, enum kmem_alloc_id id,
			struct kmem_tl_rows *rows, size_t nr, uint32_t r,
			uint64_t ts)
{
	const struct kmem_alloc_desc *d = &kmem_allocs[id];
	struct kmem_tl_line *l;
	size_t i, cap;
	uint64_t v;

	if (r >= nr)
		return;
	if (r >= rows->nr) {
		cap = rows->cap;
		if (reserve((void **)&rows->line, &cap, nr,
			    sizeof(*rows->line)) ||
		    reserve((void **)&rows->prev, &rows->cap, nr,
			    sizeof(*rows->prev))) {
			tl->oom++;
			return;
		}
		for (i = rows->nr; i < nr; i++) {
			rows->line[i] = new_line(
				tl, id, d->site_addr(rows->st, (uint32_t)i));
			rows->prev[i] = 0;
		}
		rows->nr = nr;
	}
	if (rows->line[r] == U64_INDEX_NONE)
		return;
	l = &tl->lines[rows->line[r]];
	v = kmem_alloc_site_live(d, rows->st, r)->live_bytes;
	set_value(tl, l, l->value - rows->prev[r] + v, ts);
	rows->prev[r] = v;
}

/*
 * The rows the allocators drawn logged as changed, and their totals
 * (each line's value is its own: the order does not matter).
 */
static void read_rows(struct kmem_timeline *tl, uint64_t ts)
{
	size_t k, nr;
	uint32_t i, n;

	for (k = 0; k < tl->nr_totals; k++) {
		struct kmem_tl_rows *rows = tl->total_rows[k];
		struct kmem_touched *t = rows->touched;
		enum kmem_alloc_id id;

		if (t->n) {
			id = tl->lines[k].alloc;
			nr = kmem_alloc_nr_sites(&kmem_allocs[id], rows->st);
			n = t->n > KMEM_TOUCHED_MAX ? (uint32_t)nr : t->n;
			for (i = 0; i < n; i++)
				row_changed(tl, id, rows, nr,
					    t->n > KMEM_TOUCHED_MAX ? i
								    : t->row[i],
					    ts);
			t->n = 0;
		}
		set_value(tl, &tl->lines[k], *rows->live_bytes, ts);
	}
}

static void saw(struct kmem_timeline *tl, uint64_t ts)
{
	if (tl->pass != 1)
		return;
	if (!tl->seen || ts < tl->start)
		tl->start = ts;
	if (!tl->seen || ts > tl->end)
		tl->end = ts;
	tl->seen = true;
}

/**
 * kmem_timeline_event - follow one event, after kmem_agg_event()
 * @tl: the timeline
 * @agg: the aggregate the event went to
 * @ev: the event
 */
void kmem_timeline_event(struct kmem_timeline *tl, struct kmem_agg *agg,
			 const struct kmem_event *ev)
{
	/* those of the allocators drawn, and kernel stacks */
	if (tl->skip_kinds >> ev->kind & 1)
		return;
	saw(tl, ev->ts);
	read_rows(tl, ev->ts);
}

/**
 * kmem_timeline_loss - the ring buffer lost events before a record
 * @tl: the timeline
 * @ts: the record's time
 * @missed: its missed_events (negative: of unknown size)
 */
void kmem_timeline_loss(struct kmem_timeline *tl, uint64_t ts,
			long long missed)
{
	struct kmem_tl_loss *l;

	saw(tl, ts);
	if (tl->pass != 2 || !tl->losses || !missed)
		return;
	l = &tl->losses[span_of(tl, ts)];
	if (!l->events && !l->unknown)
		l->ts = ts;
	if (missed > 0)
		l->events += (uint64_t)missed;
	else
		l->unknown++;
}

/**
 * kmem_timeline_end - the end of the records, after kmem_agg_finish()
 * @tl: the timeline
 * @agg: the aggregate
 *
 * Allocations still waiting for a stack get their call site at the end:
 * at the time of the last record.
 */
void kmem_timeline_end(struct kmem_timeline *tl, struct kmem_agg *agg)
{
	read_rows(tl, tl->end);
	follow(tl, agg, false);
}

static int by_peak(const void *a, const void *b, void *arg)
{
	const struct kmem_timeline *tl = arg;
	const struct kmem_tl_line *x = &tl->lines[*(const uint32_t *)a];
	const struct kmem_tl_line *y = &tl->lines[*(const uint32_t *)b];

	if (x->peak != y->peak)
		return x->peak < y->peak ? 1 : -1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->alloc != y->alloc)
		return x->alloc < y->alloc ? -1 : 1;
	return x->callsite < y->callsite ? -1 : x->callsite > y->callsite;
}

static struct kmem_tl_span *new_spans(void)
{
	return calloc(KMEM_TL_BUCKETS, sizeof(struct kmem_tl_span));
}

/**
 * kmem_timeline_select - after the first pass: the lines to draw
 * @tl: the timeline
 * @n: call-site lines of each allocator, by peak live bytes (0: all, at
 *	most 32)
 * @shown: by enum kmem_alloc_id, draw the allocator's lines
 *
 * An allocator's "(no stack)" (no call site known) is not drawn when it
 * is its only call site with live bytes: its line would repeat the
 * allocator's.
 *
 * Return: 0, or -1 when memory ran out.
 */
int kmem_timeline_select(struct kmem_timeline *tl, unsigned int n,
			 const bool *shown)
{
	size_t i, k = 0, sites[KMEM_NR_ALLOC] = { 0 };
	uint32_t *c = malloc((tl->nr_lines + 1) * sizeof(*c));

	if (!c)
		return -1;
	for (i = tl->nr_totals; i < tl->nr_lines; i++)
		sites[tl->lines[i].alloc] += tl->lines[i].peak != 0;
	for (i = tl->nr_totals; i < tl->nr_lines; i++) {
		const struct kmem_tl_line *l = &tl->lines[i];

		if (l->peak && shown[l->alloc] &&
		    (sites[l->alloc] > 1 || l->callsite ||
		     !kmem_allocs[l->alloc].no_site))
			c[k++] = (uint32_t)i;
	}
	qsort_r(c, k, sizeof(*c), by_peak, tl);
	if (!n || n > KMEM_TL_MAX_SITES)
		n = KMEM_TL_MAX_SITES;
	memset(sites, 0, sizeof(sites));
	tl->drawn = c;
	tl->nr_drawn = 0;
	for (i = 0; i < k; i++) /* the first n of each allocator */
		if (sites[tl->lines[c[i]].alloc]++ < n)
			c[tl->nr_drawn++] = c[i];
	for (i = 0; i < tl->nr_totals; i++)
		if (shown[tl->lines[i].alloc] &&
		    !(tl->lines[i].spans = new_spans()))
			return -1;
	for (i = 0; i < tl->nr_drawn; i++)
		if (!(tl->lines[c[i]].spans = new_spans()))
			return -1;
	tl->losses = calloc(KMEM_TL_BUCKETS, sizeof(*tl->losses));
	if (!tl->losses)
		return -1;
	tl->span_ns = (tl->end - tl->start) / KMEM_TL_BUCKETS + 1;
	return 0;
}

/**
 * kmem_timeline_restart - start the second pass over the same records
 * @tl: the timeline, after kmem_timeline_select()
 * @agg: a new aggregate, before its first event
 */
void kmem_timeline_restart(struct kmem_timeline *tl, struct kmem_agg *agg)
{
	size_t i;

	tl->pass = 2;
	for (i = 0; i < tl->nr_lines; i++)
		tl->lines[i].value = 0;
	for (i = 0; i < KMEM_NR_ALLOC; i++)
		tl->rows[i].nr = 0;
	follow(tl, agg, true);
}

/**
 * kmem_timeline_release - free the timeline
 * @tl: the timeline
 */
void kmem_timeline_release(struct kmem_timeline *tl)
{
	size_t i;

	for (i = 0; i < tl->nr_lines; i++)
		free(tl->lines[i].spans);
	free(tl->lines);
	for (i = 0; i < KMEM_NR_ALLOC; i++) {
		u64_index_free(&tl->rows[i].ix);
		free(tl->rows[i].line);
		free(tl->rows[i].prev);
	}
	free(tl->drawn);
	free(tl->losses);
	memset(tl, 0, sizeof(*tl));
}

/**
 * kmem_timeline_name - the legend's name of a line
 * @buf: KMEM_SYM_LEN bytes
 * @l: the line
 * @sym: the trace's symbols
 * @raw_ip: addresses instead of symbols
 *
 * Return: @buf.
 */
char *kmem_timeline_name(char *buf, const struct kmem_tl_line *l,
			 const struct kmem_symbolizer *sym, int raw_ip)
{
	const struct kmem_alloc_desc *d = &kmem_allocs[l->alloc];

	if (l->kind == KMEM_TL_TOTAL)
		return strcpy(buf, d->title);
	if (!l->callsite && d->no_site)
		return strcpy(buf, d->no_site);
	return fmt_callsite(buf, sym, l->callsite, raw_ip);
}

/* The points of one span, in time order (the last value last). */
static size_t span_points(const struct kmem_tl_span *sp, uint64_t (*pt)[2])
{
	uint64_t a[2] = { sp->tmin, sp->min }, b[2] = { sp->tmax, sp->max };
	size_t n = 0;

	if (!sp->set)
		return 0;
	/* min and max before the last; the earlier of them first */
	if (b[0] < a[0] || (b[0] == a[0] && sp->last == sp->min)) {
		uint64_t t0 = a[0], t1 = a[1];

		a[0] = b[0];
		a[1] = b[1];
		b[0] = t0;
		b[1] = t1;
	}
	if (a[0] != sp->tlast || a[1] != sp->last) {
		pt[n][0] = a[0];
		pt[n++][1] = a[1];
	}
	if ((b[0] != sp->tlast || b[1] != sp->last) &&
	    (b[0] != a[0] || b[1] != a[1])) {
		pt[n][0] = b[0];
		pt[n++][1] = b[1];
	}
	pt[n][0] = sp->tlast;
	pt[n++][1] = sp->last;
	return n;
}

/**
 * kmem_timeline_points - a drawn line's points, in time order
 * @l: a line with spans, after the second pass
 * @pt: room for 3 * KMEM_TL_BUCKETS points (time in ns, bytes), or NULL
 *	to count them
 *
 * Return: the number of points.
 */
size_t kmem_timeline_points(const struct kmem_tl_line *l, uint64_t (*pt)[2])
{
	uint64_t tmp[3][2];
	size_t i, n = 0;

	if (!l->spans)
		return 0;
	for (i = 0; i < KMEM_TL_BUCKETS; i++) {
		size_t k = span_points(&l->spans[i], pt ? pt + n : tmp);

		n += k;
	}
	return n;
}

static void json_line(const struct kmem_tl_line *l,
		      const struct kmem_symbolizer *sym, int raw_ip,
		      struct json *j)
{
	uint64_t pt[3 * KMEM_TL_BUCKETS][2];
	char name[KMEM_SYM_LEN], kind[32];
	size_t i, n = kmem_timeline_points(l, pt);

	snprintf(kind, sizeof(kind), "%s%s", kmem_allocs[l->alloc].name,
		 l->kind == KMEM_TL_SITE ? "_callsite" : "");
	json_open(j, NULL, '{');
	json_str(j, "kind", kind);
	json_str(j, "name", kmem_timeline_name(name, l, sym, raw_ip));
	json_u64(j, "peak_bytes", l->peak);
	json_open(j, "points", '[');
	for (i = 0; i < n; i++) {
		json_open(j, NULL, '[');
		json_u64(j, NULL, pt[i][0]);
		json_u64(j, NULL, pt[i][1]);
		json_close(j, ']');
	}
	json_close(j, ']');
	json_close(j, '}');
}

/**
 * kmem_timeline_json - the "timeline" member of the JSON document
 * @tl: the timeline, after the second pass
 * @sym: the trace's symbols
 * @raw_ip: addresses instead of symbols
 * @j: the document, inside its top-level object
 */
void kmem_timeline_json(const struct kmem_timeline *tl,
			const struct kmem_symbolizer *sym, int raw_ip,
			struct json *j)
{
	size_t i;

	json_open(j, "timeline", '{');
	json_u64(j, "start_ns", tl->start);
	json_u64(j, "end_ns", tl->end);
	json_u64(j, "span_ns", tl->span_ns);
	json_u64(j, "spans", KMEM_TL_BUCKETS);
	json_open(j, "series", '[');
	for (i = 0; i < tl->nr_totals; i++)
		if (tl->lines[i].spans)
			json_line(&tl->lines[i], sym, raw_ip, j);
	for (i = 0; i < tl->nr_drawn; i++)
		json_line(&tl->lines[tl->drawn[i]], sym, raw_ip, j);
	json_close(j, ']');
	json_open(j, "lost", '[');
	for (i = 0; tl->losses && i < KMEM_TL_BUCKETS; i++) {
		const struct kmem_tl_loss *l = &tl->losses[i];

		if (!l->events && !l->unknown)
			continue;
		json_open(j, NULL, '{');
		json_u64(j, "ns", l->ts);
		json_u64(j, "events", l->events);
		json_u64(j, "unknown", l->unknown);
		json_close(j, '}');
	}
	json_close(j, ']');
	json_close(j, '}');
}
