/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * What accounting one event did to the object it names, for whoever
 * follows objects from allocation to free: a front end (the KernelShark
 * plugin draws the links, kmem_agg_follow()) or the folded stacks
 * (analysis/folded.c, through the objects' own lc->told).  The slab,
 * page, per-CPU and vmalloc allocators fill it in when their statistics
 * point at one.  Nothing here is kept per object; "what" is reset before
 * each event (by the front end, and by kmem_folded_before() while stacks
 * are collected).
 */
#ifndef KMEM_MATCH_H
#define KMEM_MATCH_H

#include <stdint.h>

enum kmem_match_what {
	KMEM_MATCH_NONE = 0,	/* the event made or ended no object */
	KMEM_MATCH_ALLOC,	/* an allocation made object "obj" live */
	KMEM_MATCH_FREE,	/* a free matched live object "obj" */
};

struct kmem_match {
	enum kmem_match_what what;
	uint32_t obj;		/* its entry in the allocator's objs table */
	uint32_t site;		/* its call-site row; pages: none yet */
	uint16_t alloc_cpu;	/* FREE: the allocating CPU */
	uint64_t alloc_ts;	/* FREE: when it was allocated */
	uint64_t bytes;		/* its bytes, as the tables count them */
};

/**
 * kmem_match_set - note what accounting did to an object
 * @m: where to note it, or NULL (nobody follows objects)
 * @what: KMEM_MATCH_ALLOC or KMEM_MATCH_FREE
 * @obj: the object's entry
 * @site: its call-site row
 * @cpu: its allocating CPU
 * @ts: its allocation time
 * @bytes: its bytes
 */
static inline void kmem_match_set(struct kmem_match *m,
				  enum kmem_match_what what, uint32_t obj,
				  uint32_t site, uint16_t cpu, uint64_t ts,
				  uint64_t bytes)
{
	if (!m)
		return;
	m->what = what;
	m->obj = obj;
	m->site = site;
	m->alloc_cpu = cpu;
	m->alloc_ts = ts;
	m->bytes = bytes;
}

#endif
