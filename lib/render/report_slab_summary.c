// SPDX-License-Identifier: LGPL-2.1
/*
 * The slab allocator's summary, the text part of the slab section that
 * follows its tables (report_slab.h).
 */
#include <stdio.h>
#include <string.h>

#include "base/numfmt.h"
#include "base/utf8.h"
#include "lc_cols.h"
#include "recorded.h"
#include "report_slab.h"
#include "report_slab_int.h"
#include "summary.h"

static const struct slab_stats *st_of(const struct sum_ctx *c)
{
	return c->base;
}

static uint64_t wasted_bytes(const struct sum_ctx *c)
{
	return wasted(st_of(c)->sum.bytes_req, st_of(c)->sum.bytes_alloc);
}

static uint64_t events_lost(const struct sum_ctx *c)
{
	return c->r->agg->events_lost;
}

static void json_frag(const struct sum_ctx *c, const struct sum_field *f,
		      struct json *j)
{
	json_pct(j, f->key,
		 frag_pct(st_of(c)->sum.bytes_req, st_of(c)->sum.bytes_alloc));
}

static const char *wasted_note(const struct sum_ctx *c, char *buf)
{
	snprintf(buf, SUM_NOTE_LEN, "(%.2f%% internal fragmentation)",
		 frag_pct(st_of(c)->sum.bytes_req, st_of(c)->sum.bytes_alloc));
	return buf;
}

/* Bytes charged to memory cgroups, and how the trace tells. */
static bool memcg_shown(const struct sum_ctx *c, const struct sum_field *f)
{
	return memcg_known(&st_of(c)->sum) || st_of(c)->sum.allocs;
}

static bool memcg_told(const struct sum_ctx *c)
{
	return memcg_known(&st_of(c)->sum);
}

static const char *memcg_note(const struct sum_ctx *c, char *buf)
{
	const struct slab_summary *s = &st_of(c)->sum;

	if (!memcg_known(s))
		return "(the events tell neither accounted nor __GFP_ACCOUNT)";
	if (!s->acct[KMEM_ACCT_GFP])
		return "(the accounted field)";
	if (!s->acct[KMEM_ACCT_FIELD])
		return "(__GFP_ACCOUNT in gfp_flags)";
	return "(the accounted field; __GFP_ACCOUNT where an event has none)";
}

/* Cross-node figures need a topology; without, the requests for one. */
static bool numa_known(const struct sum_ctx *c)
{
	return st_of(c)->numa;
}

static bool numa_shown(const struct sum_ctx *c, const struct sum_field *f)
{
	return st_of(c)->numa;
}

static bool node_requests_shown(const struct sum_ctx *c,
				const struct sum_field *f)
{
	return !st_of(c)->numa && st_of(c)->sum.node_requests;
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
	L_WASTED,
	L_CROSS_CPU,
	L_LIVE,
	L_MEMCG,
	L_NODE_REQUESTS,
	L_CROSS_NODE,
	L_GAP_ANOMALIES,
	L_DOUBLE,
	L_MISSED,
	L_NULL_FREES,
	L_ZERO_SIZE,
	L_OOM,
	L_SATURATED,
};

#define SUM(m) SUM_NUM64(struct slab_stats, sum.m)

/* The summary: its JSON members in order, each with its text line. */
static const struct sum_field sum_fields[] = {
	{ .key = "allocs", .a = SUM(allocs) },
	{ .key = "frees", .a = SUM(frees), .needs = SUM_NEEDS_FREE },
	SUM_FIELD("bytes_requested", "Total bytes requested", L_REQUESTED,
		  SUM(bytes_req)),
	SUM_FIELD("bytes_allocated", "Total bytes allocated", L_ALLOCATED,
		  SUM(bytes_alloc)),
	SUM_LC_FREED(struct slab_stats),
	SUM_FIELD("wasted_bytes", "Total bytes wasted", L_WASTED,
		  SUM_NUMFN(wasted_bytes), .note_fn = wasted_note),
	{ .key = "fragmentation_pct", .kind = SF_JSON, .json = json_frag },
	SUM_LC_CROSS_CPU(struct slab_stats),
	SUM_FIELD("alloc_failures", "Allocation failures", L_FAILURES,
		  SUM(alloc_failures)),
	{ .key = "events_lost", .a = SUM_NUMFN(events_lost) },
	SUM_LC_ENDS(struct slab_stats),
	SUM_LC_ANOMALIES(struct slab_stats),
	SUM_FIELD("null_frees", "Frees of NULL", L_NULL_FREES, SUM(null_frees),
		  .note = "(no-ops, not counted as frees)",
		  .show = sum_nonzero),
	SUM_FIELD("zero_size_allocs", "Zero-size allocations", L_ZERO_SIZE,
		  SUM(zero_size_allocs), .show = sum_nonzero),
	SUM_FIELD("cross_node_allocs", "Cross-node allocations", L_CROSS_NODE,
		  SUM(cross_node_allocs), .known = numa_known,
		  .note = "(asked for another node than the CPU's)",
		  .show = numa_shown),
	SUM_FIELD(NULL, "Allocations asking a node", L_NODE_REQUESTS,
		  SUM(node_requests),
		  .note = "(cross-node figures need a topology file)",
		  .show = node_requests_shown),
	SUM_FIELD(NULL, "Charged to memory cgroups", L_MEMCG, SUM(memcg_allocs),
		  .kind = SF_COUNT_BYTES, .b = SUM(memcg_bytes),
		  .note_fn = memcg_note, .show = memcg_shown,
		  .known = memcg_told),
	{ .key = "memcg", .kind = SF_OPEN },
	{ .key = "count", .a = SUM(memcg_allocs) },
	{ .key = "bytes", .a = SUM(memcg_bytes) },
	{ .key = "by_accounted_field", .a = SUM(acct[KMEM_ACCT_FIELD]) },
	{ .key = "by_gfp_account", .a = SUM(acct[KMEM_ACCT_GFP]) },
	{ .key = "unknown", .a = SUM(acct[KMEM_ACCT_UNKNOWN]) },
	{ .kind = SF_CLOSE },
	{ .line = L_GAP_TOTALS, .kind = SF_GAP },
	{ .line = L_GAP_ANOMALIES, .kind = SF_GAP },
	SUM_LC_OOM(struct slab_stats),
	SUM_FIELD(NULL, "Per-pointer counts past 2^32 (not counted)",
		  L_SATURATED, SUM_NUM64(struct slab_stats, saturated),
		  .show = sum_nonzero),
};

static const struct sum_def sum_def = {
	SUM_DEF(KMEM_ALLOC_SLAB, "slab allocator", sum_fields),
	.lc = SUM_LC(struct slab_stats, bytes_alloc),
};

/**
 * slab_json_summary - write the slab summary's JSON object
 * @r: what to write
 * @j: the writer, inside the "slab" object
 */
void slab_json_summary(const struct kmem_report_ctx *r, struct json *j)
{
	const struct sum_ctx c = { .def = &sum_def,
				   .base = slab_st(r->agg),
				   .r = r };

	sum_json(&c, "summary", j);
}

enum anomaly_kind { A_DOUBLE, A_FREE_ONLY, A_MISSED };

static uint64_t anomaly_of(const struct slab_anomaly *a, enum anomaly_kind k)
{
	return k == A_DOUBLE ? a->double_frees :
	       k == A_FREE_ONLY ? a->free_only : a->missed;
}

/*
 * Where most anomalies of a kind come from, in one line: "46 of 47
 * double frees are at rcu_do_batch+0x1b7", with what that place means
 * when it is RCU's: callbacks that free for every task.
 */
static void anomaly_reading(const struct kmem_report_ctx *r, FILE *out,
			    enum anomaly_kind k, uint64_t total)
{
	static const char *const what[] = {
		[A_DOUBLE] = "double frees are at",
		[A_FREE_ONLY] = "freed-only frees are at",
		[A_MISSED] = "missed frees are of objects allocated at",
	};
	const struct slab_stats *st = slab_st(r->agg);
	const struct slab_anomaly *top = NULL;
	char cs[KMEM_SYM_LEN], a[NUMFMT_LEN], b[NUMFMT_LEN];
	char why[KMEM_DOUBT_LEN];
	const char *doubt;
	size_t i;

	for (i = 0; i < st->nr_anoms; i++)
		if (!top || anomaly_of(&st->anoms[i], k) > anomaly_of(top, k))
			top = &st->anoms[i];
	if (total < 2 || !top || anomaly_of(top, k) * 2 <= total)
		return;
	fmt_callsite(cs, r->sym, top->call_site, false);
	utf8_plain_line(cs);
	doubt = k == A_DOUBLE
			? kmem_free_doubt(r, KMEM_ALLOC_SLAB, why, sizeof(why))
			: NULL;
	fprintf(out, " %s of %s %s %s", fmt_count(a, anomaly_of(top, k)),
		fmt_count(b, total), doubt ? "repeated frees are at" : what[k],
		cs);
	if (k == A_FREE_ONLY && strstr(cs, "rcu"))
		fprintf(out,
			":\n   frees by RCU callbacks, which run for every "
			"task: objects allocated before\n   the recording "
			"or by tasks it did not trace");
	else if (doubt && strstr(cs, "rcu"))
		fprintf(out,
			":\n   frees by RCU callbacks, which run for every "
			"task: objects whose allocation\n   the trace "
			"missed (%s), not a kernel bug",
			doubt);
	else if (k == A_MISSED)
		fprintf(out, ":\n   their frees passed no tracepoint, or "
			     "ran outside the traced processes");
	fputs(".\n", out);
}

/**
 * slab_print_summary - print the slab summary
 * @r: what to print (a merged summary: without the call sites)
 * @out: where to
 */
void slab_print_summary(const struct kmem_report_ctx *r, FILE *out)
{
	const struct slab_summary *s = &slab_st(r->agg)->sum;
	const struct sum_ctx c = { .def = &sum_def,
				   .base = slab_st(r->agg),
				   .r = r };

	sum_print(&c, out);
	if (r->in->merged)
		return;		/* no call sites in a merged summary */
	if (!kmem_recorded(r, KMEM_EV_SLAB_FREE))
		return; /* the counts are "-" */
	anomaly_reading(r, out, A_DOUBLE, s->double_frees);
	anomaly_reading(r, out, A_FREE_ONLY, s->free_only);
	anomaly_reading(r, out, A_MISSED, s->missed_frees);
}
