/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The slab allocator's section: its tables, summary and JSON.
 */
#ifndef KMEM_REPORT_SLAB_H
#define KMEM_REPORT_SLAB_H

#include <stdint.h>
#include <stdio.h>

#include "alloc/slab.h"
#include "analysis/agg.h"
#include "base/json.h"
#include "cols.h"
#include "report.h"
#include "sort.h"

/**
 * slab_st - the slab allocator's statistics in an aggregate
 * @a: the aggregate
 *
 * Return: kmem_agg_stats(@a, KMEM_ALLOC_SLAB), typed.
 */
static inline const struct slab_stats *slab_st(const struct kmem_agg *a)
{
	return kmem_agg_stats(a, KMEM_ALLOC_SLAB);
}

void slab_print(const struct kmem_report_ctx *r, FILE *out);
void slab_json(const struct kmem_report_ctx *r, struct json *j);
void slab_sites(const struct kmem_report_ctx *r, struct cols_ctx *c,
		const struct cols_def *def);

/* report_slab_cols.c: the slab tables' columns */
extern const struct cols_def slab_site_cols, slab_freed_site_cols,
	slab_ptr_cols, slab_cache_cols, slab_anomaly_cols,
	slab_anomaly_double_cols;

#endif
