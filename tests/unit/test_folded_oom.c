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
 * For every allocation the stream makes, a run in which that one fails:
 * the stacks' allocations, those they lost and those their allocator
 * dropped (its oom) add up to all ALLOCS, in count and in bytes.
 */
static void test_each_failure(void)
{
	struct kmem_opts o = { .folded = "-",
			       .live = true,
			       .allocator[KMEM_ALLOC_SLAB] = true };
	struct kmem_collect_cfg cc = kmem_opts_collect_cfg(&o);
	unsigned long n = 0, k, lost_runs = 0, bad = 0;

	for (k = 0;; k++) {
		struct kmem_agg a;
		struct totals t;
		uint64_t dropped;

		kmem_agg_init(&a);
		kmem_agg_keep_rows(&a, &cc);
		arm(k);
		stream(&a);
		n = k ? n : calls;
		fail_at = 0;
		t = stack_totals(&a.folded);
		dropped = agg_slab(&a)->oom;
		if (!k) { /* nothing failed: all of them, by hand */
			CHECK_U64(t.hits, ALLOCS);
			CHECK_U64(t.bytes, (uint64_t)ALLOCS * BYTES);
			CHECK_U64(t.live_hits, ALLOCS - ALLOCS / 3);
			CHECK_U64(a.folded.nr, SITES);
			CHECK_U64(a.folded.lost, 0);
			CHECK_U64(dropped, 0);
		}
		if (t.hits + a.folded.lost + dropped != ALLOCS ||
		    t.bytes + a.folded.lost_bytes + dropped * BYTES !=
			    (uint64_t)ALLOCS * BYTES ||
		    t.live_hits > ALLOCS - ALLOCS / 3) {
			if (!bad++)
				fprintf(stderr,
					"failing allocation %lu of %lu: %llu "
					"in "
					"stacks, %llu lost, %llu dropped\n",
					k, n, (unsigned long long)t.hits,
					(unsigned long long)a.folded.lost,
					(unsigned long long)dropped);
		}
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
	RUN(test_report_line);
	UNIT_EXIT();
}
