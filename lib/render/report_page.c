// SPDX-License-Identifier: LGPL-2.1
/*
 * Page allocator tables, summary and JSON section, in the layout of
 * Namhyung Kim's perf kmem --page as Ingo Molnar's review reshaped it.
 */
#include <stdlib.h>
#include <string.h>

#include "base/numfmt.h"
#include "lc_cols.h"
#include "recorded.h"
#include "report_leaks.h"
#include "report_page.h"
#include "report_slab.h"
#include "summary.h"
#include "tables.h"

/* Orders shown in the order table: 0 up to the highest one allocated. */
#define SHOWN_ORDERS 1

/* The table columns of the raw migration types: 3 and up are Special. */
static int mt_column(const struct kmem_symbolizer *sym, int mt)
{
	const char *name = migratetype_name(sym, mt);

	if (!strcmp(name, "Unmovable"))
		return 0;
	if (!strcmp(name, "Reclaimable"))
		return 1;
	if (!strcmp(name, "Movable"))
		return 2;
	return 3;
}

static const char *const mt_columns[] = { "Unmovable", "Reclaimable",
					  "Movable", "Special" };

/* The call-site table (KMEM_T_CALLER) or the page frames' (KMEM_T_ALLOC). */
static void page_table(const struct kmem_report_ctx *r, struct cols_ctx *c,
		       enum kmem_table_kind which)
{
	const struct page_stats *st = page_st(r->agg);

	if (which == KMEM_T_ALLOC)
		report_cols(r, c, &page_pfn_cols, NULL,
			    st->rows ? (uint32_t)st->objs.len : 0, st);
	else
		report_cols(r, c, &page_site_cols, st->sites,
			    (uint32_t)st->nr_sites, st);
	if (r->cfg->live)
		c->mode = PAGE_COLS_LIVE;
}

static void print_table(const struct kmem_report_ctx *r, FILE *out,
			enum kmem_table_kind which)
{
	struct cols_ctx c;

	page_table(r, &c, which);
	report_cols_table(r, out, &c);
}

/* Allocation counts per order and table column (raw types merged). */
static void order_table(const struct kmem_report_ctx *r,
			uint64_t m[PAGE_MAX_ORDER][4], int *orders)
{
	const struct page_summary *s = &page_st(r->agg)->sum;
	int o, t;

	memset(m, 0, sizeof(uint64_t) * PAGE_MAX_ORDER * 4);
	*orders = SHOWN_ORDERS;
	for (o = 0; o < PAGE_MAX_ORDER; o++)
		for (t = 0; t < PAGE_NR_MT; t++) {
			if (!s->order_mt[o][t])
				continue;
			m[o][mt_column(r->sym, t)] += s->order_mt[o][t];
			if (o + 1 > *orders)
				*orders = o + 1;
		}
}

static void print_orders(const struct kmem_report_ctx *r, FILE *out)
{
	static const struct table_col cols[] = {
		{ "Order", TBL_RIGHT },	      { "Unmovable", TBL_RIGHT },
		{ "Reclaimable", TBL_RIGHT }, { "Movable", TBL_RIGHT },
		{ "Special", TBL_RIGHT },
	};
	uint64_t m[PAGE_MAX_ORDER][4];
	char cell[5][NUMFMT_LEN];
	const char *cp[5] = { cell[0], cell[1], cell[2], cell[3], cell[4] };
	struct table t;
	int o, c, orders;

	order_table(r, m, &orders);
	table_init(&t, cols, 5, TBL_MATRIX);
	for (o = 0; o < orders; o++) {
		snprintf(cell[0], NUMFMT_LEN, "%d", o);
		for (c = 0; c < 4; c++)
			fmt_count_dot(cell[c + 1], m[o][c]);
		table_add_row(&t, cp);
	}
	table_print(&t, out);
	table_release(&t);
	fputc('\n', out);
}

static const struct page_stats *st_of(const struct sum_ctx *c)
{
	return c->base;
}

static uint64_t events_lost(const struct sum_ctx *c)
{
	return c->r->agg->events_lost;
}

static const char *refills_note(const struct sum_ctx *c, char *buf)
{
	char n[NUMFMT_LEN];

	snprintf(buf, SUM_NOTE_LEN, "(per-CPU list refills: %s)",
		 fmt_count(n, st_of(c)->sum.pcpu_refills));
	return buf;
}

/*
 * Batched frees are mm_page_free_batched's since 3.3, and frees of
 * mm_pagevec_free before: known when either was recorded.
 */
static bool batched_known(const struct sum_ctx *c)
{
	return kmem_recorded(c->r, KMEM_EV_PAGE_FREE_BATCHED) ||
	       st_of(c)->sum.batched_frees;
}

static bool numa_shown(const struct sum_ctx *c, const struct sum_field *f)
{
	return st_of(c)->numa;
}

/* The summary's text lines, in order. */
enum {
	L_ALLOC_FREED = 1,
	L_GAP_ONLY,
	L_ALLOC_ONLY,
	L_FREE_ONLY,
	L_GAP_FAILURES,
	L_FAILURES,
	L_GAP_TOTALS,
	L_ALLOCS,
	L_FREES,
	L_LIVE,
	L_BATCHED,
	L_ZONE_LOCKED,
	L_DRAINS,
	L_DOUBLE,
	L_MISSED,
	L_OOM,
	L_SATURATED,
	L_GAP_NUMA,
	L_REMOTE,
	L_CROSS_FREES,
};

#define SUM(m) SUM_NUM64(struct page_stats, sum.m)

/*
 * The summary: its JSON members in order, each with its text line; the
 * cross-node figures' JSON is json_cross_node()'s.
 */
static const struct sum_field sum_fields[] = {
	SUM_FIELD("allocs", "Allocations", L_ALLOCS, SUM(allocs),
		  .kind = SF_PAIR, .b = SUM(alloc_bytes),
		  .key_b = "alloc_bytes"),
	SUM_FIELD("frees", "Frees", L_FREES, SUM(frees), .kind = SF_PAIR,
		  .b = SUM(free_bytes), .key_b = "free_bytes",
		  .needs = SUM_NEEDS_FREE),
	SUM_FIELD("batched_frees", "Batched frees", L_BATCHED,
		  SUM(batched_frees), .needs = KMEM_EV_PAGE_FREE_BATCHED,
		  .known = batched_known),
	SUM_FIELD("failures", "Page allocation failures", L_FAILURES,
		  SUM(failures), .kind = SF_COUNT_BYTES,
		  .b = SUM(failure_bytes)),
	SUM_FIELD("alloc_freed", "Pages allocated+freed", L_ALLOC_FREED,
		  SUM(alloc_freed_count), .kind = SF_COUNT_BYTES,
		  .b = SUM(alloc_freed_bytes), .needs = SUM_NEEDS_FREE),
	SUM_FIELD("alloc_only", "Pages allocated-only", L_ALLOC_ONLY,
		  SUM_NUMFN(sum_lc_alloc_only_count), .kind = SF_COUNT_BYTES,
		  .b = SUM_NUMFN(sum_lc_alloc_only_bytes),
		  .needs = SUM_NEEDS_FREE),
	SUM_FIELD("free_only", "Pages freed-only", L_FREE_ONLY, SUM(free_only),
		  .kind = SF_COUNT_BYTES, .b = SUM(free_only_bytes),
		  .needs = SUM_NEEDS_FREE),
	SUM_FIELD("live", "Live at end of trace", L_LIVE, SUM(live_count),
		  .kind = SF_COUNT_BYTES, .b = SUM(live_bytes),
		  .needs = SUM_NEEDS_FREE),
	SUM_FIELD("missed_frees", "Missed frees", L_MISSED, SUM(missed_frees),
		  .kind = SF_COUNT_BYTES, .b = SUM(missed_free_bytes),
		  .note = "(pfn reused; its free was not recorded)",
		  .show = sum_nonzero, .needs = SUM_NEEDS_FREE),
	SUM_DOUBLE_FREES(SUM(double_frees), L_DOUBLE),
	SUM_FIELD("zone_locked", "Allocated under the zone lock", L_ZONE_LOCKED,
		  SUM(zone_locked), .note_fn = refills_note,
		  .needs = KMEM_EV_PAGE_ZONE_LOCKED),
	{ .key = "pcpu_refills",
	  .a = SUM(pcpu_refills),
	  .needs = KMEM_EV_PAGE_ZONE_LOCKED },
	SUM_FIELD("pcpu_drains", "Per-CPU drains", L_DRAINS, SUM(pcpu_drains),
		  .needs = KMEM_EV_PAGE_PCPU_DRAIN),
	{ .key = "stacks", .a = SUM(stacks) },
	{ .key = "events_lost", .a = SUM_NUMFN(events_lost) },
	{ .line = L_GAP_ONLY, .kind = SF_GAP },
	{ .line = L_GAP_FAILURES, .kind = SF_GAP },
	{ .line = L_GAP_TOTALS, .kind = SF_GAP },
	SUM_LC_OOM(struct page_stats),
	SUM_FIELD(NULL, "Per-page counts past 2^32 (not counted)", L_SATURATED,
		  SUM_NUM64(struct page_stats, saturated), .show = sum_nonzero),
	{ .line = L_GAP_NUMA, .kind = SF_GAP, .show = numa_shown },
	SUM_FIELD(NULL, "Remote allocations", L_REMOTE, SUM(remote_allocs),
		  .kind = SF_COUNT_BYTES, .b = SUM(remote_alloc_bytes),
		  .note = "(page on another node than the CPU)",
		  .show = numa_shown),
	SUM_FIELD(NULL, "Cross-node frees", L_CROSS_FREES, SUM(cross_frees),
		  .kind = SF_COUNT_BYTES, .b = SUM(cross_free_bytes),
		  .note = "(freed on another node than the page's)",
		  .show = numa_shown),
};

static const struct sum_def sum_def = {
	SUM_DEF(KMEM_ALLOC_PAGE, "page allocator", sum_fields),
	/* no cross-CPU frees: its cross-node ones are its own */
	.lc = {
		.counts = offsetof(struct page_stats, sum.lc),
		.bytes = SUM(alloc_bytes),
	},
};

static void print_stacks_note(const struct kmem_report_ctx *r, FILE *out)
{
	const struct page_summary *s = &page_st(r->agg)->sum;
	char a[NUMFMT_LEN], b[NUMFMT_LEN];

	if (!s->allocs)
		return;
	if (!s->stacks) {
		fprintf(out, "\n No kernel stacks follow the page allocations: "
			     "call sites show as (no stack).\n"
			     " Record them with trace-cmd record -T, trace-kmem live -T,\n"
			     " or 'echo stacktrace > events/kmem/mm_page_alloc/"
			     "trigger'.\n");
		return;
	}
	if (s->stacks < s->allocs)
		fprintf(out, "\n Call sites from kernel stacks: %s of %s "
			     "allocations had one.\n",
			fmt_count(a, s->stacks), fmt_count(b, s->allocs));
}

static void print_fallbacks(const struct kmem_report_ctx *r, FILE *out)
{
	static const struct table_col cols[] = {
		{ "Requested", TBL_LEFT },   { "Fallback", TBL_LEFT },
		{ "Fallbacks", TBL_RIGHT },  { "Fragmenting", TBL_RIGHT },
		{ "Ownership changed", TBL_RIGHT },
	};
	const struct page_summary *s = &page_st(r->agg)->sum;
	char cell[5][NUMFMT_LEN];
	const char *cp[5] = { cell[0], cell[1], cell[2], cell[3], cell[4] };
	struct table t;
	int a, f, rows = 0;

	table_init(&t, cols, 5, TBL_MATRIX);
	for (a = 0; a < PAGE_NR_MT; a++)
		for (f = 0; f < PAGE_NR_MT; f++) {
			const struct page_fallback *fb = &s->fb[a][f];

			if (!fb->fallbacks)
				continue;
			snprintf(cell[0], NUMFMT_LEN, "%s",
				 migratetype_name(r->sym, a));
			snprintf(cell[1], NUMFMT_LEN, "%s",
				 migratetype_name(r->sym, f));
			fmt_count_dot(cell[2], fb->fallbacks);
			if (s->frag_unknown)
				snprintf(cell[3], NUMFMT_LEN, "-");
			else
				fmt_count_dot(cell[3], fb->fragmenting);
			fmt_count_dot(cell[4], fb->ownership);
			table_add_row(&t, cp);
			rows++;
		}
	if (rows) {
		fprintf(out, " Fragmentation fallbacks (mm_page_alloc_extfrag)"
			     "\n\n");
		table_print(&t, out);
		if (s->frag_unknown)
			fprintf(out, "\n -: mm_page_alloc_extfrag's print fmt "
				     "did not give this reader the pageblock "
				     "order\n    (which fallbacks fragment); "
				     "trace-kmem stat reads it on every "
				     "kernel.\n");
		fputc('\n', out);
	}
	table_release(&t);
}


/*
 * The topology hint, once a report and only when the trace asked for a
 * node: slab allocations with a node (the page events have none), when
 * the slab summary, which says so itself, is not shown.
 */
static bool topology_hint(const struct kmem_report_ctx *r)
{
	return !page_st(r->agg)->numa &&
	       slab_st(r->agg)->sum.node_requests &&
	       !report_wanted(r, KMEM_ALLOC_SLAB);
}

/**
 * page_print - print the selected page tables and the page summary
 * @r: what to print
 * @out: where to
 */
void page_print(const struct kmem_report_ctx *r, FILE *out)
{
	const struct kmem_render_cfg *c = r->cfg;
	bool tables = !r->in->merged;	/* merged: summaries only */
	const struct sum_ctx sc = { .def = &sum_def,
				    .base = page_st(r->agg),
				    .r = r };

	if (tables && kmem_render_text(c, KMEM_T_CALLER))
		print_table(r, out, KMEM_T_CALLER);
	if (tables && kmem_render_text(c, KMEM_T_ALLOC) &&
	    page_st(r->agg)->rows)
		print_table(r, out, KMEM_T_ALLOC);
	leaks_print(r, out, KMEM_ALLOC_PAGE);
	sum_print(&sc, out);
	if (tables)
		print_stacks_note(r, out);
	if (topology_hint(r))
		fprintf(out, "\n Cross-node figures need a topology: "
			     "kmem:numa=FILE or --numa FILE\n"
			     " (kmem-numa(5)).\n");
	fputc('\n', out);
	print_orders(r, out);
	print_fallbacks(r, out);
	if (tables && c->per_process)
		page_procs_print(r, out);
}

/* The order table's cells that are not 0, by order and column. */
static uint64_t order_of(const struct cols_ctx *c, const void *row)
{
	return (uint64_t)((const uint64_t *)row - (const uint64_t *)c->base) /
	       4;
}

static const char *order_mt(const struct cols_ctx *c, const void *row,
			    char *buf)
{
	(void)buf;
	return mt_columns[((const uint64_t *)row - (const uint64_t *)c->base) %
			  4];
}

static bool order_zero(const struct cols_ctx *c, const void *row)
{
	(void)c;
	return !*(const uint64_t *)row;
}

static const struct col_field order_fields[] = {
	[0] = { .key = "order", .type = CF_U64, .a = COL_NUMFN(order_of) },
	[1] = { .key = "migratetype", .type = CF_STR, .str = order_mt },
	[2] = { .key = "count", .type = CF_U64, .a = { COL_U64, 0, NULL } },
};

static const struct cols_def order_def = {
	.fields = order_fields, .nfields = COLS_N(order_fields),
	.stride = sizeof(uint64_t), .skip = order_zero,
};

static void json_orders(const struct kmem_report_ctx *r, struct json *j)
{
	uint64_t m[PAGE_MAX_ORDER][4];
	struct cols_ctx c;
	int orders;

	order_table(r, m, &orders);
	report_cols(r, &c, &order_def, m, (uint32_t)orders * 4, NULL);
	report_cols_json(r, j, "order_migratetype", &c);
}

/* "callsites", or "pages" when the frames are kept; out of memory: none */
static void json_rows(const struct kmem_report_ctx *r, struct json *j,
		      enum kmem_table_kind which)
{
	struct cols_ctx c;

	if (which == KMEM_T_ALLOC && !page_st(r->agg)->rows)
		return;
	page_table(r, &c, which);
	report_cols_json(r, j, which == KMEM_T_ALLOC ? "pages" : "callsites",
			 &c);
}

/* Fallbacks by requested and fallback migration type, when any. */
static const char *fb_type(const struct cols_ctx *c, const void *row,
			   bool fallback)
{
	size_t i = (size_t)((const struct page_fallback *)row -
			    (const struct page_fallback *)c->base);

	return migratetype_name(c->sym, (int)(fallback ? i % PAGE_NR_MT :
							 i / PAGE_NR_MT));
}

static const char *fb_requested(const struct cols_ctx *c, const void *row,
				char *buf)
{
	(void)buf;
	return fb_type(c, row, false);
}

static const char *fb_fallback(const struct cols_ctx *c, const void *row,
			       char *buf)
{
	(void)buf;
	return fb_type(c, row, true);
}

static bool fb_frag_known(const struct cols_ctx *c, const void *row)
{
	const struct kmem_report_ctx *r = c->priv;

	(void)row;
	return !page_st(r->agg)->sum.frag_unknown;
}

static bool fb_none(const struct cols_ctx *c, const void *row)
{
	(void)c;
	return !((const struct page_fallback *)row)->fallbacks;
}

#define FB(m) COL_NUM64(struct page_fallback, m)

static const struct col_field fb_fields[] = {
	[0] = { .key = "requested", .type = CF_STR, .str = fb_requested },
	[1] = { .key = "fallback", .type = CF_STR, .str = fb_fallback },
	[2] = { .key = "fallbacks", .type = CF_U64, .a = FB(fallbacks) },
	[3] = { .key = "fragmenting",
		.type = CF_U64,
		.a = FB(fragmenting),
		.known = fb_frag_known },
	[4] = { .key = "ownership_changes",
		.type = CF_U64,
		.a = FB(ownership) },
};

static const struct cols_def fb_def = {
	.fields = fb_fields, .nfields = COLS_N(fb_fields),
	.stride = sizeof(struct page_fallback), .skip = fb_none,
};

static void json_extfrag(const struct kmem_report_ctx *r, struct json *j)
{
	struct cols_ctx c;

	report_cols(r, &c, &fb_def, page_st(r->agg)->sum.fb,
		    PAGE_NR_MT * PAGE_NR_MT, r);
	report_cols_json(r, j, "extfrag", &c);
}

static void json_cross_node(const struct kmem_report_ctx *r, struct json *j)
{
	const struct page_summary *s = &page_st(r->agg)->sum;

	if (!page_st(r->agg)->numa) {
		json_str(j, "cross_node", NULL);
		return;
	}
	json_open(j, "cross_node", '{');
	json_count_bytes(j, "remote_allocs", s->remote_allocs,
			 s->remote_alloc_bytes);
	json_count_bytes(j, "cross_frees", s->cross_frees,
			 s->cross_free_bytes);
	json_close(j, '}');
}

/**
 * page_json - write the "page" member of the JSON document
 * @r: what to write
 * @j: the writer, inside the top-level object
 */
void page_json(const struct kmem_report_ctx *r, struct json *j)
{
	const struct sum_ctx sc = { .def = &sum_def,
				    .base = page_st(r->agg),
				    .r = r };

	json_open(j, "page", '{');
	json_u64(j, "events", r->agg->events[KMEM_ALLOC_PAGE]);
	json_bool(j, "complete",
		  !r->agg->events_lost && !r->agg->lost_unknown &&
			  !report_unsure(r, KMEM_ALLOC_PAGE) &&
			  !page_st(r->agg)->oom &&
			  !page_st(r->agg)->saturated &&
			  !kmem_agg_left_out(r->agg) &&
			  !kmem_agg_damaged(r->agg));
	sum_json(&sc, "summary", j);
	json_orders(r, j);
	if (!r->in->merged) {
		if (kmem_render_json(r->cfg, KMEM_T_CALLER))
			json_rows(r, j, KMEM_T_CALLER);
		if (kmem_render_json(r->cfg, KMEM_T_ALLOC))
			json_rows(r, j, KMEM_T_ALLOC);
		leaks_json(r, j, KMEM_ALLOC_PAGE);
	}
	json_extfrag(r, j);
	if (!r->in->merged)
		page_procs_json(r, j);
	json_cross_node(r, j);
	json_close(j, '}');
}
