/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The small, front-end independent description of one kmem record.
 *
 * Decoders (lib/decode.c for libtraceevent records, or a test feeding
 * crafted events) fill it in; the aggregators read it.  Nothing here
 * points outside the record it was decoded from.
 */
#ifndef KMEM_EVENT_H
#define KMEM_EVENT_H

#include <stdbool.h>
#include <stdint.h>

enum kmem_ev_kind {
	KMEM_EV_NONE = 0,
	KMEM_EV_SLAB_ALLOC,	/* kmalloc*, kmem_cache_alloc* */
	KMEM_EV_SLAB_FREE,	/* kfree, kmem_cache_free */
};

/* Pointers at or below this value are NULL or ZERO_SIZE_PTR. */
#define KMEM_ZERO_SIZE_PTR 16ULL

/* Node value used when the event carries no node field. */
#define KMEM_NO_NODE (-1)

struct kmem_event {
	enum kmem_ev_kind kind;
	bool is_cache;		/* kmem_cache_* rather than kmalloc/kfree */
	int cpu;
	int pid;
	int node;		/* requested node, KMEM_NO_NODE if none */
	uint64_t ts;
	uint64_t call_site;
	uint64_t ptr;
	uint64_t bytes_req;
	uint64_t bytes_alloc;
	uint64_t gfp_flags;
	const char *name;	/* cache name inside the record, or NULL */
	unsigned int name_len;	/* length without any trailing NUL */
};

#endif
