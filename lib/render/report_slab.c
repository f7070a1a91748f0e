// SPDX-License-Identifier: LGPL-2.1
/*
 * Slab allocator tables, summary and JSON section.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/kvblock.h"
#include "base/numfmt.h"
#include "base/table.h"
#include "report.h"
#include "sort.h"

/* Bytes lost to internal fragmentation (0 if a record claims less). */
static uint64_t wasted(uint64_t req, uint64_t alloc)
{
	return alloc > req ? alloc - req : 0;
}

static double frag_pct(uint64_t req, uint64_t alloc)
{
	return pct_of(wasted(req, alloc), alloc);
}

/* Does the trace tell which allocations a memory cgroup was charged? */
static bool memcg_known(const struct slab_summary *s)
{
	return s->acct[KMEM_ACCT_FIELD] || s->acct[KMEM_ACCT_GFP];
}

/* The table of @which: its declaration (report_slab_cols.c), its rows. */
static void slab_table(const struct kmem_report_ctx *r, struct cols_ctx *c,
		       enum kmem_table_kind which)
{
	const struct slab_stats *st = &r->agg->slab;

	switch (which) {
	case KMEM_T_ALLOC:
		report_cols(r, c, &slab_ptr_cols, NULL,
			    st->rows ? (uint32_t)st->objs.len : 0, st);
		break;
	case KMEM_T_CACHE:
		report_cols(r, c, &slab_cache_cols, st->caches,
			    (uint32_t)st->nr_caches, st);
		break;
	case KMEM_T_ANOMALY:
		report_cols(r, c, &slab_anomaly_cols, st->anoms,
			    (uint32_t)st->nr_anoms, st);
		break;
	default:
		report_cols(r, c, &slab_site_cols, st->sites,
			    (uint32_t)st->nr_sites, st);
		break;
	}
}

/**
 * slab_sites - the slab call-site table
 * @r: the report
 * @c: set up here
 * @def: &slab_freed_site_cols for the call sites with frees, or NULL
 */
void slab_sites(const struct kmem_report_ctx *r, struct cols_ctx *c,
		const struct cols_def *def)
{
	slab_table(r, c, KMEM_T_CALLER);
	if (def)
		c->def = def;
}

static void print_table(const struct kmem_report_ctx *r, FILE *out,
			enum kmem_table_kind which)
{
	struct cols_ctx c;

	slab_table(r, &c, which);
	report_cols_table(r, out, &c);
}

/* Bytes charged to memory cgroups, and how the trace tells. */
static void summary_memcg(const struct slab_summary *s, struct kvblock *b)
{
	struct kv_line *l;

	if (!memcg_known(s)) {
		if (!s->allocs)
			return;
		l = kv_add(b, "Charged to memory cgroups", "-");
		snprintf(l->note, sizeof(l->note),
			 "(the events tell neither accounted nor "
			 "__GFP_ACCOUNT)");
		return;
	}
	l = kv_add_count_bytes(b, "Charged to memory cgroups", s->memcg_allocs,
			       s->memcg_bytes);
	snprintf(l->note, sizeof(l->note), "(%s)",
		 !s->acct[KMEM_ACCT_GFP] ? "the accounted field" :
		 !s->acct[KMEM_ACCT_FIELD] ? "__GFP_ACCOUNT in gfp_flags" :
				  "the accounted field; __GFP_ACCOUNT where "
				  "an event has none");
}

static void summary_groups(const struct slab_summary *s, struct kvblock *b)
{
	struct kv_line *l;

	kv_add_count_bytes(b, "Allocated+freed", s->alloc_freed_count,
			s->alloc_freed_bytes);
	kv_add_count_bytes(b, "Allocated-only", slab_alloc_only_count(s),
			slab_alloc_only_bytes(s));
	kv_add_count(b, "Freed-only", s->free_only);
	kv_add_count(b, "Allocation failures", s->alloc_failures);
	kv_gap(b);
	kv_add_count(b, "Total bytes requested", s->bytes_req);
	kv_add_count(b, "Total bytes allocated", s->bytes_alloc);
	kv_add_count(b, "Total bytes freed", s->alloc_freed_bytes);
	l = kv_add(b, "Net total bytes allocated", "");
	fmt_signed(l->value, (int64_t)(s->bytes_alloc - s->alloc_freed_bytes));
	l = kv_add(b, "Total bytes wasted", "");
	fmt_count(l->value, wasted(s->bytes_req, s->bytes_alloc));
	snprintf(l->note, sizeof(l->note), "(%.2f%% internal fragmentation)",
		 frag_pct(s->bytes_req, s->bytes_alloc));
	l = kv_add(b, "Cross-CPU frees", "");
	fmt_count(l->value, s->cross_cpu_frees);
	snprintf(l->note, sizeof(l->note), "(%.2f%% of matched frees)",
		 pct_of(s->cross_cpu_frees, s->alloc_freed_count));
	kv_add_count_bytes(b, "Live at end of trace", s->live_count,
			s->live_bytes);
	summary_memcg(s, b);
}

static void summary_numa(const struct slab_stats *st, struct kvblock *b)
{
	struct kv_line *l;

	if (!st->numa) {
		if (st->sum.node_requests) {
			l = kv_add(b, "Allocations asking a node", "");
			fmt_count(l->value, st->sum.node_requests);
			snprintf(l->note, sizeof(l->note),
				 "(cross-node figures need a topology file)");
		}
		return;
	}
	l = kv_add(b, "Cross-node allocations", "");
	fmt_count(l->value, st->sum.cross_node_allocs);
	snprintf(l->note, sizeof(l->note),
		 "(asked for another node than the CPU's)");
}

static void summary_anomalies(const struct slab_stats *st, struct kvblock *b)
{
	const struct slab_summary *s = &st->sum;
	struct kv_line *l;

	kv_gap(b);
	if (s->double_frees) {
		l = kv_add(b, "Double frees", "");
		fmt_count(l->value, s->double_frees);
		snprintf(l->note, sizeof(l->note),
			 "(a kernel bug, or an allocation not recorded)");
	}
	if (s->missed_frees) {
		kv_add_count_bytes(b, "Missed frees", s->missed_frees,
				s->missed_free_bytes);
		snprintf(b->lines[b->n - 1].note, KV_TEXT * 2,
			 "(address reused; its free was not recorded)");
	}
	if (s->null_frees) {
		l = kv_add(b, "Frees of NULL", "");
		fmt_count(l->value, s->null_frees);
		snprintf(l->note, sizeof(l->note),
			 "(no-ops, not counted as frees)");
	}
	if (s->zero_size_allocs)
		kv_add_count(b, "Zero-size allocations", s->zero_size_allocs);
	if (st->oom)
		kv_add_count(b, "Events not counted (out of memory)", st->oom);
	if (st->saturated)
		kv_add_count(b, "Per-pointer counts past 2^32 (not counted)",
			  st->saturated);
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
	const struct slab_stats *st = &r->agg->slab;
	const struct slab_anomaly *top = NULL;
	char cs[KMEM_SYM_LEN], a[NUMFMT_LEN], b[NUMFMT_LEN];
	size_t i;

	for (i = 0; i < st->nr_anoms; i++)
		if (!top || anomaly_of(&st->anoms[i], k) > anomaly_of(top, k))
			top = &st->anoms[i];
	if (total < 2 || !top || anomaly_of(top, k) * 2 <= total)
		return;
	fmt_callsite(cs, r->sym, top->call_site, false);
	fprintf(out, " %s of %s %s %s", fmt_count(a, anomaly_of(top, k)),
		fmt_count(b, total), what[k], cs);
	if (k != A_MISSED && strstr(cs, "rcu"))
		fprintf(out, ":\n   frees by RCU callbacks, which run for every "
			     "task: objects allocated outside\n   the traced "
			     "processes (set_event_pid), not a kernel bug");
	else if (k == A_MISSED)
		fprintf(out, ":\n   their frees passed no tracepoint, or "
			     "ran outside the traced processes");
	fputs(".\n", out);
}

static void print_summary(const struct kmem_report_ctx *r, FILE *out)
{
	const struct slab_summary *s = &r->agg->slab.sum;
	struct kvblock b;

	fprintf(out, " SUMMARY (slab allocator)\n"
		     " ========================\n\n");
	kv_init(&b);
	summary_groups(s, &b);
	summary_numa(&r->agg->slab, &b);
	summary_anomalies(&r->agg->slab, &b);
	kv_print(&b, out);
	if (r->in->merged)
		return;		/* no call sites in a merged summary */
	anomaly_reading(r, out, A_DOUBLE, s->double_frees);
	anomaly_reading(r, out, A_FREE_ONLY, s->free_only);
	anomaly_reading(r, out, A_MISSED, s->missed_frees);
}

/**
 * slab_print - print the selected slab tables and the slab summary
 * @r: what to print
 * @out: where to
 */
void slab_print(const struct kmem_report_ctx *r, FILE *out)
{
	const struct kmem_opts *o = r->o;

	if (r->in->merged) {
		print_summary(r, out);
		return;
	}
	if (kmem_opts_text_table(o, KMEM_T_CALLER))
		print_table(r, out, KMEM_T_CALLER);
	if (kmem_opts_text_table(o, KMEM_T_ALLOC) && r->agg->slab.rows)
		print_table(r, out, KMEM_T_ALLOC);
	if (kmem_opts_text_table(o, KMEM_T_CACHE))
		print_table(r, out, KMEM_T_CACHE);
	if (kmem_opts_text_table(o, KMEM_T_ANOMALY))
		print_table(r, out, KMEM_T_ANOMALY);
	lifetimes_print(r, out, KMEM_A_SLAB);
	leaks_print(r, out, KMEM_A_SLAB);
	print_summary(r, out);
}

static void json_summary(const struct kmem_report_ctx *r, struct json *j)
{
	const struct slab_summary *s = &r->agg->slab.sum;

	json_open(j, "summary", '{');
	json_u64(j, "allocs", s->allocs);
	json_u64(j, "frees", s->frees);
	json_u64(j, "bytes_requested", s->bytes_req);
	json_u64(j, "bytes_allocated", s->bytes_alloc);
	json_u64(j, "bytes_freed", s->alloc_freed_bytes);
	json_i64(j, "net_bytes", (int64_t)(s->bytes_alloc -
					   s->alloc_freed_bytes));
	json_u64(j, "wasted_bytes", wasted(s->bytes_req, s->bytes_alloc));
	json_pct(j, "fragmentation_pct", frag_pct(s->bytes_req,
						  s->bytes_alloc));
	json_u64(j, "cross_cpu_frees", s->cross_cpu_frees);
	json_u64(j, "alloc_failures", s->alloc_failures);
	json_u64(j, "events_lost", r->agg->events_lost);
	json_open(j, "alloc_freed", '{');
	json_u64(j, "count", s->alloc_freed_count);
	json_u64(j, "bytes", s->alloc_freed_bytes);
	json_close(j, '}');
	json_open(j, "alloc_only", '{');
	json_u64(j, "count", slab_alloc_only_count(s));
	json_u64(j, "bytes", slab_alloc_only_bytes(s));
	json_close(j, '}');
	json_open(j, "free_only", '{');
	json_u64(j, "count", s->free_only);
	json_close(j, '}');
	json_open(j, "live", '{');
	json_u64(j, "count", s->live_count);
	json_u64(j, "bytes", s->live_bytes);
	json_close(j, '}');
	json_open(j, "missed_frees", '{');
	json_u64(j, "count", s->missed_frees);
	json_u64(j, "bytes", s->missed_free_bytes);
	json_close(j, '}');
	json_u64(j, "double_frees", s->double_frees);
	json_u64(j, "null_frees", s->null_frees);
	json_u64(j, "zero_size_allocs", s->zero_size_allocs);
	if (r->agg->slab.numa)
		json_u64(j, "cross_node_allocs", s->cross_node_allocs);
	else
		json_str(j, "cross_node_allocs", NULL);
	json_open(j, "memcg", '{');
	json_u64(j, "count", s->memcg_allocs);
	json_u64(j, "bytes", s->memcg_bytes);
	json_u64(j, "by_accounted_field", s->acct[KMEM_ACCT_FIELD]);
	json_u64(j, "by_gfp_account", s->acct[KMEM_ACCT_GFP]);
	json_u64(j, "unknown", s->acct[KMEM_ACCT_UNKNOWN]);
	json_close(j, '}');
	json_close(j, '}');
}

static void json_rows(const struct kmem_report_ctx *r, struct json *j,
		      enum kmem_table_kind which)
{
	static const char *const key[] = {
		[KMEM_T_CALLER] = "callsites", [KMEM_T_ALLOC] = "allocs",
		[KMEM_T_CACHE] = "caches", [KMEM_T_ANOMALY] = "anomalies",
	};
	struct cols_ctx c;

	slab_table(r, &c, which);
	report_cols_json(r, j, key[which], &c);	/* out of memory: left out */
}

/**
 * slab_json - write the "slab" member of the JSON document
 * @r: what to write
 * @j: the writer, inside the top-level object
 *
 * Arrays hold every row, in table order, whatever lines= says.
 */
void slab_json(const struct kmem_report_ctx *r, struct json *j)
{
	int i;

	json_open(j, "slab", '{');
	json_u64(j, "events", r->agg->slab_events);
	json_bool(j, "complete", r->in->nr_elsewhere == 0 &&
				 !r->agg->events_lost &&
				 !r->agg->lost_unknown && !r->agg->slab.oom &&
				 !r->agg->slab.saturated &&
				 !r->agg->undecodable &&
				 !kmem_agg_damaged(r->agg));
	json_open(j, "handled_elsewhere", '[');
	for (i = 0; i < r->in->nr_elsewhere; i++)
		json_str(j, NULL, r->in->elsewhere[i]);
	json_close(j, ']');
	json_summary(r, j);
	if (!r->in->merged) {
		if (kmem_opts_json_table(r->o, KMEM_T_CALLER))
			json_rows(r, j, KMEM_T_CALLER);
		if (kmem_opts_json_table(r->o, KMEM_T_ALLOC) && r->agg->slab.rows)
			json_rows(r, j, KMEM_T_ALLOC);
		if (kmem_opts_json_table(r->o, KMEM_T_CACHE))
			json_rows(r, j, KMEM_T_CACHE);
		if (kmem_opts_json_table(r->o, KMEM_T_ANOMALY))
			json_rows(r, j, KMEM_T_ANOMALY);
		leaks_json(r, j, KMEM_A_SLAB);
	}
	json_close(j, '}');
}
