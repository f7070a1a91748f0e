/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Allocations by kernel stack, for flame graphs: the "folded" format
 * of flamegraph.pl, speedscope and inferno, one line per distinct
 * stack, root first, frames joined by ';', a space and the weight
 * (bytes allocated, or allocations).
 *
 * The stack of an allocation of an allocator whose call sites come from
 * stacks (KMEM_CAP_STACKS: page ...) is the kernel_stack record that
 * directly follows it on its CPU, from the first frame that is no
 * allocator or tracing internals (as for its call site); a slab
 * allocation's, when the recording has stacks for slab events, from the
 * frame of its call_site outward.  An allocation without one is its call
 * site alone (slab), or "(no stack)".  The allocators without
 * KMEM_CAP_FOLDED (per-CPU) are left out.  In live mode each stack
 * also counts what of it is still allocated at the end (written with
 * live: a flame graph of what was not freed; the pprof profile's
 * inuse_ values).
 * The objects are the allocators' own: an allocation is taken when its
 * allocator makes an object live, and a free drops the object it
 * matched (struct kmem_match, which the allocators fill in), so that
 * the stacks' live figures are the allocators' and no address is
 * looked up twice.
 * Memory grows with distinct stacks, and with the allocators' objects
 * when live (16 bytes an object).
 * A front end that resolves symbols only after counting defers the
 * skipping of a page stack's internal frames (kmem_folded_defer()).
 */
#ifndef KMEM_FOLDED_H
#define KMEM_FOLDED_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "alloc/match.h"
#include "alloc/page.h"
#include "alloc/registry.h"
#include "base/addrtab.h"
#include "base/hashtab.h"
#include "event/kmem_event.h"
#include "event/symbols.h"

struct folded_stack {
	uint32_t off;		/* first frame in kmem_folded.frames */
	uint32_t n;		/* frames, innermost first */
	bool raw;		/* defer: a page stack, not yet skipped */
	uint8_t id;		/* its allocator: the root frame written */
	uint64_t bytes, hits;
	uint64_t live_bytes, live_hits;
};

/* An allocation whose kernel_stack record may follow on its CPU. */
struct folded_pending {
	bool active;
	uint8_t id;		/* its allocator (enum kmem_alloc_id) */
	uint32_t obj;		/* its object: the allocator's objs entry */
	uint32_t seq;		/* its folded_live entry's, in live mode */
	uint64_t rec_end;
	uint64_t call_site;	/* slab: the leaf; from stacks: 0 */
	uint64_t bytes;
};

/* A stack of one frame, as intern() last found it (struct kmem_folded). */
struct folded_memo {
	uint64_t leaf;
	uint32_t stack; /* FOLDED_NONE: empty */
	uint8_t id;
};

#define FOLDED_MEMO_BITS 8

/*
 * An object's stack (live mode), at the object's entry in its
 * allocator's objs table (the same address, so the same entry each time).
 */
struct folded_live {
	uint64_t bytes;
	uint32_t stack; /* FOLDED_NONE: not live; FOLDED_PENDING */
	uint32_t seq;	/* which allocation at this entry */
};

#define FOLDED_NONE UINT32_MAX
#define FOLDED_PENDING (UINT32_MAX - 1)	/* its stack may follow */

struct kmem_folded {
	bool on;
	bool live;
	/* the objects of the allocators whose allocations are taken, by
	 * enum kmem_alloc_id (NULL: not taken): their match says what each
	 * event did (kmem_folded_event()), the objects' own (lc->told)
	 * when no front end follows them */
	struct kmem_lc *lc[KMEM_NR_ALLOC];
	/* the frame caches and skip rules of those whose call sites come
	 * from stacks (KMEM_CAP_STACKS), by id */
	struct kmem_frames *fr[KMEM_NR_ALLOC];
	bool defer;		/* page stacks raw: kmem_folded_resolve() */
	struct folded_stack *stacks;
	size_t nr, cap;
	struct u64_index ix;		/* frames' hash -> stacks */
	uint64_t *frames;
	size_t nr_frames, cap_frames;
	struct folded_pending *pending;	/* per CPU */
	size_t nr_pending;
	/* live mode: the objects' stacks, by enum kmem_alloc_id, then by
	 * their entry in the allocator's objs table; @nr_obj_live entries
	 * set, room for @cap_obj_live */
	struct folded_live *obj_live[KMEM_NR_ALLOC];
	size_t nr_obj_live[KMEM_NR_ALLOC], cap_obj_live[KMEM_NR_ALLOC];
	uint32_t seq;			/* allocations seen, for live mode */
	/* the stacks of one frame by leaf and allocator, as last found: a
	 * trace without kernel stacks has no other, and each allocation
	 * looks one up; NULL: none (no memory) */
	struct folded_memo *memo;
	/* allocations left out of the stacks: no memory for their stack or
	 * their object's entry (kmem_folded_report_lost()) */
	uint64_t lost, lost_bytes;
};

void kmem_folded_init(struct kmem_folded *f);
void kmem_folded_enable(struct kmem_folded *f, bool live,
			const bool takes[KMEM_NR_ALLOC],
			void *const stats[KMEM_NR_ALLOC]);
void kmem_folded_release(struct kmem_folded *f);
void kmem_folded_hook(struct kmem_folded *f);
void kmem_folded_event(struct kmem_folded *f, struct page_stats *pst,
		       const struct kmem_event *ev);
const struct folded_live *kmem_folded_live(const struct kmem_folded *f,
					   enum kmem_alloc_id id, size_t *nr);
void kmem_folded_finish(struct kmem_folded *f);

/**
 * kmem_folded_before - ready for an event of allocator @id
 * @f: the collector
 * @id: the event's allocator (KMEM_NR_ALLOC for none), before it
 *	accounts the event
 *
 * Resets the match the allocator fills in, which kmem_folded_event()
 * reads after it (nothing while @f is off or does not take @id).
 * Inline: once an event while stacks are collected.
 */
static inline void kmem_folded_before(struct kmem_folded *f,
				      enum kmem_alloc_id id)
{
	if (id < KMEM_NR_ALLOC && f->lc[id] && f->lc[id]->match)
		f->lc[id]->match->what = KMEM_MATCH_NONE;
}
void kmem_folded_defer(struct kmem_folded *f);
void kmem_folded_resolve(struct kmem_folded *f, struct page_stats *pst);
int kmem_folded_write(const struct kmem_folded *f,
		      const struct kmem_symbolizer *sym, bool hits, bool live,
		      FILE *out);

#endif
