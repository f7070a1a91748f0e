// SPDX-License-Identifier: LGPL-2.1
/*
 * The folded stacks when memory runs out: every allocation is either in
 * a stack, or counted as left out (by the stacks, or by its allocator),
 * and the report says so.  Linked with --wrap for malloc, calloc and
 * realloc (Makefile): the Nth allocation of the stream fails, for every
 * N the stream makes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agg_util.h"
#include "analysis/agg.h"
#include "base/msg.h"
#include "options/config.h"
#include "options/output.h"
#include "options/render_cfg.h"
#include "render/report.h"
#include "unit.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);

static unsigned long calls;   /* allocations since arm() */
static unsigned long fail_at; /* this one fails; 0: none */

static bool fails(void)
{
	return ++calls == fail_at;
}

void *__wrap_malloc(size_t n)
{
	return fails() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return fails() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
	return fails() ? NULL : __real_realloc(p, n);
}

static void arm(unsigned long at)
{
	calls = 0;
	fail_at = at;
}

/* The stream's shape: enough call sites and objects that every table
 * of the stacks and of the allocator grows several times. */
#define ALLOCS 3000
#define SITES 1500
#define BYTES 64

static void stream(struct kmem_agg *a)
{
	unsigned int i;

	for (i = 0; i < ALLOCS; i++) {
		struct kmem_event e = { 0 };

		e.kind = KMEM_EV_SLAB_ALLOC;
		e.ts = 10 * i + 1;
		e.cpu = (int)(i % 2);
		e.call_site = 0xffffffff81000000ULL + 16 * (i % SITES);
		e.ptr = 0xffff888000000000ULL + BYTES * (uint64_t)i;
		e.bytes_req = BYTES;
		e.bytes_alloc = BYTES;
		e.node = KMEM_NO_NODE;
		kmem_agg_event(a, &e);
		if (i % 3 == 0) { /* every third is freed */
			struct kmem_event f = { 0 };

			f.kind = KMEM_EV_SLAB_FREE;
			f.ts = e.ts + 5;
			f.cpu = e.cpu;
			f.ptr = e.ptr;
			f.node = KMEM_NO_NODE;
			kmem_agg_event(a, &f);
		}
	}
	kmem_agg_finish(a);
}

struct totals {
	uint64_t hits, bytes, live_hits, live_bytes;
};

static struct totals stack_totals(const struct kmem_folded *f)
{
	struct totals t = { 0 };
	size_t i;

	for (i = 0; i < f->nr; i++) {
		t.hits += f->stacks[i].hits;
		t.bytes += f->stacks[i].bytes;
		t.live_hits += f->stacks[i].live_hits;
		t.live_bytes += f->stacks[i].live_bytes;
	}
	return t;
}

/*
 * A run of @variant's stream (run_fn) in which allocation @fail fails
 * (0: none), then its stacks judged (right_fn; @none_failed: the run
 * where nothing failed, whose figures are counted by hand).
 */
typedef void (*run_fn)(struct kmem_agg *a, int variant, unsigned long fail);
typedef bool (*right_fn)(const struct kmem_agg *a, bool none_failed);

/* A run for each allocation the stream makes, that one failing. */
static void each_failure(run_fn run, right_fn right, int variant)
{
	unsigned long n = 0, k, lost_runs = 0, bad = 0;

	for (k = 0;; k++) {
		struct kmem_agg a;

		run(&a, variant, k);
		n = k ? n : calls;
		if (!right(&a, !k) && !bad++)
			fprintf(stderr,
				"variant %d, allocation %lu of %lu failing: "
				"%llu lost, oom %llu %llu\n",
				variant, k, n,
				(unsigned long long)a.folded.lost,
				(unsigned long long)agg_slab(&a)->oom,
				(unsigned long long)agg_page(&a)->oom);
		lost_runs += a.folded.lost != 0;
		kmem_agg_release(&a);
		if (k >= n)
			break;
	}
	CHECK_U64(bad, 0);
	/* the stream's allocations include the stacks' own */
	CHECK(n > 10);
	CHECK(lost_runs > 0);
}

static void slab_run(struct kmem_agg *a, int variant, unsigned long fail)
{
	struct kmem_opts o = { .folded = "-",
			       .live = true,
			       .allocator[KMEM_ALLOC_SLAB] = true };
	struct kmem_collect_cfg cc = kmem_opts_collect_cfg(&o);

	(void)variant;
	kmem_agg_init(a);
	kmem_agg_keep_rows(a, &cc);
	arm(fail);
	stream(a);
	fail_at = 0;
}

/*
 * The stacks' allocations and those they lost are all ALLOCS, in count
 * and in bytes, when the allocator dropped none (its oom); else at most
 * all, and with its oom at least all (its oom also counts events it
 * counted but for a row: their cache's).
 */
static bool slab_right(const struct kmem_agg *a, bool none_failed)
{
	struct totals t = stack_totals(&a->folded);
	uint64_t dropped = agg_slab(a)->oom, lost = a->folded.lost;

	if (none_failed) { /* all of them, by hand */
		CHECK_U64(t.hits, ALLOCS);
		CHECK_U64(t.bytes, (uint64_t)ALLOCS * BYTES);
		CHECK_U64(t.live_hits, ALLOCS - ALLOCS / 3);
		CHECK_U64(a->folded.nr, SITES);
		CHECK_U64(lost, 0);
		CHECK_U64(dropped, 0);
	}
	if (t.hits + lost > ALLOCS || t.hits + lost + dropped < ALLOCS ||
	    t.live_hits > ALLOCS - ALLOCS / 3)
		return false;
	return dropped ||
	       (t.hits + lost == ALLOCS &&
		t.bytes + a->folded.lost_bytes == (uint64_t)ALLOCS * BYTES);
}

/* For every allocation the slab stream makes, a run in which it fails. */
static void test_each_failure(void)
{
	each_failure(slab_run, slab_right, 0);
}

static const char *no_symbols(void *priv, uint64_t addr, uint64_t *start)
{
	(void)priv;
	(void)addr;
	(void)start;
	return NULL;
}

static const struct kmem_symbolizer nosym = { .resolve = no_symbols };

#define PAGES 2000
#define PAGE_STACKS 500

/* Page allocations, each but every fifth followed by its stack. */
static void page_stream(struct kmem_agg *a, bool defer)
{
	uint64_t off = 1000;
	unsigned int i, k;

	for (i = 0; i < PAGES; i++) {
		struct kmem_event e = { 0 };

		e.kind = KMEM_EV_PAGE_ALLOC;
		e.ts = 10 * i + 1;
		e.pid = 100;
		e.pfn = 0x10000 + i;
		e.page_valid = true;
		e.migratetype = 1;
		e.gfp_flags = 0xcc0;
		e.rec_offset = off;
		e.rec_size = 28;
		off += 32;
		kmem_agg_event(a, &e);
		if (i % 5 != 4) {
			e.kind = KMEM_EV_STACK;
			e.rec_offset = off;
			off += 32;
			e.nr_frames = 6;
			for (k = 0; k < 6; k++)
				e.frames[k] = 0x1000 + 0x100 * k;
			e.frames[3] = 0x100000 + 16 * (i % PAGE_STACKS);
			kmem_agg_event(a, &e);
		}
		if (i % 3 == 0) {
			struct kmem_event f = { 0 };

			f.kind = KMEM_EV_PAGE_FREE;
			f.ts = e.ts + 5;
			f.cpu = 1;
			f.pfn = 0x10000 + i / 2;
			f.page_valid = true;
			f.rec_offset = 900000 + off;
			f.rec_size = 28;
			kmem_agg_event(a, &f);
		}
	}
	if (defer)
		kmem_agg_resolve_callsites(a);
	kmem_agg_finish(a);
}

static void page_run(struct kmem_agg *a, int defer, unsigned long fail)
{
	struct kmem_opts o = { .folded = "-",
			       .live = true,
			       .allocator[KMEM_ALLOC_PAGE] = true };
	struct kmem_collect_cfg cc = kmem_opts_collect_cfg(&o);

	kmem_agg_init(a);
	kmem_agg_configure(a, &nosym, NULL, NULL, 0);
	kmem_agg_keep_rows(a, &cc);
	if (defer)
		kmem_agg_defer_callsites(a);
	arm(fail);
	page_stream(a, defer);
	fail_at = 0;
}

/*
 * A page allocation the allocator could not record, or one whose call
 * site row or stack could not be made, is one of its oom: the stacks'
 * and the lost allocations are at most all of them, and with the oom at
 * least.
 */
static bool page_right(const struct kmem_agg *a, bool none_failed)
{
	struct totals t = stack_totals(&a->folded);
	uint64_t oom = agg_page(a)->oom, lost = a->folded.lost;

	if (none_failed) {
		CHECK_U64(t.hits, PAGES);
		CHECK_U64(t.bytes, (uint64_t)PAGES * 4096);
		/* every fifth page (and so every fifth frame) has no
		 * stack: 400 stacks, and "(no stack)" */
		CHECK_U64(a->folded.nr, PAGE_STACKS * 4 / 5 + 1);
		CHECK_U64(oom + lost, 0);
	}
	return t.hits + lost <= PAGES && t.hits + lost + oom >= PAGES &&
	       t.bytes + a->folded.lost_bytes <= (uint64_t)PAGES * 4096;
}

/*
 * The same with page stacks, their call sites chosen while counting (0)
 * and after it (1, deferred).
 */
static void test_each_page_failure(void)
{
	each_failure(page_run, page_right, 0);
	each_failure(page_run, page_right, 1);
}

/* The report's line for them, and none when nothing was lost. */
static void test_report_line(void)
{
	struct kmem_input in = { .label = "x.dat" };
	struct kmem_outputs outs;
	struct kmem_report_ctx r = { 0 };
	struct kmem_agg a;
	char buf[256] = "";
	FILE *err;

	memset(&outs, 0, sizeof(outs));
	kmem_agg_init(&a);
	r.agg = &a;
	r.in = &in;
	a.folded.on = true;
	err = fmemopen(buf, sizeof(buf), "w");
	CHECK(err != NULL);
	if (!err)
		return;
	CHECK(kmem_outputs_report(&r, &outs, err) == 0);
	fflush(err);
	CHECK_STR(buf, "");
	a.folded.lost = 3;
	a.folded.lost_bytes = 192;
	CHECK(kmem_outputs_report(&r, &outs, err) == 0);
	fclose(err);
	CHECK_STR(buf, "trace-kmem: out of memory: 3 allocations (192 bytes) "
		       "of x.dat left out of the stacks\n");
	a.folded.on = false;
	kmem_agg_release(&a);
}

int main(void)
{
	kmem_prog = "trace-kmem";
	RUN(test_each_failure);
	RUN(test_each_page_failure);
	RUN(test_report_line);
	UNIT_EXIT();
}
