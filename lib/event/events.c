// SPDX-License-Identifier: LGPL-2.1
/*
 * The tracepoints the project reads (see events.h).
 */
#include <string.h>

#include "events.h"
#include "decode_vmalloc.h"
#include "field.h"

/* clang-format off */
#define DEF(sys, n, a, fl, fn) { sys, n, a, fl, fn##_fields_init, fn##_decode }
#define SLAB(n) DEF("kmem", n, KMEM_ALLOC_SLAB, KMEM_EVF_LIVE, kmem_slab)
#define PAGE(n, fl) DEF("kmem", n, KMEM_ALLOC_PAGE, fl, kmem_page)
#define PERCPU(n) DEF("percpu", n, KMEM_ALLOC_PERCPU, KMEM_EVF_LIVE, kmem_percpu)
#define VMALLOC(n, fl) DEF("vmalloc", n, KMEM_ALLOC_VMALLOC, fl, kmem_vmalloc)
/* clang-format on */

_Static_assert(KMEM_NR_SLOTS <= 64, "a set of slots is a uint64_t");

const struct kmem_event_def kmem_event_defs[KMEM_NR_SLOTS] = {
	[KMEM_SLOT_KMALLOC] = SLAB("kmalloc"),
	[KMEM_SLOT_KMALLOC_NODE] = SLAB("kmalloc_node"),
	[KMEM_SLOT_CACHE_ALLOC] = SLAB("kmem_cache_alloc"),
	[KMEM_SLOT_CACHE_ALLOC_NODE] = SLAB("kmem_cache_alloc_node"),
	[KMEM_SLOT_KFREE] = SLAB("kfree"),
	[KMEM_SLOT_CACHE_FREE] = SLAB("kmem_cache_free"),
	[KMEM_SLOT_PAGE_ALLOC] =
		PAGE("mm_page_alloc", KMEM_EVF_LIVE | KMEM_EVF_STACK),
	[KMEM_SLOT_PAGE_FREE] = PAGE("mm_page_free", KMEM_EVF_LIVE),
	[KMEM_SLOT_PAGE_FREE_BATCHED] =
		PAGE("mm_page_free_batched", KMEM_EVF_LIVE),
	[KMEM_SLOT_PAGE_FREE_DIRECT] = PAGE("mm_page_free_direct", 0),
	[KMEM_SLOT_PAGEVEC_FREE] = PAGE("mm_pagevec_free", 0),
	[KMEM_SLOT_PAGE_ZONE_LOCKED] =
		PAGE("mm_page_alloc_zone_locked", KMEM_EVF_LIVE),
	[KMEM_SLOT_PAGE_PCPU_DRAIN] = PAGE("mm_page_pcpu_drain", KMEM_EVF_LIVE),
	[KMEM_SLOT_PAGE_EXTFRAG] = PAGE("mm_page_alloc_extfrag", KMEM_EVF_LIVE),
	[KMEM_SLOT_KERNEL_STACK] =
		DEF("ftrace", "kernel_stack", KMEM_NR_ALLOC, 0, kmem_stack),
	[KMEM_SLOT_PERCPU_ALLOC] = PERCPU("percpu_alloc_percpu"),
	[KMEM_SLOT_PERCPU_FREE] = PERCPU("percpu_free_percpu"),
	[KMEM_SLOT_PERCPU_FAIL] = PERCPU("percpu_alloc_percpu_fail"),
	[KMEM_SLOT_PERCPU_CREATE_CHUNK] = PERCPU("percpu_create_chunk"),
	[KMEM_SLOT_PERCPU_DESTROY_CHUNK] = PERCPU("percpu_destroy_chunk"),
	[KMEM_SLOT_VMAP_ALLOC] =
		VMALLOC("alloc_vmap_area", KMEM_EVF_LIVE | KMEM_EVF_STACK),
	[KMEM_SLOT_VMAP_FREE] =
		VMALLOC("free_vmap_area_noflush", KMEM_EVF_LIVE),
	[KMEM_SLOT_VMAP_PURGE] = VMALLOC("purge_vmap_area_lazy", KMEM_EVF_LIVE),
};

/* The allocator of each kind of record (kmem_alloc_of()). */
const enum kmem_alloc_id kmem_kind_alloc[KMEM_NR_KINDS] = {
	[KMEM_EV_NONE] = KMEM_NR_ALLOC,
	[KMEM_EV_SLAB_ALLOC] = KMEM_ALLOC_SLAB,
	[KMEM_EV_SLAB_FREE] = KMEM_ALLOC_SLAB,
	[KMEM_EV_PAGE_ALLOC] = KMEM_ALLOC_PAGE,
	[KMEM_EV_PAGE_FREE] = KMEM_ALLOC_PAGE,
	[KMEM_EV_PAGE_FREE_BATCHED] = KMEM_ALLOC_PAGE,
	[KMEM_EV_PAGE_ZONE_LOCKED] = KMEM_ALLOC_PAGE,
	[KMEM_EV_PAGE_PCPU_DRAIN] = KMEM_ALLOC_PAGE,
	[KMEM_EV_PAGE_EXTFRAG] = KMEM_ALLOC_PAGE,
	[KMEM_EV_STACK] = KMEM_NR_ALLOC,
	[KMEM_EV_PERCPU_ALLOC] = KMEM_ALLOC_PERCPU,
	[KMEM_EV_PERCPU_FREE] = KMEM_ALLOC_PERCPU,
	[KMEM_EV_PERCPU_FAIL] = KMEM_ALLOC_PERCPU,
	[KMEM_EV_PERCPU_CHUNK_NEW] = KMEM_ALLOC_PERCPU,
	[KMEM_EV_PERCPU_CHUNK_DEL] = KMEM_ALLOC_PERCPU,
	[KMEM_EV_VMALLOC_ALLOC] = KMEM_ALLOC_VMALLOC,
	[KMEM_EV_VMALLOC_FREE] = KMEM_ALLOC_VMALLOC,
	[KMEM_EV_VMALLOC_PURGE] = KMEM_ALLOC_VMALLOC,
};

/**
 * kmem_slot_event_name - the event name of a slot
 * @slot: the slot
 *
 * Return: the event name, e.g. "kmalloc" (system: kmem_slot_system()).
 */
const char *kmem_slot_event_name(enum kmem_slot slot)
{
	return kmem_event_defs[slot].name;
}

/**
 * kmem_slot_system - the event system of a slot
 * @slot: the slot
 *
 * Return: "ftrace" for kernel_stack, "percpu" for the per-CPU
 * allocator's events, "vmalloc" for the vmalloc allocator's, else
 * "kmem".
 */
const char *kmem_slot_system(enum kmem_slot slot)
{
	return kmem_event_defs[slot].system;
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

	/* asked of each of a trace's thousands of formats: the first
	 * letter turns most of them down without a call */
	for (i = 0; i < KMEM_NR_SLOTS; i++)
		if (name[0] == kmem_event_defs[i].name[0] &&
		    !strcmp(name, kmem_event_defs[i].name) &&
		    !strcmp(system, kmem_event_defs[i].system))
			return i;
	return -1;
}

/**
 * kmem_events_select - the events of one allocator
 * @alloc: the allocator (KMEM_NR_ALLOC: the events of none)
 * @flags: KMEM_EVF_* they all have, 0 for every event
 * @slots: filled in, in slot order
 * @max: room in @slots
 *
 * Return: how many there are (more than @max: only @max stored).
 */
int kmem_events_select(enum kmem_alloc_id alloc, unsigned int flags,
		       enum kmem_slot *slots, int max)
{
	int i, n = 0;

	for (i = 0; i < KMEM_NR_SLOTS; i++) {
		if (kmem_event_defs[i].alloc != alloc ||
		    (kmem_event_defs[i].flags & flags) != flags)
			continue;
		if (n < max)
			slots[n] = i;
		n++;
	}
	return n;
}

/**
 * kmem_events_systems - the event systems of the table
 * @systems: filled in, each once, in the order of the table, then NULL
 * @max: room in @systems, the NULL included
 *
 * Return: how many systems there are (at most @max - 1 stored).
 */
int kmem_events_systems(const char **systems, int max)
{
	int i, k, n = 0;

	for (i = 0; i < KMEM_NR_SLOTS; i++) {
		for (k = 0; k < i; k++)
			if (!strcmp(kmem_event_defs[k].system,
				    kmem_event_defs[i].system))
				break;
		if (k < i)
			continue;
		if (n < max - 1)
			systems[n] = kmem_event_defs[i].system;
		n++;
	}
	if (max > 0)
		systems[n < max - 1 ? n : max - 1] = NULL;
	return n;
}
