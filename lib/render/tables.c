// SPDX-License-Identifier: LGPL-2.1
/*
 * A table of rows (see tables.h): its rows in order for the JSON, its
 * first lines= rows printed as a text table.
 */
#include <stdio.h>
#include <string.h>

#include "alloc/registry.h"
#include "recorded.h"
#include "tables.h"

/**
 * report_cols - start a table on the column model
 * @r: the report
 * @c: the table, set up here
 * @def: its declaration
 * @base: its entry 0 (rows at def->stride apart, or def->row())
 * @nr: its entries
 * @priv: what its callbacks read besides the rows, or NULL
 *
 * Its figures of frees are unknown ("-", null) for the allocators whose
 * frees the report says were not recorded (cols_slab_frees_known() ...).
 */
void report_cols(const struct kmem_report_ctx *r, struct cols_ctx *c,
		 const struct cols_def *def, const void *base, uint32_t nr,
		 const void *priv)
{
	unsigned int id;

	memset(c, 0, sizeof(*c));
	c->def = def;
	c->base = base;
	c->nr = nr;
	c->priv = priv;
	c->sym = r->sym;
	c->raw_ip = r->cfg->raw_ip;
	for (id = 0; id < KMEM_NR_ALLOC; id++)
		if (r->agg && !kmem_recorded(r, kmem_allocs[id].free_kind))
			c->frees_unknown |= 1u << id;
}

/**
 * report_cols_sorted - every row of a table, in order (for JSON)
 * @r: the report (sort=)
 * @c: the table
 * @s: set up and filled here; sort_set_release() it
 *
 * Return: 0, or -1 when memory ran out (@s holds no rows then).
 */
int report_cols_sorted(const struct kmem_report_ctx *r,
		       const struct cols_ctx *c, struct sort_set *s)
{
	sort_set_init(s, &r->cfg->sort, cols_keys(c->def), 0);
	cols_offer(c, s);
	if (s->oom) {
		sort_set_release(s);
		return -1;
	}
	sort_finish(s);
	return 0;
}

/**
 * report_cols_table - print a table's first lines= rows in order
 * @r: the report (sort=, lines=, width=)
 * @out: where to
 * @c: the table
 *
 * Only the rows printed are kept while the table's rows are offered.
 */
void report_cols_table(const struct kmem_report_ctx *r, FILE *out,
		       const struct cols_ctx *c)
{
	struct sort_set s;

	sort_set_init(&s, &r->cfg->sort, cols_keys(c->def), r->cfg->lines);
	cols_offer(c, &s);
	if (s.oom) {
		sort_set_release(&s);
		fprintf(out, " (out of memory: table left out)\n");
		return;
	}
	sort_finish(&s);
	cols_print(c, &s, r->cfg->width, r->cfg->fit, out);
	sort_set_release(&s);
	fputc('\n', out);
}

/**
 * report_cols_json - write every row of a table as a JSON array
 * @r: the report (sort=)
 * @j: the writer
 * @key: the array's member name
 * @c: the table
 *
 * Return: 0, or -1 when memory ran out (nothing is written then, and
 * @j->oom says a part was left out).
 */
int report_cols_json(const struct kmem_report_ctx *r, struct json *j,
		     const char *key, const struct cols_ctx *c)
{
	struct sort_set s;

	if (report_cols_sorted(r, c, &s)) {
		j->oom = true;
		return -1;
	}
	cols_json_table(c, &s, key, j);
	sort_set_release(&s);
	return 0;
}
