// SPDX-License-Identifier: LGPL-2.1
/*
 * Slab allocator tables, summary and JSON section.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/numfmt.h"
#include "base/table.h"
#include "report_leaks.h"
#include "report_lifetimes.h"
#include "report_slab.h"
#include "report_slab_int.h"
#include "sort.h"
#include "tables.h"

static const struct table_col caller_cols[] = {
	{ "Total alloc/Size", TBL_PAIR }, { "Total req/Size", TBL_PAIR },
	{ "Hits", TBL_RIGHT },	      { "Ping-pong", TBL_RIGHT },
	{ "Frag", TBL_RIGHT },	      { "Live/Bytes", TBL_PAIR },
	{ "Peak bytes", TBL_RIGHT },  { "Memcg bytes", TBL_RIGHT },
	{ "Lifetime", TBL_RIGHT },    { "Callsite", TBL_LEFT },
};

static const struct table_col alloc_cols[] = {
	{ "Total alloc/Size", TBL_PAIR }, { "Total req/Size", TBL_PAIR },
	{ "Hits", TBL_RIGHT },	      { "Ping-pong", TBL_RIGHT },
	{ "Frag", TBL_RIGHT },	      { "Live bytes", TBL_RIGHT },
	{ "Lifetime", TBL_RIGHT },    { "Alloc ptr", TBL_LEFT },
	{ "Callsite", TBL_LEFT },
};

static const struct table_col cache_cols[] = {
	{ "Total alloc/Size", TBL_PAIR }, { "Total req/Size", TBL_PAIR },
	{ "Allocs", TBL_RIGHT },      { "Frees", TBL_RIGHT },
	{ "Frag", TBL_RIGHT },	      { "Live/Bytes", TBL_PAIR },
	{ "Memcg bytes", TBL_RIGHT }, { "Cache", TBL_LEFT },
};

static const struct table_col anomaly_cols[] = {
	{ "Freed-only", TBL_RIGHT },  { "Double frees", TBL_RIGHT },
	{ "Missed frees/Bytes", TBL_PAIR }, { "Callsite", TBL_LEFT },
};

static char *fmt_memcg(char *buf, const struct slab_summary *s, uint64_t v)
{
	if (!memcg_known(s))
		return strcpy(buf, "-");
	return fmt_count_dot(buf, v);
}

static void json_memcg(struct json *j, const struct slab_summary *s,
		       uint64_t v)
{
	if (memcg_known(s))
		json_u64(j, "memcg_bytes", v);
	else
		json_str(j, "memcg_bytes", NULL);
}

/**
 * slab_site_sort_keys - offer a slab call site's row, with its sort keys
 * @set: the rows being sorted
 * @s: the call site
 * @idx: its index, which the set gives back
 */
void slab_site_sort_keys(struct sort_set *set, const struct slab_site *s,
			 uint32_t idx)
{
	sort_key(set, SORT_CALLSITE, s->call_site);
	sort_key(set, SORT_BYTES, s->bytes_alloc);
	sort_key(set, SORT_HIT, s->hits);
	sort_key(set, SORT_PINGPONG, s->pingpong);
	sort_key(set, SORT_FRAG, sort_frag_key(s->bytes_req, s->bytes_alloc));
	sort_key(set, SORT_LIVE, s->live_bytes);
	sort_key(set, SORT_PEAK, s->peak_bytes);
	sort_add(set, idx);
}

static void site_rows(const struct kmem_report_ctx *r, struct sort_set *set)
{
	const struct slab_stats *st = &r->agg->slab;
	uint32_t i;

	for (i = 0; i < st->nr_sites; i++)
		slab_site_sort_keys(set, &st->sites[i], i);
}

/* Addresses in the order of their first allocation (entry order). */
static void ptr_rows(const struct kmem_report_ctx *r, struct sort_set *set)
{
	const struct slab_stats *st = &r->agg->slab;
	uint32_t i;

	if (!st->rows)
		return;
	for (i = 0; i < st->objs.len; i++) {
		const struct slab_obj_row *p = slab_row_at(st, i);
		bool live = p->o.flags & SLAB_OBJ_LIVE;

		sort_key(set, SORT_PTR, p->o.ptr);
		sort_key(set, SORT_CALLSITE, st->sites[p->o.site].call_site);
		sort_key(set, SORT_BYTES, p->bytes_alloc);
		sort_key(set, SORT_HIT, p->hits);
		sort_key(set, SORT_PINGPONG, p->pingpong);
		sort_key(set, SORT_FRAG,
			 sort_frag_key(p->bytes_req, p->bytes_alloc));
		sort_key(set, SORT_LIVE, live ? p->o.bytes : 0);
		sort_add(set, i);
	}
}

/* Cache rows that hold something (an "(unnamed)" row may be emptied). */
static void cache_rows(const struct kmem_report_ctx *r, struct sort_set *set)
{
	const struct slab_stats *st = &r->agg->slab;
	uint32_t i;

	for (i = 0; i < st->nr_caches; i++) {
		const struct slab_cache *c = &st->caches[i];

		if (!c->allocs && !c->frees && !c->free_only)
			continue;
		sort_key(set, SORT_BYTES, c->bytes_alloc);
		sort_key(set, SORT_HIT, c->allocs);
		sort_key(set, SORT_FRAG,
			 sort_frag_key(c->bytes_req, c->bytes_alloc));
		sort_key(set, SORT_LIVE, c->live_bytes);
		sort_add(set, i);
	}
}

static uint64_t anomaly_count(const struct slab_anomaly *a)
{
	return a->free_only + a->double_frees + a->missed;
}

static void anomaly_rows(const struct kmem_report_ctx *r,
			 struct sort_set *set)
{
	const struct slab_stats *st = &r->agg->slab;
	uint32_t i;

	for (i = 0; i < st->nr_anoms; i++) {
		sort_key(set, SORT_CALLSITE, st->anoms[i].call_site);
		sort_key(set, SORT_HIT, anomaly_count(&st->anoms[i]));
		sort_add(set, i);
	}
}

static void anomaly_cells(const struct kmem_report_ctx *r, uint32_t idx,
			  char c[][KMEM_SYM_LEN])
{
	const struct slab_anomaly *a = &r->agg->slab.anoms[idx];

	fmt_count_dot(c[0], a->free_only);
	fmt_count_dot(c[1], a->double_frees);
	fmt_count_bytes(c[2], a->missed, a->missed_bytes);
	fmt_callsite(c[3], r->sym, a->call_site, r->cfg->raw_ip);
}

enum slab_table { T_CALLER, T_ALLOC, T_CACHE, T_ANOMALY };

static void site_cells(const struct kmem_report_ctx *r, uint32_t idx,
		       char c[][KMEM_SYM_LEN])
{
	const struct slab_site *s = &r->agg->slab.sites[idx];

	fmt_total_size(c[0], s->bytes_alloc, s->hits);
	fmt_total_size(c[1], s->bytes_req, s->hits);
	fmt_count(c[2], s->hits);
	fmt_count_dot(c[3], s->pingpong);
	fmt_pct(c[4], frag_pct(s->bytes_req, s->bytes_alloc));
	fmt_count_bytes(c[5], s->live_count, s->live_bytes);
	fmt_count_dot(c[6], s->peak_bytes);
	fmt_memcg(c[7], &r->agg->slab.sum, s->memcg_bytes);
	fmt_mean_duration(c[8], s->lifetime_sum, s->frees);
	fmt_callsite(c[9], r->sym, s->call_site, r->cfg->raw_ip);
}

static void ptr_cells(const struct kmem_report_ctx *r, uint32_t idx,
		      char c[][KMEM_SYM_LEN])
{
	const struct slab_stats *st = &r->agg->slab;
	const struct slab_obj_row *p = slab_row_at(st, idx);
	bool live = p->o.flags & SLAB_OBJ_LIVE;

	fmt_total_size(c[0], p->bytes_alloc, p->hits);
	fmt_total_size(c[1], p->bytes_req, p->hits);
	fmt_count(c[2], p->hits);
	fmt_count_dot(c[3], p->pingpong);
	fmt_pct(c[4], frag_pct(p->bytes_req, p->bytes_alloc));
	fmt_count_dot(c[5], live ? p->o.bytes : 0);
	fmt_mean_duration(c[6], p->lifetime_sum, p->frees);
	fmt_addr(c[7], p->o.ptr);
	fmt_callsite(c[8], r->sym, st->sites[p->o.site].call_site,
		     r->cfg->raw_ip);
}

static void cache_cells(const struct kmem_report_ctx *r, uint32_t idx,
			char c[][KMEM_SYM_LEN])
{
	const struct slab_cache *cc = &r->agg->slab.caches[idx];

	fmt_total_size(c[0], cc->bytes_alloc, cc->allocs);
	fmt_total_size(c[1], cc->bytes_req, cc->allocs);
	fmt_count_dot(c[2], cc->allocs);
	/* freed-only frees count: a cache seen only in them is not empty */
	fmt_count_dot(c[3], cc->frees + cc->free_only);
	fmt_pct(c[4], frag_pct(cc->bytes_req, cc->bytes_alloc));
	fmt_count_bytes(c[5], cc->live_count, cc->live_bytes);
	fmt_memcg(c[6], &r->agg->slab.sum, cc->memcg_bytes);
	snprintf(c[7], KMEM_SYM_LEN, "%s", slab_cache_name(&r->agg->slab, cc));
}

static const struct kmem_table tables[] = {
	[T_CALLER] = { caller_cols, TABLE_NCOLS(caller_cols), site_rows,
		       site_cells, SORT_KEYS_SLAB_CALLER },
	[T_ALLOC] = { alloc_cols, TABLE_NCOLS(alloc_cols), ptr_rows, ptr_cells,
		      SORT_KEYS_SLAB_ALLOC },
	[T_CACHE] = { cache_cols, TABLE_NCOLS(cache_cols), cache_rows,
		      cache_cells, SORT_KEYS_SLAB_CACHE },
	[T_ANOMALY] = { anomaly_cols, TABLE_NCOLS(anomaly_cols), anomaly_rows,
			anomaly_cells, SORT_KEYS_SLAB_ANOMALY },
};

static void print_table(const struct kmem_report_ctx *r, FILE *out,
			enum slab_table which)
{
	report_table(r, out, &tables[which]);
}

/**
 * slab_print - print the selected slab tables and the slab summary
 * @r: what to print
 * @out: where to
 */
void slab_print(const struct kmem_report_ctx *r, FILE *out)
{
	const struct kmem_render_cfg *c = r->cfg;

	if (r->in->merged) {
		slab_print_summary(r, out);
		return;
	}
	if (kmem_render_text(c, KMEM_T_CALLER))
		print_table(r, out, T_CALLER);
	if (kmem_render_text(c, KMEM_T_ALLOC) && r->agg->slab.rows)
		print_table(r, out, T_ALLOC);
	if (kmem_render_text(c, KMEM_T_CACHE))
		print_table(r, out, T_CACHE);
	if (kmem_render_text(c, KMEM_T_ANOMALY))
		print_table(r, out, T_ANOMALY);
	lifetimes_print(r, out, KMEM_A_SLAB);
	leaks_print(r, out, KMEM_A_SLAB);
	slab_print_summary(r, out);
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
	json_u64(j, "count", kmem_lc_alloc_only_count(&s->lc));
	json_u64(j, "bytes", kmem_lc_alloc_only_bytes(&s->lc, s->bytes_alloc));
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

static void json_site(const struct kmem_report_ctx *r, struct json *j,
		      const struct slab_site *s)
{
	char buf[KMEM_SYM_LEN];

	json_open(j, NULL, '{');
	json_str(j, "callsite", fmt_callsite(buf, r->sym, s->call_site,
					     r->cfg->raw_ip));
	json_str(j, "address", fmt_addr(buf, s->call_site));
	json_u64(j, "hits", s->hits);
	json_u64(j, "failures", s->failures);
	json_u64(j, "bytes_req", s->bytes_req);
	json_u64(j, "bytes_alloc", s->bytes_alloc);
	json_u64(j, "frees", s->frees);
	json_u64(j, "pingpong", s->pingpong);
	json_pct(j, "frag_pct", frag_pct(s->bytes_req, s->bytes_alloc));
	json_u64(j, "live_count", s->live_count);
	json_u64(j, "live_bytes", s->live_bytes);
	json_u64(j, "peak_bytes", s->peak_bytes);
	json_memcg(j, &r->agg->slab.sum, s->memcg_bytes);
	json_mean(j, "mean_lifetime_ns", s->lifetime_sum, s->frees);
	lifetimes_json_site(j, &r->agg->slab.life,
			    (uint32_t)(s - r->agg->slab.sites));
	json_close(j, '}');
}

static void json_ptr(const struct kmem_report_ctx *r, struct json *j,
		     const struct slab_obj_row *p)
{
	uint64_t cs = r->agg->slab.sites[p->o.site].call_site;
	bool live = p->o.flags & SLAB_OBJ_LIVE;
	char buf[KMEM_SYM_LEN];

	json_open(j, NULL, '{');
	json_str(j, "ptr", fmt_addr(buf, p->o.ptr));
	json_str(j, "callsite", fmt_callsite(buf, r->sym, cs, r->cfg->raw_ip));
	json_str(j, "address", fmt_addr(buf, cs));
	json_u64(j, "hits", p->hits);
	json_u64(j, "bytes_req", p->bytes_req);
	json_u64(j, "bytes_alloc", p->bytes_alloc);
	json_u64(j, "frees", p->frees);
	json_u64(j, "pingpong", p->pingpong);
	json_pct(j, "frag_pct", frag_pct(p->bytes_req, p->bytes_alloc));
	json_bool(j, "live", live);
	json_u64(j, "live_bytes", live ? p->o.bytes : 0);
	json_mean(j, "mean_lifetime_ns", p->lifetime_sum, p->frees);
	json_close(j, '}');
}

static void json_cache(const struct kmem_report_ctx *r, struct json *j,
		       const struct slab_cache *c)
{
	json_open(j, NULL, '{');
	json_str(j, "name", slab_cache_name(&r->agg->slab, c));
	json_u64(j, "allocs", c->allocs);
	json_u64(j, "frees", c->frees);
	json_u64(j, "free_only", c->free_only);
	json_u64(j, "bytes_req", c->bytes_req);
	json_u64(j, "bytes_alloc", c->bytes_alloc);
	json_pct(j, "frag_pct", frag_pct(c->bytes_req, c->bytes_alloc));
	json_u64(j, "live_count", c->live_count);
	json_u64(j, "live_bytes", c->live_bytes);
	json_memcg(j, &r->agg->slab.sum, c->memcg_bytes);
	json_close(j, '}');
}

static void json_anomaly(const struct kmem_report_ctx *r, struct json *j,
			 const struct slab_anomaly *a)
{
	char buf[KMEM_SYM_LEN];

	json_open(j, NULL, '{');
	json_str(j, "callsite",
		 fmt_callsite(buf, r->sym, a->call_site, r->cfg->raw_ip));
	json_str(j, "address", fmt_addr(buf, a->call_site));
	json_u64(j, "free_only", a->free_only);
	json_u64(j, "double_frees", a->double_frees);
	json_count_bytes(j, "missed_frees", a->missed, a->missed_bytes);
	json_close(j, '}');
}

static void json_rows(const struct kmem_report_ctx *r, struct json *j,
		      enum slab_table which)
{
	static const char *const key[] = { "callsites", "allocs", "caches",
					    "anomalies" };
	const struct slab_stats *st = &r->agg->slab;
	struct sort_set set;
	size_t i;

	if (report_sorted(r, &tables[which], &set))
		return;	/* out of memory: the array is left out */
	json_open(j, key[which], '[');
	for (i = 0; i < set.held; i++) {
		uint32_t x = sort_idx(&set, i);

		if (which == T_CALLER)
			json_site(r, j, &st->sites[x]);
		else if (which == T_ALLOC)
			json_ptr(r, j, slab_row_at(st, x));
		else if (which == T_CACHE)
			json_cache(r, j, &st->caches[x]);
		else
			json_anomaly(r, j, &st->anoms[x]);
	}
	json_close(j, ']');
	sort_set_release(&set);
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
		if (kmem_render_json(r->cfg, KMEM_T_CALLER))
			json_rows(r, j, T_CALLER);
		if (kmem_render_json(r->cfg, KMEM_T_ALLOC) && r->agg->slab.rows)
			json_rows(r, j, T_ALLOC);
		if (kmem_render_json(r->cfg, KMEM_T_CACHE))
			json_rows(r, j, T_CACHE);
		if (kmem_render_json(r->cfg, KMEM_T_ANOMALY))
			json_rows(r, j, T_ANOMALY);
		leaks_json(r, j, KMEM_A_SLAB);
	}
	json_close(j, '}');
}
