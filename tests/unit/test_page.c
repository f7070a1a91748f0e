// SPDX-License-Identifier: LGPL-2.1
/*
 * Page allocator aggregation on hand-made event streams; every expected
 * number is counted by hand in the comment next to it.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/agg.h"
#include "agg_util.h"
#include "options/config.h"
#include "unit.h"

/* A fake kallsyms: each function is 0x100 bytes from its address. */
static const struct {
	uint64_t addr;
	const char *name;
} syms[] = {
	{ 0x1000, "trace_event_raw_event_mm_page_alloc" },
	{ 0x1100, "__alloc_frozen_pages_noprof" },
	{ 0x1200, "alloc_pages_mpol" },
	{ 0x1300, "vma_alloc_folio_noprof" },
	{ 0x1400, "do_anonymous_page" },
	{ 0x1500, "__handle_mm_fault" },
	{ 0x1600, "pte_alloc_one" },
};

static const char *fake_resolve(void *priv, uint64_t addr, uint64_t *start)
{
	size_t i;

	(void)priv;
	for (i = 0; i < sizeof(syms) / sizeof(syms[0]); i++)
		if (addr >= syms[i].addr && addr < syms[i].addr + 0x100) {
			*start = syms[i].addr;
			return syms[i].name;
		}
	return NULL;
}

static const struct kmem_symbolizer sym = { .resolve = fake_resolve };

static uint64_t offset_now = 1000;	/* where the next record lies */

static struct kmem_event ev_page(enum kmem_ev_kind kind, int cpu,
				 uint64_t pfn, int order, int mt)
{
	struct kmem_event e = { 0 };

	e.kind = kind;
	e.cpu = cpu;
	e.pid = 100 + cpu;
	e.pfn = pfn;
	e.page_valid = true;
	e.order = order;
	e.migratetype = mt;
	e.gfp_flags = 0xcc0;
	e.rec_offset = offset_now;
	e.rec_size = 28;
	offset_now += 32;	/* 4-byte header, then the next record */
	return e;
}

/* A stack record right after the previous record (gap 4). */
static struct kmem_event ev_stack(int cpu, const uint64_t *frames, int n)
{
	struct kmem_event e = ev_page(KMEM_EV_STACK, cpu, 0, 0, 0);
	int i;

	for (i = 0; i < n; i++)
		e.frames[i] = frames[i];
	e.nr_frames = (unsigned int)n;
	return e;
}

static void feed(struct kmem_agg *a, struct kmem_event e)
{
	kmem_agg_event(a, &e);
}

static const struct page_site *find_site(const struct page_stats *st,
					 uint64_t cs, int order)
{
	size_t i;

	for (i = 0; i < st->nr_sites; i++)
		if (st->sites[i].callsite == cs && st->sites[i].order == order)
			return &st->sites[i];
	return NULL;
}

static const uint64_t anon_stack[] = { 0x1010, 0x1120, 0x1230, 0x1340,
				       0x1450, 0x1560 };

/* Matching by pfn, bytes by order, the summary groups. */
static void test_summary(void)
{
	struct kmem_agg a;
	struct kmem_event e;
	const struct page_summary *s;

	kmem_agg_init(&a);
	s = &agg_page(&a)->sum;
	kmem_agg_configure(&a, &sym, NULL, NULL, 0);
	feed(&a, ev_page(KMEM_EV_PAGE_ALLOC, 0, 0x100, 0, 1));	/* A 4K */
	feed(&a, ev_page(KMEM_EV_PAGE_ALLOC, 0, 0x200, 2, 1));	/* B 16K */
	feed(&a, ev_page(KMEM_EV_PAGE_ALLOC, 1, 0x300, 0, 0));	/* C 4K */
	e = ev_page(KMEM_EV_PAGE_ALLOC, 1, 0, 3, 0);		/* failed */
	e.page_valid = false;
	feed(&a, e);
	feed(&a, ev_page(KMEM_EV_PAGE_FREE, 1, 0x100, 0, 0));	/* A freed */
	feed(&a, ev_page(KMEM_EV_PAGE_FREE_BATCHED, 1, 0x100, 0, 0));
	feed(&a, ev_page(KMEM_EV_PAGE_FREE, 0, 0x900, 1, 0));	/* 8K only */
	feed(&a, ev_page(KMEM_EV_PAGE_FREE, 0, 0x900, 1, 0));	/* double */
	feed(&a, ev_page(KMEM_EV_PAGE_ALLOC, 0, 0x300, 0, 2));	/* C missed */
	kmem_agg_finish(&a);

	CHECK_U64(s->allocs, 4);			/* A B C C' */
	CHECK_U64(s->alloc_bytes, 4096 * 3 + 16384);
	CHECK_U64(s->failures, 1);
	CHECK_U64(s->failure_bytes, 32768);		/* order 3 */
	CHECK_U64(s->frees, 3);			/* A, 0x900 twice */
	CHECK_U64(s->batched_frees, 1);		/* marker only */
	CHECK_U64(s->alloc_freed_count, 1);
	CHECK_U64(s->alloc_freed_bytes, 4096);
	CHECK_U64(s->free_only, 1);
	CHECK_U64(s->free_only_bytes, 8192);		/* its own order 1 */
	CHECK_U64(s->free_bytes, 4096 + 8192);
	CHECK_U64(s->double_frees, 1);
	CHECK_U64(s->missed_frees, 1);
	CHECK_U64(s->missed_free_bytes, 4096);
	CHECK_U64(s->live_count, 2);			/* B, C' */
	CHECK_U64(s->live_bytes, 16384 + 4096);
	CHECK_U64(kmem_lc_alloc_only_count(&s->lc), 3);
	CHECK_U64(s->order_mt[0][1], 1);		/* A */
	CHECK_U64(s->order_mt[2][1], 1);		/* B */
	CHECK_U64(s->order_mt[0][0], 1);		/* C */
	CHECK_U64(s->order_mt[0][2], 1);		/* C' */
	CHECK_U64(s->stacks, 0);
	CHECK_U64(a.events[KMEM_ALLOC_PAGE], 9); /* page records accounted */
	/* without stacks every allocation is "(no stack)" */
	CHECK(find_site(agg_page(&a), PAGE_NO_STACK, 0) != NULL);
	kmem_agg_release(&a);
}

/* Lost events are counted beside the page statistics, which go on. */
static void test_lost(void)
{
	struct kmem_agg a;

	kmem_agg_init(&a);
	feed(&a, ev_page(KMEM_EV_PAGE_ALLOC, 0, 0x100, 0, 0));
	kmem_agg_missed(&a, 1000);	/* a record after 1,000 lost */
	feed(&a, ev_page(KMEM_EV_PAGE_FREE, 0, 0x200, 0, 0));
	kmem_agg_missed(&a, -1);	/* a loss of unknown size */
	feed(&a, ev_page(KMEM_EV_PAGE_FREE, 0, 0x100, 0, 0));
	CHECK_U64(a.events_lost, 1000);
	CHECK_U64(a.lost_unknown, 1);
	CHECK_U64(agg_page(&a)->sum.free_only, 1);	   /* 0x200 */
	CHECK_U64(agg_page(&a)->sum.alloc_freed_count, 1); /* 0x100 */
	kmem_agg_release(&a);
}

/* Before 3.3: mm_page_free_direct and mm_pagevec_free both free. */
static void test_pre_3_3(void)
{
	struct kmem_agg a;
	struct kmem_event e;

	kmem_agg_init(&a);
	feed(&a, ev_page(KMEM_EV_PAGE_ALLOC, 0, 0x100, 0, 0));
	feed(&a, ev_page(KMEM_EV_PAGE_ALLOC, 0, 0x200, 0, 0));
	feed(&a, ev_page(KMEM_EV_PAGE_FREE, 0, 0x100, 0, 0)); /* _direct */
	e = ev_page(KMEM_EV_PAGE_FREE, 0, 0x200, 0, 0);	/* pagevec */
	e.batched = true;
	feed(&a, e);
	CHECK_U64(agg_page(&a)->sum.frees, 2);
	CHECK_U64(agg_page(&a)->sum.batched_frees, 1);
	CHECK_U64(agg_page(&a)->sum.alloc_freed_count, 2);
	CHECK_U64(agg_page(&a)->sum.live_count, 0);
	kmem_agg_release(&a);
}

/* Call sites from the kernel_stack record that directly follows. */
static void test_stacks(void)
{
	static const uint64_t pte_stack[] = { 0x1010, 0x1120, 0x1610, 0x1560 };
	static const uint64_t all_skipped[] = { 0x1010, 0x1120 };
	const struct page_site *s;
	struct kmem_agg a;
	struct kmem_event e;

	offset_now = 1000;
	kmem_agg_init(&a);
	kmem_agg_configure(&a, &sym, NULL, NULL, 0);
	/* 1: stack right after, on the same CPU: do_anonymous_page */
	feed(&a, ev_page(KMEM_EV_PAGE_ALLOC, 0, 0x100, 0, 1));
	feed(&a, ev_stack(0, anon_stack, 6));
	/* 2: the stack comes on another CPU: not this allocation's */
	feed(&a, ev_page(KMEM_EV_PAGE_ALLOC, 0, 0x200, 0, 1));
	feed(&a, ev_stack(1, anon_stack, 6));
	/* 3: a stack, but 100 bytes further on: an event came between */
	feed(&a, ev_page(KMEM_EV_PAGE_ALLOC, 0, 0x300, 0, 1));
	offset_now += 100;
	feed(&a, ev_stack(0, anon_stack, 6));
	/* 4: pte_alloc_one, order 1 */
	feed(&a, ev_page(KMEM_EV_PAGE_ALLOC, 0, 0x400, 1, 0));
	feed(&a, ev_stack(0, pte_stack, 4));
	/* 5: every frame skipped: the outermost frame */
	feed(&a, ev_page(KMEM_EV_PAGE_ALLOC, 0, 0x500, 0, 0));
	feed(&a, ev_stack(0, all_skipped, 2));
	/* 6: freed before its stack arrives (another CPU frees it) */
	feed(&a, ev_page(KMEM_EV_PAGE_ALLOC, 0, 0x600, 0, 1));
	feed(&a, ev_page(KMEM_EV_PAGE_FREE, 1, 0x600, 0, 0));
	e = ev_stack(0, anon_stack, 6);
	feed(&a, e);
	kmem_agg_finish(&a);

	CHECK_U64(agg_page(&a)->sum.stacks, 3); /* 1, 4, 5 */
	s = find_site(agg_page(&a), 0x1450, 0);
	CHECK(s && s->hits == 1 && s->live_count == 1);	/* 1 */
	s = find_site(agg_page(&a), PAGE_NO_STACK, 0);
	CHECK(s && s->hits == 3);			/* 2, 3, 6 */
	CHECK(s && s->live_count == 2);			/* 2, 3 */
	s = find_site(agg_page(&a), 0x1610, 1);
	CHECK(s && s->hits == 1 && s->bytes == 8192);	/* 4 */
	s = find_site(agg_page(&a), 0x1120, 0);
	CHECK(s && s->hits == 1);			/* 5 */
	kmem_agg_release(&a);
}

/* A stack first on the next ring-buffer page still follows. */
static void test_page_boundary(void)
{
	struct kmem_agg a;
	struct kmem_event e;

	kmem_agg_init(&a);
	kmem_agg_configure(&a, &sym, NULL, NULL, 0);
	/* 0x100: no stack follows (the next allocation on CPU 0 does) */
	offset_now = 4096 - 36;
	feed(&a, ev_page(KMEM_EV_PAGE_ALLOC, 0, 0x100, 0, 1));
	/* 0x200 ends 8 bytes before its page ends; its stack comes after
	 * the next page's 16-byte header and a 4-byte event header */
	offset_now = 2 * 4096 - 36;
	feed(&a, ev_page(KMEM_EV_PAGE_ALLOC, 0, 0x200, 0, 1));
	offset_now = 2 * 4096 + 20;
	feed(&a, ev_stack(0, anon_stack, 6));
	/* 200 bytes into the next page: something came between */
	offset_now = 3 * 4096 - 36;
	feed(&a, ev_page(KMEM_EV_PAGE_ALLOC, 0, 0x300, 0, 1));
	offset_now = 3 * 4096 + 200;
	feed(&a, ev_stack(0, anon_stack, 6));
	/* right after, but the ring buffer lost events before it */
	offset_now = 4 * 4096;
	feed(&a, ev_page(KMEM_EV_PAGE_ALLOC, 0, 0x400, 0, 1));
	e = ev_stack(0, anon_stack, 6);
	e.after_loss = true;
	feed(&a, e);
	kmem_agg_finish(&a);
	CHECK_U64(agg_page(&a)->sum.stacks, 1); /* 0x200 */
	CHECK(find_site(agg_page(&a), 0x1450, 0) &&
	      find_site(agg_page(&a), 0x1450, 0)->hits == 1);
	CHECK(find_site(agg_page(&a), PAGE_NO_STACK, 0) &&
	      find_site(agg_page(&a), PAGE_NO_STACK, 0)->hits == 3);
	kmem_agg_release(&a);
}

/* kmem:skip= replaces the rules; a bad regex keeps the default. */
static void test_skip_rules(void)
{
	struct kmem_agg a;
	char msg[256] = "";

	offset_now = 1000;
	kmem_agg_init(&a);
	/* skip everything up to __handle_mm_fault */
	CHECK(kmem_agg_configure(&a, &sym, "^(trace_|__alloc|alloc_pages|"
				 "vma_|do_anon)", msg, sizeof(msg)) == 0);
	feed(&a, ev_page(KMEM_EV_PAGE_ALLOC, 0, 0x100, 0, 1));
	feed(&a, ev_stack(0, anon_stack, 6));
	kmem_agg_finish(&a);
	CHECK(find_site(agg_page(&a), 0x1560, 0) != NULL);
	kmem_agg_release(&a);

	kmem_agg_init(&a);
	CHECK(kmem_agg_configure(&a, &sym, "(unclosed", msg, sizeof(msg)) ==
	      -1);
	CHECK(msg[0] != '\0');	/* the regex error, for the front end */
	feed(&a, ev_page(KMEM_EV_PAGE_ALLOC, 0, 0x100, 0, 1));
	feed(&a, ev_stack(0, anon_stack, 6));
	kmem_agg_finish(&a);
	CHECK(find_site(agg_page(&a), 0x1450, 0) != NULL); /* default rules */
	kmem_agg_release(&a);
}

/* Fallbacks, per process counters, zone lock and drains. */
static void test_fallbacks_and_procs(void)
{
	struct kmem_agg a;
	struct kmem_event e;
	size_t i;
	int seen = 0;

	kmem_agg_init(&a);
	e = ev_page(KMEM_EV_PAGE_EXTFRAG, 0, 0x100, 0, 1);
	e.fallback_migratetype = 0;
	e.fragmenting = true;
	e.change_ownership = true;
	feed(&a, e);
	e = ev_page(KMEM_EV_PAGE_EXTFRAG, 0, 0x200, 0, 1);
	e.fallback_migratetype = 0;
	feed(&a, e);
	e = ev_page(KMEM_EV_PAGE_ZONE_LOCKED, 1, 0x300, 0, 0);
	e.percpu_refill = true;
	feed(&a, e);
	feed(&a, ev_page(KMEM_EV_PAGE_ZONE_LOCKED, 1, 0x400, 0, 0));
	feed(&a, ev_page(KMEM_EV_PAGE_PCPU_DRAIN, 1, 0x500, 0, 0));

	CHECK_U64(agg_page(&a)->sum.fb[1][0].fallbacks, 2);
	CHECK_U64(agg_page(&a)->sum.fb[1][0].fragmenting, 1);
	CHECK_U64(agg_page(&a)->sum.fb[1][0].ownership, 1);
	CHECK_U64(agg_page(&a)->sum.zone_locked, 2);
	CHECK_U64(agg_page(&a)->sum.pcpu_refills, 1);
	CHECK_U64(agg_page(&a)->sum.pcpu_drains, 1);
	for (i = 0; i < agg_page(&a)->nr_procs; i++) {
		const struct page_proc *p = &agg_page(&a)->procs[i];

		if (p->pid == 100) {		/* CPU 0's events */
			seen++;
			CHECK_U64(p->fallbacks, 2);
			CHECK_U64(p->frag_fallbacks, 1);
		} else if (p->pid == 101) {
			seen++;
			CHECK_U64(p->zone_locked, 2);
			CHECK_U64(p->refills, 1);
			CHECK_U64(p->drains, 1);
		}
	}
	CHECK_U64(seen, 2);
	kmem_agg_release(&a);
}

/* The default rules skip allocator internals of old and new kernels. */
static void test_default_rules(void)
{
	static const char *const skipped[] = {
		"__alloc_pages_nodemask", "alloc_pages_current",
		"alloc_pages_vma", "__get_free_pages", "get_zeroed_page",
		"__alloc_frozen_pages_noprof", "alloc_pages_mpol",
		"vma_alloc_folio_noprof", "folio_alloc_noprof",
		"get_page_from_freelist", "__rmqueue_pcplist",
		"__traceiter_mm_page_alloc",
		"trace_event_raw_event_mm_page_alloc", "__ftrace_trace_stack",
	};
	static const char *const kept[] = {
		"__page_cache_alloc", "do_anonymous_page", "pte_alloc_one",
		"__pmd_alloc", "new_slab", "allocate_slab", "do_wp_page",
		"__filemap_get_folio", "kmalloc_large_node",
	};
	regex_t re;
	size_t i;

	CHECK(regcomp(&re, kmem_default_skip, REG_EXTENDED | REG_NOSUB) == 0);
	for (i = 0; i < sizeof(skipped) / sizeof(skipped[0]); i++)
		if (regexec(&re, skipped[i], 0, NULL, 0)) {
			printf("  not skipped: %s\n", skipped[i]);
			unit_failed++;
		}
	for (i = 0; i < sizeof(kept) / sizeof(kept[0]); i++)
		if (!regexec(&re, kept[i], 0, NULL, 0)) {
			printf("  skipped: %s\n", kept[i]);
			unit_failed++;
		}
	regfree(&re);
}

/* Linux 4.4 swapped the numbers of MOVABLE and RECLAIMABLE. */
static void test_migratetype_names(void)
{
	struct kmem_symbolizer old = { .old_migratetypes = 1 };

	CHECK_STR(migratetype_name(&sym, 0), "Unmovable");
	CHECK_STR(migratetype_name(&sym, 1), "Movable");
	CHECK_STR(migratetype_name(&sym, 2), "Reclaimable");
	CHECK_STR(migratetype_name(&sym, 3), "Special");
	CHECK_STR(migratetype_name(&old, 1), "Reclaimable");
	CHECK_STR(migratetype_name(&old, 2), "Movable");
	CHECK_STR(migratetype_name(&old, 5), "Special");
}

/* An event at a given place in its CPU's buffer. */
static struct kmem_event at(struct kmem_event e, uint64_t off)
{
	e.rec_offset = off;
	return e;
}

/*
 * Another CPU's free of the page sorted between the allocation and its
 * stack record: the stack still names the call site.  A page allocated
 * again on another CPU while the first stack is awaited: the first
 * allocation gets none, the second its own.
 */
static void test_free_before_stack(void)
{
	const struct page_site *anon, *none;
	struct kmem_agg a;

	kmem_agg_init(&a);
	kmem_agg_configure(&a, &sym, NULL, NULL, 0);
	/* CPU 0's records from 1000, CPU 1's from 900000; 28-byte records */
	feed(&a, at(ev_page(KMEM_EV_PAGE_ALLOC, 0, 0x500, 0, 1), 1000));
	feed(&a, at(ev_page(KMEM_EV_PAGE_FREE, 1, 0x500, 0, 1), 900000));
	feed(&a, at(ev_stack(0, anon_stack, 6), 1032));
	CHECK_U64(agg_page(&a)->sum.stacks, 1);
	anon = find_site(agg_page(&a), 0x1450, 0); /* do_anonymous_page */
	CHECK(anon && anon->hits == 1 && anon->live_count == 0 &&
	      anon->live_bytes == 0);

	feed(&a, at(ev_page(KMEM_EV_PAGE_ALLOC, 0, 0x600, 0, 1), 1064));
	feed(&a, at(ev_page(KMEM_EV_PAGE_FREE, 1, 0x600, 0, 1), 900032));
	feed(&a, at(ev_page(KMEM_EV_PAGE_ALLOC, 1, 0x600, 0, 1), 900064));
	feed(&a, at(ev_stack(1, anon_stack, 6), 900096));
	feed(&a, at(ev_stack(0, anon_stack, 6), 1096)); /* awaited no more */
	kmem_agg_finish(&a);
	anon = find_site(agg_page(&a), 0x1450, 0);
	none = find_site(agg_page(&a), PAGE_NO_STACK, 0);
	CHECK(anon && anon->hits == 2 && anon->live_count == 1 &&
	      anon->live_bytes == 4096);
	CHECK(none && none->hits == 1 && none->live_count == 0);
	CHECK_U64(agg_page(&a)->sum.stacks, 2);
	CHECK_U64(agg_page(&a)->sum.live_count, 1);
	CHECK_U64(agg_page(&a)->sum.alloc_freed_count, 2);
	kmem_agg_release(&a);
}

static unsigned int lookups;

static const char *counted_resolve(void *priv, uint64_t addr, uint64_t *start)
{
	lookups++;
	return fake_resolve(priv, addr, start);
}

static const struct kmem_symbolizer counted = { .resolve = counted_resolve };

/* One stream: stacks with one call site through different internals. */
static void defer_stream(struct kmem_agg *a)
{
	static const uint64_t anon2[] = { 0x1010, 0x1240, 0x1350, 0x1450,
					  0x1560 };	/* do_anonymous_page */
	static const uint64_t pte[] = { 0x1010, 0x1120, 0x1610, 0x1560 };
	static const uint64_t all_skipped[] = { 0x1010, 0x1120 };
	const uint64_t *st[] = { anon_stack, pte, anon2, all_skipped };
	const int n[] = { 6, 4, 5, 2 };
	int i;

	offset_now = 1000;
	for (i = 0; i < 24; i++) {
		feed(a, ev_page(KMEM_EV_PAGE_ALLOC, 0, 0x100 + i, i % 3 == 1,
				i % 2));
		if (i % 5 != 4)		/* every fifth: no stack */
			feed(a, ev_stack(0, st[i % 4], n[i % 4]));
		if (i % 3 == 0)
			feed(a, ev_page(KMEM_EV_PAGE_FREE, 1, 0x100 + i / 2,
					0, 0));
	}
	feed(a, ev_page(KMEM_EV_PAGE_ALLOC, 0, 0x900, 0, 0));	/* pending */
}

/*
 * Call sites chosen after counting (the native reader): no frame looked
 * up while counting, then the rows and folded stacks of choosing while
 * counting, in the same order.
 */
static void test_deferred(void)
{
	struct kmem_opts o = { .folded = "-",
			       .live = true,
			       .allocator[KMEM_ALLOC_PAGE] = true };
	struct kmem_collect_cfg cc;
	struct kmem_agg now, later;
	size_t i;

	kmem_agg_init(&now);
	kmem_agg_init(&later);
	kmem_agg_configure(&now, &sym, NULL, NULL, 0);
	kmem_agg_configure(&later, &counted, NULL, NULL, 0);
	cc = kmem_opts_collect_cfg(&o);
	kmem_agg_keep_rows(&now, &cc);
	kmem_agg_keep_rows(&later, &cc);
	kmem_agg_defer_callsites(&later);
	CHECK(agg_page(&later)->defer && later.folded.defer);
	defer_stream(&now);
	lookups = 0;
	defer_stream(&later);
	CHECK_U64(lookups, 0);
	CHECK_U64(agg_page(&later)->nr_stacks, 4);
	kmem_agg_resolve_callsites(&later);
	CHECK_U64(lookups, 8);	/* each frame up to the call site, once */
	CHECK_U64(agg_page(&later)->nr_stacks, 0);
	kmem_agg_finish(&now);
	kmem_agg_finish(&later);

	CHECK_U64(agg_page(&later)->nr_sites, agg_page(&now)->nr_sites);
	for (i = 0;
	     i < agg_page(&now)->nr_sites && i < agg_page(&later)->nr_sites;
	     i++) {
		const struct page_site *x = &agg_page(&now)->sites[i];
		const struct page_site *y = &agg_page(&later)->sites[i];

		CHECK_U64(y->callsite, x->callsite);
		CHECK(y->order == x->order && y->migratetype == x->migratetype);
		CHECK_U64(y->hits, x->hits);
		CHECK_U64(y->bytes, x->bytes);
		CHECK_U64(y->live_count, x->live_count);
		CHECK_U64(y->live_bytes, x->live_bytes);
	}
	CHECK_U64(agg_page(&later)->objs.len, agg_page(&now)->objs.len);
	for (i = 0;
	     i < agg_page(&now)->objs.len && i < agg_page(&later)->objs.len;
	     i++)
		CHECK_U64(page_obj_at(agg_page(&later), (uint32_t)i)->site,
			  page_obj_at(agg_page(&now), (uint32_t)i)->site);
	CHECK_U64(later.folded.nr, now.folded.nr);
	for (i = 0; i < now.folded.nr && i < later.folded.nr; i++) {
		const struct folded_stack *x = &now.folded.stacks[i];
		const struct folded_stack *y = &later.folded.stacks[i];

		CHECK(y->n == x->n && !y->raw &&
		      !memcmp(later.folded.frames + y->off,
			      now.folded.frames + x->off, x->n * 8));
		CHECK_U64(y->bytes, x->bytes);
		CHECK_U64(y->hits, x->hits);
		CHECK_U64(y->live_bytes, x->live_bytes);
	}
	kmem_agg_release(&now);
	kmem_agg_release(&later);
}

int main(void)
{
	RUN(test_summary);
	RUN(test_free_before_stack);
	RUN(test_pre_3_3);
	RUN(test_lost);
	RUN(test_stacks);
	RUN(test_page_boundary);
	RUN(test_skip_rules);
	RUN(test_default_rules);
	RUN(test_fallbacks_and_procs);
	RUN(test_migratetype_names);
	RUN(test_deferred);
	UNIT_EXIT();
}
