/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The tables of rows the allocator sections print, on the column model
 * (cols.h): a table set up from the report (report_cols()), its first
 * lines= rows printed (report_cols_table()), or every row in order for
 * the JSON (report_cols_json()).
 */
#ifndef KMEM_TABLES_H
#define KMEM_TABLES_H

#include <stdint.h>
#include <stdio.h>

#include "base/json.h"
#include "cols.h"
#include "report.h"
#include "sort.h"

void report_cols(const struct kmem_report_ctx *r, struct cols_ctx *c,
		 const struct cols_def *def, const void *base, uint32_t nr,
		 const void *priv);
int report_cols_sorted(const struct kmem_report_ctx *r,
		       const struct cols_ctx *c, struct sort_set *s);
void report_cols_table(const struct kmem_report_ctx *r, FILE *out,
		       const struct cols_ctx *c);
int report_cols_json(const struct kmem_report_ctx *r, struct json *j,
		     const char *key, const struct cols_ctx *c);

#endif
