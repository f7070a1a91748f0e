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
#include "recorded.h"
#include "report_slab_int.h"
#include "sort.h"
#include "tables.h"

/* The table of @which: its declaration (report_slab_cols.c), its rows. */
static void slab_table(const struct kmem_report_ctx *r, struct cols_ctx *c,
		       enum kmem_table_kind which)
{
	const struct slab_stats *st = slab_st(r->agg);

	switch (which) {
	case KMEM_T_ALLOC:
		report_cols(r, c, &slab_ptr_cols, NULL,
			    st->rows ? (uint32_t)st->objs.len : 0, st);
		break;
	case KMEM_T_CACHE:
		report_cols(r, c, &slab_cache_cols, st->caches,
			    (uint32_t)st->nr_caches, st);
		break;
	case KMEM_T_ANOMALY: {
		char why[KMEM_DOUBT_LEN];

		/* "Repeated frees" or "Double frees", as the summary says */
		report_cols(
			r, c,
			kmem_free_doubt(r, KMEM_ALLOC_SLAB, why, sizeof(why))
				? &slab_anomaly_cols
				: &slab_anomaly_double_cols,
			st->anoms, (uint32_t)st->nr_anoms, st);
		break;
	}
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
		print_table(r, out, KMEM_T_CALLER);
	if (kmem_render_text(c, KMEM_T_ALLOC) && slab_st(r->agg)->rows)
		print_table(r, out, KMEM_T_ALLOC);
	if (kmem_render_text(c, KMEM_T_CACHE))
		print_table(r, out, KMEM_T_CACHE);
	if (kmem_render_text(c, KMEM_T_ANOMALY))
		print_table(r, out, KMEM_T_ANOMALY);
	lifetimes_print(r, out, KMEM_ALLOC_SLAB);
	leaks_print(r, out, KMEM_ALLOC_SLAB);
	slab_print_summary(r, out);
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
	json_u64(j, "events", r->agg->events[KMEM_ALLOC_SLAB]);
	json_bool(j, "complete",
		  r->in->nr_elsewhere == 0 &&
			  !report_unsure(r, KMEM_ALLOC_SLAB) &&
			  !r->agg->events_lost && !r->agg->lost_unknown &&
			  !slab_st(r->agg)->oom &&
			  !slab_st(r->agg)->saturated &&
			  !kmem_agg_left_out(r->agg) &&
			  !kmem_agg_damaged(r->agg));
	json_open(j, "handled_elsewhere", '[');
	for (i = 0; i < r->in->nr_elsewhere; i++)
		json_str(j, NULL, r->in->elsewhere[i]);
	json_close(j, ']');
	slab_json_summary(r, j);
	if (!r->in->merged) {
		if (kmem_render_json(r->cfg, KMEM_T_CALLER))
			json_rows(r, j, KMEM_T_CALLER);
		if (kmem_render_json(r->cfg, KMEM_T_ALLOC) &&
		    slab_st(r->agg)->rows)
			json_rows(r, j, KMEM_T_ALLOC);
		if (kmem_render_json(r->cfg, KMEM_T_CACHE))
			json_rows(r, j, KMEM_T_CACHE);
		if (kmem_render_json(r->cfg, KMEM_T_ANOMALY))
			json_rows(r, j, KMEM_T_ANOMALY);
		leaks_json(r, j, KMEM_ALLOC_SLAB);
	}
	json_close(j, '}');
}
