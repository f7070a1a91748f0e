// SPDX-License-Identifier: LGPL-2.1
/*
 * Row ordering (see sort.h).  Addresses and categories (ptr, callsite,
 * page, order, migtype, gfp) sort ascending, quantities descending;
 * keys a table does not have are zero in every row and so do not change
 * its order; ties keep the entry order (first appearance in the trace).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "sort.h"

/* Addresses and categories ascend, quantities descend. */
static bool ascending(enum kmem_sort_key k)
{
	return k == SORT_PTR || k == SORT_CALLSITE || k == SORT_PAGE ||
	       k == SORT_ORDER || k == SORT_MIGTYPE || k == SORT_GFP;
}

static void use_key(struct sort_set *s, enum kmem_sort_key k,
		    unsigned int keys, int *nk)
{
	/* a key named twice decides once: its first place */
	if (!(keys & SK(k)) || s->pos[k] >= 0 || *nk >= SORT_SET_KEYS)
		return;
	s->asc[*nk] = ascending(k);
	s->pos[k] = (*nk)++;
}

/**
 * sort_set_init - start a table's rows
 * @s: the set
 * @cfg: the sort keys (sort=)
 * @keys: the keys the table has (SORT_KEYS_*); the others are passed
 *	over, and the table's defaults (bytes, hit) follow the rest
 * @limit: keep only the first @limit rows in order; 0 keeps all
 */
void sort_set_init(struct sort_set *s, const struct kmem_sort_cfg *cfg,
		   unsigned int keys, size_t limit)
{
	int i, nk = 0;

	memset(s, 0, sizeof(*s));
	s->limit = limit;
	for (i = 0; i < NR_SORT_KEYS; i++)
		s->pos[i] = -1;
	for (i = 0; i < cfg->n && i < KMEM_MAX_SORT_KEYS; i++)
		use_key(s, cfg->key[i], keys, &nk);
	use_key(s, SORT_BYTES, keys, &nk);
	use_key(s, SORT_HIT, keys, &nk);
	s->width = (size_t)nk + 1;
}

static int cmp_rows(const void *pa, const void *pb, void *arg)
{
	const uint64_t *a = pa, *b = pb;
	const struct sort_set *s = arg;
	size_t i, nk = s->width - 1;

	for (i = 0; i < nk; i++) {
		if (a[i] == b[i])
			continue;
		if (s->asc[i])
			return a[i] < b[i] ? -1 : 1;
		return a[i] > b[i] ? -1 : 1;
	}
	return a[nk] < b[nk] ? -1 : a[nk] > b[nk];
}

static uint64_t *row_at(const struct sort_set *s, size_t i)
{
	return s->rows + i * s->width;
}

static void swap_rows(struct sort_set *s, size_t i, size_t j)
{
	uint64_t t[SORT_SET_KEYS + 1];
	size_t bytes = s->width * sizeof(uint64_t);

	memcpy(t, row_at(s, i), bytes);
	memcpy(row_at(s, i), row_at(s, j), bytes);
	memcpy(row_at(s, j), t, bytes);
}

/* The heap of kept rows has the last in order at its root. */
static void sift_up(struct sort_set *s, size_t i)
{
	while (i) {
		size_t up = (i - 1) / 2;

		if (cmp_rows(row_at(s, up), row_at(s, i), s) >= 0)
			break;
		swap_rows(s, up, i);
		i = up;
	}
}

static void sift_down(struct sort_set *s, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, big = i;

		if (l < s->held &&
		    cmp_rows(row_at(s, l), row_at(s, big), s) > 0)
			big = l;
		if (l + 1 < s->held &&
		    cmp_rows(row_at(s, l + 1), row_at(s, big), s) > 0)
			big = l + 1;
		if (big == i)
			return;
		swap_rows(s, i, big);
		i = big;
	}
}

static bool grow(struct sort_set *s)
{
	size_t cap = s->cap ? s->cap * 2 : 256;
	uint64_t *p;

	if (s->limit && cap > s->limit)
		cap = s->limit;
	p = realloc(s->rows, cap * s->width * sizeof(uint64_t));
	if (!p) {
		s->oom = true;
		return false;
	}
	s->rows = p;
	s->cap = cap;
	return true;
}

/**
 * sort_add - offer the row whose keys sort_key() set
 * @s: the set
 * @idx: the row's entry number; entries are offered in increasing order
 *
 * The keys are cleared for the next row.  When memory runs out, s->oom
 * is set and the table is left out.
 */
void sort_add(struct sort_set *s, uint32_t idx)
{
	size_t bytes = s->width * sizeof(uint64_t);

	s->offered++;
	s->cur[s->width - 1] = idx;
	if (s->limit && s->held == s->limit) {
		/* full: the row replaces the last one kept, if before it */
		if (cmp_rows(s->cur, row_at(s, 0), s) < 0) {
			memcpy(row_at(s, 0), s->cur, bytes);
			sift_down(s, 0);
		}
	} else if (!s->oom && (s->held < s->cap || grow(s))) {
		memcpy(row_at(s, s->held), s->cur, bytes);
		if (s->limit)
			sift_up(s, s->held);
		s->held++;
	}
	memset(s->cur, 0, bytes);
}

/**
 * sort_finish - put the kept rows in order
 * @s: the set
 */
void sort_finish(struct sort_set *s)
{
	if (s->held)
		qsort_r(s->rows, s->held, s->width * sizeof(uint64_t),
			cmp_rows, s);
}

/**
 * sort_set_release - free the rows
 * @s: the set
 */
void sort_set_release(struct sort_set *s)
{
	free(s->rows);
	s->rows = NULL;
	s->held = s->cap = 0;
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
