// SPDX-License-Identifier: LGPL-2.1
/*
 * Page allocator tables, summary and JSON section, in the layout of
 * Namhyung Kim's perf kmem --page as Ingo Molnar's review reshaped it.
 */
#include <stdlib.h>
#include <string.h>

#include "base/kvblock.h"
#include "base/numfmt.h"
#include "report_leaks.h"
#include "report_page.h"
#include "tables.h"

static const struct table_col site_cols[] = {
	{ "Total alloc/Size", TBL_PAIR }, { "Hits", TBL_RIGHT },
	{ "Order", TBL_RIGHT },		  { "Migration type", TBL_LEFT },
	{ "GFP flags", TBL_FOLD },	  { "Callsite", TBL_LEFT },
};

static const struct table_col pfn_cols[] = {
	{ "PFN", TBL_LEFT },		  { "Total alloc/Size", TBL_PAIR },
	{ "Hits", TBL_RIGHT },		  { "Order", TBL_RIGHT },
	{ "Migration type", TBL_LEFT },	  { "GFP flags", TBL_FOLD },
	{ "Callsite", TBL_LEFT },
};

/* Orders shown in the order table: 0 up to the highest one allocated. */
#define SHOWN_ORDERS 1

/* The table columns of the raw migration types: 3 and up are Special. */
static int mt_column(const struct kmem_symbolizer *sym, int mt)
{
	const char *name = migratetype_name(sym, mt);

	if (!strcmp(name, "Unmovable"))
		return 0;
	if (!strcmp(name, "Reclaimable"))
		return 1;
	if (!strcmp(name, "Movable"))
		return 2;
	return 3;
}

static const char *const mt_columns[] = { "Unmovable", "Reclaimable",
					  "Movable", "Special" };

static char *fmt_callsite_of(const struct kmem_report_ctx *r, char *buf,
			     uint64_t cs)
{
	if (cs == PAGE_NO_STACK)
		return strcpy(buf, "(no stack)");
	return fmt_callsite(buf, r->sym, cs, r->cfg->raw_ip);
}

static void site_rows(const struct kmem_report_ctx *r, struct sort_set *set)
{
	const struct page_stats *st = &r->agg->page;
	bool live = r->cfg->live;
	uint32_t i;

	for (i = 0; i < st->nr_sites; i++) {
		const struct page_site *s = &st->sites[i];

		if (live && !s->live_count)
			continue;
		sort_key(set, SORT_CALLSITE, s->callsite);
		sort_key(set, SORT_BYTES, live ? s->live_bytes : s->bytes);
		sort_key(set, SORT_HIT, live ? s->live_count : s->hits);
		sort_key(set, SORT_ORDER, (uint64_t)s->order);
		sort_key(set, SORT_MIGTYPE, (uint64_t)s->migratetype);
		sort_key(set, SORT_GFP, s->gfp);
		sort_key(set, SORT_LIVE, s->live_bytes);
		sort_add(set, i);
	}
}

/*
 * What a page frame's last allocation was: its call site row's, or when
 * that row could not be made (out of memory), its size only.
 */
struct pfn_info {
	uint64_t callsite, gfp;
	int order, migratetype;
};

static void pfn_info(const struct page_stats *st, const struct page_obj *p,
		     struct pfn_info *in)
{
	const struct page_site *s;

	if (p->site == U64_INDEX_NONE) {
		in->callsite = PAGE_NO_STACK;
		in->gfp = 0;
		in->order = p->border;
		in->migratetype = -1;
		return;
	}
	s = &st->sites[p->site];
	in->callsite = s->callsite;
	in->gfp = s->gfp;
	in->order = s->order;
	in->migratetype = s->migratetype;
}

/* Page frames in the order of their first allocation (entry order). */
static void pfn_rows(const struct kmem_report_ctx *r, struct sort_set *set)
{
	const struct page_stats *st = &r->agg->page;
	uint32_t i;

	if (!st->rows)
		return;
	for (i = 0; i < st->objs.len; i++) {
		const struct page_obj_row *p = page_row_at(st, i);
		bool live = p->o.flags & PAGE_OBJ_LIVE;
		uint64_t cur = page_obj_bytes(st, &p->o);
		struct pfn_info in;

		if (r->cfg->live && !live)
			continue;
		pfn_info(st, &p->o, &in);
		sort_key(set, SORT_PAGE, p->o.pfn);
		sort_key(set, SORT_CALLSITE, in.callsite);
		sort_key(set, SORT_BYTES, r->cfg->live ? cur : p->bytes);
		sort_key(set, SORT_HIT, p->hits);
		sort_key(set, SORT_ORDER, (uint64_t)in.order);
		sort_key(set, SORT_MIGTYPE, (uint64_t)in.migratetype);
		sort_key(set, SORT_GFP, in.gfp);
		sort_key(set, SORT_LIVE, live ? cur : 0);
		sort_add(set, i);
	}
}

static void site_cells(const struct kmem_report_ctx *r, uint32_t idx,
		       char c[][KMEM_SYM_LEN])
{
	const struct page_site *s = &r->agg->page.sites[idx];
	bool live = r->cfg->live;

	fmt_total_size(c[0], live ? s->live_bytes : s->bytes,
		       live ? s->live_count : s->hits);
	fmt_count(c[1], live ? s->live_count : s->hits);
	snprintf(c[2], KMEM_SYM_LEN, "%d", s->order);
	snprintf(c[3], KMEM_SYM_LEN, "%s",
		 migratetype_name(r->sym, s->migratetype));
	fmt_gfp(c[4], KMEM_SYM_LEN, r->sym, s->gfp);
	fmt_callsite_of(r, c[5], s->callsite);
}

static void pfn_cells(const struct kmem_report_ctx *r, uint32_t idx,
		      char c[][KMEM_SYM_LEN])
{
	const struct page_stats *st = &r->agg->page;
	const struct page_obj_row *p = page_row_at(st, idx);
	bool live = r->cfg->live;
	struct pfn_info in;

	pfn_info(st, &p->o, &in);
	fmt_addr(c[0], p->o.pfn);
	fmt_total_size(c[1], live ? page_obj_bytes(st, &p->o) : p->bytes,
		       live ? 1 : p->hits);
	fmt_count(c[2], p->hits);
	snprintf(c[3], KMEM_SYM_LEN, "%d", in.order);
	snprintf(c[4], KMEM_SYM_LEN, "%s",
		 migratetype_name(r->sym, in.migratetype));
	fmt_gfp(c[5], KMEM_SYM_LEN, r->sym, in.gfp);
	fmt_callsite_of(r, c[6], in.callsite);
}

static const struct kmem_table site_table = {
	site_cols, TABLE_NCOLS(site_cols), site_rows, site_cells,
	SORT_KEYS_PAGE_CALLER
};

static const struct kmem_table pfn_table = {
	pfn_cols, TABLE_NCOLS(pfn_cols), pfn_rows, pfn_cells, SORT_KEYS_PAGE_PFN
};

/* Allocation counts per order and table column (raw types merged). */
static void order_table(const struct kmem_report_ctx *r,
			uint64_t m[PAGE_MAX_ORDER][4], int *orders)
{
	const struct page_summary *s = &r->agg->page.sum;
	int o, t;

	memset(m, 0, sizeof(uint64_t) * PAGE_MAX_ORDER * 4);
	*orders = SHOWN_ORDERS;
	for (o = 0; o < PAGE_MAX_ORDER; o++)
		for (t = 0; t < PAGE_NR_MT; t++) {
			if (!s->order_mt[o][t])
				continue;
			m[o][mt_column(r->sym, t)] += s->order_mt[o][t];
			if (o + 1 > *orders)
				*orders = o + 1;
		}
}

static void print_orders(const struct kmem_report_ctx *r, FILE *out)
{
	static const struct table_col cols[] = {
		{ "Order", TBL_RIGHT },	      { "Unmovable", TBL_RIGHT },
		{ "Reclaimable", TBL_RIGHT }, { "Movable", TBL_RIGHT },
		{ "Special", TBL_RIGHT },
	};
	uint64_t m[PAGE_MAX_ORDER][4];
	char cell[5][NUMFMT_LEN];
	const char *cp[5] = { cell[0], cell[1], cell[2], cell[3], cell[4] };
	struct table t;
	int o, c, orders;

	order_table(r, m, &orders);
	table_init(&t, cols, 5, TBL_MATRIX);
	for (o = 0; o < orders; o++) {
		snprintf(cell[0], NUMFMT_LEN, "%d", o);
		for (c = 0; c < 4; c++)
			fmt_count_dot(cell[c + 1], m[o][c]);
		table_add_row(&t, cp);
	}
	table_print(&t, out);
	table_release(&t);
	fputc('\n', out);
}

static void add_pages(struct kvblock *b, const char *label, uint64_t n,
		      uint64_t bytes)
{
	struct kv_line *l = kv_add(b, label, "");

	fmt_count(l->value, n);
	fmt_count(l->bytes, bytes);
}

static void summary_block(const struct kmem_report_ctx *r, struct kvblock *b)
{
	const struct page_summary *s = &r->agg->page.sum;
	char num[NUMFMT_LEN];
	struct kv_line *l;

	add_pages(b, "Pages allocated+freed", s->alloc_freed_count,
		  s->alloc_freed_bytes);
	kv_gap(b);
	add_pages(b, "Pages allocated-only", kmem_lc_alloc_only_count(&s->lc),
		  kmem_lc_alloc_only_bytes(&s->lc, s->alloc_bytes));
	add_pages(b, "Pages freed-only", s->free_only, s->free_only_bytes);
	kv_gap(b);
	add_pages(b, "Page allocation failures", s->failures,
		  s->failure_bytes);
	kv_gap(b);
	add_pages(b, "Allocations", s->allocs, s->alloc_bytes);
	add_pages(b, "Frees", s->frees, s->free_bytes);
	add_pages(b, "Live at end of trace", s->live_count, s->live_bytes);
	l = kv_add(b, "Batched frees", "");
	fmt_count(l->value, s->batched_frees);
	l = kv_add(b, "Allocated under the zone lock", "");
	fmt_count(l->value, s->zone_locked);
	snprintf(l->note, sizeof(l->note), "(per-CPU list refills: %s)",
		 fmt_count(num, s->pcpu_refills));
	l = kv_add(b, "Per-CPU drains", "");
	fmt_count(l->value, s->pcpu_drains);
	if (s->double_frees) {
		l = kv_add(b, "Double frees", "");
		fmt_count(l->value, s->double_frees);
	}
	if (s->missed_frees) {
		add_pages(b, "Missed frees", s->missed_frees,
			  s->missed_free_bytes);
		snprintf(b->lines[b->n - 1].note, KV_TEXT * 2,
			 "(pfn reused; its free was not recorded)");
	}
	if (r->agg->page.oom) {
		l = kv_add(b, "Events not counted (out of memory)", "");
		fmt_count(l->value, r->agg->page.oom);
	}
	if (r->agg->page.saturated) {
		l = kv_add(b, "Per-page counts past 2^32 (not counted)", "");
		fmt_count(l->value, r->agg->page.saturated);
	}
	if (!r->agg->page.numa)
		return;
	kv_gap(b);
	add_pages(b, "Remote allocations", s->remote_allocs,
		  s->remote_alloc_bytes);
	snprintf(b->lines[b->n - 1].note, KV_TEXT * 2,
		 "(page on another node than the CPU)");
	add_pages(b, "Cross-node frees", s->cross_frees, s->cross_free_bytes);
	snprintf(b->lines[b->n - 1].note, KV_TEXT * 2,
		 "(freed on another node than the page's)");
}

static void print_stacks_note(const struct kmem_report_ctx *r, FILE *out)
{
	const struct page_summary *s = &r->agg->page.sum;
	char a[NUMFMT_LEN], b[NUMFMT_LEN];

	if (!s->allocs)
		return;
	if (!s->stacks) {
		fprintf(out, "\n No kernel stacks follow the page allocations: "
			     "call sites show as (no stack).\n"
			     " Record them with trace-cmd record -T, trace-kmem live -T,\n"
			     " or 'echo stacktrace > events/kmem/mm_page_alloc/"
			     "trigger'.\n");
		return;
	}
	if (s->stacks < s->allocs)
		fprintf(out, "\n Call sites from kernel stacks: %s of %s "
			     "allocations had one.\n",
			fmt_count(a, s->stacks), fmt_count(b, s->allocs));
}

static void print_fallbacks(const struct kmem_report_ctx *r, FILE *out)
{
	static const struct table_col cols[] = {
		{ "Requested", TBL_LEFT },   { "Fallback", TBL_LEFT },
		{ "Fallbacks", TBL_RIGHT },  { "Fragmenting", TBL_RIGHT },
		{ "Ownership changed", TBL_RIGHT },
	};
	const struct page_summary *s = &r->agg->page.sum;
	char cell[5][NUMFMT_LEN];
	const char *cp[5] = { cell[0], cell[1], cell[2], cell[3], cell[4] };
	struct table t;
	int a, f, rows = 0;

	table_init(&t, cols, 5, TBL_MATRIX);
	for (a = 0; a < PAGE_NR_MT; a++)
		for (f = 0; f < PAGE_NR_MT; f++) {
			const struct page_fallback *fb = &s->fb[a][f];

			if (!fb->fallbacks)
				continue;
			snprintf(cell[0], NUMFMT_LEN, "%s",
				 migratetype_name(r->sym, a));
			snprintf(cell[1], NUMFMT_LEN, "%s",
				 migratetype_name(r->sym, f));
			fmt_count_dot(cell[2], fb->fallbacks);
			fmt_count_dot(cell[3], fb->fragmenting);
			fmt_count_dot(cell[4], fb->ownership);
			table_add_row(&t, cp);
			rows++;
		}
	if (rows) {
		fprintf(out, " Fragmentation fallbacks (mm_page_alloc_extfrag)"
			     "\n\n");
		table_print(&t, out);
		fputc('\n', out);
	}
	table_release(&t);
}

/**
 * page_print - print the selected page tables and the page summary
 * @r: what to print
 * @out: where to
 */
void page_print(const struct kmem_report_ctx *r, FILE *out)
{
	const struct kmem_render_cfg *c = r->cfg;
	bool tables = !r->in->merged;	/* merged: summaries only */
	struct kvblock b;

	if (tables && kmem_render_text(c, KMEM_T_CALLER))
		report_table(r, out, &site_table);
	if (tables && kmem_render_text(c, KMEM_T_ALLOC) && r->agg->page.rows)
		report_table(r, out, &pfn_table);
	leaks_print(r, out, KMEM_A_PAGE);
	fprintf(out, " SUMMARY (page allocator)\n"
		     " ========================\n\n");
	kv_init(&b);
	summary_block(r, &b);
	kv_print(&b, out);
	if (tables)
		print_stacks_note(r, out);
	if (!r->agg->page.numa)
		fprintf(out, "\n Cross-node figures need a topology: "
			     "kmem:numa=FILE or --numa FILE\n"
			     " (Documentation/kmem-numa.txt)."
			     "\n");
	fputc('\n', out);
	print_orders(r, out);
	print_fallbacks(r, out);
	if (tables && c->per_process)
		page_procs_print(r, out);
}

static void json_summary(const struct kmem_report_ctx *r, struct json *j)
{
	const struct page_summary *s = &r->agg->page.sum;

	json_open(j, "summary", '{');
	json_u64(j, "allocs", s->allocs);
	json_u64(j, "alloc_bytes", s->alloc_bytes);
	json_u64(j, "frees", s->frees);
	json_u64(j, "free_bytes", s->free_bytes);
	json_u64(j, "batched_frees", s->batched_frees);
	json_count_bytes(j, "failures", s->failures, s->failure_bytes);
	json_count_bytes(j, "alloc_freed", s->alloc_freed_count,
			 s->alloc_freed_bytes);
	json_count_bytes(j, "alloc_only", kmem_lc_alloc_only_count(&s->lc),
			 kmem_lc_alloc_only_bytes(&s->lc, s->alloc_bytes));
	json_count_bytes(j, "free_only", s->free_only, s->free_only_bytes);
	json_count_bytes(j, "live", s->live_count, s->live_bytes);
	json_count_bytes(j, "missed_frees", s->missed_frees,
			 s->missed_free_bytes);
	json_u64(j, "double_frees", s->double_frees);
	json_u64(j, "zone_locked", s->zone_locked);
	json_u64(j, "pcpu_refills", s->pcpu_refills);
	json_u64(j, "pcpu_drains", s->pcpu_drains);
	json_u64(j, "stacks", s->stacks);
	json_u64(j, "events_lost", r->agg->events_lost);
	json_close(j, '}');
}

static void json_orders(const struct kmem_report_ctx *r, struct json *j)
{
	uint64_t m[PAGE_MAX_ORDER][4];
	int o, c, orders;

	order_table(r, m, &orders);
	json_open(j, "order_migratetype", '[');
	for (o = 0; o < orders; o++)
		for (c = 0; c < 4; c++) {
			if (!m[o][c])
				continue;
			json_open(j, NULL, '{');
			json_u64(j, "order", (uint64_t)o);
			json_str(j, "migratetype", mt_columns[c]);
			json_u64(j, "count", m[o][c]);
			json_close(j, '}');
		}
	json_close(j, ']');
}

static void json_site(const struct kmem_report_ctx *r, struct json *j,
		      const struct page_site *s)
{
	char buf[KMEM_SYM_LEN];

	json_open(j, NULL, '{');
	json_str(j, "callsite", fmt_callsite_of(r, buf, s->callsite));
	json_str(j, "address", fmt_addr(buf, s->callsite));
	json_u64(j, "hits", r->cfg->live ? s->live_count : s->hits);
	json_u64(j, "bytes", r->cfg->live ? s->live_bytes : s->bytes);
	json_i64(j, "order", s->order);
	json_str(j, "migratetype", migratetype_name(r->sym, s->migratetype));
	json_str(j, "gfp", fmt_gfp(buf, sizeof(buf), r->sym, s->gfp));
	json_str(j, "gfp_value", fmt_addr(buf, s->gfp));
	json_u64(j, "live_count", s->live_count);
	json_u64(j, "live_bytes", s->live_bytes);
	json_close(j, '}');
}

static void json_pfn(const struct kmem_report_ctx *r, struct json *j,
		     const struct page_obj_row *p)
{
	const struct page_stats *st = &r->agg->page;
	char buf[KMEM_SYM_LEN];
	struct pfn_info in;

	pfn_info(st, &p->o, &in);
	json_open(j, NULL, '{');
	json_str(j, "pfn", fmt_addr(buf, p->o.pfn));
	json_u64(j, "hits", p->hits);
	json_u64(j, "bytes",
		 r->cfg->live ? page_obj_bytes(st, &p->o) : p->bytes);
	json_u64(j, "frees", p->frees);
	json_i64(j, "order", in.order);
	json_str(j, "migratetype", migratetype_name(r->sym, in.migratetype));
	json_str(j, "gfp", fmt_gfp(buf, sizeof(buf), r->sym, in.gfp));
	json_str(j, "callsite", fmt_callsite_of(r, buf, in.callsite));
	json_bool(j, "live", p->o.flags & PAGE_OBJ_LIVE);
	json_close(j, '}');
}

static void json_sites(const struct kmem_report_ctx *r, struct json *j)
{
	struct sort_set set;
	size_t i;

	if (report_sorted(r, &site_table, &set))
		return;	/* out of memory: the array is left out */
	json_open(j, "callsites", '[');
	for (i = 0; i < set.held; i++)
		json_site(r, j, &r->agg->page.sites[sort_idx(&set, i)]);
	json_close(j, ']');
	sort_set_release(&set);
}

static void json_pfns(const struct kmem_report_ctx *r, struct json *j)
{
	struct sort_set set;
	size_t i;

	if (!r->agg->page.rows || report_sorted(r, &pfn_table, &set))
		return;
	json_open(j, "pages", '[');
	for (i = 0; i < set.held; i++)
		json_pfn(r, j, page_row_at(&r->agg->page, sort_idx(&set, i)));
	json_close(j, ']');
	sort_set_release(&set);
}

static void json_extfrag(const struct kmem_report_ctx *r, struct json *j)
{
	const struct page_summary *s = &r->agg->page.sum;
	int a, f;

	json_open(j, "extfrag", '[');
	for (a = 0; a < PAGE_NR_MT; a++)
		for (f = 0; f < PAGE_NR_MT; f++) {
			const struct page_fallback *fb = &s->fb[a][f];

			if (!fb->fallbacks)
				continue;
			json_open(j, NULL, '{');
			json_str(j, "requested", migratetype_name(r->sym, a));
			json_str(j, "fallback", migratetype_name(r->sym, f));
			json_u64(j, "fallbacks", fb->fallbacks);
			json_u64(j, "fragmenting", fb->fragmenting);
			json_u64(j, "ownership_changes", fb->ownership);
			json_close(j, '}');
		}
	json_close(j, ']');
}

static void json_cross_node(const struct kmem_report_ctx *r, struct json *j)
{
	const struct page_summary *s = &r->agg->page.sum;

	if (!r->agg->page.numa) {
		json_str(j, "cross_node", NULL);
		return;
	}
	json_open(j, "cross_node", '{');
	json_count_bytes(j, "remote_allocs", s->remote_allocs,
			 s->remote_alloc_bytes);
	json_count_bytes(j, "cross_frees", s->cross_frees,
			 s->cross_free_bytes);
	json_close(j, '}');
}

/**
 * page_json - write the "page" member of the JSON document
 * @r: what to write
 * @j: the writer, inside the top-level object
 */
void page_json(const struct kmem_report_ctx *r, struct json *j)
{
	json_open(j, "page", '{');
	json_u64(j, "events", r->agg->page_events);
	json_bool(j, "complete", !r->agg->events_lost &&
				 !r->agg->lost_unknown &&
				 !r->agg->page.oom && !r->agg->page.saturated &&
				 !r->agg->undecodable &&
				 !kmem_agg_damaged(r->agg));
	json_summary(r, j);
	json_orders(r, j);
	if (!r->in->merged) {
		if (kmem_render_json(r->cfg, KMEM_T_CALLER))
			json_sites(r, j);
		if (kmem_render_json(r->cfg, KMEM_T_ALLOC))
			json_pfns(r, j);
		leaks_json(r, j, KMEM_A_PAGE);
	}
	json_extfrag(r, j);
	if (!r->in->merged)
		page_procs_json(r, j);
	json_cross_node(r, j);
	json_close(j, '}');
}
