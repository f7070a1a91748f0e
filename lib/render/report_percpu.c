// SPDX-License-Identifier: LGPL-2.1
/*
 * Per-CPU allocator tables, summary and JSON section.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/kvblock.h"
#include "base/numfmt.h"
#include "base/table.h"
#include "report_leaks.h"
#include "report_lifetimes.h"
#include "report_percpu.h"
#include "tables.h"
#include "sort.h"

/* The members of a call site's JSON object, in order. */
enum {
	PS_CALLSITE,
	PS_ADDRESS,
	PS_HITS,
	PS_BYTES,
	PS_BYTES_REQ,
	PS_ATOMIC,
	PS_RESERVED,
	PS_FREES,
	PS_LIVE_COUNT,
	PS_LIVE_BYTES,
	PS_PEAK,
	PS_LIFETIME,
	PS_HIST,
};

#define SITE(m) COL_NUM64(struct percpu_site, m)

static void site_hist(const struct cols_ctx *c, const void *row, struct json *j)
{
	const struct percpu_stats *st = c->priv;

	lifetimes_json_site(
		j, &st->life,
		(uint32_t)((const struct percpu_site *)row - st->sites));
}

static const struct col_field site_fields[] = {
	[PS_CALLSITE] = { .key = "callsite",
			  .type = CF_CALLSITE,
			  .a = SITE(call_site) },
	[PS_ADDRESS] = { .key = "address",
			 .type = CF_ADDR,
			 .a = SITE(call_site) },
	[PS_HITS] = { .key = "hits", .type = CF_U64, .a = SITE(hits) },
	[PS_BYTES] = { .key = "bytes", .type = CF_U64, .a = SITE(bytes) },
	[PS_BYTES_REQ] = { .key = "bytes_requested",
			   .type = CF_U64,
			   .a = SITE(bytes_req) },
	[PS_ATOMIC] = { .key = "atomic", .type = CF_U64, .a = SITE(atomic) },
	[PS_RESERVED] = { .key = "reserved",
			  .type = CF_U64,
			  .a = SITE(reserved) },
	[PS_FREES] = { .key = "frees", .type = CF_U64, .a = SITE(frees) },
	[PS_LIVE_COUNT] = { .key = "live_count",
			    .type = CF_U64,
			    .a = SITE(live_count) },
	[PS_LIVE_BYTES] = { .key = "live_bytes",
			    .type = CF_U64,
			    .a = SITE(live_bytes) },
	[PS_PEAK] = { .key = "peak_bytes",
		      .type = CF_U64,
		      .a = SITE(peak_bytes) },
	[PS_LIFETIME] = { .key = "mean_lifetime_ns",
			  .type = CF_MEAN,
			  .a = SITE(lifetime_sum),
			  .b = SITE(frees) },
	[PS_HIST] = { .key = "lifetime_hist",
		      .type = CF_JSON,
		      .json = site_hist },
};

static const char *site_text(const struct cols_ctx *c, const void *row,
			     char *buf)
{
	const struct percpu_site *s = row;

	if (!s->call_site)
		return strcpy(buf, "(no call_site field)");
	return fmt_callsite(buf, c->sym, s->call_site, c->raw_ip);
}

/*
 * Bytes are bytes_alloc (6.0 and later), or without bytes_alloc the
 * sizes asked: then the first column is left out (C_ALLOC).
 */
enum { C_ALLOC };

static const struct col_text site_cols[] = {
	[C_ALLOC] = { "Total alloc/Size", TBL_PAIR, CT_TOTAL_SIZE, PS_BYTES,
		      PS_HITS, NULL, 2 },
	{ "Total req/Size", TBL_PAIR, CT_TOTAL_SIZE, PS_BYTES_REQ, PS_HITS,
	  NULL, 5 },
	{ "Hits", TBL_RIGHT, CT_COUNT, PS_HITS, COL_NOFIELD, NULL, 3 },
	{ "Atomic", TBL_RIGHT, CT_DOT, PS_ATOMIC, COL_NOFIELD, NULL, 8 },
	{ "Reserved", TBL_RIGHT, CT_DOT, PS_RESERVED, COL_NOFIELD, NULL, 9 },
	{ "Live/Bytes", TBL_PAIR, CT_COUNT_BYTES, PS_LIVE_COUNT, PS_LIVE_BYTES,
	  NULL, 4 },
	{ "Peak bytes", TBL_RIGHT, CT_DOT, PS_PEAK, COL_NOFIELD, NULL, 6 },
	{ "Lifetime", TBL_RIGHT, CT_MEAN_DURATION, PS_LIFETIME, COL_NOFIELD,
	  NULL, 7 },
	{ "Callsite", TBL_LEFT, CT_STR, PS_CALLSITE, COL_NOFIELD, site_text,
	  1 },
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
	return !((const struct percpu_site *)row)->frees;
}

static const struct cols_def site_def = {
	COLS_DEF(site_fields, site_cols, site_sorts, struct percpu_site),
};

/* ... and the same with frees only. */
const struct cols_def percpu_freed_sites = {
	COLS_DEF(site_fields, site_cols, site_sorts, struct percpu_site),
	.skip = site_unfreed,
};

/* Failed allocations by request: the JSON members in order. */
enum { PF_SIZE, PF_ALIGN, PF_ATOMIC, PF_RESERVED, PF_COUNT };

#define FAIL(m) COL_NUM64(struct percpu_fail, m)

static bool align_known(const struct cols_ctx *c, const void *row)
{
	(void)c;
	return ((const struct percpu_fail *)row)->align != UINT64_MAX;
}

static uint64_t fail_bytes(const struct cols_ctx *c, const void *row)
{
	const struct percpu_fail *f = row;

	(void)c;
	return f->size * f->count;
}

static const struct col_field fail_fields[] = {
	[PF_SIZE] = { .key = "size", .type = CF_U64, .a = FAIL(size) },
	[PF_ALIGN] = { .key = "align",
		       .type = CF_U64,
		       .a = FAIL(align),
		       .known = align_known },
	[PF_ATOMIC] = { .key = "atomic",
			.type = CF_BOOL,
			.a = COL_NUMB(struct percpu_fail, atomic) },
	[PF_RESERVED] = { .key = "reserved",
			  .type = CF_BOOL,
			  .a = COL_NUMB(struct percpu_fail, reserved) },
	[PF_COUNT] = { .key = "count", .type = CF_U64, .a = FAIL(count) },
};

static const struct col_text fail_cols[] = {
	{ "Failed", TBL_RIGHT, CT_COUNT, PF_COUNT, COL_NOFIELD, NULL, 1 },
	{ "Size", TBL_RIGHT, CT_COUNT, PF_SIZE, COL_NOFIELD, NULL, 2 },
	{ "Align", TBL_RIGHT, CT_COUNT, PF_ALIGN, COL_NOFIELD, NULL, 3 },
	{ "Atomic", TBL_LEFT, CT_YESNO, PF_ATOMIC, COL_NOFIELD, NULL, 4 },
	{ "Reserved", TBL_LEFT, CT_YESNO, PF_RESERVED, COL_NOFIELD, NULL, 5 },
};

static const struct col_sort fail_sorts[] = {
	{ SORT_BYTES, COL_NUMFN(fail_bytes) },
	{ SORT_HIT, FAIL(count) },
};

static const struct cols_def fail_def = {
	COLS_DEF(fail_fields, fail_cols, fail_sorts, struct percpu_fail),
};

/* Were the objects measured by their size (no bytes_alloc field)? */
static bool by_size(const struct percpu_summary *s)
{
	return s->size_bytes && s->size_bytes == s->allocs;
}

/* Do the allocations name their call site? */
static bool have_sites(const struct percpu_summary *s)
{
	return s->allocs > s->no_call_site;
}

/**
 * percpu_sites - the per-CPU call-site table
 * @r: the report
 * @c: set up here
 * @def: &percpu_freed_sites for the call sites with frees, or NULL
 */
void percpu_sites(const struct kmem_report_ctx *r, struct cols_ctx *c,
		  const struct cols_def *def)
{
	const struct percpu_stats *st = &r->agg->percpu;

	report_cols(r, c, def ? def : &site_def, st->sites, st->nr_sites, st);
	if (by_size(&st->sum))
		c->hidden = 1U << C_ALLOC;
}

static void fails(const struct kmem_report_ctx *r, struct cols_ctx *c)
{
	const struct percpu_stats *st = &r->agg->percpu;

	report_cols(r, c, &fail_def, st->fails, st->nr_fails, st);
}

static void summary_groups(const struct percpu_summary *s, struct kvblock *b)
{
	struct kv_line *l;

	kv_add_count_bytes(b, "Allocated+freed", s->alloc_freed_count,
			   s->alloc_freed_bytes);
	kv_add_count_bytes(b, "Allocated-only",
			   kmem_lc_alloc_only_count(&s->lc),
			   kmem_lc_alloc_only_bytes(&s->lc, s->bytes));
	kv_add_count(b, "Freed-only", s->free_only);
	l = kv_add_count(b, "Allocation failures", s->alloc_failures);
	if (s->alloc_failures)
		snprintf(l->note, sizeof(l->note),
			 "(their sizes and alignments are above)");
	kv_gap(b);
	kv_add_count(b, "Total bytes requested", s->bytes_req);
	if (!by_size(s)) {
		l = kv_add_count(b, "Total bytes allocated", s->bytes_alloc);
		snprintf(l->note, sizeof(l->note), "(%s)",
			 s->size_bytes ? "of the inputs with bytes_alloc" :
					 "size x possible CPUs");
	}
	kv_add_count(b, "Total bytes freed", s->alloc_freed_bytes);
	l = kv_add(b, "Net total bytes allocated", "");
	fmt_signed(l->value, (int64_t)(s->bytes - s->alloc_freed_bytes));
	l = kv_add_count(b, "Atomic allocations", s->atomic);
	snprintf(l->note, sizeof(l->note), "(%.2f%%, may not sleep)",
		 pct_of(s->atomic, s->allocs));
	kv_add_count(b, "Reserved-chunk allocations", s->reserved);
	l = kv_add_count(b, "Cross-CPU frees", s->cross_cpu_frees);
	snprintf(l->note, sizeof(l->note), "(%.2f%% of matched frees)",
		 pct_of(s->cross_cpu_frees, s->alloc_freed_count));
	kv_add_count(b, "Chunks created", s->chunks_created);
	kv_add_count(b, "Chunks destroyed", s->chunks_destroyed);
	kv_add_count_bytes(b, "Live at end of trace", s->live_count,
			   s->live_bytes);
}

static void summary_anomalies(const struct percpu_stats *st,
			      struct kvblock *b)
{
	const struct percpu_summary *s = &st->sum;
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
	const struct percpu_stats *st = &r->agg->percpu;
	struct kvblock b;

	fprintf(out, " SUMMARY (per-CPU allocator)\n"
		     " ===========================\n\n");
	kv_init(&b);
	summary_groups(&st->sum, &b);
	summary_anomalies(st, &b);
	kv_print(&b, out);
}

/**
 * percpu_print - print the per-CPU allocator's tables and summary
 * @r: what to print
 * @out: where to
 */
void percpu_print(const struct kmem_report_ctx *r, FILE *out)
{
	const struct percpu_summary *s = &r->agg->percpu.sum;
	struct cols_ctx c;

	if (!r->in->merged && by_size(s))
		fprintf(out, " Bytes are the sizes asked, per CPU: this "
			     "kernel's percpu_alloc_percpu has\n no "
			     "bytes_alloc field (Linux 6.0 added it).\n\n");
	if (!r->in->merged && s->allocs && !have_sites(s))
		fprintf(out, " No call sites: this kernel's "
			     "percpu_alloc_percpu has no call_site field\n"
			     " (Linux 6.0 added it).\n\n");
	else if (!r->in->merged && kmem_render_text(r->cfg, KMEM_T_CALLER)) {
		percpu_sites(r, &c, NULL);
		report_cols_table(r, out, &c);
	}
	if (!r->in->merged && r->agg->percpu.nr_fails) {
		fprintf(out, " Failed allocations, by request\n");
		fails(r, &c);
		report_cols_table(r, out, &c);
	}
	lifetimes_print(r, out, KMEM_ALLOC_PERCPU);
	leaks_print(r, out, KMEM_ALLOC_PERCPU);
	print_summary(r, out);
}

static void json_fails(const struct kmem_report_ctx *r, struct json *j)
{
	struct cols_ctx c;

	json_open(j, "failures", '{');
	json_u64(j, "count", r->agg->percpu.sum.alloc_failures);
	if (!r->in->merged) {
		fails(r, &c);
		report_cols_json(r, j, "requests", &c);
	}
	json_close(j, '}');
}

static void json_summary(const struct kmem_report_ctx *r, struct json *j)
{
	const struct percpu_summary *s = &r->agg->percpu.sum;

	json_open(j, "summary", '{');
	json_u64(j, "allocs", s->allocs);
	if (s->size_bytes)
		json_str(j, "alloc_bytes", NULL);
	else
		json_u64(j, "alloc_bytes", s->bytes_alloc);
	json_u64(j, "bytes_requested", s->bytes_req);
	json_u64(j, "frees", s->frees);
	json_u64(j, "bytes_freed", s->alloc_freed_bytes);
	json_i64(j, "net_bytes", (int64_t)(s->bytes - s->alloc_freed_bytes));
	json_u64(j, "atomic", s->atomic);
	json_u64(j, "reserved", s->reserved);
	json_u64(j, "cross_cpu_frees", s->cross_cpu_frees);
	json_fails(r, j);
	json_count_bytes(j, "alloc_freed", s->alloc_freed_count,
			 s->alloc_freed_bytes);
	json_count_bytes(j, "alloc_only", kmem_lc_alloc_only_count(&s->lc),
			 kmem_lc_alloc_only_bytes(&s->lc, s->bytes));
	json_open(j, "free_only", '{');
	json_u64(j, "count", s->free_only);
	json_close(j, '}');
	json_count_bytes(j, "live", s->live_count, s->live_bytes);
	json_count_bytes(j, "missed_frees", s->missed_frees,
			 s->missed_free_bytes);
	json_u64(j, "double_frees", s->double_frees);
	json_u64(j, "chunks_created", s->chunks_created);
	json_u64(j, "chunks_destroyed", s->chunks_destroyed);
	json_close(j, '}');
}

static void json_sites(const struct kmem_report_ctx *r, struct json *j)
{
	const struct percpu_stats *st = &r->agg->percpu;
	struct cols_ctx c;

	if (st->sum.allocs && !have_sites(&st->sum)) {
		json_str(j, "callsites", NULL); /* the format has none */
		return;
	}
	percpu_sites(r, &c, NULL);
	report_cols_json(r, j, "callsites", &c);
}

static const char *measure(const struct percpu_summary *s)
{
	if (!s->size_bytes)
		return "bytes_alloc";
	return by_size(s) ? "size" : "mixed";
}

/**
 * percpu_json - write the "percpu" member of the JSON document
 * @r: what to write
 * @j: the writer, inside the top-level object
 *
 * Arrays hold every row, in table order, whatever lines= says.
 */
void percpu_json(const struct kmem_report_ctx *r, struct json *j)
{
	const struct kmem_agg *a = r->agg;

	json_open(j, "percpu", '{');
	json_u64(j, "events", a->percpu_events);
	json_bool(j, "complete", !a->events_lost && !a->lost_unknown &&
				 !a->percpu.oom && !a->undecodable &&
				 !kmem_agg_damaged(a));
	json_str(j, "bytes_measure", measure(&a->percpu.sum));
	json_summary(r, j);
	if (!r->in->merged && kmem_render_json(r->cfg, KMEM_T_CALLER))
		json_sites(r, j);
	leaks_json(r, j, KMEM_ALLOC_PERCPU);
	json_close(j, '}');
}
