// SPDX-License-Identifier: LGPL-2.1
/*
 * vmalloc allocator statistics (see vmalloc.h and
 * Documentation/kmem-stat-definitions.txt).
 *
 * The per-event functions only look keys up in hash indexes and append
 * to arrays that double when full: no per-event allocation, no string
 * formatting, no linear search.
 */
#include <stdlib.h>
#include <string.h>

#include "event/rbgeom.h"
#include "sites.h"
#include "vmalloc.h"

/*
 * Frames that are not the caller: the tracing machinery that records the
 * stack, then vmalloc's own layers (the _noprof names of 6.10 and later
 * match too) and the APIs built on vmap areas (ioremap, execmem): the
 * caller is further out.  skip= replaces them.
 */
static const char vmalloc_skip[] = KMEM_SKIP_TRACING
	"|^_*alloc_vmap_area|^_*get_vm_area|^_*vmalloc|^_*vzalloc|^vmalloc_"
	"|^_*kvmalloc|^_*kvzalloc|^_*kvrealloc|^_*vmap|^vm_map_ram"
	"|^_*ioremap|^execmem_";

/**
 * vmalloc_stats_init - set up empty vmalloc allocator statistics
 * @st: the statistics
 * @sym: resolves stack frames (kept; may be NULL: no frame is skipped)
 * @skip_regex: frames to skip (POSIX extended), NULL for the default
 *	(vmalloc_skip)
 * @err: set to the regex error, if any
 * @errlen: size of @err
 *
 * Return: 0, or -1 if @skip_regex does not compile (the default rules
 * apply then).
 */
int vmalloc_stats_init(struct vmalloc_stats *st,
		       const struct kmem_symbolizer *sym, const char *skip_regex,
		       char *err, size_t errlen)
{
	memset(st, 0, sizeof(*st));
	st->subbuf_size = 4096;
	kmem_lc_init(&st->lc, sizeof(struct vmalloc_obj));
	return kmem_frames_init(&st->fr, sym, skip_regex, vmalloc_skip, err,
				errlen);
}

/**
 * vmalloc_stats_release - free everything vmalloc_account() allocated
 * @st: the statistics
 */
void vmalloc_stats_release(struct vmalloc_stats *st)
{
	u64_index_free(&st->site_ix);
	free(st->sites);
	free(st->pending);
	kmem_frames_release(&st->fr);
	kmem_lc_release(&st->lc);
	kmem_life_release(&st->life);
	memset(st, 0, sizeof(*st));
}

static struct kmem_site_live *site_live(struct vmalloc_stats *st,
					const struct vmalloc_obj *v)
{
	return v->site == U64_INDEX_NONE ? NULL : &st->sites[v->site].live;
}

/* A waiting allocation gets its call site @cs, its row the counts. */
static void pending_done(struct vmalloc_stats *st, struct vmalloc_pending *pd,
			 uint64_t cs)
{
	uint32_t si = KMEM_SITE_GET(st, cs);
	struct vmalloc_site *s;
	struct vmalloc_obj *v;

	pd->active = false;
	if (si == U64_INDEX_NONE) {
		st->oom++;
		return;
	}
	s = &st->sites[si];
	if (pd->failed) {
		s->failures++;
		return;
	}
	s->hits++;
	s->bytes += pd->bytes;
	v = vmalloc_obj_at(st, pd->obj);
	v->flags &= (uint8_t)~VMALLOC_OBJ_PENDING;
	v->site = si;
	if (!(v->flags & VMALLOC_OBJ_LIVE))
		return;
	s->live_count++;
	s->live_bytes += v->bytes;
	if (s->live_bytes > s->peak_bytes)
		s->peak_bytes = s->live_bytes;
	kmem_touch(&st->touched, si);
}

/* The allocation waiting on @cpu, if any, had no stack. */
static void no_stack(struct vmalloc_stats *st, int cpu)
{
	if (cpu >= 0 && (size_t)cpu < st->nr_pending && st->pending[cpu].active)
		pending_done(st, &st->pending[cpu], VMALLOC_NO_STACK);
}

/* An allocation or failure waits for the kernel_stack record after it. */
static void wait_stack(struct vmalloc_stats *st, const struct kmem_event *ev,
		       uint32_t obj, uint64_t bytes, bool failed)
{
	struct vmalloc_pending *pd, now;

	pd = kmem_cpu_slot((void **)&st->pending, &st->nr_pending,
			   sizeof(*st->pending), ev->cpu);
	if (!pd) { /* its stack, should one follow, will be lost */
		if (ev->cpu >= 0 && ev->cpu <= KMEM_MAX_CPU)
			st->oom++;
		memset(&now, 0, sizeof(now));
		pd = &now;
	}
	pd->failed = failed;
	pd->obj = obj;
	pd->bytes = bytes;
	pd->rec_end = ev->rec_offset + ev->rec_size;
	if (pd == &now) {
		pending_done(st, pd, VMALLOC_NO_STACK);
		return;
	}
	pd->active = true;
	if (!failed)
		vmalloc_obj_at(st, obj)->flags |= VMALLOC_OBJ_PENDING;
}

static void vmalloc_alloc(struct vmalloc_stats *st,
			  const struct kmem_event *ev)
{
	uint64_t bytes = ev->bytes_req;
	struct vmalloc_obj *v;
	uint32_t vi;

	no_stack(st, ev->cpu);
	if (ev->failed) {
		st->sum.failures++;
		st->sum.failure_bytes += bytes;
		wait_stack(st, ev, 0, bytes, true);
		return;
	}
	vi = kmem_lc_entry(&st->lc, ev->ptr);
	if (vi == ADDR_NONE)
		return;
	v = vmalloc_obj_at(st, vi);
	/* a live area still waiting on another CPU: no stack now */
	if (v->flags & VMALLOC_OBJ_PENDING)
		no_stack(st, v->cpu);
	if (kmem_lc_missed(&st->sum.lc, &v->h, v->bytes))
		kmem_lc_drop(&st->sum.lc, site_live(st, v), &st->touched, &v->h,
			     v->bytes);
	st->sum.allocs++;
	st->sum.alloc_bytes += bytes;
	if (bytes > st->sum.largest)
		st->sum.largest = bytes;
	kmem_obj_start(&v->h, ev, U64_INDEX_NONE, VMALLOC_OBJ_LIVE);
	v->bytes = bytes;
	kmem_lc_live(&st->sum.lc, NULL, NULL, &v->h, bytes);
	if (st->sum.live_count > st->sum.peak_count)
		st->sum.peak_count = st->sum.live_count;
	if (st->sum.live_bytes > st->sum.peak_bytes)
		st->sum.peak_bytes = st->sum.live_bytes;
	kmem_lc_tell(&st->lc, KMEM_MATCH_ALLOC, vi, &v->h, bytes);
	wait_stack(st, ev, vi, bytes, false);
}

static void vmalloc_free(struct vmalloc_stats *st, const struct kmem_event *ev)
{
	struct vmalloc_site *s;
	struct vmalloc_obj *v;
	uint64_t life;
	uint32_t vi;

	if (ev->nr_lazy > st->sum.nr_lazy_peak)
		st->sum.nr_lazy_peak = ev->nr_lazy;
	st->sum.nr_lazy_max = ev->nr_lazy_max;
	if (!ev->ptr)
		return;
	if (kmem_lc_free(&st->lc, &st->sum.lc, ev->ptr, &vi) !=
	    KMEM_FREE_MATCHED)
		return;
	v = vmalloc_obj_at(st, vi);
	/* freed before its stack came (another CPU's, by time): none */
	if (v->flags & VMALLOC_OBJ_PENDING)
		no_stack(st, v->cpu);
	life = kmem_obj_life(&v->h, ev->ts);
	kmem_lc_matched(&st->lc, &st->sum.lc, vi, &v->h, v->bytes);
	st->sum.cross_cpu_frees += ev->cpu != v->cpu;
	if (v->site != U64_INDEX_NONE) {
		s = &st->sites[v->site];
		s->frees++;
		s->lifetime_sum += life;
		kmem_life_add(&st->life, v->site, life);
	}
	kmem_lc_drop(&st->sum.lc, site_live(st, v), &st->touched, &v->h,
		     v->bytes);
}

/* A kernel_stack record: the call site of the allocation just before it. */
static void vmalloc_stack(struct vmalloc_stats *st, const struct kmem_event *ev)
{
	struct vmalloc_pending *pd;

	if (ev->cpu < 0 || (size_t)ev->cpu >= st->nr_pending)
		return;
	pd = &st->pending[ev->cpu];
	if (!pd->active)
		return;
	/* after lost events the record before it may be another's */
	if (ev->after_loss ||
	    !kmem_rb_follows(st->subbuf_size, pd->rec_end, ev->rec_offset)) {
		pending_done(st, pd, VMALLOC_NO_STACK);
		return;
	}
	st->sum.stacks++;
	pending_done(st, pd,
		     kmem_frames_caller(&st->fr, ev->frames, ev->nr_frames,
					VMALLOC_NO_STACK));
}

/**
 * vmalloc_account - add one vmalloc allocator or kernel_stack event
 * @st: the statistics
 * @ev: a decoded event; events of other allocators are ignored
 *
 * As for the slab allocator, an allocation of an address still live
 * counts as a missed free, a free of an address already freed as a
 * double free.
 */
void vmalloc_account(struct vmalloc_stats *st, const struct kmem_event *ev)
{
	switch (ev->kind) {
	case KMEM_EV_VMALLOC_ALLOC:
		vmalloc_alloc(st, ev);
		break;
	case KMEM_EV_VMALLOC_FREE:
		vmalloc_free(st, ev);
		break;
	case KMEM_EV_VMALLOC_PURGE:
		st->sum.purges++;
		st->sum.purged += ev->npurged;
		break;
	case KMEM_EV_STACK:
		vmalloc_stack(st, ev);
		break;
	default:
		break;
	}
}

/**
 * vmalloc_finish - the end of the stream: waiting allocations had no
 *	stack
 * @st: the statistics
 */
void vmalloc_finish(struct vmalloc_stats *st)
{
	size_t cpu;

	for (cpu = 0; cpu < st->nr_pending; cpu++)
		no_stack(st, (int)cpu);
}

static void max_of(uint64_t *to, uint64_t v)
{
	if (v > *to)
		*to = v;
}

/**
 * vmalloc_merge_summary - add one input's summary to a merged total
 * @to: the total
 * @from: the input's
 *
 * Counts add up; the largest area, the peaks and nr_lazy_peak are the
 * highest of the inputs', nr_lazy_max the last one's.
 */
void vmalloc_merge_summary(struct vmalloc_summary *to,
			   const struct vmalloc_summary *from)
{
	struct vmalloc_summary t = *to;

	KMEM_ADD_COUNTERS(to, from);
	to->largest = t.largest;
	to->peak_count = t.peak_count;
	to->peak_bytes = t.peak_bytes;
	to->nr_lazy_peak = t.nr_lazy_peak;
	max_of(&to->largest, from->largest);
	max_of(&to->peak_count, from->peak_count);
	max_of(&to->peak_bytes, from->peak_bytes);
	max_of(&to->nr_lazy_peak, from->nr_lazy_peak);
	to->nr_lazy_max = from->nr_lazy_max ? from->nr_lazy_max : t.nr_lazy_max;
}

/**
 * vmalloc_merge_tables - add another input's call sites
 * @t: the merged statistics
 * @f: the input's, finished
 * @m: its call sites in @t's terms
 *
 * Return: 0, or -1 when memory ran out.
 */
int vmalloc_merge_tables(struct vmalloc_stats *t, const struct vmalloc_stats *f,
			 const struct kmem_site_map *m)
{
	return KMEM_SITES_MERGE(t, f, sizeof(*t->sites), m);
}
