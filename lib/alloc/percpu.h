/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Per-CPU allocator statistics (alloc_percpu() and free_percpu(), the
 * "percpu" trace events): live objects, call sites, failures.
 *
 * Fed one struct kmem_event at a time; every definition is in
 * Documentation/kmem-stat-definitions.txt.  Objects are matched by
 * their per-CPU pointer (the events' ptr).  An object's bytes are the
 * event's bytes_alloc (the size times the possible CPUs, 6.0 and
 * later), else its size: percpu_summary.size_bytes says how many were
 * measured so.
 */
#ifndef KMEM_PERCPU_H
#define KMEM_PERCPU_H

#include <stdbool.h>
#include <stdint.h>

#include "base/addrtab.h"
#include "base/hashtab.h"
#include "event/kmem_event.h"
#include "lifecycle.h"
#include "lifetime.h"
#include "match.h"
#include "site_map.h"

/*
 * Per call site of the allocation (one row, 0, when no call_site); its
 * bytes are as above.
 */
struct percpu_site {
	KMEM_LC_SITE;
	uint64_t atomic;	/* is_atomic allocations */
	uint64_t reserved;	/* from the reserved chunk */
	uint64_t bytes_req;	/* sum of size */
};

/* Per address: the object allocated there last (32 bytes). */
struct percpu_obj {
	KMEM_OBJ_HEAD(ptr, unused);	/* flags: PERCPU_OBJ_* */
	uint32_t bytes;
	uint32_t size;		/* the size asked */
};

_Static_assert(sizeof(struct percpu_obj) == 32, "32 bytes an address");

#define PERCPU_OBJ_LIVE KMEM_OBJ_LIVE

/* Failed allocations of one request: size, alignment and kind. */
struct percpu_fail {
	uint64_t size;
	uint64_t align;		/* UINT64_MAX: the format has none */
	uint64_t count;
	bool atomic;
	bool reserved;
};

/* Counters only (kmem_agg_merge() adds them word by word). */
struct percpu_summary {
	KMEM_LC_COUNTS;
	uint64_t bytes_req;
	uint64_t bytes;			/* of all allocations */
	uint64_t bytes_alloc;		/* ... of those with bytes_alloc */
	uint64_t size_bytes;		/* allocations measured by size */
	uint64_t no_call_site;		/* allocations without call_site */
	uint64_t atomic;
	uint64_t reserved;
	uint64_t alloc_failures;
	uint64_t cross_cpu_frees;
	uint64_t chunks_created;
	uint64_t chunks_destroyed;
};

struct percpu_stats {
	struct percpu_summary sum;

	struct percpu_site *sites;
	size_t nr_sites, cap_sites;
	struct u64_index site_ix;

	KMEM_LC;			/* objs: struct percpu_obj */

	struct percpu_fail *fails;
	size_t nr_fails, cap_fails;
	struct u64_index fail_ix;	/* hash of the request */

	struct kmem_lifetimes life;	/* by site, with kmem:lifetimes */
	struct kmem_touched touched;	/* rows changed, for the timeline */
};

void percpu_stats_init(struct percpu_stats *st);
void percpu_stats_release(struct percpu_stats *st);
void percpu_account(struct percpu_stats *st, const struct kmem_event *ev);
int percpu_merge_tables(struct percpu_stats *t, const struct percpu_stats *f,
			const struct kmem_site_map *m);

/**
 * percpu_obj_at - the object state of an address
 * @st: the statistics
 * @i: the address's entry, below st->objs.len
 *
 * Return: the entry.
 */
static inline struct percpu_obj *percpu_obj_at(const struct percpu_stats *st,
					       uint32_t i)
{
	return (struct percpu_obj *)addr_table_at(&st->objs, i);
}

#endif
