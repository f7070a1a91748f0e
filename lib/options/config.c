// SPDX-License-Identifier: LGPL-2.1
/*
 * The options, turned into the configuration of the layers below (see
 * config.h).
 */
#include "config.h"

/**
 * kmem_opts_collect_cfg - what an input collects, from the options
 * @o: the options
 *
 * The per-address rows for the per-allocation tables
 * (kmem_opts_keep_rows()); the lifetimes with kmem:lifetimes; the
 * stacks with kmem:folded, kmem:pprof (what was allocated and what is
 * live at the end) or kmem:leaks (the live objects'), of the allocators
 * shown (kmem_opts_allocator()); the skip= regex.
 *
 * Return: the configuration, for kmem_agg_keep_rows().
 */
struct kmem_collect_cfg kmem_opts_collect_cfg(const struct kmem_opts *o)
{
	struct kmem_collect_cfg c = {
		.rows = kmem_opts_keep_rows(o),
		.lifetimes = o->lifetimes,
		.stacks = o->folded || o->leaks || o->pprof,
		/* leaks and the profile's inuse_ values need live stacks */
		.stacks_live = !o->folded || o->live || o->pprof,
		.skip = o->skip,
	};
	unsigned int id;

	for (id = 0; id < KMEM_NR_ALLOC; id++)
		c.alloc[id] = kmem_opts_allocator(o, o->allocator[id]);
	return c;
}
