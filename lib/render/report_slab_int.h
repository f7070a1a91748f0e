/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Inside the slab section: what report_slab.c and report_slab_summary.c
 * share.
 */
#ifndef KMEM_REPORT_SLAB_INT_H
#define KMEM_REPORT_SLAB_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "alloc/slab.h"
#include "base/json.h"
#include "base/numfmt.h"
#include "report.h"

/* report_slab_summary.c: the summary after the tables, and its JSON */
void slab_print_summary(const struct kmem_report_ctx *r, FILE *out);
void slab_json_summary(const struct kmem_report_ctx *r, struct json *j);

/* Bytes lost to internal fragmentation (0 if a record claims less). */
static inline uint64_t wasted(uint64_t req, uint64_t alloc)
{
	return alloc > req ? alloc - req : 0;
}

static inline double frag_pct(uint64_t req, uint64_t alloc)
{
	return pct_of(wasted(req, alloc), alloc);
}

/* Does the trace tell which allocations a memory cgroup was charged? */
static inline bool memcg_known(const struct slab_summary *s)
{
	return s->acct[KMEM_ACCT_FIELD] || s->acct[KMEM_ACCT_GFP];
}

#endif
