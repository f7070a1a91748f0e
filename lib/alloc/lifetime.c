// SPDX-License-Identifier: LGPL-2.1
/*
 * Lifetime histograms (see lifetime.h).
 */
#include <stdlib.h>
#include <string.h>

#include "lifetime.h"

/**
 * kmem_life_grow - make room for a call site's histogram
 * @l: the histograms
 * @site: the index that must fit
 *
 * The array doubles, so this runs O(log sites) times.
 *
 * Return: 0, or -1 when memory ran out.
 */
int kmem_life_grow(struct kmem_lifetimes *l, uint32_t site)
{
	size_t cap = l->cap ? l->cap : 64;
	uint64_t (*h)[KMEM_LIFE_BUCKETS];

	while (cap <= site)
		cap *= 2;
	h = realloc(l->h, cap * sizeof(*h));
	if (!h)
		return -1;
	memset(h + l->cap, 0, (cap - l->cap) * sizeof(*h));
	l->h = h;
	l->cap = cap;
	return 0;
}

/**
 * kmem_life_release - free the histograms
 * @l: the histograms
 */
void kmem_life_release(struct kmem_lifetimes *l)
{
	free(l->h);
	l->h = NULL;
	l->cap = 0;
}

/**
 * kmem_life_hist - a call site's histogram
 * @l: the histograms
 * @site: the call site's index
 *
 * Return: its KMEM_LIFE_BUCKETS counts, or NULL when it has none.
 */
const uint64_t *kmem_life_hist(const struct kmem_lifetimes *l, uint32_t site)
{
	return l->on && site < l->cap ? l->h[site] : NULL;
}

/**
 * kmem_life_merge - add another input's histogram of a call site
 * @to: the histograms added to
 * @to_site: the call site's index in @to
 * @from: the other input's histograms
 * @from_site: the call site's index there
 *
 * Return: 0, or -1 when memory ran out (counted in @to->oom).
 */
int kmem_life_merge(struct kmem_lifetimes *to, uint32_t to_site,
		    const struct kmem_lifetimes *from, uint32_t from_site)
{
	const uint64_t *h = kmem_life_hist(from, from_site);
	unsigned int b;

	if (!to->on || !h)
		return 0;
	if (to_site >= to->cap && kmem_life_grow(to, to_site)) {
		to->oom++;
		return -1;
	}
	for (b = 0; b < KMEM_LIFE_BUCKETS; b++)
		to->h[to_site][b] += h[b];
	return 0;
}

/**
 * kmem_life_bucket_lo - the lowest lifetime of a bucket
 * @b: the bucket
 *
 * Return: 0 for bucket 0, else 2^b (the bucket ends before 2^(b+1)).
 */
uint64_t kmem_life_bucket_lo(unsigned int b)
{
	return b ? 1ULL << b : 0;
}

/**
 * kmem_life_percentile - a percentile, estimated from a histogram
 * @h: KMEM_LIFE_BUCKETS counts
 * @pct: 1 to 100
 *
 * The rank is ceil(@pct / 100 * n) of the n lifetimes counted; within
 * the bucket holding it (count lifetimes, before in the lower buckets)
 * the value is interpolated between the bucket's bounds, each lifetime
 * taken at the middle of its share: lo + (hi - lo) * (2 * (rank -
 * before) - 1) / (2 * count).  The true percentile lies in the same
 * bucket.
 *
 * Return: the estimate, 0 when nothing is counted.
 */
uint64_t kmem_life_percentile(const uint64_t *h, unsigned int pct)
{
	unsigned __int128 rank;
	uint64_t n = 0, before = 0, lo, hi;
	unsigned int b;

	for (b = 0; b < KMEM_LIFE_BUCKETS; b++)
		n += h[b];
	if (!n)
		return 0;
	rank = ((unsigned __int128)n * pct + 99) / 100;
	for (b = 0; b < KMEM_LIFE_BUCKETS; b++) {
		if (before + h[b] >= rank)
			break;
		before += h[b];
	}
	lo = kmem_life_bucket_lo(b);
	hi = b == KMEM_LIFE_BUCKETS - 1 ? UINT64_MAX : 1ULL << (b + 1);
	return lo + (uint64_t)((unsigned __int128)(hi - lo) *
			       (2 * (uint64_t)(rank - before) - 1) /
			       (2 * (unsigned __int128)h[b]));
}
