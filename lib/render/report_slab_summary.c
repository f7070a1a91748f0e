// SPDX-License-Identifier: LGPL-2.1
/*
 * The slab allocator's summary, the text part of the slab section that
 * follows its tables (report_slab.h).
 */
#include <stdio.h>
#include <string.h>

#include "base/kvblock.h"
#include "base/numfmt.h"
#include "report_slab.h"
#include "report_slab_int.h"

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
	kv_add_count_bytes(b, "Allocated-only",
			   kmem_lc_alloc_only_count(&s->lc),
			   kmem_lc_alloc_only_bytes(&s->lc, s->bytes_alloc));
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

/**
 * slab_print_summary - print the slab summary
 * @r: what to print (a merged summary: without the call sites)
 * @out: where to
 */
void slab_print_summary(const struct kmem_report_ctx *r, FILE *out)
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
