/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The tables of rows the allocator sections print: columns, the rows
 * offered with their sort keys, and the cells of a row; printed sorted
 * (report_table()) or taken in order for the JSON (report_sorted()).
 */
#ifndef KMEM_TABLES_H
#define KMEM_TABLES_H

#include <stdint.h>
#include <stdio.h>

#include "base/table.h"
#include "event/symbols.h"
#include "report.h"
#include "sort.h"

/* Fill the cells of the row for entry @idx (KMEM_SYM_LEN bytes each). */
typedef void (*kmem_cells_fn)(const struct kmem_report_ctx *r, uint32_t idx,
			      char cells[][KMEM_SYM_LEN]);
/* Offer a table's rows, with their sort keys, to @s (sort_add()). */
typedef void (*kmem_rows_fn)(const struct kmem_report_ctx *r,
			     struct sort_set *s);

/* A table of rows: its columns, rows, cells and sort keys. */
struct kmem_table {
	const struct table_col *cols;
	int ncols;
	kmem_rows_fn rows;
	kmem_cells_fn cells;
	unsigned int keys;	/* SORT_KEYS_* */
};

void report_table(const struct kmem_report_ctx *r, FILE *out,
		  const struct kmem_table *t);
int report_sorted(const struct kmem_report_ctx *r, const struct kmem_table *t,
		  struct sort_set *s);

#endif
