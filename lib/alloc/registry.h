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
#include "site_map.h"
#include "slab.h"

/* What an allocator's statistics hold besides the lifecycle. */
#define KMEM_CAP_STACKS 1u    /* call sites from kernel stacks */
#define KMEM_CAP_CACHES 2u    /* slab caches */
#define KMEM_CAP_ORDERS 4u    /* orders and migration types */
#define KMEM_CAP_LIFETIMES 8u /* lifetime histograms (kmem:lifetimes) */
#define KMEM_CAP_ROWS 16u     /* a per-address table, when kept */
#define KMEM_CAP_NUMA 32u     /* cross-node figures, with a topology */
#define KMEM_CAP_TIMELINE 64u /* drawn by the timeline (touched rows) */
/* its allocations have stacks of their own: the folded stacks
 * (analysis/folded.c) take them; without it they leave them out */
#define KMEM_CAP_FOLDED 128u

struct kmem_alloc_desc {
	const char *name;  /* "slab", "page", "percpu", "vmalloc" */
	const char *title; /* "slab allocator": in leak and lifetime headings */
	size_t stats_size; /* its statistics' size (init() sets them up) */
	unsigned int caps; /* KMEM_CAP_* */
	/* the kernel its events came with ("4.14"), when later than the
	 * others': trace-kmem live then needs them only when it is
	 * selected; NULL: every kernel has them */
	const char *since;
	/* the kinds of its records that make and end an object (the links
	 * the KernelShark plugin draws from one to the other) */
	enum kmem_ev_kind alloc_kind, free_kind;
	/* the event that makes free_kind's records (of several, the one
	 * that ends most objects) */
	enum kmem_slot free_slot;
	/*
	 * the free events its allocations lack though they have records
	 * (KMEM_SLOT_BIT() set; kmem_agg_unrecorded()); NULL: free_slot's
	 * when free_kind has no record while alloc_kind has
	 */
	uint64_t (*unrecorded)(const void *st);
	size_t lc_off;	    /* where its statistics hold struct kmem_lc */
	size_t life_off;    /* ... struct kmem_lifetimes (KMEM_CAP_LIFETIMES) */
	size_t counts_off;  /* ... its summary's struct kmem_lc_counts */
	size_t touched_off; /* ... struct kmem_touched (KMEM_CAP_TIMELINE) */
	size_t numa_off;    /* ... its topology pointer (KMEM_CAP_NUMA) */
	/* ... its ring-buffer page size, unsigned int (KMEM_CAP_STACKS) */
	size_t subbuf_off;
	size_t frames_off; /* ... its struct kmem_frames (KMEM_CAP_STACKS) */
	/* what a call site of address 0 is ("(no stack)"); NULL: 0 */
	const char *no_site;
	/* the call site of row @site (U64_INDEX_NONE: the page's none) */
	uint64_t (*site_addr)(const void *st, uint32_t site);
	/* the frees matched to row @site's allocations; NULL: not counted */
	uint64_t (*site_frees)(const void *st, uint32_t site);
	/* its call-site rows: the array, their number, a row's size and
	 * where a row holds struct kmem_site_live */
	size_t sites_off, nr_sites_off, site_size, site_live_off;
	/* its rows' struct u64_index by call site alone and where a row
	 * holds its peak live bytes (uint64_t); both 0 when its rows are
	 * keyed by more (page): no call site of it can be chosen alone */
	size_t site_ix_off, site_peak_off;
	uint64_t (*obj_bytes)(const void *st, const struct kmem_obj *o);
	void (*init)(void *st);
	/*
	 * symbols and skip rules for stack frames (KMEM_CAP_STACKS), NULL
	 * @skip: the allocator's default; Return: -1 if @skip did not
	 * compile (@err says why; the default applies)
	 */
	int (*configure)(void *st, const struct kmem_symbolizer *sym,
			 const char *skip, char *err, size_t errlen);
	void (*release)(void *st);
	void (*account)(void *st, const struct kmem_event *ev);
	void (*finish)(void *st); /* NULL: nothing waits at the end */
	/* keep the per-address rows or not (KMEM_CAP_ROWS) */
	void (*keep_rows)(void *st, bool rows);
	/*
	 * the code addresses its tables name (kmem_agg_addresses()): into
	 * @v, NULL to count them; Return: how many
	 */
	size_t (*addresses)(const void *st, uint64_t *v);
	/* add @from's summary counters to @to's (no tables) */
	void (*merge)(void *to, const void *from, bool old_migratetypes);
	/*
	 * add @from's tables keyed by call site, name or request to @to's,
	 * through @m (not the per-address ones: no object is in both);
	 * Return: 0, or -1 when memory ran out
	 */
	int (*merge_tables)(void *to, const void *from,
			    const struct kmem_site_map *m);
};

extern const struct kmem_alloc_desc kmem_allocs[KMEM_NR_ALLOC];

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

/**
 * kmem_alloc_objs - an allocator's objects, read only
 * @d: the allocator
 * @st: its statistics
 *
 * Return: its objects by address (struct kmem_obj heads).
 */
static inline const struct addr_table *
kmem_alloc_objs(const struct kmem_alloc_desc *d, const void *st)
{
	return &((const struct kmem_lc *)((const char *)st + d->lc_off))->objs;
}

/**
 * kmem_alloc_nr_sites - how many call-site rows an allocator has
 * @d: the allocator
 * @st: its statistics
 *
 * Return: the number of rows.
 */
static inline size_t kmem_alloc_nr_sites(const struct kmem_alloc_desc *d,
					 const void *st)
{
	return *(const size_t *)((const char *)st + d->nr_sites_off);
}

/**
 * kmem_alloc_site_live - what is live of a call-site row's allocations
 * @d: the allocator
 * @st: its statistics
 * @site: the row, below kmem_alloc_nr_sites()
 *
 * Return: the row's live count and bytes.
 */
static inline const struct kmem_site_live *
kmem_alloc_site_live(const struct kmem_alloc_desc *d, const void *st,
		     uint32_t site)
{
	const char *rows = *(char *const *)((const char *)st + d->sites_off);

	return (const struct kmem_site_live *)(rows + site * d->site_size +
					       d->site_live_off);
}

/**
 * kmem_alloc_site_ix - an allocator's call-site rows by call site
 * @d: the allocator
 * @st: its statistics
 *
 * Return: the index (u64_index_find() gives a row), NULL when its rows
 * are not keyed by the call site alone.
 */
static inline const struct u64_index *
kmem_alloc_site_ix(const struct kmem_alloc_desc *d, const void *st)
{
	if (!d->site_ix_off)
		return NULL;
	return (const struct u64_index *)((const char *)st + d->site_ix_off);
}

/**
 * kmem_alloc_site_peak - the highest live bytes of a call-site row
 * @d: the allocator, with kmem_alloc_site_ix()
 * @st: its statistics
 * @site: the row, below kmem_alloc_nr_sites()
 *
 * Return: the row's peak live bytes.
 */
static inline uint64_t kmem_alloc_site_peak(const struct kmem_alloc_desc *d,
					    const void *st, uint32_t site)
{
	const char *rows = *(char *const *)((const char *)st + d->sites_off);

	return *(const uint64_t *)(rows + site * d->site_size +
				   d->site_peak_off);
}

/**
 * kmem_alloc_counts - an allocator's summary counters
 * @d: the allocator
 * @st: its statistics
 *
 * Return: the counters of its lifecycle in its summary.
 */
static inline const struct kmem_lc_counts *
kmem_alloc_counts(const struct kmem_alloc_desc *d, const void *st)
{
	return (const struct kmem_lc_counts *)((const char *)st +
					       d->counts_off);
}

/**
 * kmem_alloc_touched - the call-site rows an allocator logs as changed
 * @d: the allocator
 * @st: its statistics
 *
 * Return: its log, NULL when it keeps none (no KMEM_CAP_TIMELINE).
 */
static inline struct kmem_touched *
kmem_alloc_touched(const struct kmem_alloc_desc *d, void *st)
{
	if (!(d->caps & KMEM_CAP_TIMELINE))
		return NULL;
	return (struct kmem_touched *)((char *)st + d->touched_off);
}

/**
 * kmem_alloc_numa - where an allocator's statistics point to a topology
 * @d: the allocator
 * @st: its statistics
 *
 * Return: the pointer to set, NULL when it has none (no KMEM_CAP_NUMA).
 */
static inline const struct kmem_numa **
kmem_alloc_numa(const struct kmem_alloc_desc *d, void *st)
{
	if (!(d->caps & KMEM_CAP_NUMA))
		return NULL;
	return (const struct kmem_numa **)((char *)st + d->numa_off);
}

/**
 * kmem_alloc_life - an allocator's lifetime histograms
 * @d: the allocator
 * @st: its statistics
 *
 * Return: its histograms, NULL when it has none (no KMEM_CAP_LIFETIMES).
 */
static inline struct kmem_lifetimes *
kmem_alloc_life(const struct kmem_alloc_desc *d, const void *st)
{
	if (!(d->caps & KMEM_CAP_LIFETIMES))
		return NULL;
	return (struct kmem_lifetimes *)((char *)st + d->life_off);
}

#endif
