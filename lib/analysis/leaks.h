/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The leak report: objects allocated in the trace and still live at its
 * end, at least an age old then, grouped by call site, with their count,
 * bytes, oldest and median age (Documentation/kmem-stat-definitions.txt,
 * "LEAKS").  Built once, at report time, from the allocators' live
 * objects: memory of 32 bytes a live object while it is built.
 */
#ifndef KMEM_LEAKS_H
#define KMEM_LEAKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "agg.h"

/* The live objects of one call site (or stack) older than the age asked. */
struct leak_row {
	uint64_t call_site;	/* 0: none known (page: no stack); by
				 * stack: the stack's index in kmem_folded */
	uint64_t count;
	uint64_t bytes;
	uint64_t oldest_ns;	/* the largest age */
	uint64_t median_ns;	/* the lower median of the ages */
};

struct leak_set {
	uint64_t end_ns;	/* the end of the trace: its last record */
	uint64_t older_than_ns;
	uint64_t count, bytes;	/* of all rows */
	struct leak_row *rows;
	size_t nr;
	bool by_stack;		/* rows of stacks, not call sites */
	bool oom;		/* no rows: memory ran out */
};

void kmem_leaks_build(struct leak_set *ls, const struct kmem_agg *a,
		      enum kmem_alloc_id which, uint64_t older_than_ns);
void kmem_leaks_build_stacks(struct leak_set *ls, const struct kmem_agg *a,
			     enum kmem_alloc_id which, uint64_t older_than_ns);
bool kmem_leaks_have_stacks(const struct kmem_agg *a, enum kmem_alloc_id which);
void kmem_leaks_release(struct leak_set *ls);

#endif
