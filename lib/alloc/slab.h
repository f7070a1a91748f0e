/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Slab allocator statistics: live objects, call sites, pointers, caches.
 *
 * Fed one struct kmem_event at a time; every definition is in
 * Documentation/kmem-stat-definitions.txt.
 */
#ifndef KMEM_SLAB_H
#define KMEM_SLAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/addrtab.h"
#include "base/hashtab.h"
#include "base/numa.h"
#include "event/kmem_event.h"
#include "lifecycle.h"
#include "lifetime.h"
#include "match.h"
#include "site_map.h"
#include "touched.h"

#define SLAB_NO_CACHE U64_INDEX_NONE

/* Per call site of the allocation. */
struct slab_site {
	uint64_t call_site;
	uint64_t hits;		/* successful allocations */
	uint64_t failures;	/* allocations that returned NULL */
	uint64_t bytes_req;
	uint64_t bytes_alloc;
	uint64_t frees;		/* traced frees of objects allocated here */
	uint64_t pingpong;	/* ... of which on another CPU */
	uint64_t lifetime_sum;	/* sum of (free ts - alloc ts) */
	KMEM_SITE_LIVE;
	uint64_t peak_bytes;	/* highest live_bytes seen */
	uint64_t memcg_bytes;	/* bytes_alloc charged to a memory cgroup */
	/* the cache of its allocations: one (caches 1) or several (2);
	 * not summed when inputs merge (kmem_sites_merge()'s sum_size) */
	uint32_t cache;
	uint32_t caches;
};

/*
 * Where the anomalies happen, per call site: freed-only and double
 * frees at the free's call site, missed frees at the call site of the
 * allocation whose free was missed.
 */
struct slab_anomaly {
	uint64_t call_site;
	uint64_t free_only;
	uint64_t double_frees;
	uint64_t missed;
	uint64_t missed_bytes;
};

/*
 * Per object address: the object allocated there last (32 bytes).  Kept
 * for every address allocated in the trace, so that a later free of it
 * is matched, and a second free is a double free.
 */
struct slab_obj {
	KMEM_OBJ_HEAD(ptr, unused);	/* flags: SLAB_OBJ_* */
	uint32_t bytes;		/* its bytes_alloc */
	uint32_t cache;		/* its cache; "(unnamed)": its bytes_req */
};

#define SLAB_OBJ_LIVE KMEM_OBJ_LIVE	/* not freed yet */
#define SLAB_OBJ_UNNAMED 2	/* in slab_stats.unnamed, the "(unnamed)" */
#define SLAB_OBJ_MEMCG 4	/* charged to a memory cgroup */

/*
 * The same with its row of the per-allocation table (72 bytes), when
 * that table is kept (slab_stats.rows).
 */
struct slab_obj_row {
	struct slab_obj o;
	uint32_t hits;
	uint32_t frees;
	uint32_t pingpong;
	uint32_t unused;
	uint64_t bytes_req;
	uint64_t bytes_alloc;
	uint64_t lifetime_sum;
};

_Static_assert(sizeof(struct slab_obj) == 32, "32 bytes an address");
_Static_assert(sizeof(struct slab_obj_row) == 72, "72 bytes with its row");

/*
 * Per slab cache: the event's name field, "kmalloc-SIZE" for kmalloc
 * events, or "(unnamed)" for kmem_cache events without a name field.
 */
struct slab_cache {
	uint32_t name_off;	/* into slab_stats.names, NUL-terminated */
	uint32_t name_len;
	bool unnamed;		/* the "(unnamed)" row */
	uint64_t allocs;
	uint64_t frees;
	uint64_t free_only;	/* unmatched frees naming this cache */
	uint64_t bytes_req;
	uint64_t bytes_alloc;
	uint64_t live_count;
	uint64_t live_bytes;
	uint64_t memcg_bytes;
};

/* A recent name and its cache (slab.c: get_named_cache()). */
#define SLAB_NAME_MEMO_BITS 10
struct slab_name_memo {
	uint64_t w[2]; /* the name's words (name_words()) */
	uint32_t len;
	uint32_t idx1; /* its cache + 1; 0: empty */
};

struct slab_summary {
	KMEM_LC_COUNTS;		/* alloc_freed_bytes: bytes freed */
	uint64_t bytes_req;
	uint64_t bytes_alloc;
	uint64_t alloc_failures;
	uint64_t zero_size_allocs;
	uint64_t null_frees;
	uint64_t cross_cpu_frees;
	uint64_t node_requests;		/* allocations asking a node */
	uint64_t cross_node_allocs;	/* ... another one (topology) */
	uint64_t memcg_allocs;		/* charged to a memory cgroup */
	uint64_t memcg_bytes;
	/* allocations by how their charge is known: [KMEM_ACCT_*] */
	uint64_t acct[3];
	/* records by event: [SLAB_REC_*] (slab_unrecorded()) */
	uint64_t records[4];
};

/* struct slab_summary's records[]: kmalloc*, kmem_cache_alloc*, kfree,
 * kmem_cache_free */
#define SLAB_REC_KMALLOC 0
#define SLAB_REC_CACHE_ALLOC 1
#define SLAB_REC_KFREE 2
#define SLAB_REC_CACHE_FREE 3

struct slab_stats {
	struct slab_summary sum;

	struct slab_site *sites;
	size_t nr_sites, cap_sites;
	struct u64_index site_ix;

	bool rows;			/* keep the per-allocation table */
	KMEM_LC;			/* objs: slab_obj or slab_obj_row */
	uint32_t unnamed;		/* the "(unnamed)" cache, or NONE */

	struct slab_cache *caches;
	size_t nr_caches, cap_caches;
	struct u64_index cache_ix;	/* name hash */
	/* recent names' caches, by a hash of their words */
	struct slab_name_memo name_memo[1 << SLAB_NAME_MEMO_BITS];
	struct u64_index kmalloc_ix;	/* kmalloc size -> its named cache */

	struct slab_anomaly *anoms;
	size_t nr_anoms, cap_anoms;
	struct u64_index anom_ix;

	char *names;			/* interned cache names */
	size_t names_len, names_cap;

	const struct kmem_numa *numa;	/* NULL: no cross-node figures */
	struct kmem_touched touched;	/* sites whose live bytes changed */
	struct kmem_lifetimes life;	/* by site, with kmem:lifetimes */
};

void slab_stats_init(struct slab_stats *st);
void slab_stats_keep_rows(struct slab_stats *st, bool rows);
void slab_stats_release(struct slab_stats *st);
void slab_account(struct slab_stats *st, const struct kmem_event *ev);
uint64_t slab_unrecorded(const struct slab_stats *st);
const char *slab_cache_name(const struct slab_stats *st,
			    const struct slab_cache *c);
int slab_merge_tables(struct slab_stats *t, const struct slab_stats *f,
		      const struct kmem_site_map *m);

/**
 * slab_obj_at - the object state of an address
 * @st: the statistics
 * @i: the address's entry, below st->objs.len
 *
 * Return: the entry.
 */
static inline struct slab_obj *slab_obj_at(const struct slab_stats *st,
					   uint32_t i)
{
	return (struct slab_obj *)addr_table_at(&st->objs, i);
}

/**
 * slab_row_at - the per-allocation row of an address
 * @st: statistics that keep rows (st->rows)
 * @i: the address's entry
 *
 * Return: the entry with its row.
 */
static inline struct slab_obj_row *slab_row_at(const struct slab_stats *st,
					       uint32_t i)
{
	return (struct slab_obj_row *)addr_table_at(&st->objs, i);
}

#endif
