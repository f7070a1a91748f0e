/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * What page.c (allocations and frees) and page_stack.c (pending
 * allocations, kernel stacks, call sites) call of each other.
 */
#ifndef KMEM_PAGE_INTERNAL_H
#define KMEM_PAGE_INTERNAL_H

#include "page.h"

struct page_pending *page_pending_grow(struct page_stats *st, int cpu);
void page_attach_site(struct page_stats *st, uint32_t pfn, uint64_t cs,
		      const struct page_pending *a);
void page_pending_done(struct page_stats *st, struct page_pending *pd,
		       uint64_t cs);
void page_stack(struct page_stats *st, const struct kmem_event *ev);
uint32_t page_site_get(struct page_stats *st, uint64_t cs, int order, int mt,
		       uint64_t gfp);

/**
 * page_pending_of - the allocation waiting for a stack on a CPU
 * @st: the statistics
 * @cpu: the CPU
 *
 * Inline: every page allocation asks.
 *
 * Return: its slot (grown as needed), or NULL: a CPU out of range, or
 * memory ran out.
 */
static inline struct page_pending *page_pending_of(struct page_stats *st,
						   int cpu)
{
	if (cpu >= 0 && (size_t)cpu < st->nr_pending)
		return &st->pending[cpu];
	return page_pending_grow(st, cpu);
}

/**
 * page_finish_pending - the allocation waiting on a CPU gets its call site
 * @st: the statistics
 * @cpu: the CPU
 * @cs: the call site (PAGE_NO_STACK: no stack followed)
 *
 * Inline: every page allocation asks first, and mostly nothing waits.
 */
static inline void page_finish_pending(struct page_stats *st, int cpu,
				       uint64_t cs)
{
	if (cpu >= 0 && (size_t)cpu < st->nr_pending && st->pending[cpu].active)
		page_pending_done(st, &st->pending[cpu], cs);
}

#endif
