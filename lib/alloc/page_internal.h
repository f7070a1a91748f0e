/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * What page.c (allocations and frees) and page_stack.c (pending
 * allocations, kernel stacks, call sites) call of each other.
 */
#ifndef KMEM_PAGE_INTERNAL_H
#define KMEM_PAGE_INTERNAL_H

#include "page.h"

struct page_pending *page_pending_of(struct page_stats *st, int cpu);
void page_attach_site(struct page_stats *st, uint32_t pfn, uint64_t cs,
		      const struct page_pending *a);
void page_finish_pending(struct page_stats *st, int cpu, uint64_t cs);
void page_stack(struct page_stats *st, const struct kmem_event *ev);

#endif
