/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The allocators, listed once: what each is called, what it can do,
 * and how its statistics are set up, fed, finished, merged and freed.
 * The aggregate (analysis/agg.c) loops over kmem_allocs[] instead of
 * naming each allocator.
 */
#ifndef KMEM_REGISTRY_H
#define KMEM_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event/events.h"
#include "event/kmem_event.h"
#include "lifecycle.h"
#include "page.h"
#include "percpu.h"
#include "slab.h"

/* What an allocator's statistics hold besides the lifecycle. */
#define KMEM_CAP_STACKS 1u    /* call sites from kernel stacks */
#define KMEM_CAP_CACHES 2u    /* slab caches */
#define KMEM_CAP_ORDERS 4u    /* orders and migration types */
#define KMEM_CAP_LIFETIMES 8u /* lifetime histograms (kmem:lifetimes) */
#define KMEM_CAP_ROWS 16u     /* a per-address table, when kept */
#define KMEM_CAP_NUMA 32u     /* cross-node figures, with a topology */
#define KMEM_CAP_TIMELINE 64u /* drawn by the timeline (touched rows) */

struct kmem_alloc_desc {
	const char *name;  /* "slab", "page", "percpu" */
	unsigned int caps; /* KMEM_CAP_* */
	size_t lc_off;	   /* where its statistics hold struct kmem_lc */
	void (*init)(void *st);
	void (*release)(void *st);
	void (*account)(void *st, const struct kmem_event *ev);
	void (*finish)(void *st); /* NULL: nothing waits at the end */
	/* add @from's summary counters to @to's (no tables) */
	void (*merge)(void *to, const void *from, bool old_migratetypes);
};

extern const struct kmem_alloc_desc kmem_allocs[KMEM_NR_ALLOC];

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
	switch (kind) {
	case KMEM_EV_SLAB_ALLOC:
	case KMEM_EV_SLAB_FREE:
		return KMEM_ALLOC_SLAB;
	case KMEM_EV_PAGE_ALLOC:
	case KMEM_EV_PAGE_FREE:
	case KMEM_EV_PAGE_FREE_BATCHED:
	case KMEM_EV_PAGE_ZONE_LOCKED:
	case KMEM_EV_PAGE_PCPU_DRAIN:
	case KMEM_EV_PAGE_EXTFRAG:
		return KMEM_ALLOC_PAGE;
	case KMEM_EV_PERCPU_ALLOC:
	case KMEM_EV_PERCPU_FREE:
	case KMEM_EV_PERCPU_FAIL:
	case KMEM_EV_PERCPU_CHUNK_NEW:
	case KMEM_EV_PERCPU_CHUNK_DEL:
		return KMEM_ALLOC_PERCPU;
	case KMEM_EV_NONE:
	case KMEM_EV_STACK:
		break;
	}
	return KMEM_NR_ALLOC;
}

/**
 * kmem_alloc_lc - an allocator's objects in its statistics
 * @d: the allocator
 * @st: its statistics
 *
 * Return: its struct kmem_lc.
 */
static inline struct kmem_lc *kmem_alloc_lc(const struct kmem_alloc_desc *d,
					    void *st)
{
	return (struct kmem_lc *)((char *)st + d->lc_off);
}

#endif
