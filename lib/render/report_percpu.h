/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The per-CPU allocator's section: its tables, summary and JSON.
 */
#ifndef KMEM_REPORT_PERCPU_H
#define KMEM_REPORT_PERCPU_H

#include <stdio.h>

#include "alloc/percpu.h"
#include "analysis/agg.h"
#include "base/json.h"
#include "cols.h"
#include "report.h"
#include "sort.h"

/**
 * percpu_st - the per-CPU allocator's statistics in an aggregate
 * @a: the aggregate
 *
 * Return: kmem_agg_stats(@a, KMEM_ALLOC_PERCPU), typed.
 */
static inline const struct percpu_stats *percpu_st(const struct kmem_agg *a)
{
	return kmem_agg_stats(a, KMEM_ALLOC_PERCPU);
}

void percpu_print(const struct kmem_report_ctx *r, FILE *out);
void percpu_json(const struct kmem_report_ctx *r, struct json *j);
extern const struct cols_def percpu_freed_sites;
void percpu_sites(const struct kmem_report_ctx *r, struct cols_ctx *c,
		  const struct cols_def *def);

#endif
