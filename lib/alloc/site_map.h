/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * How one input's tables join a merged report's (trace-kmem stat
 * --merge): its call sites, processes and migration types told in the
 * merged report's terms.  Addresses of different boots or machines mean
 * different things, so a call site is matched by what it names
 * (analysis/merge.c maps it); the allocators' merge_tables() (registry.h)
 * add their rows through this.
 */
#ifndef KMEM_SITE_MAP_H
#define KMEM_SITE_MAP_H

#include <stdbool.h>
#include <stdint.h>

struct kmem_site_map {
	/* the merged report's call site for an address of the input */
	uint64_t (*site)(void *priv, uint64_t addr);
	/* the merged report's pid for a pid of the input (its command's) */
	int (*pid)(void *priv, int pid);
	void *priv;
	/* the input's kernel numbered migration types before Linux 4.4 */
	bool old_migratetypes;
};

/**
 * kmem_map_site - a call site in the merged report's terms
 * @m: the map
 * @addr: the input's call site
 *
 * Return: the merged report's.
 */
static inline uint64_t kmem_map_site(const struct kmem_site_map *m,
				     uint64_t addr)
{
	return m->site(m->priv, addr);
}

#endif
