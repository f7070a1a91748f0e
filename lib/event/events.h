/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The tracepoints the project reads: one table (kmem_event_defs[],
 * events.c) of their systems, names, allocators and decoders, indexed by
 * slot.  Front ends take their event lists from it (which events to
 * claim, to enable, to map ids of); the decoder finds an event's
 * functions in it (kmem_fields_init(), kmem_decode()).
 */
#ifndef KMEM_EVENTS_H
#define KMEM_EVENTS_H

#include <stdbool.h>

#include "kmem_event.h"

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
	KMEM_SLOT_PAGE_FREE_DIRECT, /* before 3.3 */
	KMEM_SLOT_PAGEVEC_FREE,	    /* before 3.3 */
	KMEM_SLOT_PAGE_ZONE_LOCKED,
	KMEM_SLOT_PAGE_PCPU_DRAIN,
	KMEM_SLOT_PAGE_EXTFRAG,
	KMEM_SLOT_KERNEL_STACK, /* system "ftrace" */
	KMEM_SLOT_PERCPU_ALLOC, /* system "percpu" */
	KMEM_SLOT_PERCPU_FREE,
	KMEM_SLOT_PERCPU_FAIL,
	KMEM_SLOT_PERCPU_CREATE_CHUNK,
	KMEM_SLOT_PERCPU_DESTROY_CHUNK,
	KMEM_SLOT_VMAP_ALLOC, /* system "vmalloc" */
	KMEM_SLOT_VMAP_FREE,
	KMEM_SLOT_VMAP_PURGE,
	KMEM_NR_SLOTS,
};

/* A slot as a bit of a uint64_t set of slots */
#define KMEM_SLOT_BIT(slot) (1ULL << (slot))

/*
 * The allocators, in the order of alloc/registry.c's kmem_allocs[].
 * KMEM_NR_ALLOC is also the allocator of no record: ftrace's
 * kernel_stack, which the page allocator reads for its call sites.
 */
enum kmem_alloc_id {
	KMEM_ALLOC_SLAB,
	KMEM_ALLOC_PAGE,
	KMEM_ALLOC_PERCPU,
	KMEM_ALLOC_VMALLOC,
	KMEM_NR_ALLOC,
};

/* struct kmem_event_def.flags: enabled by trace-kmem live (not pre-3.3) */
#define KMEM_EVF_LIVE 1u
/* ... an allocation a kernel_stack record may follow (stacktrace trigger) */
#define KMEM_EVF_STACK 2u

struct kmem_fields;
struct kmem_event;
struct tep_record;

/**
 * struct kmem_event_def - one tracepoint the project reads
 * @system: its event system ("kmem", "ftrace", "percpu")
 * @name: its event name
 * @alloc: the allocator whose statistics it feeds
 * @flags: KMEM_EVF_*
 * @fields_init: looks up its fields (called by kmem_fields_init())
 * @decode: decodes one record (called by kmem_decode())
 */
struct kmem_event_def {
	const char *system;
	const char *name;
	enum kmem_alloc_id alloc;
	unsigned int flags;
	void (*fields_init)(struct kmem_fields *f);
	int (*decode)(const struct kmem_fields *f, const struct tep_record *rec,
		      struct kmem_event *ev);
};

extern const struct kmem_event_def kmem_event_defs[KMEM_NR_SLOTS];
extern const enum kmem_alloc_id kmem_kind_alloc[KMEM_NR_KINDS];

/**
 * kmem_alloc_of - the allocator whose record an event is
 * @kind: the event's kind
 *
 * Return: its enum kmem_alloc_id, KMEM_NR_ALLOC for none (nothing
 * decoded, or a kernel_stack record: not an allocator's record, though
 * the page allocator reads it).
 */
static inline enum kmem_alloc_id kmem_alloc_of(enum kmem_ev_kind kind)
{
	return (unsigned int)kind < KMEM_NR_KINDS ? kmem_kind_alloc[kind]
						  : KMEM_NR_ALLOC;
}

const char *kmem_slot_system(enum kmem_slot slot);
const char *kmem_slot_event_name(enum kmem_slot slot);
int kmem_slot_by_name(const char *system, const char *name);
int kmem_events_select(enum kmem_alloc_id alloc, unsigned int flags,
		       enum kmem_slot *slots, int max);
int kmem_events_systems(const char **systems, int max);

#endif
