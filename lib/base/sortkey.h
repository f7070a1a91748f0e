/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The tables a report can hold, the keys their rows sort by, and the
 * keys each table has.  Plain values: the option table (options/) parses
 * sort= into a struct kmem_sort_cfg, the renderers (render/sort.h) order
 * rows by it; neither needs the other.
 */
#ifndef KMEM_SORTKEY_H
#define KMEM_SORTKEY_H

#include <stdbool.h>

enum kmem_sort_key {
	SORT_PTR,
	SORT_CALLSITE,
	SORT_BYTES,
	SORT_HIT,
	SORT_PINGPONG,
	SORT_FRAG,
	SORT_LIVE,
	SORT_PEAK,
	SORT_PAGE,
	SORT_ORDER,
	SORT_MIGTYPE,
	SORT_GFP,
	NR_SORT_KEYS,
};

#define KMEM_MAX_SORT_KEYS 8

/* The tables a report can hold. */
enum kmem_table_kind {
	KMEM_T_CALLER,	/* per call site (slab and page) */
	KMEM_T_ALLOC,	/* per address: slab pointers, page frames */
	KMEM_T_CACHE,	/* per slab cache */
	KMEM_T_ANOMALY, /* where freed-only, double, missed frees are */
	KMEM_T_LEAKS,	/* live at the end, by call site, with ages */
};

/* The keys each table has (bit 1 << enum kmem_sort_key). */
#define SK(k) (1U << (k))
#define SORT_KEYS_SLAB_CALLER                                                  \
	(SK(SORT_CALLSITE) | SK(SORT_BYTES) | SK(SORT_HIT) |                   \
	 SK(SORT_PINGPONG) | SK(SORT_FRAG) | SK(SORT_LIVE) | SK(SORT_PEAK))
#define SORT_KEYS_SLAB_ALLOC                                                   \
	(SK(SORT_PTR) | SK(SORT_CALLSITE) | SK(SORT_BYTES) | SK(SORT_HIT) |    \
	 SK(SORT_PINGPONG) | SK(SORT_FRAG) | SK(SORT_LIVE))
#define SORT_KEYS_SLAB_CACHE                                                   \
	(SK(SORT_BYTES) | SK(SORT_HIT) | SK(SORT_FRAG) | SK(SORT_LIVE))
#define SORT_KEYS_SLAB_ANOMALY (SK(SORT_CALLSITE) | SK(SORT_HIT))
#define SORT_KEYS_PAGE_CALLER                                                  \
	(SK(SORT_CALLSITE) | SK(SORT_BYTES) | SK(SORT_HIT) | SK(SORT_ORDER) |  \
	 SK(SORT_MIGTYPE) | SK(SORT_GFP) | SK(SORT_LIVE))
#define SORT_KEYS_PAGE_PFN (SORT_KEYS_PAGE_CALLER | SK(SORT_PAGE))
/* a call-site table of the shared lifecycle (per-CPU, vmalloc ...) */
#define SORT_KEYS_LC_SITE                                                      \
	(SK(SORT_CALLSITE) | SK(SORT_BYTES) | SK(SORT_HIT) | SK(SORT_LIVE) |   \
	 SK(SORT_PEAK))
#define SORT_KEYS_PERCPU_FAIL (SK(SORT_BYTES) | SK(SORT_HIT))
#define SORT_KEYS_LEAKS (SK(SORT_CALLSITE) | SK(SORT_BYTES) | SK(SORT_HIT))

/* The sort= list: rows sort by these keys in turn, then bytes and hit. */
struct kmem_sort_cfg {
	enum kmem_sort_key key[KMEM_MAX_SORT_KEYS];
	int n;
	bool given; /* sort= given, not the default */
};

#endif
