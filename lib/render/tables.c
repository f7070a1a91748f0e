// SPDX-License-Identifier: LGPL-2.1
/*
 * A table of rows (see tables.h): its rows in order for the JSON, its
 * first lines= rows printed as a text table.
 */
#include <stdio.h>

#include "tables.h"

/**
 * report_sorted - all rows of a table, in order (for JSON)
 * @r: the report
 * @t: the table
 * @s: set up and filled here; sort_set_release() it
 *
 * Return: 0, or -1 when memory ran out (@s holds no rows then).
 */
int report_sorted(const struct kmem_report_ctx *r, const struct kmem_table *t,
		  struct sort_set *s)
{
	sort_set_init(s, &r->cfg->sort, t->keys, 0);
	t->rows(r, s);
	if (s->oom) {
		sort_set_release(s);
		return -1;
	}
	sort_finish(s);
	return 0;
}

/**
 * report_table - print a table's first lines= rows in order
 * @r: the report
 * @out: where to
 * @tb: the table
 *
 * Only the rows printed are kept while the table's rows are offered.
 */
void report_table(const struct kmem_report_ctx *r, FILE *out,
		  const struct kmem_table *tb)
{
	char cell[TABLE_MAX_COLS][KMEM_SYM_LEN];
	const char *cp[TABLE_MAX_COLS];
	struct sort_set s;
	struct table t;
	size_t i;
	int c;

	sort_set_init(&s, &r->cfg->sort, tb->keys, r->cfg->lines);
	tb->rows(r, &s);
	if (s.oom) {
		sort_set_release(&s);
		fprintf(out, " (out of memory: table left out)\n");
		return;
	}
	sort_finish(&s);
	table_init(&t, tb->cols, tb->ncols, TBL_BOXED);
	t.max_width = r->cfg->width;
	for (c = 0; c < TABLE_MAX_COLS; c++)
		cp[c] = cell[c];
	/* two passes, the cells made twice: no row is kept */
	for (i = 0; i < s.held; i++) {
		tb->cells(r, sort_idx(&s, i), cell);
		table_measure(&t, cp);
	}
	if (s.held < s.offered)
		table_mark_cut(&t);
	table_print_head(&t, out);
	for (i = 0; i < s.held; i++) {
		tb->cells(r, sort_idx(&s, i), cell);
		table_print_row(&t, out, cp);
	}
	table_print_end(&t, out);
	table_release(&t);
	sort_set_release(&s);
	fputc('\n', out);
}
