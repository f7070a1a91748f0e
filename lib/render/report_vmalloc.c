// SPDX-License-Identifier: LGPL-2.1
/*
 * vmalloc allocator tables, summary and JSON section.
 */
#include <string.h>

#include "base/numfmt.h"
#include "base/table.h"
#include "lc_cols.h"
#include "report_leaks.h"
#include "report_lifetimes.h"
#include "report_vmalloc.h"
#include "sort.h"
#include "summary.h"
#include "tables.h"

/* The members of a call site's JSON object, in order. */
enum {
	VS_CALLSITE,
	VS_ADDRESS, /* LC_SITE_COUNTS() */
	VS_HITS,
	VS_BYTES,
	VS_FAILURES,
	VS_FREES, /* LC_SITE_LIFECYCLE() */
	VS_LIVE_COUNT,
	VS_LIVE_BYTES,
	VS_PEAK,
	VS_LIFETIME,
	VS_HIST,
};

#define SITE(m) COL_NUM64(struct vmalloc_site, m)

static const char *site_text(const struct cols_ctx *c, const void *row,
			     char *buf)
{
	const struct vmalloc_site *s = row;

	if (s->call_site == VMALLOC_NO_STACK)
		return strcpy(buf, "(no stack)");
	return fmt_callsite(buf, c->sym, s->call_site, c->raw_ip);
}

static const struct col_field site_fields[] = {
	[VS_CALLSITE] = { .key = "callsite", .type = CF_STR, .str = site_text },
	LC_SITE_COUNTS(VS_ADDRESS),
	[VS_FAILURES] = { .key = "failures",
			  .type = CF_U64,
			  .a = SITE(failures) },
	LC_SITE_LIFECYCLE(VS_FREES, cols_vmalloc_frees_known),
};

static const struct col_text site_cols[] = {
	{ "Total/Size", TBL_PAIR, CT_TOTAL_SIZE, VS_BYTES, VS_HITS, NULL, 2 },
	{ "Hits", TBL_RIGHT, CT_COUNT, VS_HITS, COL_NOFIELD, NULL, 3 },
	{ "Failed", TBL_RIGHT, CT_DOT, VS_FAILURES, COL_NOFIELD, NULL, 7 },
	LC_SITE_TEXT(VS_FREES, 4, 5, 6),
	{ "Callsite", TBL_LEFT, CT_STR, VS_CALLSITE, COL_NOFIELD, NULL, 1 },
};

static const struct cols_def site_def = {
	COLS_DEF(site_fields, site_cols, lc_site_sorts, struct vmalloc_site),
};

/* ... and the same with frees only (the lifetime histograms' rows). */
const struct cols_def vmalloc_freed_sites = {
	COLS_DEF(site_fields, site_cols, lc_site_sorts, struct vmalloc_site),
	.skip = lc_site_unfreed,
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
	const struct vmalloc_stats *st = vmalloc_st(r->agg);

	report_cols(r, c, def ? def : &site_def, st->sites, st->nr_sites,
		    &st->life);
}

static const struct vmalloc_summary *sum_of(const struct sum_ctx *c)
{
	return &((const struct vmalloc_stats *)c->base)->sum;
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
	{ .key = "frees", .a = SUM(frees), .needs = SUM_NEEDS_FREE },
	SUM_LC_FREED(struct vmalloc_stats),
	SUM_FIELD("largest", "Largest area", L_LARGEST, SUM(largest),
		  .note = "(guard page included)"),
	SUM_FIELD("failures", "Allocation failures", L_FAILURES, SUM(failures),
		  .kind = SF_COUNT_BYTES, .b = SUM(failure_bytes)),
	SUM_LC_ENDS(struct vmalloc_stats),
	SUM_FIELD("peak", "Peak live", L_PEAK, SUM(peak_count),
		  .kind = SF_COUNT_BYTES, .b = SUM(peak_bytes),
		  .needs = SUM_NEEDS_FREE),
	SUM_LC_ANOMALIES(struct vmalloc_stats),
	SUM_LC_CROSS_CPU(struct vmalloc_stats),
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
	SUM_LC_OOM(struct vmalloc_stats),
};

static const struct sum_def sum_def = {
	SUM_DEF(KMEM_ALLOC_VMALLOC, "vmalloc allocator", sum_fields),
	.lc = SUM_LC(struct vmalloc_stats, alloc_bytes),
};

/**
 * vmalloc_print - print the vmalloc allocator's tables and summary
 * @r: what to print
 * @out: where to
 */
void vmalloc_print(const struct kmem_report_ctx *r, FILE *out)
{
	const struct vmalloc_stats *st = vmalloc_st(r->agg);
	const struct sum_ctx sc = { .def = &sum_def, .base = st, .r = r };
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
	const struct vmalloc_stats *st = vmalloc_st(a);
	const struct sum_ctx sc = { .def = &sum_def, .base = st, .r = r };
	struct cols_ctx c;

	json_open(j, "vmalloc", '{');
	json_u64(j, "events", a->events[KMEM_ALLOC_VMALLOC]);
	json_bool(j, "complete",
		  !a->events_lost && !a->lost_unknown && !st->oom &&
			  !report_unsure(r, KMEM_ALLOC_VMALLOC) &&
			  !kmem_agg_left_out(a) && !kmem_agg_damaged(a));
	sum_json(&sc, "summary", j);
	if (!r->in->merged && kmem_render_json(r->cfg, KMEM_T_CALLER)) {
		vmalloc_sites(r, &c, NULL);
		report_cols_json(r, j, "callsites", &c);
	}
	leaks_json(r, j, KMEM_ALLOC_VMALLOC);
	json_close(j, '}');
}
