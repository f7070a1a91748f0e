// SPDX-License-Identifier: LGPL-2.1
/*
 * Page allocator statistics (see page.h and
 * Documentation/kmem-stat-definitions.txt).
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

#include "options/options.h"
#include "page.h"

/*
 * Frames that are not the caller: the tracing machinery that records
 * the stack, and the page allocator's own layers, old and new (perf's
 * 2015 rule was ^_?_?(alloc|get_free|get_zeroed)_pages?).
 */
const char kmem_default_skip[] =
	"^_*(alloc|get_free|get_zeroed)_pages?"
	"|^_*alloc_frozen_pages|^_*folio_alloc|^vma_alloc_folio"
	"|^alloc_page_interleave|^alloc_pages_exact|^get_page_from_freelist"
	"|^_*rmqueue|^prep_new_page|^post_alloc_hook"
	"|^_*traceiter_|^trace_event_|^perf_trace_|^_*bpf_trace_"
	"|^_*ftrace_trace_stack|^_*trace_stack|^ftrace_|^stack_trace_"
	"|^event_trigger|^stacktrace_trigger|^trace_buffer_|^trace_call_bpf"
	"|^_*ring_buffer_";

/**
 * page_stats_init - set up empty page allocator statistics
 * @st: the statistics
 * @sym: resolves stack frames (kept; may be NULL: no call sites)
 * @skip_regex: frames to skip (POSIX extended), NULL for the default
 * @err: set to the regex error, if any
 * @errlen: size of @err
 *
 * Return: 0 on success, -1 if @skip_regex does not compile (the default
 * rules are used then).
 */
int page_stats_init(struct page_stats *st, const struct kmem_symbolizer *sym,
		    const char *skip_regex, char *err, size_t errlen)
{
	int ret = 0, rc;

	memset(st, 0, sizeof(*st));
	st->rows = true;
	addr_table_init(&st->objs, sizeof(struct page_obj_row));
	addr_table_init(&st->freed_only, sizeof(uint64_t));
	st->page_size = 4096;
	st->subbuf_size = 4096;
	st->pageblock_order = -1;
	st->sym = sym;
	if (skip_regex) {
		rc = regcomp(&st->skip, skip_regex, KMEM_SKIP_REGFLAGS);
		if (!rc) {
			st->have_skip = true;
			return 0;
		}
		regerror(rc, &st->skip, err, errlen);
		ret = -1;
	}
	st->have_skip = !regcomp(&st->skip, kmem_default_skip,
				 KMEM_SKIP_REGFLAGS);
	return ret;
}

/**
 * page_stats_keep_rows - keep the per-page table, or not
 * @st: the statistics, before their first event
 * @rows: false: only what matching frees needs, 16 bytes a page frame
 *	instead of 32, and no per-page rows
 */
void page_stats_keep_rows(struct page_stats *st, bool rows)
{
	st->rows = rows;
	addr_table_init(&st->objs, rows ? sizeof(struct page_obj_row) :
					  sizeof(struct page_obj));
}

/**
 * page_stats_release - free everything the statistics hold
 * @st: the statistics
 */
void page_stats_release(struct page_stats *st)
{
	u64_index_free(&st->site_ix);
	u64_index_free(&st->proc_ix);
	u64_index_free(&st->frame_ix);
	u64_index_free(&st->stack_ix);
	free(st->stacks);
	free(st->stack_frames);
	free(st->sites);
	addr_table_release(&st->objs);
	addr_table_release(&st->freed_only);
	free(st->procs);
	free(st->pending);
	free(st->frames);
	if (st->have_skip)
		regfree(&st->skip);
	memset(st, 0, sizeof(*st));
}

static uint64_t site_key(uint64_t cs, int order, int mt, uint64_t gfp)
{
	uint64_t h = cs * 0x9E3779B97F4A7C15ULL;

	h ^= (gfp + ((uint64_t)(uint32_t)order << 40) +
	      ((uint64_t)(uint32_t)mt << 48)) * 0xC2B2AE3D27D4EB4FULL;
	return h;
}

static uint32_t get_site(struct page_stats *st, uint64_t cs,
			 const struct page_pending *p)
{
	uint64_t key = site_key(cs, p->order, p->migratetype, p->gfp);
	size_t pos = SIZE_MAX;
	uint32_t i;

	while ((i = u64_index_next(&st->site_ix, key, &pos)) !=
	       U64_INDEX_NONE) {
		const struct page_site *s = &st->sites[i];

		if (s->callsite == cs && s->order == p->order &&
		    s->migratetype == p->migratetype && s->gfp == p->gfp)
			return i;
	}
	i = index_append(&st->site_ix, (void **)&st->sites, &st->cap_sites,
			 &st->nr_sites, sizeof(*st->sites), key);
	if (i != U64_INDEX_NONE) {
		st->sites[i].callsite = cs;
		st->sites[i].order = p->order;
		st->sites[i].migratetype = p->migratetype;
		st->sites[i].gfp = p->gfp;
	}
	return i;
}

static struct page_proc *get_proc(struct page_stats *st, int pid)
{
	bool added;
	uint32_t i = index_get(&st->proc_ix, (void **)&st->procs,
			       &st->cap_procs, &st->nr_procs,
			       sizeof(*st->procs), (uint64_t)(uint32_t)pid,
			       &added);

	if (i == U64_INDEX_NONE) {
		st->oom++;
		return NULL;
	}
	st->procs[i].pid = pid;
	return &st->procs[i];
}

static struct page_pending *pending_of(struct page_stats *st, int cpu)
{
	size_t n = st->nr_pending;
	struct page_pending *p;

	if (cpu < 0 || cpu >= 65536)
		return NULL;
	if ((size_t)cpu >= n) {
		while (n <= (size_t)cpu)
			n = n ? n * 2 : 64;
		p = realloc(st->pending, n * sizeof(*p));
		if (!p)
			return NULL;
		memset(p + st->nr_pending, 0,
		       (n - st->nr_pending) * sizeof(*p));
		st->pending = p;
		st->nr_pending = n;
	}
	return &st->pending[cpu];
}

static uint64_t bytes_of(const struct page_stats *st, int order)
{
	if (order < 0 || order > 30)
		order = 0;
	return (uint64_t)st->page_size << order;
}

/**
 * page_obj_bytes - the size of the allocation in a page frame
 * @st: the statistics
 * @p: the frame
 *
 * Return: page size << order.
 */
uint64_t page_obj_bytes(const struct page_stats *st, const struct page_obj *p)
{
	return bytes_of(st, p->border);
}

/* The allocation @a in @pfn gets its call site, and its site the counts. */
static void attach_site(struct page_stats *st, uint32_t pfn, uint64_t cs,
			const struct page_pending *a)
{
	uint32_t si = get_site(st, cs, a);
	struct page_obj *p = page_obj_at(st, pfn);
	struct page_site *s;

	p->flags &= (uint8_t)~PAGE_OBJ_PENDING;
	if (si == U64_INDEX_NONE) {
		st->oom++;
		return;
	}
	s = &st->sites[si];
	s->hits++;
	s->bytes += page_obj_bytes(st, p);
	if (p->flags & PAGE_OBJ_LIVE) {
		s->live_count++;
		s->live_bytes += page_obj_bytes(st, p);
		kmem_touch(&st->touched, si);
	}
	p->site = si;
}

static void finish_pending(struct page_stats *st, int cpu, uint64_t cs)
{
	struct page_pending *pd = pending_of(st, cpu);

	if (!pd || !pd->active)
		return;
	pd->active = false;
	attach_site(st, pd->pfn, cs, pd);
}

static void drop_live(struct page_stats *st, uint32_t pi)
{
	struct page_obj *p = page_obj_at(st, pi);
	uint64_t bytes = page_obj_bytes(st, p);

	/*
	 * A free sorted between the allocation and its stack record (another
	 * CPU's, by timestamps, or live mode's order): the allocation still
	 * waits for its stack; its row gets no live counts when it comes.
	 */
	if (p->site != U64_INDEX_NONE) {
		st->sites[p->site].live_count--;
		st->sites[p->site].live_bytes -= bytes;
		kmem_touch(&st->touched, p->site);
	}
	st->sum.live_count--;
	st->sum.live_bytes -= bytes;
	p->flags &= (uint8_t)~PAGE_OBJ_LIVE;
}

/* Is the page on another node than the CPU?  (Known nodes only.) */
static bool cross_node(const struct page_stats *st,
		       const struct kmem_event *ev)
{
	int pn, cn;

	if (!st->numa || ev->page_ptr)
		return false;
	pn = kmem_numa_pfn(st->numa, ev->pfn);
	cn = kmem_numa_cpu(st->numa, ev->cpu);
	return pn >= 0 && cn >= 0 && pn != cn;
}

static int mt_index(int mt)
{
	return mt < 0 || mt >= PAGE_NR_MT ? PAGE_NR_MT - 1 : mt;
}

/* One more in a per-page count, which stops at 2^32 - 1. */
static void inc32(struct page_stats *st, uint32_t *v)
{
	if (*v == UINT32_MAX)
		st->saturated++;
	else
		(*v)++;
}

static void make_live(struct page_stats *st, uint32_t pi,
		      const struct kmem_event *ev, uint64_t bytes)
{
	struct page_pending *pd, now;
	struct page_obj *p;

	/* a freed allocation still waiting on another CPU: no stack now */
	if (page_obj_at(st, pi)->flags & PAGE_OBJ_PENDING)
		finish_pending(st, page_obj_at(st, pi)->cpu, PAGE_NO_STACK);
	if (page_obj_at(st, pi)->flags & PAGE_OBJ_LIVE) {
		st->sum.missed_frees++;
		st->sum.missed_free_bytes +=
			page_obj_bytes(st, page_obj_at(st, pi));
		drop_live(st, pi);
	}
	p = page_obj_at(st, pi);
	if (st->rows) {
		inc32(st, &page_row_at(st, pi)->hits);
		page_row_at(st, pi)->bytes += bytes;
	}
	p->border = (uint8_t)(ev->order < 0 || ev->order > 30 ? 0 : ev->order);
	p->ts = ev->ts;
	p->cpu = (uint16_t)ev->cpu;
	p->site = U64_INDEX_NONE;
	p->flags = PAGE_OBJ_LIVE;
	st->sum.live_count++;
	st->sum.live_bytes += bytes;
	kmem_match_set(st->match, KMEM_MATCH_ALLOC, pi, U64_INDEX_NONE, p->cpu,
		       p->ts, bytes);
	pd = pending_of(st, ev->cpu);
	if (!pd) {
		memset(&now, 0, sizeof(now));
		pd = &now;
	}
	pd->pfn = pi;
	pd->rec_end = ev->rec_offset + ev->rec_size;
	pd->order = ev->order;
	pd->migratetype = ev->migratetype;
	pd->gfp = ev->gfp_flags;
	if (pd == &now) {
		attach_site(st, pi, PAGE_NO_STACK, pd);
		return;
	}
	pd->active = true;
	p->flags |= PAGE_OBJ_PENDING;
}

static void page_alloc(struct page_stats *st, const struct kmem_event *ev)
{
	uint64_t bytes = bytes_of(st, ev->order);
	struct page_proc *pr = get_proc(st, ev->pid);
	uint32_t pi;

	finish_pending(st, ev->cpu, PAGE_NO_STACK);
	if (!ev->page_valid) {
		st->sum.failures++;
		st->sum.failure_bytes += bytes;
		return;
	}
	st->sum.allocs++;
	st->sum.alloc_bytes += bytes;
	st->sum.order_mt[ev->order >= 0 && ev->order < PAGE_MAX_ORDER ?
			 ev->order : PAGE_MAX_ORDER - 1]
			[mt_index(ev->migratetype)]++;
	if (pr) {
		pr->allocs++;
		pr->alloc_bytes += bytes;
	}
	if (cross_node(st, ev)) {
		st->sum.remote_allocs++;
		st->sum.remote_alloc_bytes += bytes;
	}
	if ((ev->gfp_flags & 0x08) && (ev->migratetype == 1 ||
				       ev->migratetype == 2))
		st->sum.movable_as[ev->migratetype]++;
	pi = addr_table_find(&st->objs, ev->pfn);
	if (pi == ADDR_NONE)
		pi = addr_table_add(&st->objs, ev->pfn);
	if (pi == ADDR_NONE) {
		st->oom++;
		return;
	}
	make_live(st, pi, ev, bytes);
}

/* A free of a page never allocated in the trace (or again). */
static void free_unmatched(struct page_stats *st, const struct kmem_event *ev,
			   uint64_t bytes)
{
	if (addr_table_find(&st->freed_only, ev->pfn) != ADDR_NONE) {
		st->sum.double_frees++;
		return;
	}
	st->sum.free_only_count++;
	st->sum.free_only_bytes += bytes;
	st->sum.free_bytes += bytes;
	if (addr_table_add(&st->freed_only, ev->pfn) == ADDR_NONE)
		st->oom++;
}

static void page_free(struct page_stats *st, const struct kmem_event *ev)
{
	uint64_t bytes = bytes_of(st, ev->order);
	struct page_proc *pr = get_proc(st, ev->pid);
	uint32_t pi;
	bool live;

	st->sum.frees++;
	st->sum.batched_frees += ev->batched;
	if (pr) {
		pr->frees++;
		pr->batched += ev->batched;
	}
	pi = addr_table_find(&st->objs, ev->pfn);
	live = pi != ADDR_NONE && (page_obj_at(st, pi)->flags & PAGE_OBJ_LIVE);
	if (cross_node(st, ev)) {
		st->sum.cross_frees++;
		st->sum.cross_free_bytes +=
			live ? page_obj_bytes(st, page_obj_at(st, pi)) : bytes;
	}
	if (pi == ADDR_NONE) {
		free_unmatched(st, ev, bytes);
		return;
	}
	if (!live) {
		st->sum.double_frees++;
		return;
	}
	bytes = page_obj_bytes(st, page_obj_at(st, pi));
	kmem_match_set(st->match, KMEM_MATCH_FREE, pi, page_obj_at(st, pi)->site,
		       page_obj_at(st, pi)->cpu, page_obj_at(st, pi)->ts, bytes);
	st->sum.alloc_freed_count++;
	st->sum.alloc_freed_bytes += bytes;
	st->sum.free_bytes += bytes;
	if (st->rows)
		inc32(st, &page_row_at(st, pi)->frees);
	drop_live(st, pi);
}

static const struct page_frame *frame_info(struct page_stats *st,
					   uint64_t addr)
{
	const char *name = NULL;
	uint64_t start = addr;
	bool added;
	uint32_t i = index_get(&st->frame_ix, (void **)&st->frames,
			       &st->cap_frames, &st->nr_frames,
			       sizeof(*st->frames), addr, &added);

	if (i == U64_INDEX_NONE)
		return NULL;
	if (!added)
		return &st->frames[i];
	if (st->sym && st->sym->resolve)
		name = st->sym->resolve(st->sym->priv, addr, &start);
	st->frames[i].skip = name && st->have_skip &&
			     !regexec(&st->skip, name, 0, NULL, 0);
	return &st->frames[i];
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
	const struct page_frame *f = frame_info(st, addr);

	return f && f->skip;
}

/* The first frame that is neither tracing nor allocator internals. */
static uint64_t first_caller(struct page_stats *st, const uint64_t *fr,
			     unsigned int n)
{
	uint64_t cs = PAGE_NO_STACK;
	unsigned int i;

	for (i = 0; i < n; i++) {
		const struct page_frame *f = frame_info(st, fr[i]);

		if (!f)
			return PAGE_NO_STACK;
		cs = fr[i];	/* the return address: sym+0xoff */
		if (!f->skip)
			break;
	}
	return cs;
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
		return first_caller(st, ev->frames, ev->nr_frames);
	if (!ev->nr_frames)
		return PAGE_NO_STACK;
	i = stack_intern(st, ev->frames, ev->nr_frames);
	return i == U64_INDEX_NONE ? PAGE_NO_STACK : (uint64_t)i + 1;
}

/*
 * Between the end of one record's data and the start of the next one's:
 * its event header (4 bytes, 8 with a length word) and perhaps a time
 * extend (8): 16 at most, while any record in between takes at least
 * 4 + 8 + 4.  At a ring-buffer page start, the 16-byte page header.
 */
#define STACK_GAP_MAX 16
#define PAGE_START_MAX (16 + STACK_GAP_MAX)

/**
 * page_stack_follows - does a record directly follow another one?
 * @st: the statistics (their ring-buffer page size)
 * @end: where the earlier record ended in its CPU's buffer
 * @off: where the later one starts
 *
 * A few header bytes later, or first thing on the next ring-buffer page:
 * a kernel_stack record there belongs to the allocation before it.
 *
 * Return: true if it does.
 */
bool page_stack_follows(const struct page_stats *st, uint64_t end,
			uint64_t off)
{
	uint64_t ps = st->subbuf_size ? st->subbuf_size : 4096;

	if (off < end)
		return false;
	if (off - end <= STACK_GAP_MAX)
		return true;
	return end && off / ps == (end - 1) / ps + 1 && off % ps <= PAGE_START_MAX;
}

static void page_stack(struct page_stats *st, const struct kmem_event *ev)
{
	struct page_pending *pd = pending_of(st, ev->cpu);

	if (!pd || !pd->active)
		return;
	/* after lost events the record before it may be another's */
	if (ev->after_loss ||
	    !page_stack_follows(st, pd->rec_end, ev->rec_offset)) {
		finish_pending(st, ev->cpu, PAGE_NO_STACK);
		return;
	}
	st->sum.stacks++;
	finish_pending(st, ev->cpu, stack_callsite(st, ev));
}

static void page_other(struct page_stats *st, const struct kmem_event *ev)
{
	struct page_proc *pr = get_proc(st, ev->pid);
	struct page_fallback *fb;

	switch (ev->kind) {
	case KMEM_EV_PAGE_FREE_BATCHED:
		st->sum.batched_frees++;
		if (pr)
			pr->batched++;
		break;
	case KMEM_EV_PAGE_ZONE_LOCKED:
		st->sum.zone_locked++;
		st->sum.pcpu_refills += ev->percpu_refill;
		if (pr) {
			pr->zone_locked++;
			pr->refills += ev->percpu_refill;
		}
		break;
	case KMEM_EV_PAGE_PCPU_DRAIN:
		st->sum.pcpu_drains++;
		if (pr)
			pr->drains++;
		break;
	default:	/* KMEM_EV_PAGE_EXTFRAG */
		fb = &st->sum.fb[mt_index(ev->migratetype)]
				[mt_index(ev->fallback_migratetype)];
		fb->fallbacks++;
		fb->fragmenting += ev->fragmenting;
		fb->ownership += ev->change_ownership;
		if (pr) {
			pr->fallbacks++;
			pr->frag_fallbacks += ev->fragmenting;
		}
		break;
	}
}

/**
 * page_account - add one page allocator or kernel_stack event
 * @st: the statistics
 * @ev: the event; events of the slab allocator are ignored
 */
void page_account(struct page_stats *st, const struct kmem_event *ev)
{
	switch (ev->kind) {
	case KMEM_EV_PAGE_ALLOC:
		page_alloc(st, ev);
		break;
	case KMEM_EV_PAGE_FREE:
		page_free(st, ev);
		break;
	case KMEM_EV_STACK:
		page_stack(st, ev);
		break;
	case KMEM_EV_PAGE_FREE_BATCHED:
	case KMEM_EV_PAGE_ZONE_LOCKED:
	case KMEM_EV_PAGE_PCPU_DRAIN:
	case KMEM_EV_PAGE_EXTFRAG:
		page_other(st, ev);
		break;
	default:
		break;
	}
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
		const struct page_site *t = &st->sites[j];

		if (t->callsite == s->callsite && t->order == s->order &&
		    t->migratetype == s->migratetype && t->gfp == s->gfp)
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
		s->callsite = first_caller(st, st->stack_frames + k->off, k->n);
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
		finish_pending(st, (int)cpu, PAGE_NO_STACK);
}

/**
 * page_old_migratetypes - the migration type numbering, from the events
 * @s: the summary
 *
 * __GFP_MOVABLE is bit 0x08 in every kernel, and mm_page_alloc reports
 * the migration type the flags ask for: MOVABLE is 2 before Linux 4.4,
 * 1 since.  For traces whose format does not tell.
 *
 * Return: 1 if the events number MOVABLE 2 (before 4.4), else 0.
 */
int page_old_migratetypes(const struct page_summary *s)
{
	return s->movable_as[2] > s->movable_as[1];
}

/**
 * page_alloc_only_count - allocations whose free was not traced
 * @s: the summary
 *
 * Return: allocs - allocations matched by a free.
 */
uint64_t page_alloc_only_count(const struct page_summary *s)
{
	return s->allocs - s->alloc_freed_count;
}

/**
 * page_alloc_only_bytes - bytes of the allocations whose free was not traced
 * @s: the summary
 *
 * Return: bytes allocated - bytes of the allocations matched by a free.
 */
uint64_t page_alloc_only_bytes(const struct page_summary *s)
{
	return s->alloc_bytes - s->alloc_freed_bytes;
}
