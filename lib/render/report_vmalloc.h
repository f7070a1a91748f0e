/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The vmalloc allocator's section: its tables, summary and JSON.
 */
#ifndef KMEM_REPORT_VMALLOC_H
#define KMEM_REPORT_VMALLOC_H

#include <stdio.h>

#include "alloc/vmalloc.h"
#include "analysis/agg.h"
#include "base/json.h"
#include "cols.h"
#include "report.h"

/**
 * vmalloc_st - the vmalloc allocator's statistics in an aggregate
 * @a: the aggregate
 *
 * Return: kmem_agg_stats(@a, KMEM_ALLOC_VMALLOC), typed.
 */
static inline const struct vmalloc_stats *vmalloc_st(const struct kmem_agg *a)
{
	return kmem_agg_stats(a, KMEM_ALLOC_VMALLOC);
}

void vmalloc_print(const struct kmem_report_ctx *r, FILE *out);
void vmalloc_json(const struct kmem_report_ctx *r, struct json *j);
extern const struct cols_def vmalloc_freed_sites;
void vmalloc_sites(const struct kmem_report_ctx *r, struct cols_ctx *c,
		   const struct cols_def *def);

#endif
