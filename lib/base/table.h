/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Text tables: columns sized to their content, numbers right-aligned,
 * "total/size" pairs aligned on the slash, a "..." row when cut.
 *
 * Rows are kept (table_add_row(), then table_print()), or for tables of
 * any length streamed in two passes: table_measure() every row, then
 * table_print_head(), table_print_row() every row again, and
 * table_print_end().
 */
#ifndef KMEM_TABLE_H
#define KMEM_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define TABLE_MAX_COLS 16
#define TABLE_NCOLS(c) ((int)(sizeof(c) / sizeof((c)[0])))

enum table_align {
	TBL_LEFT,
	TBL_RIGHT,
	TBL_PAIR,	/* "a/b": a right-aligned, b left-aligned */
	TBL_FOLD,	/* left-aligned, wrapped after a '|' to fit max_width */
};

enum table_style {
	TBL_BOXED,	/* " | " between columns, rules above and below */
	TBL_MATRIX,	/* two spaces between columns, header underlined */
};

struct table_col {
	const char *header;
	enum table_align align;
};

struct table_width {
	size_t w[2];	/* TBL_PAIR: left and right of '/'; else w[0] */
	size_t piece;	/* fold: the longest piece up to a '|' */
};

struct table {
	const struct table_col *cols;
	int ncols;
	enum table_style style;
	char **cells;		/* row-major, nrows * ncols */
	size_t nrows, cap;
	struct table_width w[TABLE_MAX_COLS];	/* of the rows measured */
	size_t max_width;	/* fold columns to fit it; 0: no limit */
	bool cut;
	bool oom;
};

void table_init(struct table *t, const struct table_col *cols, int ncols,
		enum table_style style);
int table_add_row(struct table *t, const char *const *cells);
void table_mark_cut(struct table *t);
void table_print(const struct table *t, FILE *out);
void table_measure(struct table *t, const char *const *cells);
size_t table_width_min(const struct table *t);
void table_drop_col(struct table *t, int c);
void table_print_head(const struct table *t, FILE *out);
void table_print_row(const struct table *t, FILE *out,
		     const char *const *cells);
void table_print_end(const struct table *t, FILE *out);
void table_release(struct table *t);

#endif
