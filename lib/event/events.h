/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The tracepoints the project reads: one slot each.
 */
#ifndef KMEM_EVENTS_H
#define KMEM_EVENTS_H

#include <stdbool.h>

enum kmem_slot {
	KMEM_SLOT_KMALLOC,
	KMEM_SLOT_KMALLOC_NODE,
	KMEM_SLOT_CACHE_ALLOC,
	KMEM_SLOT_CACHE_ALLOC_NODE,
	KMEM_SLOT_KFREE,
	KMEM_SLOT_CACHE_FREE,
	KMEM_NR_SLAB_SLOTS,
	KMEM_SLOT_PAGE_ALLOC = KMEM_NR_SLAB_SLOTS,
	KMEM_SLOT_PAGE_FREE,
	KMEM_SLOT_PAGE_FREE_BATCHED,
	KMEM_SLOT_PAGE_FREE_DIRECT,	/* before 3.3 */
	KMEM_SLOT_PAGEVEC_FREE,		/* before 3.3 */
	KMEM_SLOT_PAGE_ZONE_LOCKED,
	KMEM_SLOT_PAGE_PCPU_DRAIN,
	KMEM_SLOT_PAGE_EXTFRAG,
	KMEM_SLOT_KERNEL_STACK,		/* system "ftrace" */
	KMEM_SLOT_PERCPU_ALLOC,		/* system "percpu" */
	KMEM_SLOT_PERCPU_FREE,
	KMEM_SLOT_PERCPU_FAIL,
	KMEM_SLOT_PERCPU_CREATE_CHUNK,
	KMEM_SLOT_PERCPU_DESTROY_CHUNK,
	KMEM_NR_SLOTS,
};

const char *kmem_slot_system(enum kmem_slot slot);
const char *kmem_slot_event_name(enum kmem_slot slot);
bool kmem_slot_is_slab(enum kmem_slot slot);
bool kmem_slot_is_percpu(enum kmem_slot slot);
int kmem_slot_by_name(const char *system, const char *name);

#endif
