/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Rows keyed by a call site (or any u64 stored first in the row): found
 * by hash, appended to an array that doubles when full.  Slab and
 * per-CPU call sites and slab anomaly rows are kept so.
 */
#ifndef KMEM_SITES_H
#define KMEM_SITES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/hashtab.h"
#include "lifetime.h"
#include "site_map.h"

/**
 * kmem_site_get - the row of a key, added (zeroed, the key stored) when new
 * @ix: the rows' index
 * @rows: the rows, each starting with its uint64_t key
 * @cap: room in @rows
 * @nr: rows in use
 * @row_size: bytes a row
 * @key: the call site
 *
 * Return: the row's number, or U64_INDEX_NONE when memory ran out.
 */
static inline uint32_t kmem_site_get(struct u64_index *ix, void **rows,
				     size_t *cap, size_t *nr, size_t row_size,
				     uint64_t key)
{
	bool added;
	uint32_t i = index_get(ix, rows, cap, nr, row_size, key, &added);

	if (added && i != U64_INDEX_NONE)
		*(uint64_t *)((char *)*rows + (size_t)i * row_size) = key;
	return i;
}

/**
 * kmem_site_add - add a row of another input to the row of its key
 * @ix: the rows' index
 * @rows: the rows, each starting with its uint64_t key, then counters
 *	(uint64_t each, summed)
 * @cap: room in @rows
 * @nr: rows in use
 * @row_size: bytes a row
 * @sum_size: the bytes of it summed (from its start, a multiple of 8)
 * @key: the row's key here (its call site in the merged report)
 * @from: the other input's row, of the same layout
 *
 * Return: the row's number, or U64_INDEX_NONE when memory ran out.
 */
static inline uint32_t kmem_site_add(struct u64_index *ix, void **rows,
				     size_t *cap, size_t *nr, size_t row_size,
				     size_t sum_size, uint64_t key,
				     const void *from)
{
	uint32_t i = kmem_site_get(ix, rows, cap, nr, row_size, key);
	const uint64_t *f = from;
	uint64_t *t;
	size_t w;

	if (i == U64_INDEX_NONE)
		return i;
	t = (uint64_t *)((char *)*rows + (size_t)i * row_size);
	for (w = 1; w < sum_size / sizeof(uint64_t); w++)
		t[w] += f[w];
	return i;
}

/**
 * kmem_sites_merge - add another input's call-site rows and their
 *	lifetime histograms
 * @ix: the rows' index
 * @rows: the rows, each starting with its call site, then counters
 * @cap: room in @rows
 * @nr: rows in use
 * @row_size: bytes a row
 * @sum_size: the bytes of a row summed (from its start, a multiple of 8)
 * @life: the rows' lifetime histograms
 * @from: the other input's rows, of the same layout
 * @nr_from: how many
 * @from_life: their histograms
 * @m: the other input's call sites in these rows' terms
 *
 * Return: 0, or -1 when memory ran out.
 */
static inline int kmem_sites_merge(struct u64_index *ix, void **rows,
				   size_t *cap, size_t *nr, size_t row_size,
				   size_t sum_size, struct kmem_lifetimes *life,
				   const void *from, size_t nr_from,
				   const struct kmem_lifetimes *from_life,
				   const struct kmem_site_map *m)
{
	size_t i;

	for (i = 0; i < nr_from; i++) {
		const void *f = (const char *)from + i * row_size;
		uint32_t k = kmem_site_add(
			ix, rows, cap, nr, row_size, sum_size,
			kmem_map_site(m, *(const uint64_t *)f), f);

		if (k == U64_INDEX_NONE ||
		    kmem_life_merge(life, k, from_life, (uint32_t)i))
			return -1;
	}
	return 0;
}

/*
 * KMEM_SITES_MERGE(t, f, sum_size, m) - kmem_sites_merge() of f->sites
 * into t->sites, with their histograms (t->life, f->life)
 */
#define KMEM_SITES_MERGE(t, f, sum_size, m)                                    \
	kmem_sites_merge(&(t)->site_ix, (void **)&(t)->sites, &(t)->cap_sites, \
			 &(t)->nr_sites, sizeof(*(t)->sites), (sum_size),      \
			 &(t)->life, (f)->sites, (f)->nr_sites, &(f)->life,    \
			 (m))

/*
 * KMEM_SITE_GET(st, key) - kmem_site_get() over st->sites, indexed by
 * st->site_ix
 */
#define KMEM_SITE_GET(st, key)                                                 \
	kmem_site_get(&(st)->site_ix, (void **)&(st)->sites, &(st)->cap_sites, \
		      &(st)->nr_sites, sizeof(*(st)->sites), (key))

#endif
