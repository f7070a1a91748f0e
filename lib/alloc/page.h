/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Page allocator statistics: pages by pfn, call sites from kernel
 * stacks, order x migration type, per process, fragmentation fallbacks.
 *
 * Fed one struct kmem_event at a time; the definitions are in
 * Documentation/kmem-stat-definitions.txt.
 */
#ifndef KMEM_PAGE_H
#define KMEM_PAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/addrtab.h"
#include "base/hashtab.h"
#include "base/numa.h"
#include "event/kmem_event.h"
#include "event/symbols.h"
#include "frames.h"
#include "lifecycle.h"
#include "match.h"
#include "site_map.h"
#include "touched.h"

#define PAGE_MAX_ORDER 16	/* orders counted in the order table */
#define PAGE_NR_MT 8		/* raw migration type numbers kept */

/*
 * Call sites: the return address in the first frame not skipped, shown
 * as symbol+0xoffset as slab call sites are.
 */
#define PAGE_NO_STACK 0ULL	/* no kernel_stack record followed */

/* the page allocator's default skip rules for stack frames (skip=
 * replaces them) */
extern const char kmem_default_skip[];

/* Per (call site, order, migration type, GFP flags), as perf kmem. */
struct page_site {
	uint64_t callsite;
	uint64_t gfp;
	int32_t order;
	int32_t migratetype;
	uint64_t hits;
	uint64_t bytes;
	KMEM_SITE_LIVE;
};

/*
 * Per page frame (or struct page address on old kernels): the
 * allocation there last (24 bytes).  Its order, migration type and GFP
 * flags are those of its call site row (page_site), which is known once
 * the kernel_stack record that may follow has been seen; until then they
 * wait in the CPU's page_pending.
 */
struct page_obj {
	/* site: U64_INDEX_NONE until its stack is seen; flags: PAGE_OBJ_*;
	 * border: the order of its size (0 if not 0..30) */
	KMEM_OBJ_HEAD(pfn, border);
};

#define PAGE_OBJ_LIVE KMEM_OBJ_LIVE	/* not freed yet */
#define PAGE_OBJ_PENDING 2	/* waiting for a stack on its CPU */

/* The same with its row of the per-page table (40 bytes), when kept. */
struct page_obj_row {
	struct page_obj o;
	uint32_t hits;
	uint32_t frees;
	uint64_t bytes;
};

_Static_assert(sizeof(struct page_obj) == 24, "24 bytes a page frame");
_Static_assert(sizeof(struct page_obj_row) == 40, "40 bytes with its row");

/* Per process (pid), as Mel Gorman's trace-pagealloc-postprocess.pl. */
struct page_proc {
	int32_t pid;
	uint64_t allocs;
	uint64_t alloc_bytes;
	uint64_t zone_locked;	/* pages allocated under the zone lock */
	uint64_t frees;
	uint64_t batched;	/* frees through the batched path */
	uint64_t drains;	/* pages drained from per-CPU lists */
	uint64_t refills;	/* zone-locked allocations refilling them */
	uint64_t fallbacks;
	uint64_t frag_fallbacks;
};

/* Fallbacks from a requested migration type to another. */
struct page_fallback {
	uint64_t fallbacks;
	uint64_t fragmenting;	/* fallback order below pageblock order */
	uint64_t ownership;	/* the pageblock changed migration type */
};

struct page_summary {
	KMEM_LC_COUNTS;
	uint64_t alloc_bytes, free_bytes;
	uint64_t batched_frees;
	uint64_t failures, failure_bytes;
	uint64_t free_only_bytes;
	uint64_t zone_locked, pcpu_refills, pcpu_drains;
	/* fallbacks whose format did not tell the pageblock order: which
	 * are fragmenting is not known */
	uint64_t frag_unknown;
	uint64_t stacks;	/* allocations whose stack was seen */
	/* with a topology: pages of another node than the CPU's */
	uint64_t remote_allocs, remote_alloc_bytes;
	uint64_t cross_frees, cross_free_bytes;
	/* allocations asking __GFP_MOVABLE (0x08) by migratetype 1 and 2 */
	uint64_t movable_as[3];
	uint64_t order_mt[PAGE_MAX_ORDER][PAGE_NR_MT];
	struct page_fallback fb[PAGE_NR_MT][PAGE_NR_MT];
};

/* An allocation whose kernel_stack record may follow on its CPU. */
struct page_pending {
	bool active;
	uint32_t pfn;		/* entry in page_stats.objs */
	uint64_t rec_end;	/* where the allocation's record ends */
	int32_t order;		/* the allocation's, for its site row */
	int32_t migratetype;
	uint64_t gfp;
};

/*
 * A kernel stack kept whole while call sites wait for symbols (defer):
 * its frames in page_stats.stack_frames, innermost first.
 */
struct page_stack {
	uint32_t off;
	uint32_t n;
};

struct page_stats {
	struct page_summary sum;
	unsigned int page_size;
	unsigned int subbuf_size;	/* ring-buffer page: stack adjacency */
	int pageblock_order;	/* for "fragmenting"; -1 unknown */

	struct page_site *sites;
	size_t nr_sites, cap_sites;
	struct u64_index site_ix;	/* hash of (callsite, order, mt, gfp) */
	uint32_t last_site; /* index + 1 of page_site_get()'s last */

	bool rows;			/* keep the per-page table */
	KMEM_LC;			/* objs: page_obj or page_obj_row */

	struct page_proc *procs;
	size_t nr_procs, cap_procs;
	struct u64_index proc_ix;
	uint32_t last_proc; /* index + 1 of the last one looked up */

	struct page_pending *pending;	/* per CPU */
	size_t nr_pending;

	struct kmem_frames fr;		/* resolved frames, skip rules */

	/*
	 * defer: while counting, a site's callsite is its stack's number + 1
	 * (PAGE_NO_STACK still 0), each distinct stack kept; the skip rules
	 * choose call sites in page_resolve_callsites(), once symbols are
	 * known for every frame.
	 */
	bool defer;
	struct page_stack *stacks;
	size_t nr_stacks, cap_stacks;
	struct u64_index stack_ix;
	uint64_t *stack_frames;
	size_t nr_stack_frames, cap_stack_frames;

	const struct kmem_numa *numa;	/* NULL: no cross-node figures */
	struct kmem_touched touched;	/* site rows whose live bytes changed */
};

int page_stats_init(struct page_stats *st, const struct kmem_symbolizer *sym,
		    const char *skip_regex, char *err, size_t errlen);
void page_stats_keep_rows(struct page_stats *st, bool rows);
void page_stats_release(struct page_stats *st);
void page_account(struct page_stats *st, const struct kmem_event *ev);
void page_finish(struct page_stats *st);
int page_merge_tables(struct page_stats *t, const struct page_stats *f,
		      const struct kmem_site_map *m);
int page_old_migratetypes(const struct page_summary *s);
void page_merge_summary(struct page_summary *to, const struct page_summary *f,
			bool old);
bool page_frame_skipped(struct page_stats *st, uint64_t addr);
void page_defer_callsites(struct page_stats *st);
void page_resolve_callsites(struct page_stats *st);

/**
 * page_obj_bytes - the size of the allocation in a page frame
 * @st: the statistics
 * @p: the frame
 *
 * Return: page size << order.
 */
static inline uint64_t page_obj_bytes(const struct page_stats *st,
				      const struct page_obj *p)
{
	return (uint64_t)st->page_size << (p->border & 31); /* set 0..30 */
}

/**
 * page_obj_at - the state of a page frame
 * @st: the statistics
 * @i: the frame's entry, below st->objs.len
 *
 * Return: the entry.
 */
static inline struct page_obj *page_obj_at(const struct page_stats *st,
					   uint32_t i)
{
	return (struct page_obj *)addr_table_at(&st->objs, i);
}

/**
 * page_row_at - the per-page row of a frame
 * @st: statistics that keep rows (st->rows)
 * @i: the frame's entry
 *
 * Return: the entry with its row.
 */
static inline struct page_obj_row *page_row_at(const struct page_stats *st,
					       uint32_t i)
{
	return (struct page_obj_row *)addr_table_at(&st->objs, i);
}

#endif
