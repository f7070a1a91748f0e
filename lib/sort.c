// SPDX-License-Identifier: LGPL-2.1
/*
 * Row ordering (see sort.h).  Addresses and categories (ptr, callsite,
 * page, order, migtype, gfp) sort ascending, quantities descending; keys a table does not have are
 * zero in every row and so do not change its order; ties keep the
 * order of first appearance in the trace.
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include "sort.h"

/**
 * sort_rows_new - room for the rows of a table
 * @n: how many (0 is fine)
 *
 * Return: zeroed rows (free() them), or NULL when memory is exhausted.
 */
struct sort_row *sort_rows_new(size_t n)
{
	return calloc(n ? n : 1, sizeof(struct sort_row));
}

/**
 * sort_frag_key - internal fragmentation as an integer sort key
 * @bytes_req: bytes requested
 * @bytes_alloc: bytes allocated
 *
 * Return: the wasted fraction in parts per billion.
 */
uint64_t sort_frag_key(uint64_t bytes_req, uint64_t bytes_alloc)
{
	if (!bytes_alloc || bytes_req >= bytes_alloc)
		return 0;
	return (uint64_t)((double)(bytes_alloc - bytes_req) * 1e9 /
			  (double)bytes_alloc);
}

/* Addresses and categories ascend, quantities descend. */
static int ascending(enum kmem_sort_key k)
{
	return k == SORT_PTR || k == SORT_CALLSITE || k == SORT_PAGE ||
	       k == SORT_ORDER || k == SORT_MIGTYPE || k == SORT_GFP;
}

static int cmp_rows(const void *pa, const void *pb, void *arg)
{
	const struct sort_row *a = pa, *b = pb;
	const struct kmem_opts *o = arg;
	int i;

	for (i = 0; i < o->nr_sort; i++) {
		enum kmem_sort_key k = o->sort[i];
		uint64_t x = a->key[k], y = b->key[k];

		if (x == y)
			continue;
		if (ascending(k))
			return x < y ? -1 : 1;
		return x > y ? -1 : 1;
	}
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/**
 * sort_rows - order rows by the sort keys of @o
 * @rows: the rows
 * @n: how many
 * @o: the options holding the keys
 */
void sort_rows(struct sort_row *rows, size_t n, const struct kmem_opts *o)
{
	qsort_r(rows, n, sizeof(*rows), cmp_rows, (void *)o);
}
