// SPDX-License-Identifier: LGPL-2.1
/*
 * Per-CPU allocator tables, summary and JSON section.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/numfmt.h"
#include "base/table.h"
#include "lc_cols.h"
#include "report_leaks.h"
#include "report_lifetimes.h"
#include "report_percpu.h"
#include "summary.h"
#include "tables.h"
#include "sort.h"

/* The members of a call site's JSON object, in order. */
enum {
	PS_CALLSITE,
	PS_ADDRESS, /* LC_SITE_COUNTS() */
	PS_HITS,
	PS_BYTES,
	PS_BYTES_REQ,
	PS_ATOMIC,
	PS_RESERVED,
	PS_FREES, /* LC_SITE_LIFECYCLE() */
	PS_LIVE_COUNT,
	PS_LIVE_BYTES,
	PS_PEAK,
	PS_LIFETIME,
	PS_HIST,
};

#define SITE(m) COL_NUM64(struct percpu_site, m)

static const struct col_field site_fields[] = {
	[PS_CALLSITE] = { .key = "callsite",
			  .type = CF_CALLSITE,
			  .a = SITE(call_site) },
	LC_SITE_COUNTS(PS_ADDRESS),
	[PS_BYTES_REQ] = { .key = "bytes_requested",
			   .type = CF_U64,
			   .a = SITE(bytes_req) },
	[PS_ATOMIC] = { .key = "atomic", .type = CF_U64, .a = SITE(atomic) },
	[PS_RESERVED] = { .key = "reserved",
			  .type = CF_U64,
			  .a = SITE(reserved) },
	LC_SITE_LIFECYCLE(PS_FREES, cols_percpu_frees_known),
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
	LC_SITE_TEXT(PS_FREES, 4, 6, 7),
	{ "Callsite", TBL_LEFT, CT_STR, PS_CALLSITE, COL_NOFIELD, site_text,
	  1 },
};

static const struct cols_def site_def = {
	COLS_DEF(site_fields, site_cols, lc_site_sorts, struct percpu_site),
};

/* ... and the same with frees only (the lifetime histograms' rows). */
const struct cols_def percpu_freed_sites = {
	COLS_DEF(site_fields, site_cols, lc_site_sorts, struct percpu_site),
	.skip = lc_site_unfreed,
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
	const struct percpu_stats *st = percpu_st(r->agg);

	report_cols(r, c, def ? def : &site_def, st->sites, st->nr_sites,
		    &st->life);
	if (by_size(&st->sum))
		c->hidden = 1U << C_ALLOC;
}

static void fails(const struct kmem_report_ctx *r, struct cols_ctx *c)
{
	const struct percpu_stats *st = percpu_st(r->agg);

	report_cols(r, c, &fail_def, st->fails, st->nr_fails, st);
}

static const struct percpu_summary *sum_of(const struct sum_ctx *c)
{
	return &((const struct percpu_stats *)c->base)->sum;
}

static bool alloc_bytes_known(const struct sum_ctx *c)
{
	return !sum_of(c)->size_bytes;
}

static bool alloc_bytes_shown(const struct sum_ctx *c,
			      const struct sum_field *f)
{
	(void)f;
	return !by_size(sum_of(c));
}

static const char *alloc_bytes_note(const struct sum_ctx *c, char *buf)
{
	snprintf(buf, SUM_NOTE_LEN, "(%s)",
		 sum_of(c)->size_bytes ? "of the inputs with bytes_alloc"
				       : "size x possible CPUs");
	return buf;
}

static const char *failures_note(const struct sum_ctx *c, char *buf)
{
	(void)buf;
	return sum_of(c)->alloc_failures
		       ? "(their sizes and alignments are above)"
		       : NULL;
}

static const char *atomic_note(const struct sum_ctx *c, char *buf)
{
	const struct percpu_summary *s = sum_of(c);

	snprintf(buf, SUM_NOTE_LEN, "(%.2f%%, may not sleep)",
		 pct_of(s->atomic, s->allocs));
	return buf;
}

/* The failed requests' table (none in a merged summary). */
static void json_fail_requests(const struct sum_ctx *sc,
			       const struct sum_field *f, struct json *j)
{
	struct cols_ctx c;

	if (sc->r->in->merged)
		return;
	fails(sc->r, &c);
	report_cols_json(sc->r, j, f->key, &c);
}

/* The summary's text lines, in order. */
enum {
	L_ALLOC_FREED = 1,
	L_ALLOC_ONLY,
	L_FREE_ONLY,
	L_FAILURES,
	L_GAP_TOTALS,
	L_REQUESTED,
	L_ALLOCATED,
	L_FREED,
	L_NET,
	L_ATOMIC,
	L_RESERVED,
	L_CROSS_CPU,
	L_CHUNKS_CREATED,
	L_CHUNKS_DESTROYED,
	L_LIVE,
	L_GAP_ANOMALIES,
	L_DOUBLE,
	L_MISSED,
	L_OOM,
};

#define SUM(m) SUM_NUM64(struct percpu_stats, sum.m)

/* The summary: its JSON members in order, each with its text line. */
static const struct sum_field sum_fields[] = {
	{ .key = "allocs", .a = SUM(allocs) },
	{ .key = "alloc_bytes",
	  .a = SUM(bytes_alloc),
	  .known = alloc_bytes_known },
	SUM_FIELD(NULL, "Total bytes allocated", L_ALLOCATED, SUM(bytes_alloc),
		  .note_fn = alloc_bytes_note, .show = alloc_bytes_shown),
	SUM_FIELD("bytes_requested", "Total bytes requested", L_REQUESTED,
		  SUM(bytes_req)),
	{ .key = "frees", .a = SUM(frees), .needs = SUM_NEEDS_FREE },
	SUM_LC_FREED(struct percpu_stats),
	SUM_FIELD("atomic", "Atomic allocations", L_ATOMIC, SUM(atomic),
		  .note_fn = atomic_note),
	SUM_FIELD("reserved", "Reserved-chunk allocations", L_RESERVED,
		  SUM(reserved)),
	SUM_LC_CROSS_CPU(struct percpu_stats),
	{ .key = "failures", .kind = SF_OPEN },
	SUM_FIELD("count", "Allocation failures", L_FAILURES,
		  SUM(alloc_failures), .note_fn = failures_note),
	{ .key = "requests", .kind = SF_JSON, .json = json_fail_requests },
	{ .kind = SF_CLOSE },
	SUM_LC_ENDS(struct percpu_stats),
	SUM_LC_ANOMALIES(struct percpu_stats),
	SUM_FIELD("chunks_created", "Chunks created", L_CHUNKS_CREATED,
		  SUM(chunks_created)),
	SUM_FIELD("chunks_destroyed", "Chunks destroyed", L_CHUNKS_DESTROYED,
		  SUM(chunks_destroyed)),
	{ .line = L_GAP_TOTALS, .kind = SF_GAP },
	{ .line = L_GAP_ANOMALIES, .kind = SF_GAP },
	SUM_LC_OOM(struct percpu_stats),
};

static const struct sum_def sum_def = {
	SUM_DEF(KMEM_ALLOC_PERCPU, "per-CPU allocator", sum_fields),
	.lc = SUM_LC(struct percpu_stats, bytes),
};

/**
 * percpu_print - print the per-CPU allocator's tables and summary
 * @r: what to print
 * @out: where to
 */
void percpu_print(const struct kmem_report_ctx *r, FILE *out)
{
	const struct percpu_summary *s = &percpu_st(r->agg)->sum;
	const struct sum_ctx sc = { .def = &sum_def,
				    .base = percpu_st(r->agg),
				    .r = r };
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
	if (!r->in->merged && percpu_st(r->agg)->nr_fails) {
		fprintf(out, " Failed allocations, by request\n");
		fails(r, &c);
		report_cols_table(r, out, &c);
	}
	lifetimes_print(r, out, KMEM_ALLOC_PERCPU);
	leaks_print(r, out, KMEM_ALLOC_PERCPU);
	sum_print(&sc, out);
}

static void json_sites(const struct kmem_report_ctx *r, struct json *j)
{
	const struct percpu_stats *st = percpu_st(r->agg);
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
	const struct sum_ctx sc = { .def = &sum_def,
				    .base = percpu_st(r->agg),
				    .r = r };

	json_open(j, "percpu", '{');
	json_u64(j, "events", a->events[KMEM_ALLOC_PERCPU]);
	json_bool(j, "complete",
		  !a->events_lost && !a->lost_unknown && !percpu_st(a)->oom &&
			  !report_unsure(r, KMEM_ALLOC_PERCPU) &&
			  !kmem_agg_left_out(a) && !kmem_agg_damaged(a));
	json_str(j, "bytes_measure", measure(&percpu_st(a)->sum));
	sum_json(&sc, "summary", j);
	if (!r->in->merged && kmem_render_json(r->cfg, KMEM_T_CALLER))
		json_sites(r, j);
	leaks_json(r, j, KMEM_ALLOC_PERCPU);
	json_close(j, '}');
}
