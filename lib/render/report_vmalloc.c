// SPDX-License-Identifier: LGPL-2.1
/*
 * vmalloc allocator tables, summary and JSON section.
 */
#include <string.h>

#include "base/kvblock.h"
#include "base/numfmt.h"
#include "base/table.h"
#include "report_leaks.h"
#include "report_lifetimes.h"
#include "report_vmalloc.h"
#include "sort.h"
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

static void summary_groups(const struct vmalloc_summary *s, struct kvblock *b)
{
	char n[NUMFMT_LEN];
	struct kv_line *l;

	kv_add_count_bytes(b, "Allocated+freed", s->alloc_freed_count,
			   s->alloc_freed_bytes);
	kv_add_count_bytes(b, "Allocated-only",
			   kmem_lc_alloc_only_count(&s->lc),
			   kmem_lc_alloc_only_bytes(&s->lc, s->alloc_bytes));
	kv_add_count(b, "Freed-only", s->free_only);
	kv_add_count_bytes(b, "Allocation failures", s->failures,
			   s->failure_bytes);
	kv_gap(b);
	kv_add_count(b, "Total bytes allocated", s->alloc_bytes);
	kv_add_count(b, "Total bytes freed", s->free_bytes);
	l = kv_add(b, "Net total bytes allocated", "");
	fmt_signed(l->value, (int64_t)(s->alloc_bytes - s->free_bytes));
	l = kv_add_count(b, "Largest area", s->largest);
	snprintf(l->note, sizeof(l->note), "(guard page included)");
	kv_add_count_bytes(b, "Peak live", s->peak_count, s->peak_bytes);
	l = kv_add_count(b, "Cross-CPU frees", s->cross_cpu_frees);
	snprintf(l->note, sizeof(l->note), "(%.2f%% of matched frees)",
		 pct_of(s->cross_cpu_frees, s->alloc_freed_count));
	l = kv_add_count(b, "Lazy purges", s->purges);
	snprintf(l->note, sizeof(l->note), "(%s areas purged)",
		 fmt_count(n, s->purged));
	l = kv_add_count(b, "Lazily freed pages, peak", s->nr_lazy_peak);
	if (s->nr_lazy_max)
		snprintf(l->note, sizeof(l->note), "(a purge runs past %s)",
			 fmt_count(n, s->nr_lazy_max));
	l = kv_add_count(b, "Allocations with a stack", s->stacks);
	snprintf(l->note, sizeof(l->note), "(%.2f%%)",
		 pct_of(s->stacks, s->allocs + s->failures));
	kv_add_count_bytes(b, "Live at end of trace", s->live_count,
			   s->live_bytes);
}

static void summary_anomalies(const struct vmalloc_stats *st,
			      struct kvblock *b)
{
	const struct vmalloc_summary *s = &st->sum;
	struct kv_line *l;

	kv_gap(b);
	if (s->double_frees) {
		l = kv_add_count(b, "Double frees", s->double_frees);
		snprintf(l->note, sizeof(l->note),
			 "(a kernel bug, or an allocation not recorded)");
	}
	if (s->missed_frees) {
		l = kv_add_count_bytes(b, "Missed frees", s->missed_frees,
				       s->missed_free_bytes);
		snprintf(l->note, sizeof(l->note),
			 "(address reused; its free was not recorded)");
	}
	if (st->oom)
		kv_add_count(b, "Events not counted (out of memory)", st->oom);
}

static void print_summary(const struct kmem_report_ctx *r, FILE *out)
{
	const struct vmalloc_stats *st = &r->agg->vmalloc;
	struct kvblock b;

	fprintf(out, " SUMMARY (vmalloc allocator)\n"
		     " ===========================\n\n");
	kv_init(&b);
	summary_groups(&st->sum, &b);
	summary_anomalies(st, &b);
	kv_print(&b, out);
}

/**
 * vmalloc_print - print the vmalloc allocator's tables and summary
 * @r: what to print
 * @out: where to
 */
void vmalloc_print(const struct kmem_report_ctx *r, FILE *out)
{
	const struct vmalloc_stats *st = &r->agg->vmalloc;
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
	print_summary(r, out);
}

static void json_summary(const struct kmem_report_ctx *r, struct json *j)
{
	const struct vmalloc_summary *s = &r->agg->vmalloc.sum;

	json_open(j, "summary", '{');
	json_u64(j, "allocs", s->allocs);
	json_u64(j, "alloc_bytes", s->alloc_bytes);
	json_u64(j, "frees", s->frees);
	json_u64(j, "bytes_freed", s->free_bytes);
	json_i64(j, "net_bytes", (int64_t)(s->alloc_bytes - s->free_bytes));
	json_u64(j, "largest", s->largest);
	json_count_bytes(j, "failures", s->failures, s->failure_bytes);
	json_count_bytes(j, "alloc_freed", s->alloc_freed_count,
			 s->alloc_freed_bytes);
	json_count_bytes(j, "alloc_only", kmem_lc_alloc_only_count(&s->lc),
			 kmem_lc_alloc_only_bytes(&s->lc, s->alloc_bytes));
	json_open(j, "free_only", '{');
	json_u64(j, "count", s->free_only);
	json_close(j, '}');
	json_count_bytes(j, "live", s->live_count, s->live_bytes);
	json_count_bytes(j, "peak", s->peak_count, s->peak_bytes);
	json_count_bytes(j, "missed_frees", s->missed_frees,
			 s->missed_free_bytes);
	json_u64(j, "double_frees", s->double_frees);
	json_u64(j, "cross_cpu_frees", s->cross_cpu_frees);
	json_open(j, "lazy", '{');
	json_u64(j, "purges", s->purges);
	json_u64(j, "purged", s->purged);
	json_u64(j, "nr_lazy_peak", s->nr_lazy_peak);
	json_u64(j, "nr_lazy_max", s->nr_lazy_max);
	json_close(j, '}');
	json_u64(j, "stacks", s->stacks);
	json_close(j, '}');
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
	struct cols_ctx c;

	json_open(j, "vmalloc", '{');
	json_u64(j, "events", a->vmalloc_events);
	json_bool(j, "complete", !a->events_lost && !a->lost_unknown &&
				 !a->vmalloc.oom && !a->undecodable &&
				 !kmem_agg_damaged(a));
	json_summary(r, j);
	if (!r->in->merged && kmem_render_json(r->cfg, KMEM_T_CALLER)) {
		vmalloc_sites(r, &c, NULL);
		report_cols_json(r, j, "callsites", &c);
	}
	leaks_json(r, j, KMEM_ALLOC_VMALLOC);
	json_close(j, '}');
}
