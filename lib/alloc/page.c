// SPDX-License-Identifier: LGPL-2.1
/*
 * Page allocator statistics (see page.h and
 * Documentation/kmem-stat-definitions.txt): allocations, frees, orders,
 * processes.  The call sites, from kernel stacks, are page_stack.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "page_internal.h"

/*
 * Frames that are not the caller: the page allocator's own layers, old
 * and new (perf's 2015 rule was ^_?_?(alloc|get_free|get_zeroed)_pages?),
 * and the tracing machinery that records the stack.
 */
const char kmem_default_skip[] =
	"^_*(alloc|get_free|get_zeroed)_pages?"
	"|^_*alloc_frozen_pages|^_*folio_alloc|^vma_alloc_folio"
	"|^alloc_page_interleave|^alloc_pages_exact|^get_page_from_freelist"
	"|^_*rmqueue|^prep_new_page|^post_alloc_hook|" KMEM_SKIP_TRACING;

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
	memset(st, 0, sizeof(*st));
	st->rows = true;
	kmem_lc_init(&st->lc, sizeof(struct page_obj_row));
	st->page_size = 4096;
	st->subbuf_size = 4096;
	st->pageblock_order = -1;
	return kmem_frames_init(&st->fr, sym, skip_regex, kmem_default_skip,
				err, errlen);
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
	u64_index_free(&st->stack_ix);
	free(st->stacks);
	free(st->stack_frames);
	free(st->sites);
	kmem_lc_release(&st->lc);
	free(st->procs);
	free(st->pending);
	kmem_frames_release(&st->fr);
	memset(st, 0, sizeof(*st));
}

/* get_proc() when the process is not the last one: out of line. */
static __attribute__((noinline)) struct page_proc *
find_proc(struct page_stats *st, int pid)
{
	bool added;
	uint32_t i =
		index_get(&st->proc_ix, (void **)&st->procs, &st->cap_procs,
			  &st->nr_procs, sizeof(*st->procs),
			  (uint64_t)(uint32_t)pid, &added);

	if (i == U64_INDEX_NONE) {
		st->oom++;
		return NULL;
	}
	st->procs[i].pid = pid;
	st->last_proc = i + 1;
	return &st->procs[i];
}

/*
 * The row of a process.  The last one looked up is tried first: page
 * events come in runs of one task (99% of the bench's 1m recording).
 */
static inline struct page_proc *get_proc(struct page_stats *st, int pid)
{
	if (st->last_proc && st->procs[st->last_proc - 1].pid == pid)
		return &st->procs[st->last_proc - 1];
	return find_proc(st, pid);
}

static uint64_t bytes_of(const struct page_stats *st, int order)
{
	if (order < 0 || order > 30)
		order = 0;
	return (uint64_t)st->page_size << order;
}

static inline void drop_live(struct page_stats *st, uint32_t pi, uint64_t bytes)
{
	struct page_obj *p = page_obj_at(st, pi);

	/*
	 * A free sorted between the allocation and its stack record (another
	 * CPU's, by timestamps, or live mode's order): the allocation still
	 * waits for its stack; its row gets no live counts when it comes.
	 */
	kmem_lc_drop(&st->sum.lc,
		     p->site != U64_INDEX_NONE ? &st->sites[p->site].live
					       : NULL,
		     &st->touched, &p->h, bytes);
}

/* Is the page on another node than the CPU?  (Known nodes only.) */
static inline bool cross_node(const struct page_stats *st,
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

static void make_live(struct page_stats *st, uint32_t pi,
		      const struct kmem_event *ev, uint64_t bytes)
{
	struct page_pending *pd, now;
	struct page_obj *p;

	/* a freed allocation still waiting on another CPU: no stack now */
	if (page_obj_at(st, pi)->flags & PAGE_OBJ_PENDING)
		page_finish_pending(st, page_obj_at(st, pi)->cpu,
				    PAGE_NO_STACK);
	p = page_obj_at(st, pi);
	if (p->flags & PAGE_OBJ_LIVE) {
		uint64_t was = page_obj_bytes(st, p);

		kmem_lc_missed(&st->sum.lc, &p->h, was);
		drop_live(st, pi, was);
	}
	if (st->rows) {
		kmem_inc32(&st->saturated, &page_row_at(st, pi)->hits);
		page_row_at(st, pi)->bytes += bytes;
	}
	p->border = (uint8_t)(ev->order < 0 || ev->order > 30 ? 0 : ev->order);
	kmem_obj_start(&p->h, ev, U64_INDEX_NONE, PAGE_OBJ_LIVE);
	kmem_lc_live(&st->sum.lc, NULL, NULL, &p->h, bytes);
	kmem_lc_tell(&st->lc, KMEM_MATCH_ALLOC, pi, &p->h, bytes);
	pd = page_pending_of(st, ev->cpu);
	if (!pd) { /* its stack, should one follow, will be lost */
		if (ev->cpu >= 0 && ev->cpu <= KMEM_MAX_CPU)
			st->oom++;
		memset(&now, 0, sizeof(now));
		pd = &now;
	}
	pd->pfn = pi;
	pd->rec_end = ev->rec_offset + ev->rec_size;
	pd->order = ev->order;
	pd->migratetype = ev->migratetype;
	pd->gfp = ev->gfp_flags;
	if (pd == &now) {
		page_attach_site(st, pi, PAGE_NO_STACK, pd);
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

	page_finish_pending(st, ev->cpu, PAGE_NO_STACK);
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
	pi = kmem_lc_entry(&st->lc, ev->pfn);
	if (pi != ADDR_NONE)
		make_live(st, pi, ev, bytes);
}

static void page_free(struct page_stats *st, const struct kmem_event *ev)
{
	uint64_t bytes = bytes_of(st, ev->order);
	struct page_proc *pr = get_proc(st, ev->pid);
	enum kmem_free_kind kind;
	uint32_t pi;

	st->sum.batched_frees += ev->batched;
	if (pr) {
		pr->frees++;
		pr->batched += ev->batched;
	}
	kind = kmem_lc_free(&st->lc, &st->sum.lc, ev->pfn, &pi);
	if (kind == KMEM_FREE_MATCHED)
		bytes = page_obj_bytes(st, page_obj_at(st, pi));
	if (cross_node(st, ev)) {
		st->sum.cross_frees++;
		st->sum.cross_free_bytes += bytes;
	}
	if (kind == KMEM_FREE_DOUBLE)
		return;
	st->sum.free_bytes += bytes;
	if (kind == KMEM_FREE_ONLY) {
		st->sum.free_only_bytes += bytes;
		return;
	}
	kmem_lc_matched(&st->lc, &st->sum.lc, pi, &page_obj_at(st, pi)->h,
			bytes);
	if (st->rows)
		kmem_inc32(&st->saturated, &page_row_at(st, pi)->frees);
	drop_live(st, pi, bytes);
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
		st->sum.frag_unknown += !ev->frag_known;
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
	/* the two most records are, before the jump table of the others */
	if (ev->kind == KMEM_EV_PAGE_ALLOC) {
		page_alloc(st, ev);
		return;
	}
	if (ev->kind == KMEM_EV_PAGE_FREE) {
		page_free(st, ev);
		return;
	}
	switch (ev->kind) {
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

/* Migration type @mt in the numbering of Linux 4.4 and later. */
static int new_mt(int mt, bool old)
{
	return old && (mt == 1 || mt == 2) ? 3 - mt : mt;
}

/**
 * page_merge_summary - add one input's page summary to a merged total
 * @to: the total, in the 4.4 numbering of migration types
 * @f: the input's
 * @old: @f's kernel numbered migration types before 4.4
 */
void page_merge_summary(struct page_summary *to, const struct page_summary *f,
			bool old)
{
	struct page_summary c = *f;
	int o, a, b;

	/* the per-type arrays are added in the new numbering */
	for (o = 0; o < PAGE_MAX_ORDER; o++)
		for (a = 0; a < PAGE_NR_MT; a++)
			c.order_mt[o][new_mt(a, old)] = f->order_mt[o][a];
	for (a = 0; a < PAGE_NR_MT; a++)
		for (b = 0; b < PAGE_NR_MT; b++)
			c.fb[new_mt(a, old)][new_mt(b, old)] = f->fb[a][b];
	for (a = 1; a < 3; a++)
		c.movable_as[new_mt(a, old)] = f->movable_as[a];
	KMEM_ADD_COUNTERS(to, &c);
}

/**
 * page_merge_tables - add another input's call-site and process rows
 * @t: the merged statistics, in the 4.4 numbering of migration types
 * @f: the input's, finished (its call sites resolved)
 * @m: its call sites, processes and numbering in @t's terms
 *
 * Rows join by (call site, order, migration type, GFP flags), processes
 * by command (@m->pid); pages are not merged.
 *
 * Return: 0, or -1 when memory ran out.
 */
int page_merge_tables(struct page_stats *t, const struct page_stats *f,
		      const struct kmem_site_map *m)
{
	size_t i;

	for (i = 0; i < f->nr_sites; i++) {
		const struct page_site *s = &f->sites[i];
		uint32_t k = page_site_get(
			t, kmem_map_site(m, s->callsite), s->order,
			new_mt(s->migratetype, m->old_migratetypes), s->gfp);

		if (k == U64_INDEX_NONE)
			return -1;
		t->sites[k].hits += s->hits;
		t->sites[k].bytes += s->bytes;
		t->sites[k].live_count += s->live_count;
		t->sites[k].live_bytes += s->live_bytes;
	}
	for (i = 0; i < f->nr_procs; i++) {
		const struct page_proc *p = &f->procs[i];
		struct page_proc *d = get_proc(t, m->pid(m->priv, p->pid));

		if (!d)
			return -1;
		d->allocs += p->allocs;
		d->alloc_bytes += p->alloc_bytes;
		d->zone_locked += p->zone_locked;
		d->frees += p->frees;
		d->batched += p->batched;
		d->drains += p->drains;
		d->refills += p->refills;
		d->fallbacks += p->fallbacks;
		d->frag_fallbacks += p->frag_fallbacks;
	}
	return 0;
}
