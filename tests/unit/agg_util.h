/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The statistics of an aggregate, typed, for the tests that look inside
 * them (kmem_agg_stats() hands out void pointers).
 */
#ifndef KMEM_AGG_UTIL_H
#define KMEM_AGG_UTIL_H

#include "alloc/page.h"
#include "alloc/slab.h"
#include "analysis/agg.h"

static inline struct slab_stats *agg_slab(const struct kmem_agg *a)
{
	return kmem_agg_stats(a, KMEM_ALLOC_SLAB);
}

static inline struct page_stats *agg_page(const struct kmem_agg *a)
{
	return kmem_agg_stats(a, KMEM_ALLOC_PAGE);
}

#endif
