// SPDX-License-Identifier: LGPL-2.1
/*
 * vmalloc allocator tables, summary and JSON section.
 */
#include <string.h>

#include "base/numfmt.h"
#include "base/table.h"
#include "report_leaks.h"
#include "report_lifetimes.h"
#include "report_vmalloc.h"
#include "sort.h"
#include "summary.h"
#include "tables.h"

/* The members of a call site's JSON object, in order. */
enum {
	VS_CALLSITE,
	VS_ADDRESS,
	VS_HITS,
	VS_BYTES,
	VS_FAILURES,
	VS_FREES,
	VS_LIVE_COUNT,
	VS_LIVE_BYTES,
	VS_PEAK,
	VS_LIFETIME,
	VS_HIST,
};

#define SITE(m) COL_NUM64(struct vmalloc_site, m)

static void site_hist(const struct cols_ctx *c, const void *row, struct json *j)
{
	const struct vmalloc_stats *st = c->priv;

	lifetimes_json_site(
		j, &st->life,
		(uint32_t)((const struct vmalloc_site *)row - st->sites));
}

static const char *site_text(const struct cols_ctx *c, const void *row,
			     char *buf)
{
	const struct vmalloc_site *s = row;

	if (s->call_site == VMALLOC_NO_STACK)
		return strcpy(buf, "(no stack)");
	return fmt_callsite(buf, c->sym, s->call_site, c->raw_ip);
}

static const struct col_field site_fields[] = {
	[VS_CALLSITE] = { .key = "callsite",
			  .type = CF_STR,
			  .str = site_text },
	[VS_ADDRESS] = { .key = "address",
			 .type = CF_ADDR,
			 .a = SITE(call_site) },
	[VS_HITS] = { .key = "hits", .type = CF_U64, .a = SITE(hits) },
	[VS_BYTES] = { .key = "bytes", .type = CF_U64, .a = SITE(bytes) },
	[VS_FAILURES] = { .key = "failures",
			  .type = CF_U64,
			  .a = SITE(failures) },
	[VS_FREES] = { .key = "frees", .type = CF_U64, .a = SITE(frees) },
	[VS_LIVE_COUNT] = { .key = "live_count",
			    .type = CF_U64,
			    .a = SITE(live_count) },
	[VS_LIVE_BYTES] = { .key = "live_bytes",
			    .type = CF_U64,
			    .a = SITE(live_bytes) },
	[VS_PEAK] = { .key = "peak_bytes",
		      .type = CF_U64,
		      .a = SITE(peak_bytes) },
	[VS_LIFETIME] = { .key = "mean_lifetime_ns",
			  .type = CF_MEAN,
			  .a = SITE(lifetime_sum),
			  .b = SITE(frees) },
	[VS_HIST] = { .key = "lifetime_hist",
		      .type = CF_JSON,
		      .json = site_hist },
};

static const struct col_text site_cols[] = {
	{ "Total/Size", TBL_PAIR, CT_TOTAL_SIZE, VS_BYTES, VS_HITS, NULL, 2 },
	{ "Hits", TBL_RIGHT, CT_COUNT, VS_HITS, COL_NOFIELD, NULL, 3 },
	{ "Failed", TBL_RIGHT, CT_DOT, VS_FAILURES, COL_NOFIELD, NULL, 7 },
	{ "Live/Bytes", TBL_PAIR, CT_COUNT_BYTES, VS_LIVE_COUNT, VS_LIVE_BYTES,
	  NULL, 4 },
	{ "Peak bytes", TBL_RIGHT, CT_DOT, VS_PEAK, COL_NOFIELD, NULL, 5 },
	{ "Lifetime", TBL_RIGHT, CT_MEAN_DURATION, VS_LIFETIME, COL_NOFIELD,
	  NULL, 6 },
	{ "Callsite", TBL_LEFT, CT_STR, VS_CALLSITE, COL_NOFIELD, NULL, 1 },
};

static const struct col_sort site_sorts[] = {
	{ SORT_CALLSITE, SITE(call_site) }, { SORT_BYTES, SITE(bytes) },
	{ SORT_HIT, SITE(hits) },	    { SORT_LIVE, SITE(live_bytes) },
	{ SORT_PEAK, SITE(peak_bytes) },
};

/* Call sites with frees only (the lifetime histograms' rows). */
static bool site_unfreed(const struct cols_ctx *c, const void *row)
{
	(void)c;
	return !((const struct vmalloc_site *)row)->frees;
}

static const struct cols_def site_def = {
	COLS_DEF(site_fields, site_cols, site_sorts, struct vmalloc_site),
};

/* ... and the same with frees only. */
const struct cols_def vmalloc_freed_sites = {
	COLS_DEF(site_fields, site_cols, site_sorts, struct vmalloc_site),
	.skip = site_unfreed,
};

/**
 * vmalloc_sites - the vmalloc call-site table
 * @r: the report
 * @c: set up here
 * @def: &vmalloc_freed_sites for the call sites with frees, or NULL
 */
void vmalloc_sites(const struct kmem_report_ctx *r, struct cols_ctx *c,
		   const struct cols_def *def)
{
	const struct vmalloc_stats *st = &r->agg->vmalloc;

	report_cols(r, c, def ? def : &site_def, st->sites, st->nr_sites, st);
}

static const struct vmalloc_summary *sum_of(const struct sum_ctx *c)
{
	return &((const struct vmalloc_stats *)c->base)->sum;
}

static uint64_t alloc_only_count(const struct sum_ctx *c)
{
	return kmem_lc_alloc_only_count(&sum_of(c)->lc);
}

static uint64_t alloc_only_bytes(const struct sum_ctx *c)
{
	return kmem_lc_alloc_only_bytes(&sum_of(c)->lc, sum_of(c)->alloc_bytes);
}

static uint64_t net_bytes(const struct sum_ctx *c)
{
	return sum_of(c)->alloc_bytes - sum_of(c)->alloc_freed_bytes;
}

static const char *cross_cpu_note(const struct sum_ctx *c, char *buf)
{
	const struct vmalloc_summary *s = sum_of(c);

	snprintf(buf, SUM_NOTE_LEN, "(%.2f%% of matched frees)",
		 pct_of(s->cross_cpu_frees, s->alloc_freed_count));
	return buf;
}

static const char *purged_note(const struct sum_ctx *c, char *buf)
{
	char n[NUMFMT_LEN];

	snprintf(buf, SUM_NOTE_LEN, "(%s areas purged)",
		 fmt_count(n, sum_of(c)->purged));
	return buf;
}

static const char *lazy_max_note(const struct sum_ctx *c, char *buf)
{
	char n[NUMFMT_LEN];

	if (!sum_of(c)->nr_lazy_max)
		return NULL;
	snprintf(buf, SUM_NOTE_LEN, "(a purge runs past %s)",
		 fmt_count(n, sum_of(c)->nr_lazy_max));
	return buf;
}

static const char *stacks_note(const struct sum_ctx *c, char *buf)
{
	const struct vmalloc_summary *s = sum_of(c);

	snprintf(buf, SUM_NOTE_LEN, "(%.2f%%)",
		 pct_of(s->stacks, s->allocs + s->failures));
	return buf;
}

/* The summary's text lines, in order. */
enum {
	L_ALLOC_FREED = 1,
	L_ALLOC_ONLY,
	L_FREE_ONLY,
	L_FAILURES,
	L_GAP_TOTALS,
	L_ALLOCATED,
	L_FREED,
	L_NET,
	L_LARGEST,
	L_PEAK,
	L_CROSS_CPU,
	L_PURGES,
	L_LAZY_PEAK,
	L_STACKS,
	L_LIVE,
	L_GAP_ANOMALIES,
	L_DOUBLE,
	L_MISSED,
	L_OOM,
};

#define SUM(m) SUM_NUM64(struct vmalloc_stats, sum.m)

/* The summary: its JSON members in order, each with its text line. */
static const struct sum_field sum_fields[] = {
	{ .key = "allocs", .a = SUM(allocs) },
	SUM_FIELD("alloc_bytes", "Total bytes allocated", L_ALLOCATED,
		  SUM(alloc_bytes)),
	{ .key = "frees", .a = SUM(frees) },
	SUM_FIELD("bytes_freed", "Total bytes freed", L_FREED,
		  SUM(alloc_freed_bytes)),
	SUM_FIELD("net_bytes", "Net total bytes allocated", L_NET,
		  SUM_NUMFN(net_bytes), .kind = SF_SIGNED),
	SUM_FIELD("largest", "Largest area", L_LARGEST, SUM(largest),
		  .note = "(guard page included)"),
	SUM_FIELD("failures", "Allocation failures", L_FAILURES, SUM(failures),
		  .kind = SF_COUNT_BYTES, .b = SUM(failure_bytes)),
	SUM_FIELD("alloc_freed", "Allocated+freed", L_ALLOC_FREED,
		  SUM(alloc_freed_count), .kind = SF_COUNT_BYTES,
		  .b = SUM(alloc_freed_bytes)),
	SUM_FIELD("alloc_only", "Allocated-only", L_ALLOC_ONLY,
		  SUM_NUMFN(alloc_only_count), .kind = SF_COUNT_BYTES,
		  .b = SUM_NUMFN(alloc_only_bytes)),
	{ .key = "free_only", .kind = SF_OPEN },
	SUM_FIELD("count", "Freed-only", L_FREE_ONLY, SUM(free_only)),
	{ .kind = SF_CLOSE },
	SUM_FIELD("live", "Live at end of trace", L_LIVE, SUM(live_count),
		  .kind = SF_COUNT_BYTES, .b = SUM(live_bytes)),
	SUM_FIELD("peak", "Peak live", L_PEAK, SUM(peak_count),
		  .kind = SF_COUNT_BYTES, .b = SUM(peak_bytes)),
	SUM_FIELD("missed_frees", "Missed frees", L_MISSED, SUM(missed_frees),
		  .kind = SF_COUNT_BYTES, .b = SUM(missed_free_bytes),
		  .note = SUM_NOTE_MISSED, .show = sum_nonzero),
	SUM_FIELD("double_frees", "Double frees", L_DOUBLE, SUM(double_frees),
		  .note = SUM_NOTE_DOUBLE, .show = sum_nonzero),
	SUM_FIELD("cross_cpu_frees", "Cross-CPU frees", L_CROSS_CPU,
		  SUM(cross_cpu_frees), .note_fn = cross_cpu_note),
	{ .key = "lazy", .kind = SF_OPEN },
	SUM_FIELD("purges", "Lazy purges", L_PURGES, SUM(purges),
		  .note_fn = purged_note),
	{ .key = "purged", .a = SUM(purged) },
	SUM_FIELD("nr_lazy_peak", "Lazily freed pages, peak", L_LAZY_PEAK,
		  SUM(nr_lazy_peak), .note_fn = lazy_max_note),
	{ .key = "nr_lazy_max", .a = SUM(nr_lazy_max) },
	{ .kind = SF_CLOSE },
	SUM_FIELD("stacks", "Allocations with a stack", L_STACKS, SUM(stacks),
		  .note_fn = stacks_note),
	{ .line = L_GAP_TOTALS, .kind = SF_GAP },
	{ .line = L_GAP_ANOMALIES, .kind = SF_GAP },
	SUM_FIELD(NULL, "Events not counted (out of memory)", L_OOM,
		  SUM_NUM64(struct vmalloc_stats, oom), .show = sum_nonzero),
};

static const struct sum_def sum_def = {
	SUM_DEF("vmalloc allocator", sum_fields),
};

static void summary(const struct kmem_report_ctx *r, struct sum_ctx *c)
{
	c->def = &sum_def;
	c->base = &r->agg->vmalloc;
	c->r = r;
}

/**
 * vmalloc_print - print the vmalloc allocator's tables and summary
 * @r: what to print
 * @out: where to
 */
void vmalloc_print(const struct kmem_report_ctx *r, FILE *out)
{
	const struct vmalloc_stats *st = &r->agg->vmalloc;
	struct sum_ctx sc;
	struct cols_ctx c;

	if (!r->in->merged && kmem_render_text(r->cfg, KMEM_T_CALLER)) {
		if (st->nr_sites && !st->sum.stacks)
			fprintf(out, " No kernel stacks in this trace: call "
				     "sites need a stacktrace trigger\n on "
				     "vmalloc:alloc_vmap_area "
				     "(sample-data/record.sh -t).\n\n");
		vmalloc_sites(r, &c, NULL);
		report_cols_table(r, out, &c);
	}
	lifetimes_print(r, out, KMEM_ALLOC_VMALLOC);
	leaks_print(r, out, KMEM_ALLOC_VMALLOC);
	summary(r, &sc);
	sum_print(&sc, out);
}

/**
 * vmalloc_json - write the "vmalloc" member of the JSON document
 * @r: what to write
 * @j: the writer, inside the top-level object
 *
 * Arrays hold every row, in table order, whatever lines= says.
 */
void vmalloc_json(const struct kmem_report_ctx *r, struct json *j)
{
	const struct kmem_agg *a = r->agg;
	struct sum_ctx sc;
	struct cols_ctx c;

	json_open(j, "vmalloc", '{');
	json_u64(j, "events", a->vmalloc_events);
	json_bool(j, "complete", !a->events_lost && !a->lost_unknown &&
				 !a->vmalloc.oom && !a->undecodable &&
				 !kmem_agg_damaged(a));
	summary(r, &sc);
	sum_json(&sc, "summary", j);
	if (!r->in->merged && kmem_render_json(r->cfg, KMEM_T_CALLER)) {
		vmalloc_sites(r, &c, NULL);
		report_cols_json(r, j, "callsites", &c);
	}
	leaks_json(r, j, KMEM_ALLOC_VMALLOC);
	json_close(j, '}');
}
