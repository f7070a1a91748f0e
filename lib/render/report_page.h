/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The page allocator's section: its tables, summary and JSON.
 */
#ifndef KMEM_REPORT_PAGE_H
#define KMEM_REPORT_PAGE_H

#include <stdio.h>

#include "alloc/page.h"
#include "analysis/agg.h"
#include "base/json.h"
#include "cols.h"
#include "report.h"

/**
 * page_st - the page allocator's statistics in an aggregate
 * @a: the aggregate
 *
 * Return: kmem_agg_stats(@a, KMEM_ALLOC_PAGE), typed.
 */
static inline const struct page_stats *page_st(const struct kmem_agg *a)
{
	return kmem_agg_stats(a, KMEM_ALLOC_PAGE);
}

void page_print(const struct kmem_report_ctx *r, FILE *out);
void page_json(const struct kmem_report_ctx *r, struct json *j);

/* report_page_procs.c: the per-process table (per-process) */
void page_procs_print(const struct kmem_report_ctx *r, FILE *out);
void page_procs_json(const struct kmem_report_ctx *r, struct json *j);

/* report_page_cols.c: the page tables' columns */
#define PAGE_COLS_LIVE 1	/* cols_ctx.mode: live at the end only */
extern const struct cols_def page_site_cols, page_pfn_cols;

#endif
