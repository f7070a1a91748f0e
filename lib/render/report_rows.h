/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Reports as rows for a warehouse (ClickHouse, BigQuery, Spark, DuckDB):
 * newline-delimited JSON, an object per row of each allocator's call-site,
 * cache and order x migration type tables (the JSON document's), each
 * with the trace's identity, damage counts and the user's labels, and
 * "schema": "kmem-rows/1".  kmem-json(5) says what each member is.
 */
#ifndef KMEM_REPORT_ROWS_H
#define KMEM_REPORT_ROWS_H

#include <stddef.h>
#include <stdio.h>

#include "report.h"

#define KMEM_ROWS_SCHEMA "kmem-rows/1"

int kmem_report_rows(const struct kmem_report_ctx *r,
		     const struct kmem_label *labels, size_t nr_labels,
		     FILE *out);

#endif
