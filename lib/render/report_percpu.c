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
#include "sort.h"
#include "tables.h"

/* Bytes are bytes_alloc (6.0 and later) */
static const struct table_col caller_cols[] = {
	{ "Total alloc/Size", TBL_PAIR }, { "Total req/Size", TBL_PAIR },
	{ "Hits", TBL_RIGHT },	      { "Atomic", TBL_RIGHT },
	{ "Reserved", TBL_RIGHT },    { "Live/Bytes", TBL_PAIR },
	{ "Peak bytes", TBL_RIGHT },  { "Lifetime", TBL_RIGHT },
	{ "Callsite", TBL_LEFT },
};

/* ... or, without bytes_alloc, the sizes asked */
static const struct table_col size_cols[] = {
	{ "Total req/Size", TBL_PAIR }, { "Hits", TBL_RIGHT },
	{ "Atomic", TBL_RIGHT },	{ "Reserved", TBL_RIGHT },
	{ "Live/Bytes", TBL_PAIR },	{ "Peak bytes", TBL_RIGHT },
	{ "Lifetime", TBL_RIGHT },	{ "Callsite", TBL_LEFT },
};

static const struct table_col fail_cols[] = {
	{ "Failed", TBL_RIGHT },   { "Size", TBL_RIGHT },
	{ "Align", TBL_RIGHT },	   { "Atomic", TBL_LEFT },
	{ "Reserved", TBL_LEFT },
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
 * percpu_site_sort_keys - offer a per-CPU call site's row, with its keys
 * @set: the rows being sorted
 * @s: the call site
 * @idx: its index, which the set gives back
 */
void percpu_site_sort_keys(struct sort_set *set, const struct percpu_site *s,
			   uint32_t idx)
{
	sort_key(set, SORT_CALLSITE, s->call_site);
	sort_key(set, SORT_BYTES, s->bytes);
	sort_key(set, SORT_HIT, s->hits);
	sort_key(set, SORT_LIVE, s->live_bytes);
	sort_key(set, SORT_PEAK, s->peak_bytes);
	sort_add(set, idx);
}

static void site_rows(const struct kmem_report_ctx *r, struct sort_set *set)
{
	const struct percpu_stats *st = &r->agg->percpu;
	uint32_t i;

	for (i = 0; i < st->nr_sites; i++)
		percpu_site_sort_keys(set, &st->sites[i], i);
}

static void site_cells(const struct kmem_report_ctx *r, uint32_t idx,
		       char c[][KMEM_SYM_LEN])
{
	const struct percpu_site *s = &r->agg->percpu.sites[idx];
	int k = 0;

	if (!by_size(&r->agg->percpu.sum))
		fmt_total_size(c[k++], s->bytes, s->hits);
	fmt_total_size(c[k++], s->bytes_req, s->hits);
	fmt_count(c[k++], s->hits);
	fmt_count_dot(c[k++], s->atomic);
	fmt_count_dot(c[k++], s->reserved);
	fmt_count_bytes(c[k++], s->live_count, s->live_bytes);
	fmt_count_dot(c[k++], s->peak_bytes);
	fmt_mean_duration(c[k++], s->lifetime_sum, s->frees);
	if (!s->call_site)
		strcpy(c[k], "(no call_site field)");
	else
		fmt_callsite(c[k], r->sym, s->call_site, r->cfg->raw_ip);
}

static void fail_rows(const struct kmem_report_ctx *r, struct sort_set *set)
{
	const struct percpu_stats *st = &r->agg->percpu;
	uint32_t i;

	for (i = 0; i < st->nr_fails; i++) {
		const struct percpu_fail *f = &st->fails[i];

		sort_key(set, SORT_BYTES, f->size * f->count);
		sort_key(set, SORT_HIT, f->count);
		sort_add(set, i);
	}
}

static void fail_cells(const struct kmem_report_ctx *r, uint32_t idx,
		       char c[][KMEM_SYM_LEN])
{
	const struct percpu_fail *f = &r->agg->percpu.fails[idx];

	fmt_count(c[0], f->count);
	fmt_count(c[1], f->size);
	if (f->align == UINT64_MAX)
		strcpy(c[2], "-");
	else
		fmt_count(c[2], f->align);
	strcpy(c[3], f->atomic ? "yes" : "no");
	strcpy(c[4], f->reserved ? "yes" : "no");
}

enum percpu_table { T_CALLER, T_CALLER_SIZE, T_FAIL };

static const struct kmem_table tables[] = {
	[T_CALLER] = { caller_cols, TABLE_NCOLS(caller_cols), site_rows,
		       site_cells, SORT_KEYS_PERCPU_CALLER },
	[T_CALLER_SIZE] = { size_cols, TABLE_NCOLS(size_cols), site_rows,
			    site_cells, SORT_KEYS_PERCPU_CALLER },
	[T_FAIL] = { fail_cols, TABLE_NCOLS(fail_cols), fail_rows, fail_cells,
		     SORT_KEYS_PERCPU_FAIL },
};

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

	if (!r->in->merged && by_size(s))
		fprintf(out, " Bytes are the sizes asked, per CPU: this "
			     "kernel's percpu_alloc_percpu has\n no "
			     "bytes_alloc field (Linux 6.0 added it).\n\n");
	if (!r->in->merged && s->allocs && !have_sites(s))
		fprintf(out, " No call sites: this kernel's "
			     "percpu_alloc_percpu has no call_site field\n"
			     " (Linux 6.0 added it).\n\n");
	else if (!r->in->merged && kmem_render_text(r->cfg, KMEM_T_CALLER))
		report_table(r, out, &tables[by_size(s) ? T_CALLER_SIZE :
							  T_CALLER]);
	if (!r->in->merged && r->agg->percpu.nr_fails) {
		fprintf(out, " Failed allocations, by request\n");
		report_table(r, out, &tables[T_FAIL]);
	}
	lifetimes_print(r, out, KMEM_A_PERCPU);
	leaks_print(r, out, KMEM_A_PERCPU);
	print_summary(r, out);
}

static void json_fails(const struct kmem_report_ctx *r, struct json *j)
{
	const struct percpu_stats *st = &r->agg->percpu;
	struct sort_set set;
	size_t i;

	json_open(j, "failures", '{');
	json_u64(j, "count", st->sum.alloc_failures);
	if (!r->in->merged && !report_sorted(r, &tables[T_FAIL], &set)) {
		json_open(j, "requests", '[');
		for (i = 0; i < set.held; i++) {
			const struct percpu_fail *f =
				&st->fails[sort_idx(&set, i)];

			json_open(j, NULL, '{');
			json_u64(j, "size", f->size);
			if (f->align == UINT64_MAX)
				json_str(j, "align", NULL);
			else
				json_u64(j, "align", f->align);
			json_bool(j, "atomic", f->atomic);
			json_bool(j, "reserved", f->reserved);
			json_u64(j, "count", f->count);
			json_close(j, '}');
		}
		json_close(j, ']');
		sort_set_release(&set);
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

static void json_site(const struct kmem_report_ctx *r, struct json *j,
		      const struct percpu_site *s)
{
	char buf[KMEM_SYM_LEN];

	json_open(j, NULL, '{');
	json_str(j, "callsite", fmt_callsite(buf, r->sym, s->call_site,
					     r->cfg->raw_ip));
	json_str(j, "address", fmt_addr(buf, s->call_site));
	json_u64(j, "hits", s->hits);
	json_u64(j, "bytes", s->bytes);
	json_u64(j, "bytes_requested", s->bytes_req);
	json_u64(j, "atomic", s->atomic);
	json_u64(j, "reserved", s->reserved);
	json_u64(j, "frees", s->frees);
	json_u64(j, "live_count", s->live_count);
	json_u64(j, "live_bytes", s->live_bytes);
	json_u64(j, "peak_bytes", s->peak_bytes);
	json_mean(j, "mean_lifetime_ns", s->lifetime_sum, s->frees);
	lifetimes_json_site(j, &r->agg->percpu.life,
			    (uint32_t)(s - r->agg->percpu.sites));
	json_close(j, '}');
}

static void json_sites(const struct kmem_report_ctx *r, struct json *j)
{
	const struct percpu_stats *st = &r->agg->percpu;
	struct sort_set set;
	size_t i;

	if (st->sum.allocs && !have_sites(&st->sum)) {
		json_str(j, "callsites", NULL);	/* the format has none */
		return;
	}
	if (report_sorted(r, &tables[T_CALLER], &set))
		return;	/* out of memory: the array is left out */
	json_open(j, "callsites", '[');
	for (i = 0; i < set.held; i++)
		json_site(r, j, &st->sites[sort_idx(&set, i)]);
	json_close(j, ']');
	sort_set_release(&set);
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
	leaks_json(r, j, KMEM_A_PERCPU);
	json_close(j, '}');
}
