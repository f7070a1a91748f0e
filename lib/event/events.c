// SPDX-License-Identifier: LGPL-2.1
/*
 * The tracepoints the project reads (see events.h).
 */
#include <string.h>

#include "events.h"

static const char *const slot_names[KMEM_NR_SLOTS] = {
	[KMEM_SLOT_KMALLOC] = "kmalloc",
	[KMEM_SLOT_KMALLOC_NODE] = "kmalloc_node",
	[KMEM_SLOT_CACHE_ALLOC] = "kmem_cache_alloc",
	[KMEM_SLOT_CACHE_ALLOC_NODE] = "kmem_cache_alloc_node",
	[KMEM_SLOT_KFREE] = "kfree",
	[KMEM_SLOT_CACHE_FREE] = "kmem_cache_free",
	[KMEM_SLOT_PAGE_ALLOC] = "mm_page_alloc",
	[KMEM_SLOT_PAGE_FREE] = "mm_page_free",
	[KMEM_SLOT_PAGE_FREE_BATCHED] = "mm_page_free_batched",
	[KMEM_SLOT_PAGE_FREE_DIRECT] = "mm_page_free_direct",
	[KMEM_SLOT_PAGEVEC_FREE] = "mm_pagevec_free",
	[KMEM_SLOT_PAGE_ZONE_LOCKED] = "mm_page_alloc_zone_locked",
	[KMEM_SLOT_PAGE_PCPU_DRAIN] = "mm_page_pcpu_drain",
	[KMEM_SLOT_PAGE_EXTFRAG] = "mm_page_alloc_extfrag",
	[KMEM_SLOT_KERNEL_STACK] = "kernel_stack",
	[KMEM_SLOT_PERCPU_ALLOC] = "percpu_alloc_percpu",
	[KMEM_SLOT_PERCPU_FREE] = "percpu_free_percpu",
	[KMEM_SLOT_PERCPU_FAIL] = "percpu_alloc_percpu_fail",
	[KMEM_SLOT_PERCPU_CREATE_CHUNK] = "percpu_create_chunk",
	[KMEM_SLOT_PERCPU_DESTROY_CHUNK] = "percpu_destroy_chunk",
};

/**
 * kmem_slot_event_name - the event name of a slot
 * @slot: the slot
 *
 * Return: the event name, e.g. "kmalloc" (system: kmem_slot_system()).
 */
const char *kmem_slot_event_name(enum kmem_slot slot)
{
	return slot_names[slot];
}

/**
 * kmem_slot_system - the event system of a slot
 * @slot: the slot
 *
 * Return: "ftrace" for kernel_stack, "percpu" for the per-CPU
 * allocator's events, else "kmem".
 */
const char *kmem_slot_system(enum kmem_slot slot)
{
	if (kmem_slot_is_percpu(slot))
		return "percpu";
	return slot == KMEM_SLOT_KERNEL_STACK ? "ftrace" : "kmem";
}

/**
 * kmem_slot_is_slab - does the slot belong to the slab analysis?
 * @slot: the slot
 *
 * Return: true for the slab allocator's events.
 */
bool kmem_slot_is_slab(enum kmem_slot slot)
{
	return slot < KMEM_NR_SLAB_SLOTS;
}

/**
 * kmem_slot_is_percpu - does the slot belong to the per-CPU allocator?
 * @slot: the slot
 *
 * Return: true for the percpu system's events.
 */
bool kmem_slot_is_percpu(enum kmem_slot slot)
{
	return slot >= KMEM_SLOT_PERCPU_ALLOC && slot < KMEM_NR_SLOTS;
}

/**
 * kmem_slot_by_name - the slot handling an event
 * @system: the event's system
 * @name: the event's name
 *
 * Called once per event type, never per record.
 *
 * Return: the slot, or -1 if the event is not one of ours.
 */
int kmem_slot_by_name(const char *system, const char *name)
{
	int i;

	for (i = 0; i < KMEM_NR_SLOTS; i++)
		if (!strcmp(name, slot_names[i]) &&
		    !strcmp(system, kmem_slot_system(i)))
			return i;
	return -1;
}
