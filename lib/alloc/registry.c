// SPDX-License-Identifier: LGPL-2.1
/*
 * The allocators (see registry.h): each one's statistics behind the
 * descriptor's untyped calls.
 */
#include "registry.h"

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

static void page_init(void *st)
{
	page_stats_init(st, NULL, NULL, NULL, 0);
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

const struct kmem_alloc_desc kmem_allocs[KMEM_NR_ALLOC] = {
	[KMEM_ALLOC_SLAB] = {
		.name = "slab",
		.caps = KMEM_CAP_CACHES | KMEM_CAP_LIFETIMES | KMEM_CAP_ROWS |
			KMEM_CAP_NUMA | KMEM_CAP_TIMELINE,
		.lc_off = offsetof(struct slab_stats, lc),
		.init = slab_init,
		.release = slab_release,
		.account = slab_feed,
		.merge = slab_merge,
	},
	[KMEM_ALLOC_PAGE] = {
		.name = "page",
		.caps = KMEM_CAP_STACKS | KMEM_CAP_ORDERS | KMEM_CAP_ROWS |
			KMEM_CAP_NUMA | KMEM_CAP_TIMELINE,
		.lc_off = offsetof(struct page_stats, lc),
		.init = page_init,
		.release = page_release,
		.account = page_feed,
		.finish = page_end,
		.merge = page_merge,
	},
	[KMEM_ALLOC_PERCPU] = {
		.name = "percpu",
		.caps = KMEM_CAP_LIFETIMES,
		.lc_off = offsetof(struct percpu_stats, lc),
		.init = percpu_init,
		.release = percpu_release,
		.account = percpu_feed,
		.merge = percpu_merge,
	},
};
