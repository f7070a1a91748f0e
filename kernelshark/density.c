// SPDX-License-Identifier: LGPL-2.1
/*
 * The links of one graph, bin by bin: how many allocations made in each
 * bin were freed, how many of those on another CPU, and the longest
 * lived of them.  At KernelShark's default zoom a bin holds tens of
 * allocations whose links are shorter than the bin; draw.cpp draws
 * these counts as a density bar per bin, and a link only where it
 * reaches past its bin.
 */
#include "kmem_ks.h"
#include "libkshark.h"

/**
 * kmem_ks_bin_of - the bin of a time in a view
 * @v: the view
 * @ts: the time
 *
 * Return: the bin, or -1 when @ts is outside the view.
 */
int kmem_ks_bin_of(const struct kmem_ks_view *v, int64_t ts)
{
	int64_t b;

	if (v->n_bins <= 0 || v->bin_size <= 0 || ts < v->min || ts > v->max)
		return -1;
	b = (ts - v->min) / v->bin_size;
	return b >= v->n_bins ? v->n_bins - 1 : (int)b;
}

/**
 * kmem_ks_bins - count the links of a graph bin by bin
 * @in: links (matched allocations: p->free is set), in any order
 * @n: how many
 * @v: the view
 * @out: @v->n_bins bins, filled here
 *
 * A link counts in the bin of its allocation; links allocated outside
 * the view are left out.  Of the links of a bin the longest lived is
 * kept (the first of equals), for draw.cpp to draw it when it reaches
 * past the bin.
 *
 * Return: the largest count of a bin.
 */
uint32_t kmem_ks_bins(const struct kmem_ks_pair *const *in, size_t n,
		      const struct kmem_ks_view *v, struct kmem_ks_bin *out)
{
	uint32_t top = 0;
	size_t i;
	int b;

	for (b = 0; b < v->n_bins; b++)
		out[b] = (struct kmem_ks_bin){ 0 };
	for (i = 0; i < n; i++) {
		const struct kmem_ks_pair *p = in[i];
		struct kmem_ks_bin *o;

		b = p->free ? kmem_ks_bin_of(v, p->alloc->ts) : -1;
		if (b < 0)
			continue;
		o = &out[b];
		o->allocs++;
		if (p->free->cpu != p->alloc->cpu)
			o->pingpong++;
		if (!o->longest ||
		    p->free->ts - p->alloc->ts >
			    o->longest->free->ts - o->longest->alloc->ts)
			o->longest = p;
		if (o->allocs > top)
			top = o->allocs;
	}
	return top;
}
