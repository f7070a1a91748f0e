// SPDX-License-Identifier: LGPL-2.1
/*
 * The vmalloc allocator's statistics (lib/alloc/vmalloc.c) over a
 * crafted stream whose every figure is counted by hand below: matched,
 * double, freed-only and missed frees, a failure, call sites from the
 * kernel_stack record that directly follows (vmalloc's and tracing's
 * frames skipped), an allocation without one, a cross-CPU free, the
 * peaks, the lazy-free figures, the rows logged for the timeline, and
 * merging two summaries.
 */
#include <string.h>

#include "alloc/vmalloc.h"
#include "unit.h"

#define F_TRACE 0xffffffff81000010ULL	/* trace_event_raw_event_... */
#define F_VMALLOC 0xffffffff81000020ULL	/* __vmalloc_node_range_noprof */
#define F_CALLER 0xffffffff81000030ULL	/* copy_process */

static const char *resolve(void *priv, uint64_t addr, uint64_t *start)
{
	(void)priv;
	*start = addr;
	switch (addr) {
	case F_TRACE:
		return "trace_event_raw_event_alloc_vmap_area";
	case F_VMALLOC:
		return "__vmalloc_node_range_noprof";
	case F_CALLER:
		return "copy_process";
	}
	return NULL;
}

static const struct kmem_symbolizer sym = { .resolve = resolve };

static void alloc(struct vmalloc_stats *st, int cpu, uint64_t off,
		  uint64_t addr, uint64_t size, uint64_t ts, bool failed)
{
	struct kmem_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = KMEM_EV_VMALLOC_ALLOC;
	ev.cpu = cpu;
	ev.ts = ts;
	ev.rec_offset = off;
	ev.rec_size = 48;
	ev.ptr = addr;
	ev.bytes_req = size;
	ev.failed = failed;
	vmalloc_account(st, &ev);
}

static void stack(struct vmalloc_stats *st, int cpu, uint64_t off)
{
	struct kmem_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = KMEM_EV_STACK;
	ev.cpu = cpu;
	ev.rec_offset = off;
	ev.frames[0] = F_TRACE;
	ev.frames[1] = F_VMALLOC;
	ev.frames[2] = F_CALLER;
	ev.nr_frames = 3;
	vmalloc_account(st, &ev);
}

static void vfree(struct vmalloc_stats *st, int cpu, uint64_t addr,
		  uint64_t ts, uint64_t nr_lazy)
{
	struct kmem_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = KMEM_EV_VMALLOC_FREE;
	ev.cpu = cpu;
	ev.ts = ts;
	ev.ptr = addr;
	ev.nr_lazy = nr_lazy;
	ev.nr_lazy_max = 100;
	vmalloc_account(st, &ev);
}

static void purge(struct vmalloc_stats *st, uint32_t n)
{
	struct kmem_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = KMEM_EV_VMALLOC_PURGE;
	ev.npurged = n;
	vmalloc_account(st, &ev);
}

static const struct vmalloc_site *row(const struct vmalloc_stats *st,
				      uint64_t cs)
{
	size_t i;

	for (i = 0; i < st->nr_sites; i++)
		if (st->sites[i].call_site == cs)
			return &st->sites[i];
	return NULL;
}

static void feed(struct vmalloc_stats *st)
{
	alloc(st, 0, 0, 0x1000, 8192, 100, false);	/* A, its stack: */
	stack(st, 0, 48);
	alloc(st, 1, 0, 0x3000, 4096, 200, false);	/* B, no stack */
	vfree(st, 0, 0x3000, 300, 5);		/* B: cross-CPU, 100 ns */
	alloc(st, 0, 100, 0x1ff, 1ULL << 40, 400, true); /* a failure */
	stack(st, 0, 148);
	vfree(st, 0, 0x1000, 1100, 10);		/* A: 1000 ns */
	vfree(st, 0, 0x1000, 1200, 5);		/* A again: double */
	vfree(st, 0, 0x9000, 1300, 5);		/* never allocated */
	alloc(st, 0, 300, 0x5000, 4096, 1400, false);	/* D */
	alloc(st, 0, 400, 0x5000, 4096, 1500, false);	/* D: missed free */
	stack(st, 0, 1000);			/* not after D: none */
	purge(st, 3);
	purge(st, 2);
	vmalloc_finish(st);
}

static void test_stream(void)
{
	struct vmalloc_stats st;
	const struct vmalloc_summary *s = &st.sum;
	const struct vmalloc_site *c, *n;

	CHECK(vmalloc_stats_init(&st, &sym, NULL, NULL, 0) == 0);
	feed(&st);
	CHECK_U64(s->allocs, 4);		/* A, B, D, D */
	CHECK_U64(s->alloc_bytes, 8192 + 4096 * 3);
	CHECK_U64(s->failures, 1);
	CHECK_U64(s->failure_bytes, 1ULL << 40);
	CHECK_U64(s->frees, 4);			/* B, A, A, 0x9000 */
	CHECK_U64(s->alloc_freed_count, 2);
	CHECK_U64(s->alloc_freed_bytes, 8192 + 4096);
	CHECK_U64(s->double_frees, 1);
	CHECK_U64(s->free_only, 1);
	CHECK_U64(s->missed_frees, 1);
	CHECK_U64(s->missed_free_bytes, 4096);
	CHECK_U64(s->live_count, 1);
	CHECK_U64(s->live_bytes, 4096);
	CHECK_U64(s->peak_count, 2);		/* A and B */
	CHECK_U64(s->peak_bytes, 8192 + 4096);
	CHECK_U64(s->largest, 8192);
	CHECK_U64(s->cross_cpu_frees, 1);
	CHECK_U64(s->purges, 2);
	CHECK_U64(s->purged, 5);
	CHECK_U64(s->nr_lazy_peak, 10);
	CHECK_U64(s->nr_lazy_max, 100);
	CHECK_U64(s->stacks, 2);		/* A's, the failure's */
	CHECK_U64(st.nr_sites, 2);
	c = row(&st, F_CALLER);
	n = row(&st, VMALLOC_NO_STACK);
	CHECK(c && n);
	if (c && n) {
		CHECK_U64(c->hits, 1);
		CHECK_U64(c->bytes, 8192);
		CHECK_U64(c->failures, 1);
		CHECK_U64(c->frees, 1);
		CHECK_U64(c->lifetime_sum, 1000);
		CHECK_U64(c->live_count, 0);
		CHECK_U64(c->peak_bytes, 8192);
		CHECK_U64(n->hits, 3);		/* B, D, D */
		CHECK_U64(n->bytes, 4096 * 3);
		CHECK_U64(n->frees, 1);
		CHECK_U64(n->lifetime_sum, 100);
		CHECK_U64(n->live_count, 1);
		CHECK_U64(n->live_bytes, 4096);
		CHECK_U64(n->peak_bytes, 4096);
	}
	vmalloc_stats_release(&st);
}

/*
 * The timeline's log (touched.h): each change of a call-site row's live
 * bytes logs the row; an allocation's only once its call site is known.
 */
static void test_touched(void)
{
	struct vmalloc_stats st;
	uint32_t c;

	CHECK(vmalloc_stats_init(&st, &sym, NULL, NULL, 0) == 0);
	alloc(&st, 0, 0, 0x1000, 8192, 100, false);
	stack(&st, 0, 48);
	CHECK_U64(st.touched.n, 0); /* not kept: nothing logged */
	st.touched.on = true;
	alloc(&st, 0, 100, 0x2000, 8192, 200, false);
	CHECK_U64(st.touched.n, 0); /* its call site not known */
	stack(&st, 0, 148);
	CHECK_U64(st.touched.n, 1); /* now it is: its row */
	c = st.touched.row[0];
	CHECK_U64(st.sites[c].call_site, F_CALLER);
	CHECK_U64(st.sites[c].live_bytes, 2 * 8192);
	st.touched.n = 0;
	alloc(&st, 1, 0, 0x1000, 4096, 300, false); /* a missed free */
	CHECK_U64(st.touched.n, 1);
	CHECK_U64(st.touched.row[0], c);
	CHECK_U64(st.sites[c].live_bytes, 8192);
	st.touched.n = 0;
	vfree(&st, 0, 0x2000, 400, 1); /* a matched free */
	CHECK_U64(st.touched.n, 1);
	CHECK_U64(st.touched.row[0], c);
	CHECK_U64(st.sites[c].live_bytes, 0);
	st.touched.n = 0;
	/* freed before its stack: "(no stack)" gets it and loses it */
	vfree(&st, 0, 0x1000, 500, 1);
	CHECK_U64(st.touched.n, 2);
	CHECK(st.touched.row[0] == st.touched.row[1] && st.touched.row[0] != c);
	CHECK_U64(st.sites[st.touched.row[0]].call_site, VMALLOC_NO_STACK);
	CHECK_U64(st.sites[st.touched.row[0]].live_bytes, 0);
	st.touched.n = 0;
	vfree(&st, 0, 0x9000, 600, 1); /* never allocated */
	vmalloc_finish(&st);
	CHECK_U64(st.touched.n, 0);
	vmalloc_stats_release(&st);
}

/* Counts add up, maxima stay maxima, nr_lazy_max is the last one's. */
static void test_merge(void)
{
	struct vmalloc_summary a, b;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.allocs = 3;
	a.largest = 8192;
	a.peak_bytes = 100;
	a.nr_lazy_max = 50;
	b.allocs = 4;
	b.largest = 4096;
	b.peak_bytes = 200;
	b.peak_count = 7;
	vmalloc_merge_summary(&a, &b);
	CHECK_U64(a.allocs, 7);
	CHECK_U64(a.largest, 8192);
	CHECK_U64(a.peak_bytes, 200);
	CHECK_U64(a.peak_count, 7);
	CHECK_U64(a.nr_lazy_max, 50);
}

int main(void)
{
	RUN(test_stream);
	RUN(test_touched);
	RUN(test_merge);
	UNIT_EXIT();
}
