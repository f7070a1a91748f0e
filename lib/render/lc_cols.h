/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * What the report shows of the object lifecycle (alloc/lifecycle.h),
 * declared once for the allocators that share it.
 *
 * The call-site table of an allocator whose rows start with struct
 * kmem_lc_site (KMEM_LC_SITE: per-CPU, vmalloc): its fields include
 * LC_SITE_COUNTS() and LC_SITE_LIFECYCLE(), its text columns
 * LC_SITE_TEXT(), it sorts by lc_site_sorts, and its table of the call
 * sites with frees (kmem:lifetimes) skips the others with
 * lc_site_unfreed().  The table's cols_ctx.priv is the allocator's
 * struct kmem_lifetimes.
 *
 * The summary of an allocator whose statistics hold the lifecycle
 * (KMEM_LC, and KMEM_LC_COUNTS in its summary "sum": slab, per-CPU,
 * vmalloc): its fields include SUM_LC_FREED(), SUM_LC_ENDS(),
 * SUM_LC_ANOMALIES(), SUM_LC_CROSS_CPU() and SUM_LC_OOM(), and its
 * sum_def.lc says where the numbers they derive are (SUM_LC()).  The
 * page allocator, whose lines read otherwise, uses the callbacks and
 * SUM_LC_OOM() only.
 *
 * The LC_ and SUM_LC_ macros expand to a run of array initializers, so
 * that a table keeps its own fields around them in the order of its
 * JSON members.  The table's enum names the fields of an LC_ run in
 * the run's order from the index given (an overlap with the table's
 * own fields is an error: -Woverride-init).  A SUM_LC_ run puts its
 * text lines where the summary's line enum says: that enum names them
 * L_FREED, L_NET, L_ALLOC_FREED, L_ALLOC_ONLY, L_FREE_ONLY, L_LIVE,
 * L_MISSED, L_DOUBLE, L_CROSS_CPU and L_OOM.
 */
#ifndef KMEM_LC_COLS_H
#define KMEM_LC_COLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "alloc/lifecycle.h"
#include "base/json.h"
#include "cols.h"
#include "summary.h"

#define LC_SITE(m) COL_NUM64(struct kmem_lc_site, m)

/*
 * LC_SITE_COUNTS(i) - the call site's fields "address", "hits" and
 * "bytes", at @i, @i + 1 and @i + 2
 */
#define LC_SITE_COUNTS(i)                                                      \
	[(i)] = { .key = "address",                                            \
		  .type = CF_SITE_ADDR,                                        \
		  .a = LC_SITE(call_site) },                                   \
	[(i) + 1] = { .key = "hits", .type = CF_U64, .a = LC_SITE(hits) },     \
	[(i) + 2] = { .key = "bytes", .type = CF_U64, .a = LC_SITE(bytes) }

/*
 * LC_SITE_LIFECYCLE(i, known_fn) - the call site's fields "frees",
 * "live_count", "live_bytes", "peak_bytes", "mean_lifetime_ns" and
 * "lifetime_hist" (the lifetime members: lifetimes_json_site()), from @i
 * on; the first four unknown when @known_fn (the allocator's
 * cols_*_frees_known()) says its frees were not recorded
 */
#define LC_SITE_LIFECYCLE(i, known_fn)                                         \
	[(i)] = { .key = "frees",                                              \
		  .type = CF_U64,                                              \
		  .a = LC_SITE(frees),                                         \
		  .known = known_fn },                                         \
	[(i) + 1] = { .key = "live_count",                                     \
		      .type = CF_U64,                                          \
		      .a = LC_SITE(live_count),                                \
		      .known = known_fn },                                     \
	[(i) + 2] = { .key = "live_bytes",                                     \
		      .type = CF_U64,                                          \
		      .a = LC_SITE(live_bytes),                                \
		      .known = known_fn },                                     \
	[(i) + 3] = { .key = "peak_bytes",                                     \
		      .type = CF_U64,                                          \
		      .a = LC_SITE(peak_bytes),                                \
		      .known = known_fn },                                     \
	[(i) + 4] = { .key = "mean_lifetime_ns",                               \
		      .type = CF_MEAN,                                         \
		      .a = LC_SITE(lifetime_sum),                              \
		      .b = LC_SITE(frees) },                                   \
	[(i) + 5] = { .key = "lifetime_hist",                                  \
		      .type = CF_JSON,                                         \
		      .json = lc_site_hist }

/*
 * LC_SITE_TEXT(i, live, peak, life) - the text columns "Live/Bytes",
 * "Peak bytes" and "Lifetime" of the fields LC_SITE_LIFECYCLE(@i)
 * declared, of importance @live, @peak and @life (col_text.rank)
 */
/* clang-format off */
#define LC_SITE_TEXT(i, live, peak, life)                                      \
	{ "Live/Bytes", TBL_PAIR, CT_COUNT_BYTES, (i) + 1, (i) + 2, NULL,      \
	  live },                                                              \
	{ "Peak bytes", TBL_RIGHT, CT_DOT, (i) + 3, COL_NOFIELD, NULL, peak }, \
	{ "Lifetime", TBL_RIGHT, CT_MEAN_DURATION, (i) + 4, COL_NOFIELD, NULL, \
	  life }
/* clang-format on */

/* The sort keys of such a table: call site, bytes, hits, live, peak. */
#define LC_SITE_NR_SORTS 5
extern const struct col_sort lc_site_sorts[LC_SITE_NR_SORTS];

void lc_site_hist(const struct cols_ctx *c, const void *row, struct json *j);
bool lc_site_unfreed(const struct cols_ctx *c, const void *row);

/*
 * SUM_LC(T, b) - the struct sum_lc (sum_def.lc) of statistics @T, whose
 * summary "sum" counts the bytes of every allocation in member @b
 */
#define SUM_LC(T, b)                                                           \
	{                                                                      \
		.counts = offsetof(T, sum.lc), .bytes = SUM_NUM64(T, sum.b),   \
		.cross_cpu = SUM_NUM64(T, sum.cross_cpu_frees)                 \
	}

uint64_t sum_lc_alloc_only_count(const struct sum_ctx *c);
uint64_t sum_lc_alloc_only_bytes(const struct sum_ctx *c);
uint64_t sum_lc_net_bytes(const struct sum_ctx *c);
const char *sum_lc_cross_cpu_note(const struct sum_ctx *c, char *buf);

/* The SUM_LC_ runs are laid out as the tables they go in. */
/* clang-format off */
#define SUM_LC_NUM(T, m) SUM_NUM64(T, sum.m)

/* SUM_LC_FREED(T) - "bytes_freed" and "net_bytes" of statistics @T */
#define SUM_LC_FREED(T)                                                        \
	SUM_FIELD("bytes_freed", "Total bytes freed", L_FREED,                 \
		  SUM_LC_NUM(T, alloc_freed_bytes), .needs = SUM_NEEDS_FREE),  \
	SUM_FIELD("net_bytes", "Net total bytes allocated", L_NET,             \
		  SUM_NUMFN(sum_lc_net_bytes), .kind = SF_SIGNED,              \
		  .needs = SUM_NEEDS_FREE)

/*
 * SUM_LC_ENDS(T) - how the allocations of statistics @T ended:
 * "alloc_freed", "alloc_only", "free_only" (an object: "count") and
 * "live"
 */
#define SUM_LC_ENDS(T)                                                         \
	SUM_FIELD("alloc_freed", "Allocated+freed", L_ALLOC_FREED,             \
		  SUM_LC_NUM(T, alloc_freed_count), .kind = SF_COUNT_BYTES,    \
		  .b = SUM_LC_NUM(T, alloc_freed_bytes),                       \
		  .needs = SUM_NEEDS_FREE),                                    \
	SUM_FIELD("alloc_only", "Allocated-only", L_ALLOC_ONLY,                \
		  SUM_NUMFN(sum_lc_alloc_only_count), .kind = SF_COUNT_BYTES,  \
		  .b = SUM_NUMFN(sum_lc_alloc_only_bytes),                     \
		  .needs = SUM_NEEDS_FREE),                                    \
	{ .key = "free_only", .kind = SF_OPEN },                               \
	SUM_FIELD("count", "Freed-only", L_FREE_ONLY,                          \
		  SUM_LC_NUM(T, free_only), .needs = SUM_NEEDS_FREE),          \
	{ .kind = SF_CLOSE },                                                  \
	SUM_FIELD("live", "Live at end of trace", L_LIVE,                      \
		  SUM_LC_NUM(T, live_count), .kind = SF_COUNT_BYTES,           \
		  .b = SUM_LC_NUM(T, live_bytes), .needs = SUM_NEEDS_FREE)

/* SUM_LC_ANOMALIES(T) - "missed_frees" and "double_frees" of @T */
#define SUM_LC_ANOMALIES(T)                                                    \
	SUM_FIELD("missed_frees", "Missed frees", L_MISSED,                    \
		  SUM_LC_NUM(T, missed_frees), .kind = SF_COUNT_BYTES,         \
		  .b = SUM_LC_NUM(T, missed_free_bytes),                       \
		  .note = SUM_NOTE_MISSED, .show = sum_nonzero,                \
		  .needs = SUM_NEEDS_FREE),                                    \
	SUM_DOUBLE_FREES(SUM_LC_NUM(T, double_frees), L_DOUBLE)

/* SUM_LC_CROSS_CPU(T) - "cross_cpu_frees" of @T, with its share */
#define SUM_LC_CROSS_CPU(T)                                                    \
	SUM_FIELD("cross_cpu_frees", "Cross-CPU frees", L_CROSS_CPU,           \
		  SUM_LC_NUM(T, cross_cpu_frees),                              \
		  .note_fn = sum_lc_cross_cpu_note, .needs = SUM_NEEDS_FREE)

/* SUM_LC_OOM(T) - the text line of the events @T dropped (lc.oom) */
#define SUM_LC_OOM(T)                                                          \
	SUM_FIELD(NULL, "Events not counted (out of memory)", L_OOM,           \
		  SUM_NUM64(T, oom), .show = sum_nonzero)
/* clang-format on */

#endif
