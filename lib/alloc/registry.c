// SPDX-License-Identifier: LGPL-2.1
/*
 * The allocators (see registry.h): each one's statistics behind the
 * descriptor's untyped calls.
 */
#include "registry.h"
#include "vmalloc.h"

static void slab_init(void *st)
{
	slab_stats_init(st);
}

static void slab_release(void *st)
{
	slab_stats_release(st);
}

static void slab_feed(void *st, const struct kmem_event *ev)
{
	slab_account(st, ev);
}

static void slab_merge(void *to, const void *from, bool old_migratetypes)
{
	struct slab_stats *t = to;
	const struct slab_stats *f = from;

	KMEM_ADD_COUNTERS(&t->sum, &f->sum);
	t->oom += f->oom;
	t->saturated += f->saturated;
}

static uint64_t slab_unrecorded_of(const void *st)
{
	return slab_unrecorded(st);
}

static int slab_merge_rows(void *to, const void *from,
			   const struct kmem_site_map *m)
{
	return slab_merge_tables(to, from, m);
}

static uint64_t slab_site_addr(const void *st, uint32_t site)
{
	return ((const struct slab_stats *)st)->sites[site].call_site;
}

static uint64_t slab_site_frees(const void *st, uint32_t site)
{
	return ((const struct slab_stats *)st)->sites[site].frees;
}

static uint64_t slab_bytes(const void *st, const struct kmem_obj *o)
{
	return ((const struct slab_obj *)o)->bytes;
}

static size_t slab_addresses(const void *st, uint64_t *v)
{
	const struct slab_stats *s = st;
	size_t i, k = 0;

	if (!v)
		return s->nr_sites + s->nr_anoms;
	for (i = 0; i < s->nr_sites; i++)
		v[k++] = s->sites[i].call_site;
	for (i = 0; i < s->nr_anoms; i++)
		v[k++] = s->anoms[i].call_site;
	return k;
}

static void slab_rows(void *st, bool rows)
{
	slab_stats_keep_rows(st, rows);
}

static void page_init(void *st)
{
	page_stats_init(st, NULL, NULL, NULL, 0);
}

static int page_config(void *st, const struct kmem_symbolizer *sym,
		       const char *skip, char *err, size_t errlen)
{
	struct page_stats *p = st;
	struct kmem_match *m = p->lc.match; /* who follows the objects */
	bool rows = p->rows;
	int ret;

	page_stats_release(p);
	ret = page_stats_init(p, sym, skip, err, errlen);
	page_stats_keep_rows(p, rows);
	p->lc.match = m;
	return ret;
}

static void page_release(void *st)
{
	page_stats_release(st);
}

static void page_feed(void *st, const struct kmem_event *ev)
{
	page_account(st, ev);
}

static void page_end(void *st)
{
	page_finish(st);
}

static void page_merge(void *to, const void *from, bool old_migratetypes)
{
	struct page_stats *t = to;
	const struct page_stats *f = from;

	page_merge_summary(&t->sum, &f->sum, old_migratetypes);
	t->oom += f->oom;
	t->saturated += f->saturated;
}

static int page_merge_rows(void *to, const void *from,
			   const struct kmem_site_map *m)
{
	return page_merge_tables(to, from, m);
}

static uint64_t page_site_addr(const void *st, uint32_t site)
{
	if (site == U64_INDEX_NONE)
		return PAGE_NO_STACK;
	return ((const struct page_stats *)st)->sites[site].callsite;
}

static uint64_t page_bytes(const void *st, const struct kmem_obj *o)
{
	return page_obj_bytes(st, (const struct page_obj *)o);
}

/* deferred (page_defer_callsites()): the frames, not the call sites */
static size_t page_addresses(const void *st, uint64_t *v)
{
	const struct page_stats *s = st;
	size_t i, k = 0;

	if (!v)
		return s->nr_sites + s->nr_stack_frames;
	for (i = 0; i < s->nr_sites && !s->defer; i++)
		v[k++] = s->sites[i].callsite;
	for (i = 0; i < s->nr_stack_frames; i++)
		v[k++] = s->stack_frames[i];
	return k;
}

static void page_rows(void *st, bool rows)
{
	page_stats_keep_rows(st, rows);
}

static void percpu_init(void *st)
{
	percpu_stats_init(st);
}

static void percpu_release(void *st)
{
	percpu_stats_release(st);
}

static void percpu_feed(void *st, const struct kmem_event *ev)
{
	percpu_account(st, ev);
}

static void percpu_merge(void *to, const void *from, bool old_migratetypes)
{
	struct percpu_stats *t = to;
	const struct percpu_stats *f = from;

	KMEM_ADD_COUNTERS(&t->sum, &f->sum);
	t->oom += f->oom;
}

static int percpu_merge_rows(void *to, const void *from,
			     const struct kmem_site_map *m)
{
	return percpu_merge_tables(to, from, m);
}

static uint64_t percpu_site_addr(const void *st, uint32_t site)
{
	return ((const struct percpu_stats *)st)->sites[site].call_site;
}

static uint64_t percpu_site_frees(const void *st, uint32_t site)
{
	return ((const struct percpu_stats *)st)->sites[site].frees;
}

static uint64_t percpu_bytes(const void *st, const struct kmem_obj *o)
{
	return ((const struct percpu_obj *)o)->bytes;
}

static size_t percpu_addresses(const void *st, uint64_t *v)
{
	const struct percpu_stats *s = st;
	size_t i;

	for (i = 0; v && i < s->nr_sites; i++)
		v[i] = s->sites[i].call_site;
	return s->nr_sites;
}

static void vmalloc_init(void *st)
{
	vmalloc_stats_init(st, NULL, NULL, NULL, 0);
}

static int vmalloc_config(void *st, const struct kmem_symbolizer *sym,
			  const char *skip, char *err, size_t errlen)
{
	struct vmalloc_stats *v = st;

	return kmem_frames_configure(&v->fr, sym, skip, err, errlen);
}

static void vmalloc_release(void *st)
{
	vmalloc_stats_release(st);
}

static void vmalloc_feed(void *st, const struct kmem_event *ev)
{
	vmalloc_account(st, ev);
}

static void vmalloc_end(void *st)
{
	vmalloc_finish(st);
}

static void vmalloc_merge(void *to, const void *from, bool old_migratetypes)
{
	struct vmalloc_stats *t = to;
	const struct vmalloc_stats *f = from;

	vmalloc_merge_summary(&t->sum, &f->sum);
	t->oom += f->oom;
}

static int vmalloc_merge_rows(void *to, const void *from,
			      const struct kmem_site_map *m)
{
	return vmalloc_merge_tables(to, from, m);
}

static uint64_t vmalloc_site_addr(const void *st, uint32_t site)
{
	if (site == U64_INDEX_NONE)
		return VMALLOC_NO_STACK;
	return ((const struct vmalloc_stats *)st)->sites[site].call_site;
}

static uint64_t vmalloc_site_frees(const void *st, uint32_t site)
{
	return ((const struct vmalloc_stats *)st)->sites[site].frees;
}

static uint64_t vmalloc_bytes(const void *st, const struct kmem_obj *o)
{
	return ((const struct vmalloc_obj *)o)->bytes;
}

static size_t vmalloc_addresses(const void *st, uint64_t *v)
{
	const struct vmalloc_stats *s = st;
	size_t i;

	for (i = 0; v && i < s->nr_sites; i++)
		v[i] = s->sites[i].call_site;
	return s->nr_sites;
}

const struct kmem_alloc_desc kmem_allocs[KMEM_NR_ALLOC] = {
	[KMEM_ALLOC_SLAB] = {
		.name = "slab",
		.title = "slab allocator",
		.stats_size = sizeof(struct slab_stats),
		.caps = KMEM_CAP_CACHES | KMEM_CAP_LIFETIMES | KMEM_CAP_ROWS |
			KMEM_CAP_NUMA | KMEM_CAP_TIMELINE | KMEM_CAP_FOLDED,
		.alloc_kind = KMEM_EV_SLAB_ALLOC,
		.free_kind = KMEM_EV_SLAB_FREE,
		.free_slot = KMEM_SLOT_KFREE,
		.unrecorded = slab_unrecorded_of,
		.lc_off = offsetof(struct slab_stats, lc),
		.counts_off = offsetof(struct slab_stats, sum.lc),
		.touched_off = offsetof(struct slab_stats, touched),
		.numa_off = offsetof(struct slab_stats, numa),
		.life_off = offsetof(struct slab_stats, life),
		.site_addr = slab_site_addr,
		.site_frees = slab_site_frees,
		.sites_off = offsetof(struct slab_stats, sites),
		.nr_sites_off = offsetof(struct slab_stats, nr_sites),
		.site_size = sizeof(struct slab_site),
		.site_live_off = offsetof(struct slab_site, live),
		.site_ix_off = offsetof(struct slab_stats, site_ix),
		.site_peak_off = offsetof(struct slab_site, peak_bytes),
		.obj_bytes = slab_bytes,
		.init = slab_init,
		.release = slab_release,
		.account = slab_feed,
		.keep_rows = slab_rows,
		.addresses = slab_addresses,
		.merge = slab_merge,
		.merge_tables = slab_merge_rows,
	},
	[KMEM_ALLOC_PAGE] = {
		.name = "page",
		.title = "page allocator",
		.stats_size = sizeof(struct page_stats),
		.caps = KMEM_CAP_STACKS | KMEM_CAP_ORDERS | KMEM_CAP_ROWS |
			KMEM_CAP_NUMA | KMEM_CAP_TIMELINE | KMEM_CAP_FOLDED,
		.alloc_kind = KMEM_EV_PAGE_ALLOC,
		.free_kind = KMEM_EV_PAGE_FREE,
		.free_slot = KMEM_SLOT_PAGE_FREE,
		.lc_off = offsetof(struct page_stats, lc),
		.counts_off = offsetof(struct page_stats, sum.lc),
		.touched_off = offsetof(struct page_stats, touched),
		.numa_off = offsetof(struct page_stats, numa),
		.subbuf_off = offsetof(struct page_stats, subbuf_size),
		.frames_off = offsetof(struct page_stats, fr),
		.no_site = "(no stack)",
		.site_addr = page_site_addr,
		.sites_off = offsetof(struct page_stats, sites),
		.nr_sites_off = offsetof(struct page_stats, nr_sites),
		.site_size = sizeof(struct page_site),
		.site_live_off = offsetof(struct page_site, live),
		.obj_bytes = page_bytes,
		.init = page_init,
		.configure = page_config,
		.release = page_release,
		.account = page_feed,
		.keep_rows = page_rows,
		.finish = page_end,
		.addresses = page_addresses,
		.merge = page_merge,
		.merge_tables = page_merge_rows,
	},
	[KMEM_ALLOC_PERCPU] = {
		.name = "percpu",
		.title = "per-CPU allocator",
		.stats_size = sizeof(struct percpu_stats),
		.since = "4.14",
		.caps = KMEM_CAP_LIFETIMES | KMEM_CAP_TIMELINE,
		.alloc_kind = KMEM_EV_PERCPU_ALLOC,
		.free_kind = KMEM_EV_PERCPU_FREE,
		.free_slot = KMEM_SLOT_PERCPU_FREE,
		.lc_off = offsetof(struct percpu_stats, lc),
		.counts_off = offsetof(struct percpu_stats, sum.lc),
		.touched_off = offsetof(struct percpu_stats, touched),
		.no_site = "(no call_site field)",
		.life_off = offsetof(struct percpu_stats, life),
		.site_addr = percpu_site_addr,
		.site_frees = percpu_site_frees,
		.sites_off = offsetof(struct percpu_stats, sites),
		.nr_sites_off = offsetof(struct percpu_stats, nr_sites),
		.site_size = sizeof(struct percpu_site),
		.site_live_off = offsetof(struct percpu_site, live),
		.site_ix_off = offsetof(struct percpu_stats, site_ix),
		.site_peak_off = offsetof(struct percpu_site, peak_bytes),
		.obj_bytes = percpu_bytes,
		.init = percpu_init,
		.release = percpu_release,
		.account = percpu_feed,
		.addresses = percpu_addresses,
		.merge = percpu_merge,
		.merge_tables = percpu_merge_rows,
	},
	[KMEM_ALLOC_VMALLOC] = {
		.name = "vmalloc",
		.title = "vmalloc allocator",
		.stats_size = sizeof(struct vmalloc_stats),
		.since = "6.10",
		.caps = KMEM_CAP_STACKS | KMEM_CAP_LIFETIMES |
			KMEM_CAP_TIMELINE | KMEM_CAP_FOLDED,
		.alloc_kind = KMEM_EV_VMALLOC_ALLOC,
		.free_kind = KMEM_EV_VMALLOC_FREE,
		.free_slot = KMEM_SLOT_VMAP_FREE,
		.lc_off = offsetof(struct vmalloc_stats, lc),
		.counts_off = offsetof(struct vmalloc_stats, sum.lc),
		.touched_off = offsetof(struct vmalloc_stats, touched),
		.subbuf_off = offsetof(struct vmalloc_stats, subbuf_size),
		.frames_off = offsetof(struct vmalloc_stats, fr),
		.no_site = "(no stack)",
		.life_off = offsetof(struct vmalloc_stats, life),
		.site_addr = vmalloc_site_addr,
		.site_frees = vmalloc_site_frees,
		.sites_off = offsetof(struct vmalloc_stats, sites),
		.nr_sites_off = offsetof(struct vmalloc_stats, nr_sites),
		.site_size = sizeof(struct vmalloc_site),
		.site_live_off = offsetof(struct vmalloc_site, live),
		.site_ix_off = offsetof(struct vmalloc_stats, site_ix),
		.site_peak_off = offsetof(struct vmalloc_site, peak_bytes),
		.obj_bytes = vmalloc_bytes,
		.init = vmalloc_init,
		.configure = vmalloc_config,
		.release = vmalloc_release,
		.account = vmalloc_feed,
		.finish = vmalloc_end,
		.addresses = vmalloc_addresses,
		.merge = vmalloc_merge,
		.merge_tables = vmalloc_merge_rows,
	},
};
