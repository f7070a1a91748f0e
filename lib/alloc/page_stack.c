// SPDX-License-Identifier: LGPL-2.1
/*
 * Page allocator call sites (see page.h): the pending allocations, the
 * kernel stacks and the call-site rows.
 *
 * An allocation's call site comes from the kernel_stack record that
 * directly follows it in the same CPU's buffer; until then it waits in
 * a per-CPU slot.  Frame addresses are resolved and matched against the
 * skip rules once each, then found again by hash.  A front end that knows
 * the symbols it will need only once counting is done (the native reader
 * over a big kallsyms) defers that: each distinct stack is kept whole and
 * the call sites are chosen after counting (page_defer_callsites()).
 */
#include <stdlib.h>
#include <string.h>

#include "event/rbgeom.h"
#include "page_internal.h"

static uint64_t site_key(uint64_t cs, int order, int mt, uint64_t gfp)
{
	uint64_t h = cs * 0x9E3779B97F4A7C15ULL;

	h ^= (gfp + ((uint64_t)(uint32_t)order << 40) +
	      ((uint64_t)(uint32_t)mt << 48)) * 0xC2B2AE3D27D4EB4FULL;
	return h;
}

/* Is @s the row of these call site, order, migration type and flags? */
static bool site_is(const struct page_site *s, uint64_t cs, int order, int mt,
		    uint64_t gfp)
{
	return s->callsite == cs && s->order == order && s->migratetype == mt &&
	       s->gfp == gfp;
}

/* page_site_get() when the row is not the last one given: out of line. */
static __attribute__((noinline)) uint32_t
find_site(struct page_stats *st, uint64_t cs, int order, int mt, uint64_t gfp)
{
	uint64_t key = site_key(cs, order, mt, gfp);
	size_t pos = SIZE_MAX;
	uint32_t i;

	while ((i = u64_index_next(&st->site_ix, key, &pos)) !=
	       U64_INDEX_NONE) {
		if (site_is(&st->sites[i], cs, order, mt, gfp))
			goto found;
	}
	i = index_append(&st->site_ix, (void **)&st->sites, &st->cap_sites,
			 &st->nr_sites, sizeof(*st->sites), key);
	if (i == U64_INDEX_NONE)
		return i;
	st->sites[i].callsite = cs;
	st->sites[i].order = order;
	st->sites[i].migratetype = mt;
	st->sites[i].gfp = gfp;
found:
	st->last_site = i + 1;
	return i;
}

/* page_site_get(), inline in the steps of page_pending_done() */
static inline uint32_t site_get(struct page_stats *st, uint64_t cs, int order,
				int mt, uint64_t gfp)
{
	if (st->last_site &&
	    site_is(&st->sites[st->last_site - 1], cs, order, mt, gfp))
		return st->last_site - 1;
	return find_site(st, cs, order, mt, gfp);
}

/**
 * page_site_get - the call-site row of a call site, order, migration type
 *	and GFP flags, added when new
 * @st: the statistics
 * @cs: the call site
 * @order: the order
 * @mt: the migration type
 * @gfp: the GFP flags
 *
 * The row given last is tried first: allocations come in runs of one
 * kind.  Rows are one a key while counting, so that row is the index's.
 *
 * Return: the row's number, or U64_INDEX_NONE when memory ran out.
 */
uint32_t page_site_get(struct page_stats *st, uint64_t cs, int order, int mt,
		       uint64_t gfp)
{
	return site_get(st, cs, order, mt, gfp);
}

/**
 * page_pending_grow - page_pending_of() for a CPU beyond the slots
 * @st: the statistics
 * @cpu: the CPU
 *
 * Return: its slot, or NULL: a CPU out of range, or memory ran out.
 */
struct page_pending *page_pending_grow(struct page_stats *st, int cpu)
{
	return kmem_cpu_slot((void **)&st->pending, &st->nr_pending,
			     sizeof(*st->pending), cpu);
}

/* page_attach_site(), inline in page_pending_done(): one call a page */
static inline void attach_site(struct page_stats *st, uint32_t pfn, uint64_t cs,
			       const struct page_pending *a)
{
	uint32_t si = site_get(st, cs, a->order, a->migratetype, a->gfp);
	struct page_obj *p = page_obj_at(st, pfn);
	struct page_site *s;
	uint64_t bytes;

	p->flags &= (uint8_t)~PAGE_OBJ_PENDING;
	if (si == U64_INDEX_NONE) {
		st->oom++;
		return;
	}
	s = &st->sites[si];
	bytes = page_obj_bytes(st, p);
	s->hits++;
	s->bytes += bytes;
	if (p->flags & PAGE_OBJ_LIVE) {
		s->live_count++;
		s->live_bytes += bytes;
		kmem_touch(&st->touched, si);
	}
	p->site = si;
}

/**
 * page_attach_site - an allocation gets its call site, its site the counts
 * @st: the statistics
 * @pfn: the allocation's entry in st->objs
 * @cs: its call site (PAGE_NO_STACK: none)
 * @a: its order, migration type and GFP flags
 */
void page_attach_site(struct page_stats *st, uint32_t pfn, uint64_t cs,
		      const struct page_pending *a)
{
	attach_site(st, pfn, cs, a);
}

/**
 * page_pending_done - a waiting allocation gets its call site
 * @st: the statistics
 * @pd: its CPU's slot, active
 * @cs: the call site (PAGE_NO_STACK: no stack followed)
 */
void page_pending_done(struct page_stats *st, struct page_pending *pd,
		       uint64_t cs)
{
	pd->active = false;
	attach_site(st, pd->pfn, cs, pd);
}

/**
 * page_frame_skipped - is a stack frame tracing or allocator internals?
 * @st: the statistics (their skip rules and symbols)
 * @addr: the frame's address
 *
 * Return: true if the skip rules match its function (the call site is
 * further out); false for an unknown address too.
 */
bool page_frame_skipped(struct page_stats *st, uint64_t addr)
{
	return kmem_frames_skipped(&st->fr, addr);
}

/* The number of the stack of these frames, kept when new. */
static uint32_t stack_intern(struct page_stats *st, const uint64_t *fr,
			     unsigned int n)
{
	uint64_t h = u64s_hash(fr, n);
	size_t pos = SIZE_MAX, need = st->nr_stack_frames + n;
	uint32_t i;

	while ((i = u64_index_next(&st->stack_ix, h, &pos)) != U64_INDEX_NONE)
		if (st->stacks[i].n == n &&
		    !memcmp(st->stack_frames + st->stacks[i].off, fr,
			    n * sizeof(*fr)))
			return i;
	if (need > UINT32_MAX)	/* frames are found by a u32 offset */
		return U64_INDEX_NONE;
	while (need > st->cap_stack_frames)
		if (kmem_grow_array((void **)&st->stack_frames,
				    &st->cap_stack_frames,
				    st->cap_stack_frames,
				    sizeof(*st->stack_frames)))
			return U64_INDEX_NONE;
	i = index_append(&st->stack_ix, (void **)&st->stacks, &st->cap_stacks,
			 &st->nr_stacks, sizeof(*st->stacks), h);
	if (i == U64_INDEX_NONE)
		return i;
	memcpy(st->stack_frames + st->nr_stack_frames, fr, n * sizeof(*fr));
	st->stacks[i].off = (uint32_t)st->nr_stack_frames;
	st->stacks[i].n = n;
	st->nr_stack_frames = need;
	return i;
}

/*
 * The call site of a stack: now, or (defer) its stack's number + 1 for
 * page_resolve_callsites().
 */
static uint64_t stack_callsite(struct page_stats *st,
			       const struct kmem_event *ev)
{
	uint32_t i;

	if (!st->defer)
		return kmem_frames_caller(&st->fr, ev->frames, ev->nr_frames,
					  PAGE_NO_STACK);
	if (!ev->nr_frames)
		return PAGE_NO_STACK;
	i = stack_intern(st, ev->frames, ev->nr_frames);
	if (i == U64_INDEX_NONE) { /* its call site is lost */
		st->oom++;
		return PAGE_NO_STACK;
	}
	return (uint64_t)i + 1;
}

/**
 * page_stack - a kernel_stack record: the call site of the allocation
 *	just before it on its CPU, if it directly follows it
 * @st: the statistics
 * @ev: the KMEM_EV_STACK event
 */
void page_stack(struct page_stats *st, const struct kmem_event *ev)
{
	struct page_pending *pd = page_pending_of(st, ev->cpu);

	if (!pd || !pd->active)
		return;
	/* after lost events the record before it may be another's */
	if (ev->after_loss ||
	    !kmem_rb_follows(st->subbuf_size, pd->rec_end, ev->rec_offset)) {
		page_pending_done(st, pd, PAGE_NO_STACK);
		return;
	}
	st->sum.stacks++;
	page_pending_done(st, pd, stack_callsite(st, ev));
}

/**
 * page_defer_callsites - choose call sites after counting
 * @st: the statistics, before their first event, whose front end does
 *	not read the site rows while counting (no timeline)
 *
 * No frame is resolved while counting: each distinct kernel stack is
 * kept whole (memory grows with distinct stacks, not with events), and
 * page_resolve_callsites() chooses the call sites once every frame's
 * symbol can be had (for a reader told which addresses it will be asked,
 * in one go: the frames of st->stacks).
 */
void page_defer_callsites(struct page_stats *st)
{
	if (!st->nr_sites && !st->sum.allocs)
		st->defer = true;
}

/* The row already in @ix with @s's key (@key its hash), if any. */
static uint32_t find_row(const struct page_stats *st,
			 const struct u64_index *ix, uint64_t key,
			 const struct page_site *s)
{
	size_t pos = SIZE_MAX;
	uint32_t j;

	while ((j = u64_index_next(ix, key, &pos)) != U64_INDEX_NONE) {
		if (site_is(&st->sites[j], s->callsite, s->order,
			    s->migratetype, s->gfp))
			return j;
	}
	return U64_INDEX_NONE;
}

/* Rows that now have one key become one, in the order they first came. */
static void merge_rows(struct page_stats *st)
{
	struct u64_index ix = { 0 };
	uint32_t *map = malloc((st->nr_sites + 1) * sizeof(*map));
	size_t i, k = 0;
	uint32_t j;

	st->last_site = 0; /* rows move, and may stay two a key */
	u64_index_free(&st->site_ix);
	if (!map || u64_index_init(&ix, 64)) {
		/* rows stay apart; new ones are found again */
		st->oom++;
		free(map);
		for (i = 0; i < st->nr_sites; i++)
			if (u64_index_insert(&st->site_ix,
					     site_key(st->sites[i].callsite,
						      st->sites[i].order,
						      st->sites[i].migratetype,
						      st->sites[i].gfp),
					     (uint32_t)i))
				st->oom++;
		return;
	}
	for (i = 0; i < st->nr_sites; i++) {
		struct page_site s = st->sites[i];
		uint64_t key = site_key(s.callsite, s.order, s.migratetype,
					s.gfp);

		j = find_row(st, &ix, key, &s);
		if (j == U64_INDEX_NONE) {
			j = (uint32_t)k++;
			st->sites[j] = s;
			if (u64_index_insert(&ix, key, j))
				st->oom++;
		} else {
			st->sites[j].hits += s.hits;
			st->sites[j].bytes += s.bytes;
			st->sites[j].live_count += s.live_count;
			st->sites[j].live_bytes += s.live_bytes;
		}
		map[i] = j;
	}
	st->nr_sites = k;
	st->site_ix = ix;
	for (i = 0; i < st->objs.len; i++) {
		struct page_obj *p = page_obj_at(st, (uint32_t)i);

		if (p->site != U64_INDEX_NONE)
			p->site = map[p->site];
	}
	free(map);
}

/**
 * page_resolve_callsites - the call sites page_defer_callsites() put off
 * @st: the statistics, every stack record counted (pending allocations
 *	may still wait: page_finish() gives them no stack)
 *
 * Each stack's call site is chosen as page_account() would have while
 * counting, each frame resolved once; rows of stacks with one call site
 * (and order, migration type and flags) become one, in the order they
 * first came, and the kept stacks are freed.  Nothing is done unless
 * call sites were deferred.
 */
void page_resolve_callsites(struct page_stats *st)
{
	size_t i;

	if (!st->defer)
		return;
	st->defer = false;
	for (i = 0; i < st->nr_sites; i++) {
		struct page_site *s = &st->sites[i];
		const struct page_stack *k;

		if (s->callsite == PAGE_NO_STACK)
			continue;
		k = &st->stacks[s->callsite - 1];
		s->callsite = kmem_frames_caller(&st->fr,
						 st->stack_frames + k->off,
						 k->n, PAGE_NO_STACK);
	}
	merge_rows(st);
	u64_index_free(&st->stack_ix);
	free(st->stacks);
	free(st->stack_frames);
	st->stacks = NULL;
	st->stack_frames = NULL;
	st->nr_stacks = st->cap_stacks = 0;
	st->nr_stack_frames = st->cap_stack_frames = 0;
}

/**
 * page_finish - the end of the stream: waiting allocations had no stack
 * @st: the statistics
 */
void page_finish(struct page_stats *st)
{
	size_t cpu;

	for (cpu = 0; cpu < st->nr_pending; cpu++)
		page_finish_pending(st, (int)cpu, PAGE_NO_STACK);
}
