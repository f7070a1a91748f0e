/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * vmalloc allocator statistics: vmap areas (vmalloc(), vmap(),
 * ioremap() and the rest, the "vmalloc" trace events, Linux 6.10 and
 * later): live areas, call sites from kernel stacks, failures, lazy
 * freeing and purges.
 *
 * Fed one struct kmem_event at a time; every definition is in
 * Documentation/kmem-stat-definitions.txt.  Areas are matched by their
 * start (alloc_vmap_area's addr, free_vmap_area_noflush's va_start);
 * an area's bytes are its size.  The call site of an allocation comes
 * from the kernel_stack record that directly follows it on its CPU (a
 * stacktrace trigger on alloc_vmap_area): the first frame that is not
 * vmalloc's own or tracing's (vmalloc_skip in vmalloc.c).
 */
#ifndef KMEM_VMALLOC_H
#define KMEM_VMALLOC_H

#include <stdbool.h>
#include <stdint.h>

#include "base/addrtab.h"
#include "base/hashtab.h"
#include "event/kmem_event.h"
#include "event/symbols.h"
#include "frames.h"
#include "lifecycle.h"
#include "lifetime.h"
#include "match.h"
#include "site_map.h"
#include "touched.h"

/* The call site of an allocation without a kernel stack. */
#define VMALLOC_NO_STACK 0

/*
 * Per call site (one row, VMALLOC_NO_STACK, for those without a stack);
 * its bytes are the areas' sizes.
 */
struct vmalloc_site {
	KMEM_LC_SITE;
	uint64_t failures;
};

/* Per address: the area allocated there last (32 bytes). */
struct vmalloc_obj {
	KMEM_OBJ_HEAD(addr, unused);	/* flags: VMALLOC_OBJ_* */
	uint64_t bytes;
};

_Static_assert(sizeof(struct vmalloc_obj) == 32, "32 bytes an area");

#define VMALLOC_OBJ_LIVE KMEM_OBJ_LIVE
#define VMALLOC_OBJ_PENDING 2	/* its call site waits for a stack */

/* An allocation whose kernel_stack record may follow on its CPU. */
struct vmalloc_pending {
	bool active;
	bool failed;		/* a failure: no area */
	uint32_t obj;		/* else its entry in vmalloc_stats.objs */
	uint64_t bytes;
	uint64_t rec_end;	/* where the allocation's record ends */
};

/* Counters only (vmalloc_merge_summary() adds them, maxima aside). */
struct vmalloc_summary {
	KMEM_LC_COUNTS; /* alloc_freed_bytes: bytes freed */
	uint64_t alloc_bytes;
	uint64_t failures;
	uint64_t failure_bytes;		/* the sizes asked */
	uint64_t cross_cpu_frees;
	uint64_t purges;		/* purge_vmap_area_lazy records */
	uint64_t purged;		/* ... the areas they purged */
	uint64_t stacks;		/* allocations with their stack */
	/* maxima: merged as such */
	uint64_t largest;		/* the largest area allocated */
	uint64_t peak_count;		/* the most areas live at once */
	uint64_t peak_bytes;		/* the most bytes live at once */
	uint64_t nr_lazy_peak;		/* the highest nr_lazy of a free */
	uint64_t nr_lazy_max;		/* the last free's nr_lazy_max */
};

struct vmalloc_stats {
	struct vmalloc_summary sum;
	unsigned int subbuf_size;	/* ring-buffer page: stack adjacency */

	struct vmalloc_site *sites;
	size_t nr_sites, cap_sites;
	struct u64_index site_ix;

	KMEM_LC;			/* objs: struct vmalloc_obj */

	struct vmalloc_pending *pending;	/* per CPU */
	size_t nr_pending;
	struct kmem_frames fr;		/* resolved frames, skip rules */

	struct kmem_lifetimes life;	/* by site, with kmem:lifetimes */
	struct kmem_touched touched; /* sites whose live bytes changed */
};

int vmalloc_stats_init(struct vmalloc_stats *st,
		       const struct kmem_symbolizer *sym, const char *skip_regex,
		       char *err, size_t errlen);
void vmalloc_stats_release(struct vmalloc_stats *st);
void vmalloc_account(struct vmalloc_stats *st, const struct kmem_event *ev);
void vmalloc_finish(struct vmalloc_stats *st);
int vmalloc_merge_tables(struct vmalloc_stats *t, const struct vmalloc_stats *f,
			 const struct kmem_site_map *m);
void vmalloc_merge_summary(struct vmalloc_summary *to,
			   const struct vmalloc_summary *from);

/**
 * vmalloc_obj_at - the area state of an address
 * @st: the statistics
 * @i: the address's entry, below st->objs.len
 *
 * Return: the entry.
 */
static inline struct vmalloc_obj *vmalloc_obj_at(const struct vmalloc_stats *st,
						 uint32_t i)
{
	return (struct vmalloc_obj *)addr_table_at(&st->objs, i);
}

#endif
