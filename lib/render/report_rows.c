// SPDX-License-Identifier: LGPL-2.1
/*
 * Reports as newline-delimited JSON rows (see report_rows.h): the JSON
 * document of a report, made in memory, its table rows written one a
 * line with the trace's members first.
 */
#include <string.h>

#include "alloc/registry.h"
#include "analysis/agg.h"
#include "base/jtree.h"
#include "report_rows.h"

/* The tables written, by their member name in an allocator's section. */
static const char *const tables[] = { "callsites", "caches",
				      "order_migratetype" };

/* The members every row of a report starts with. */
static void put_trace(struct json *j, const struct kmem_report_ctx *r,
		      const struct kmem_label *labels, size_t nr_labels)
{
	size_t i;
	int k;

	json_str(j, "schema", KMEM_ROWS_SCHEMA);
	json_str(j, "file", r->in->label);
	json_str(j, "host", r->in->host);
	json_str(j, "kernel_release", r->in->release);
	if (r->agg->last_ts) {
		json_u64(j, "start_ns", r->agg->first_ts);
		json_u64(j, "end_ns", r->agg->last_ts);
	} else {
		json_str(j, "start_ns", NULL);
		json_str(j, "end_ns", NULL);
	}
	json_open(j, "labels", '{');
	for (i = 0; i < nr_labels; i++)
		json_str(j, labels[i].key, labels[i].value);
	json_close(j, '}');
	for (k = 0; k < KMEM_NR_STREAM_COUNTS; k++)
		json_u64(j, kmem_stream_counts[k].key,
			 kmem_stream_count(r->agg, k));
}

/**
 * kmem_report_rows - write a report's table rows as NDJSON
 * @r: the report, not a merged summary
 * @labels: labels for every row (checked by the options)
 * @nr_labels: how many
 * @out: where to
 *
 * A line per row of each allocator's call-site, cache and order x
 * migration type tables, whichever tables the options print: the
 * members of put_trace(), then "allocator", its "complete", "table"
 * (the table's member name in the JSON document), then the row's own
 * members as the JSON document has them.
 *
 * Return: 0, or -1 when memory ran out for the document (no row was
 * written then).
 */
int kmem_report_rows(const struct kmem_report_ctx *r,
		     const struct kmem_label *labels, size_t nr_labels,
		     FILE *out)
{
	struct kmem_render_cfg cfg = *r->cfg;
	struct kmem_report_ctx tabs = *r;
	struct json j;
	unsigned int id;
	size_t t, i, k;

	cfg.json_tables = 1u << KMEM_T_CALLER | 1u << KMEM_T_CACHE;
	tabs.cfg = &cfg;
	json_init_tree(&j);
	kmem_report_json_to(&tabs, &j);
	if (j.oom || !j.root) {
		jt_free(j.root);
		return -1;
	}
	for (id = 0; id < KMEM_NR_ALLOC; id++) {
		const struct jt_node *a = jt_get(j.root, kmem_allocs[id].name);
		const struct jt_node *complete =
			a ? jt_get(a, "complete") : NULL;

		for (t = 0; a && t < sizeof(tables) / sizeof(tables[0]); t++) {
			const struct jt_node *rows = jt_get(a, tables[t]);

			for (i = 0; rows && rows->type == JT_ARR && i < rows->n;
			     i++) {
				const struct jt_node *row = rows->kids[i];
				struct json w;

				json_init(&w, out);
				w.compact = true;
				json_open(&w, NULL, '{');
				put_trace(&w, r, labels, nr_labels);
				json_str(&w, "allocator", kmem_allocs[id].name);
				if (complete && complete->type == JT_BOOL)
					json_bool(&w, "complete",
						  complete->v.b);
				json_str(&w, "table", tables[t]);
				for (k = 0; row->type == JT_OBJ && k < row->n;
				     k++)
					jt_write(row->kids[k], &w);
				json_close(&w, '}');
			}
		}
	}
	jt_free(j.root);
	return 0;
}
