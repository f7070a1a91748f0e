// SPDX-License-Identifier: LGPL-2.1
/*
 * The slab tables' columns (cols.h): per call site, per allocation, per
 * cache and the anomalies, each declared once for text, JSON and CSV.
 * Their callbacks read the slab statistics (struct slab_stats) as the
 * table's priv.
 */
#include <stddef.h>

#include "base/numfmt.h"
#include "report_lifetimes.h"
#include "report_slab.h"
#include "report_slab_int.h"
#include "sort.h"

/* Does the trace tell which allocations a memory cgroup was charged? */
static bool memcg_row(const struct cols_ctx *c, const void *row)
{
	const struct slab_stats *st = c->priv;

	(void)row;
	return memcg_known(&st->sum);
}

/* Internal fragmentation as an integer sort key (sort_frag_key()). */
#define FRAG_KEY(name, type)                                                   \
	static uint64_t name(const struct cols_ctx *c, const void *row)        \
	{                                                                      \
		const type *p = row;                                           \
                                                                               \
		(void)c;                                                       \
		return sort_frag_key(p->bytes_req, p->bytes_alloc);            \
	}

/* Per call site: the members of its JSON object, in order. */
enum {
	S_CALLSITE,
	S_ADDRESS,
	S_CACHE,
	S_HITS,
	S_FAILURES,
	S_BYTES_REQ,
	S_BYTES_ALLOC,
	S_FREES,
	S_PINGPONG,
	S_FRAG,
	S_LIVE_COUNT,
	S_LIVE_BYTES,
	S_PEAK,
	S_MEMCG,
	S_LIFETIME,
	S_HIST,
};

#define SITE(m) COL_NUM64(struct slab_site, m)

FRAG_KEY(site_frag, struct slab_site)

static void site_hist(const struct cols_ctx *c, const void *row, struct json *j)
{
	const struct slab_stats *st = c->priv;

	lifetimes_json_site(
		j, &st->life,
		(uint32_t)((const struct slab_site *)row - st->sites));
}

/* The one cache a call site allocated from, by name; NULL: several, or
 * none named ("(unnamed)": the events name no cache). */
static const char *site_cache_name(const struct cols_ctx *c, const void *row,
				   char *buf)
{
	const struct slab_stats *st = c->priv;
	const struct slab_site *s = row;

	(void)buf;
	if (s->caches != 1 || s->cache >= st->nr_caches ||
	    st->caches[s->cache].unnamed)
		return NULL;
	return slab_cache_name(st, &st->caches[s->cache]);
}

static const struct col_field site_fields[] = {
	[S_CALLSITE] = { .key = "callsite",
			 .type = CF_CALLSITE,
			 .a = SITE(call_site) },
	[S_ADDRESS] = { .key = "address",
			.type = CF_SITE_ADDR,
			.a = SITE(call_site) },
	[S_CACHE] = { .key = "cache", .type = CF_STR, .str = site_cache_name },
	[S_HITS] = { .key = "hits", .type = CF_U64, .a = SITE(hits) },
	[S_FAILURES] = { .key = "failures",
			 .type = CF_U64,
			 .a = SITE(failures) },
	[S_BYTES_REQ] = { .key = "bytes_req",
			  .type = CF_U64,
			  .a = SITE(bytes_req) },
	[S_BYTES_ALLOC] = { .key = "bytes_alloc",
			    .type = CF_U64,
			    .a = SITE(bytes_alloc) },
	[S_FREES] = { .key = "frees",
		      .type = CF_U64,
		      .a = SITE(frees),
		      .known = cols_slab_frees_known },
	[S_PINGPONG] = { .key = "pingpong",
			 .type = CF_U64,
			 .a = SITE(pingpong),
			 .known = cols_slab_frees_known },
	[S_FRAG] = { .key = "frag_pct",
		     .type = CF_FRAG,
		     .a = SITE(bytes_req),
		     .b = SITE(bytes_alloc) },
	[S_LIVE_COUNT] = { .key = "live_count",
			   .type = CF_U64,
			   .a = SITE(live_count),
			   .known = cols_slab_frees_known },
	[S_LIVE_BYTES] = { .key = "live_bytes",
			   .type = CF_U64,
			   .a = SITE(live_bytes),
			   .known = cols_slab_frees_known },
	[S_PEAK] = { .key = "peak_bytes",
		     .type = CF_U64,
		     .a = SITE(peak_bytes),
		     .known = cols_slab_frees_known },
	[S_MEMCG] = { .key = "memcg_bytes",
		      .type = CF_U64,
		      .a = SITE(memcg_bytes),
		      .known = memcg_row },
	[S_LIFETIME] = { .key = "mean_lifetime_ns",
			 .type = CF_MEAN,
			 .a = SITE(lifetime_sum),
			 .b = SITE(frees) },
	[S_HIST] = { .key = "lifetime_hist",
		     .type = CF_JSON,
		     .json = site_hist },
};

static const struct col_text site_cols[] = {
	{ "Total alloc/Size", TBL_PAIR, CT_TOTAL_SIZE, S_BYTES_ALLOC, S_HITS,
	  NULL, 2 },
	{ "Total req/Size", TBL_PAIR, CT_TOTAL_SIZE, S_BYTES_REQ, S_HITS, NULL,
	  6 },
	{ "Hits", TBL_RIGHT, CT_COUNT, S_HITS, COL_NOFIELD, NULL, 3 },
	{ "Ping-pong", TBL_RIGHT, CT_DOT, S_PINGPONG, COL_NOFIELD, NULL, 8 },
	{ "Frag", TBL_RIGHT, CT_FRAG, S_FRAG, COL_NOFIELD, NULL, 7 },
	{ "Live/Bytes", TBL_PAIR, CT_COUNT_BYTES, S_LIVE_COUNT, S_LIVE_BYTES,
	  NULL, 4 },
	{ "Peak bytes", TBL_RIGHT, CT_DOT, S_PEAK, COL_NOFIELD, NULL, 5 },
	{ "Memcg bytes", TBL_RIGHT, CT_DOT, S_MEMCG, COL_NOFIELD, NULL, 10 },
	{ "Lifetime", TBL_RIGHT, CT_MEAN_DURATION, S_LIFETIME, COL_NOFIELD,
	  NULL, 9 },
	{ "Callsite", TBL_LEFT, CT_CALLSITE, S_CALLSITE, COL_NOFIELD, NULL, 1 },
};

static const struct col_sort site_sorts[] = {
	{ SORT_CALLSITE, SITE(call_site) },
	{ SORT_BYTES, SITE(bytes_alloc) },
	{ SORT_HIT, SITE(hits) },
	{ SORT_PINGPONG, SITE(pingpong) },
	{ SORT_FRAG, COL_NUMFN(site_frag) },
	{ SORT_LIVE, SITE(live_bytes) },
	{ SORT_PEAK, SITE(peak_bytes) },
};

const struct cols_def slab_site_cols = {
	COLS_DEF(site_fields, site_cols, site_sorts, struct slab_site),
};

/* Call sites with frees only (the lifetime histograms' rows). */
static bool site_unfreed(const struct cols_ctx *c, const void *row)
{
	(void)c;
	return !((const struct slab_site *)row)->frees;
}

const struct cols_def slab_freed_site_cols = {
	COLS_DEF(site_fields, site_cols, site_sorts, struct slab_site),
	.skip = site_unfreed,
};

/* Per allocation (address): the members of its JSON object. */
enum {
	P_PTR,
	P_CALLSITE,
	P_ADDRESS,
	P_HITS,
	P_BYTES_REQ,
	P_BYTES_ALLOC,
	P_FREES,
	P_PINGPONG,
	P_FRAG,
	P_LIVE,
	P_LIVE_BYTES,
	P_LIFETIME,
};

#define PTR64(m) COL_NUM64(struct slab_obj_row, m)
#define PTR32(m) COL_NUM32(struct slab_obj_row, m)

FRAG_KEY(ptr_frag, struct slab_obj_row)

static const void *ptr_row(const struct cols_ctx *c, uint32_t idx)
{
	return slab_row_at(c->priv, idx);
}

static uint64_t ptr_site(const struct cols_ctx *c, const void *row)
{
	const struct slab_stats *st = c->priv;

	return st->sites[((const struct slab_obj_row *)row)->o.site].call_site;
}

static uint64_t ptr_live(const struct cols_ctx *c, const void *row)
{
	(void)c;
	return !!(((const struct slab_obj_row *)row)->o.flags & SLAB_OBJ_LIVE);
}

static uint64_t ptr_live_bytes(const struct cols_ctx *c, const void *row)
{
	const struct slab_obj_row *p = row;

	return ptr_live(c, row) ? p->o.bytes : 0;
}

static const struct col_field ptr_fields[] = {
	[P_PTR] = { .key = "ptr", .type = CF_ADDR, .a = PTR64(o.ptr) },
	[P_CALLSITE] = { .key = "callsite",
			 .type = CF_CALLSITE,
			 .a = COL_NUMFN(ptr_site) },
	[P_ADDRESS] = { .key = "address",
			.type = CF_SITE_ADDR,
			.a = COL_NUMFN(ptr_site) },
	[P_HITS] = { .key = "hits", .type = CF_U64, .a = PTR32(hits) },
	[P_BYTES_REQ] = { .key = "bytes_req",
			  .type = CF_U64,
			  .a = PTR64(bytes_req) },
	[P_BYTES_ALLOC] = { .key = "bytes_alloc",
			    .type = CF_U64,
			    .a = PTR64(bytes_alloc) },
	[P_FREES] = { .key = "frees",
		      .type = CF_U64,
		      .a = PTR32(frees),
		      .known = cols_slab_frees_known },
	[P_PINGPONG] = { .key = "pingpong",
			 .type = CF_U64,
			 .a = PTR32(pingpong),
			 .known = cols_slab_frees_known },
	[P_FRAG] = { .key = "frag_pct",
		     .type = CF_FRAG,
		     .a = PTR64(bytes_req),
		     .b = PTR64(bytes_alloc) },
	[P_LIVE] = { .key = "live",
		     .type = CF_BOOL,
		     .a = COL_NUMFN(ptr_live),
		     .known = cols_slab_frees_known },
	[P_LIVE_BYTES] = { .key = "live_bytes",
			   .type = CF_U64,
			   .a = COL_NUMFN(ptr_live_bytes),
			   .known = cols_slab_frees_known },
	[P_LIFETIME] = { .key = "mean_lifetime_ns",
			 .type = CF_MEAN,
			 .a = PTR64(lifetime_sum),
			 .b = PTR32(frees) },
};

static const struct col_text ptr_cols[] = {
	{ "Total alloc/Size", TBL_PAIR, CT_TOTAL_SIZE, P_BYTES_ALLOC, P_HITS,
	  NULL, 3 },
	{ "Total req/Size", TBL_PAIR, CT_TOTAL_SIZE, P_BYTES_REQ, P_HITS, NULL,
	  6 },
	{ "Hits", TBL_RIGHT, CT_COUNT, P_HITS, COL_NOFIELD, NULL, 4 },
	{ "Ping-pong", TBL_RIGHT, CT_DOT, P_PINGPONG, COL_NOFIELD, NULL, 8 },
	{ "Frag", TBL_RIGHT, CT_FRAG, P_FRAG, COL_NOFIELD, NULL, 7 },
	{ "Live bytes", TBL_RIGHT, CT_DOT, P_LIVE_BYTES, COL_NOFIELD, NULL, 5 },
	{ "Lifetime", TBL_RIGHT, CT_MEAN_DURATION, P_LIFETIME, COL_NOFIELD,
	  NULL, 9 },
	{ "Alloc ptr", TBL_LEFT, CT_ADDR, P_PTR, COL_NOFIELD, NULL, 1 },
	{ "Callsite", TBL_LEFT, CT_CALLSITE, P_CALLSITE, COL_NOFIELD, NULL, 2 },
};

static const struct col_sort ptr_sorts[] = {
	{ SORT_PTR, PTR64(o.ptr) },
	{ SORT_CALLSITE, COL_NUMFN(ptr_site) },
	{ SORT_BYTES, PTR64(bytes_alloc) },
	{ SORT_HIT, PTR32(hits) },
	{ SORT_PINGPONG, PTR32(pingpong) },
	{ SORT_FRAG, COL_NUMFN(ptr_frag) },
	{ SORT_LIVE, COL_NUMFN(ptr_live_bytes) },
};

/* Addresses in the order of their first allocation (entry order). */
const struct cols_def slab_ptr_cols = {
	COLS_DEF(ptr_fields, ptr_cols, ptr_sorts, struct slab_obj_row),
	.row = ptr_row,
};

/* Per cache: the members of its JSON object. */
enum {
	C_NAME,
	C_ALLOCS,
	C_FREES,
	C_FREE_ONLY,
	C_BYTES_REQ,
	C_BYTES_ALLOC,
	C_FRAG,
	C_LIVE_COUNT,
	C_LIVE_BYTES,
	C_MEMCG,
};

#define CACHE(m) COL_NUM64(struct slab_cache, m)

FRAG_KEY(cache_frag, struct slab_cache)

static const char *cache_name(const struct cols_ctx *c, const void *row,
			      char *buf)
{
	(void)buf;
	return slab_cache_name(c->priv, row);
}

/* Freed-only frees count: a cache seen only in them is not empty. */
static const char *cache_frees(const struct cols_ctx *c, const void *row,
			       char *buf)
{
	const struct slab_cache *cc = row;

	(void)c;
	return fmt_count_dot(buf, cc->frees + cc->free_only);
}

/* Cache rows that hold nothing (an "(unnamed)" row may be emptied). */
static bool cache_empty(const struct cols_ctx *c, const void *row)
{
	const struct slab_cache *cc = row;

	(void)c;
	return !cc->allocs && !cc->frees && !cc->free_only;
}

static const struct col_field cache_fields[] = {
	[C_NAME] = { .key = "name", .type = CF_STR, .str = cache_name },
	[C_ALLOCS] = { .key = "allocs", .type = CF_U64, .a = CACHE(allocs) },
	[C_FREES] = { .key = "frees",
		      .type = CF_U64,
		      .a = CACHE(frees),
		      .known = cols_slab_frees_known },
	[C_FREE_ONLY] = { .key = "free_only",
			  .type = CF_U64,
			  .a = CACHE(free_only),
			  .known = cols_slab_frees_known },
	[C_BYTES_REQ] = { .key = "bytes_req",
			  .type = CF_U64,
			  .a = CACHE(bytes_req) },
	[C_BYTES_ALLOC] = { .key = "bytes_alloc",
			    .type = CF_U64,
			    .a = CACHE(bytes_alloc) },
	[C_FRAG] = { .key = "frag_pct",
		     .type = CF_FRAG,
		     .a = CACHE(bytes_req),
		     .b = CACHE(bytes_alloc) },
	[C_LIVE_COUNT] = { .key = "live_count",
			   .type = CF_U64,
			   .a = CACHE(live_count),
			   .known = cols_slab_frees_known },
	[C_LIVE_BYTES] = { .key = "live_bytes",
			   .type = CF_U64,
			   .a = CACHE(live_bytes),
			   .known = cols_slab_frees_known },
	[C_MEMCG] = { .key = "memcg_bytes",
		      .type = CF_U64,
		      .a = CACHE(memcg_bytes),
		      .known = memcg_row },
};

static const struct col_text cache_cols[] = {
	{ "Total alloc/Size", TBL_PAIR, CT_TOTAL_SIZE, C_BYTES_ALLOC, C_ALLOCS,
	  NULL, 2 },
	{ "Total req/Size", TBL_PAIR, CT_TOTAL_SIZE, C_BYTES_REQ, C_ALLOCS,
	  NULL, 6 },
	{ "Allocs", TBL_RIGHT, CT_DOT, C_ALLOCS, COL_NOFIELD, NULL, 3 },
	{ "Frees", TBL_RIGHT, CT_STR, C_FREES, COL_NOFIELD, cache_frees, 5 },
	{ "Frag", TBL_RIGHT, CT_FRAG, C_FRAG, COL_NOFIELD, NULL, 7 },
	{ "Live/Bytes", TBL_PAIR, CT_COUNT_BYTES, C_LIVE_COUNT, C_LIVE_BYTES,
	  NULL, 4 },
	{ "Memcg bytes", TBL_RIGHT, CT_DOT, C_MEMCG, COL_NOFIELD, NULL, 8 },
	{ "Cache", TBL_LEFT, CT_STR, C_NAME, COL_NOFIELD, NULL, 1 },
};

static const struct col_sort cache_sorts[] = {
	{ SORT_BYTES, CACHE(bytes_alloc) },
	{ SORT_HIT, CACHE(allocs) },
	{ SORT_FRAG, COL_NUMFN(cache_frag) },
	{ SORT_LIVE, CACHE(live_bytes) },
};

const struct cols_def slab_cache_cols = {
	COLS_DEF(cache_fields, cache_cols, cache_sorts, struct slab_cache),
	.skip = cache_empty,
};

/* Where the anomalies are, per call site. */
enum { A_CALLSITE, A_ADDRESS, A_FREE_ONLY, A_DOUBLE, A_MISSED };

#define ANOM(m) COL_NUM64(struct slab_anomaly, m)

static uint64_t anomaly_count(const struct cols_ctx *c, const void *row)
{
	const struct slab_anomaly *a = row;

	(void)c;
	return a->free_only + a->double_frees + a->missed;
}

static const struct col_field anomaly_fields[] = {
	[A_CALLSITE] = { .key = "callsite",
			 .type = CF_CALLSITE,
			 .a = ANOM(call_site) },
	[A_ADDRESS] = { .key = "address",
			.type = CF_SITE_ADDR,
			.a = ANOM(call_site) },
	[A_FREE_ONLY] = { .key = "free_only",
			  .type = CF_U64,
			  .a = ANOM(free_only),
			  .known = cols_slab_frees_known },
	[A_DOUBLE] = { .key = "double_frees",
		       .type = CF_U64,
		       .a = ANOM(double_frees),
		       .known = cols_slab_frees_known },
	[A_MISSED] = { .key = "missed_frees",
		       .type = CF_COUNT_BYTES,
		       .a = ANOM(missed),
		       .b = ANOM(missed_bytes),
		       .known = cols_slab_frees_known },
};

/* The anomalies' columns, @double_frees the second one's header. */
/* clang-format off */
#define ANOMALY_COLS(double_frees) {					\
	{ "Freed-only", TBL_RIGHT, CT_DOT, A_FREE_ONLY, COL_NOFIELD, NULL, 2 },\
	{ double_frees, TBL_RIGHT, CT_DOT, A_DOUBLE, COL_NOFIELD, NULL, 3 },	\
	{ "Missed frees/Bytes", TBL_PAIR, CT_COUNT_BYTES, A_MISSED,		\
	  COL_NOFIELD, NULL, 4 },						\
	{ "Callsite", TBL_LEFT, CT_CALLSITE, A_CALLSITE, COL_NOFIELD, NULL, 1 },\
}
/* clang-format on */

static const struct col_text anomaly_cols[] = ANOMALY_COLS("Repeated frees");

static const struct col_sort anomaly_sorts[] = {
	{ SORT_CALLSITE, ANOM(call_site) },
	{ SORT_HIT, COL_NUMFN(anomaly_count) },
};

const struct cols_def slab_anomaly_cols = {
	COLS_DEF(anomaly_fields, anomaly_cols, anomaly_sorts,
		 struct slab_anomaly),
};

/* ... where the trace holds every allocation: they are double frees
 * (kmem_free_doubt(), as the summary says) */
static const struct col_text anomaly_double_cols[] =
	ANOMALY_COLS("Double frees");

const struct cols_def slab_anomaly_double_cols = {
	COLS_DEF(anomaly_fields, anomaly_double_cols, anomaly_sorts,
		 struct slab_anomaly),
};
