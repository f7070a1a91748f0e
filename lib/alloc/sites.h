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
 * @row_size: bytes a row, a multiple of 8
 * @key: the row's key here (its call site in the merged report)
 * @from: the other input's row, of the same layout
 *
 * Return: the row's number, or U64_INDEX_NONE when memory ran out.
 */
static inline uint32_t kmem_site_add(struct u64_index *ix, void **rows,
				     size_t *cap, size_t *nr, size_t row_size,
				     uint64_t key, const void *from)
{
	uint32_t i = kmem_site_get(ix, rows, cap, nr, row_size, key);
	const uint64_t *f = from;
	uint64_t *t;
	size_t w;

	if (i == U64_INDEX_NONE)
		return i;
	t = (uint64_t *)((char *)*rows + (size_t)i * row_size);
	for (w = 1; w < row_size / sizeof(uint64_t); w++)
		t[w] += f[w];
	return i;
}

/*
 * KMEM_SITE_ADD(st, key, row) - kmem_site_add() over st->sites, indexed
 * by st->site_ix
 */
#define KMEM_SITE_ADD(st, key, row)                                            \
	kmem_site_add(&(st)->site_ix, (void **)&(st)->sites, &(st)->cap_sites, \
		      &(st)->nr_sites, sizeof(*(st)->sites), (key), (row))

/*
 * KMEM_SITE_GET(st, key) - kmem_site_get() over st->sites, indexed by
 * st->site_ix
 */
#define KMEM_SITE_GET(st, key)                                                 \
	kmem_site_get(&(st)->site_ix, (void **)&(st)->sites, &(st)->cap_sites, \
		      &(st)->nr_sites, sizeof(*(st)->sites), (key))

#endif
