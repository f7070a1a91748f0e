/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Lifetime histograms (kmem:lifetimes): per call site, the lifetimes of
 * the objects matched by a free, in log2 buckets of trace clock units,
 * as bpftrace's hist() draws them (Documentation/kmem-stat-definitions.txt,
 * "LIFETIMES").  512 bytes a call site with frees; nothing when off.
 */
#ifndef KMEM_LIFETIME_H
#define KMEM_LIFETIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bucket 0: [0, 2); bucket b >= 1: [2^b, 2^(b+1)). */
#define KMEM_LIFE_BUCKETS 64

struct kmem_lifetimes {
	bool on;
	uint64_t (*h)[KMEM_LIFE_BUCKETS];	/* by call site index */
	size_t cap;
	uint64_t oom;		/* lifetimes not counted: out of memory */
};

int kmem_life_grow(struct kmem_lifetimes *l, uint32_t site);
void kmem_life_release(struct kmem_lifetimes *l);
const uint64_t *kmem_life_hist(const struct kmem_lifetimes *l, uint32_t site);
int kmem_life_merge(struct kmem_lifetimes *to, uint32_t to_site,
		    const struct kmem_lifetimes *from, uint32_t from_site);
uint64_t kmem_life_bucket_lo(unsigned int b);
uint64_t kmem_life_percentile(const uint64_t *h, unsigned int pct);

/**
 * kmem_life_bucket - the bucket of a lifetime
 * @v: the lifetime, in trace clock units
 *
 * Return: 0 for 0 and 1, else the position of the highest set bit.
 */
static inline unsigned int kmem_life_bucket(uint64_t v)
{
	return v < 2 ? 0 : 63 - (unsigned int)__builtin_clzll(v);
}

/**
 * kmem_life_add - count one matched object's lifetime
 * @l: the histograms (nothing is done while they are off)
 * @site: its call site's index
 * @v: its lifetime
 */
static inline void kmem_life_add(struct kmem_lifetimes *l, uint32_t site,
				 uint64_t v)
{
	if (!l->on)
		return;
	if (site >= l->cap && kmem_life_grow(l, site)) {
		l->oom++;
		return;
	}
	l->h[site][kmem_life_bucket(v)]++;
}

#endif
