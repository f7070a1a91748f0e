// SPDX-License-Identifier: LGPL-2.1
/*
 * kmem_agg_merge(): the merged summary of several inputs is the sum of
 * their counters, with migration types of pre-4.4 kernels renumbered.
 * Expected values are counted by hand from the events fed in.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/agg.h"
#include "analysis/merge.h"
#include "agg_util.h"
#include "unit.h"

static void slab(struct kmem_agg *a, int alloc, uint64_t ptr, uint64_t req,
		 uint64_t bytes)
{
	struct kmem_event ev = { 0 };

	ev.kind = alloc ? KMEM_EV_SLAB_ALLOC : KMEM_EV_SLAB_FREE;
	ev.ptr = ptr;
	ev.call_site = 0xffffffff81000010ULL;
	ev.bytes_req = req;
	ev.bytes_alloc = bytes;
	ev.node = KMEM_NO_NODE;
	kmem_agg_event(a, &ev);
}

static void page_alloc(struct kmem_agg *a, uint64_t pfn, int order, int mt)
{
	struct kmem_event ev = { 0 };

	ev.kind = KMEM_EV_PAGE_ALLOC;
	ev.pfn = pfn;
	ev.page_valid = true;
	ev.order = order;
	ev.migratetype = mt;
	ev.gfp_flags = mt == 2 ? 0x08 : 0;
	kmem_agg_event(a, &ev);
}

static void test_sums(void)
{
	struct kmem_agg a, b, m;

	kmem_agg_init(&a);
	kmem_agg_init(&b);
	kmem_agg_init(&m);
	/* a: 2 allocations (64 + 128 bytes), 1 freed; 1 page of order 0 */
	slab(&a, 1, 0x1000, 60, 64);
	slab(&a, 1, 0x2000, 100, 128);
	slab(&a, 0, 0x1000, 0, 0);
	page_alloc(&a, 10, 0, 0);
	kmem_agg_missed(&a, 5);
	/* b: 1 allocation (32 bytes), a free of an unknown pointer */
	slab(&b, 1, 0x1000, 30, 32);
	slab(&b, 0, 0x9000, 0, 0);
	kmem_agg_finish(&a);
	kmem_agg_finish(&b);
	kmem_agg_merge(&m, &a, false);
	kmem_agg_merge(&m, &b, false);
	CHECK_U64(agg_slab(&m)->sum.allocs, 3);
	CHECK_U64(agg_slab(&m)->sum.frees, 2); /* matched + freed-only */
	CHECK_U64(agg_slab(&m)->sum.free_only, 1);
	CHECK_U64(agg_slab(&m)->sum.bytes_req, 190);
	CHECK_U64(agg_slab(&m)->sum.bytes_alloc, 224);
	CHECK_U64(agg_slab(&m)->sum.live_count, 2);
	CHECK_U64(agg_slab(&m)->sum.live_bytes, 160);
	CHECK_U64(m.events[KMEM_ALLOC_SLAB], 5);
	CHECK_U64(m.events[KMEM_ALLOC_PAGE], 1);
	CHECK_U64(agg_page(&m)->sum.allocs, 1);
	CHECK_U64(m.events_lost, 5);
	CHECK_U64(agg_slab(&m)->nr_sites, 0); /* no tables in a merge */
	kmem_agg_release(&a);
	kmem_agg_release(&b);
	kmem_agg_release(&m);
}

static void test_old_migratetypes(void)
{
	struct kmem_agg old, cur, m;

	kmem_agg_init(&old);
	kmem_agg_init(&cur);
	kmem_agg_init(&m);
	/* before 4.4 MOVABLE was 2: 3 movable order-1 pages, 1 reclaimable */
	page_alloc(&old, 100, 1, 2);
	page_alloc(&old, 102, 1, 2);
	page_alloc(&old, 104, 1, 2);
	page_alloc(&old, 106, 0, 1);
	/* since 4.4 MOVABLE is 1: 2 movable order-1 pages */
	page_alloc(&cur, 200, 1, 1);
	page_alloc(&cur, 202, 1, 1);
	kmem_agg_finish(&old);
	kmem_agg_finish(&cur);
	kmem_agg_merge(&m, &old, true);
	kmem_agg_merge(&m, &cur, false);
	CHECK_U64(agg_page(&m)->sum.order_mt[1][1],
		  5); /* movable, new numbering */
	CHECK_U64(agg_page(&m)->sum.order_mt[1][2], 0);
	CHECK_U64(agg_page(&m)->sum.order_mt[0][2], 1); /* reclaimable */
	CHECK_U64(agg_page(&m)->sum.allocs, 6);
	CHECK_U64(agg_page(&m)->sum.movable_as[1],
		  3); /* the old __GFP_MOVABLE ones */
	kmem_agg_release(&old);
	kmem_agg_release(&cur);
	kmem_agg_release(&m);
}

/* A boot's symbols: "foo" at @priv (its base), "bar" 0x100 above. */
static const char *boot_resolve(void *priv, uint64_t addr, uint64_t *start)
{
	uint64_t base = *(const uint64_t *)priv;

	if (addr < base || addr >= base + 0x200)
		return NULL;
	*start = addr < base + 0x100 ? base : base + 0x100;
	return addr < base + 0x100 ? "foo" : "bar";
}

static void slab_at(struct kmem_agg *a, uint64_t cs, uint64_t ptr,
		    uint64_t bytes)
{
	struct kmem_event ev = { 0 };

	ev.kind = KMEM_EV_SLAB_ALLOC;
	ev.ptr = ptr;
	ev.call_site = cs;
	ev.bytes_req = bytes;
	ev.bytes_alloc = bytes;
	ev.node = KMEM_NO_NODE;
	kmem_agg_event(a, &ev);
}

/* The row of a merged call site named @name, or NULL. */
static const struct slab_site *named(const struct kmem_merge *m,
				     const char *name)
{
	const struct slab_stats *st = agg_slab(&m->agg);
	char buf[KMEM_SYM_LEN];
	size_t i;

	for (i = 0; i < st->nr_sites; i++)
		if (!strcmp(fmt_callsite(buf, &m->sym, st->sites[i].call_site,
					 0),
			    name))
			return &st->sites[i];
	return NULL;
}

/*
 * Two boots (KASLR: foo at other addresses): call sites join by
 * function+offset, or by function; caches by name; an address no
 * symbol covers keeps its value, one in the merged numbering is named
 * by its digits; old migration types are renumbered in the page rows.
 */
static void test_tables(void)
{
	static const uint64_t base_a = 0xffffffff81000000ULL,
			      base_b = 0xffffffff82000000ULL;
	struct kmem_symbolizer sa = { .resolve = boot_resolve,
				      .priv = (void *)&base_a },
			       sb = { .resolve = boot_resolve,
				      .priv = (void *)&base_b,
				      .old_migratetypes = 1 };
	struct kmem_collect_cfg cc = { 0 };
	struct kmem_agg a, b;
	struct kmem_merge m;
	int fn;

	kmem_agg_init(&a);
	kmem_agg_init(&b);
	slab_at(&a, base_a + 0x10, 0x1000, 64);
	slab_at(&a, base_a + 0x10, 0x2000, 64);
	slab_at(&a, base_a + 0x120, 0x3000, 128);
	slab_at(&b, base_b + 0x10, 0x1000, 64);
	slab_at(&b, base_b + 0x20, 0x2000, 32);
	slab_at(&b, 0xffffffff83000000ULL, 0x3000, 8); /* no symbol */
	slab_at(&b, 0x1000000000000010ULL, 0x4000, 8); /* in the range */
	page_alloc(&b, 100, 1, 2);		       /* old MOVABLE */
	page_alloc(&b, 102, 1, 2);
	kmem_agg_finish(&a);
	kmem_agg_finish(&b);
	for (fn = 0; fn < 2; fn++) {
		const struct slab_site *s;

		CHECK(!kmem_merge_init(&m, &cc, NULL, fn));
		CHECK(!kmem_merge_add(&m, &a, &sa, "a.dat", "h1", NULL));
		CHECK(!kmem_merge_add(&m, &b, &sb, "b.dat", NULL, "6.1"));
		CHECK_U64(agg_slab(&m.agg)->sum.allocs, 7);
		CHECK_U64(m.nr_parts, 2);
		CHECK_U64(m.parts[1].events, 6);
		s = named(&m, fn ? "foo" : "foo+0x10");
		CHECK(s != NULL);
		CHECK_U64(s ? s->hits : 0, fn ? 4 : 3);
		CHECK_U64(s ? s->bytes_alloc : 0, fn ? 224 : 192);
		CHECK_U64(s ? s->live_count : 0, fn ? 4 : 3);
		s = named(&m, fn ? "bar" : "bar+0x20");
		CHECK_U64(s ? s->hits : 0, 1);
		s = named(&m, "0xffffffff83000000");
		CHECK_U64(s ? s->hits : 0, 1);
		s = named(&m,
			  fn ? "0x1000000000000010" : "0x1000000000000010+0x0");
		CHECK_U64(s ? s->hits : 0, 1);
		CHECK_U64(agg_slab(&m.agg)->nr_sites, fn ? 4 : 5);
		/* kmalloc-64 (3), -128, -32, -8 (2) */
		CHECK_U64(agg_slab(&m.agg)->nr_caches, 4);
		CHECK_U64(agg_page(&m.agg)->nr_sites, 1);
		CHECK_U64(agg_page(&m.agg)->sites[0].migratetype, 1);
		CHECK_U64(agg_page(&m.agg)->sites[0].hits, 2);
		kmem_merge_release(&m);
	}
	kmem_agg_release(&a);
	kmem_agg_release(&b);
}

/* A cache allocation, is_cache set (kmem_cache_alloc, kmem_cache_free). */
static void cache_ev(struct kmem_agg *a, int alloc, uint64_t ptr)
{
	struct kmem_event ev = { 0 };

	ev.kind = alloc ? KMEM_EV_SLAB_ALLOC : KMEM_EV_SLAB_FREE;
	ev.is_cache = true;
	ev.ptr = ptr;
	ev.call_site = 0xffffffff81000020ULL;
	ev.bytes_req = ev.bytes_alloc = alloc ? 64 : 0;
	ev.node = KMEM_NO_NODE;
	kmem_agg_event(a, &ev);
}

/*
 * Frees whose event has no record while its allocations have some:
 * kmalloc's kfree, kmem_cache_alloc's kmem_cache_free, the page
 * allocator's mm_page_free; kept through a merge.
 */
static void test_unrecorded(void)
{
	struct kmem_agg a, b, c, m;

	kmem_agg_init(&a);
	kmem_agg_init(&b);
	kmem_agg_init(&c);
	kmem_agg_init(&m);
	/* a: kmalloc, kfree, kmem_cache_alloc; no kmem_cache_free */
	slab(&a, 1, 0x1000, 60, 64);
	slab(&a, 0, 0x1000, 0, 0);
	cache_ev(&a, 1, 0x2000);
	CHECK_U64(kmem_agg_unrecorded(&a, KMEM_ALLOC_SLAB),
		  KMEM_SLOT_BIT(KMEM_SLOT_CACHE_FREE));
	cache_ev(&a, 0, 0x2000);
	CHECK_U64(kmem_agg_unrecorded(&a, KMEM_ALLOC_SLAB), 0);
	/* b: kmalloc and kmem_cache_alloc, no free; a page, no free */
	slab(&b, 1, 0x1000, 60, 64);
	cache_ev(&b, 1, 0x2000);
	page_alloc(&b, 10, 0, 0);
	CHECK_U64(kmem_agg_unrecorded(&b, KMEM_ALLOC_SLAB),
		  KMEM_SLOT_BIT(KMEM_SLOT_KFREE) |
			  KMEM_SLOT_BIT(KMEM_SLOT_CACHE_FREE));
	CHECK_U64(kmem_agg_unrecorded(&b, KMEM_ALLOC_PAGE),
		  KMEM_SLOT_BIT(KMEM_SLOT_PAGE_FREE));
	/* c: frees only (of objects allocated before it): nothing lacks */
	slab(&c, 0, 0x3000, 0, 0);
	CHECK_U64(kmem_agg_unrecorded(&c, KMEM_ALLOC_SLAB), 0);
	/* merged, a's complete records do not hide b's missing ones */
	kmem_agg_merge(&m, &a, false);
	CHECK_U64(kmem_agg_unrecorded(&m, KMEM_ALLOC_SLAB), 0);
	kmem_agg_merge(&m, &b, false);
	kmem_agg_merge(&m, &c, false);
	CHECK_U64(kmem_agg_unrecorded(&m, KMEM_ALLOC_SLAB),
		  KMEM_SLOT_BIT(KMEM_SLOT_KFREE) |
			  KMEM_SLOT_BIT(KMEM_SLOT_CACHE_FREE));
	CHECK_U64(kmem_agg_unrecorded(&m, KMEM_ALLOC_PAGE),
		  KMEM_SLOT_BIT(KMEM_SLOT_PAGE_FREE));
	CHECK_U64(kmem_agg_unrecorded(&m, KMEM_ALLOC_PERCPU), 0);
	kmem_agg_release(&a);
	kmem_agg_release(&b);
	kmem_agg_release(&c);
	kmem_agg_release(&m);
}

int main(void)
{
	RUN(test_sums);
	RUN(test_unrecorded);
	RUN(test_old_migratetypes);
	RUN(test_tables);
	UNIT_EXIT();
}
