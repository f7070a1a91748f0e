// SPDX-License-Identifier: LGPL-2.1
/*
 * The shared object lifecycle (lib/alloc/lifecycle.h) on its own: a
 * free classified as matched, freed-only or double, a missed free on
 * allocation, live counts in the summary and the site row, the 2^32-1
 * stop of per-address counts; and the allocator registry
 * (lib/alloc/registry.h): every event kind's allocator, every
 * descriptor complete.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc/lifecycle.h"
#include "alloc/registry.h"
#include "alloc/vmalloc.h"
#include "unit.h"

struct obj {
	KMEM_OBJ_HEAD(ptr, unused);
	uint32_t bytes;
	uint32_t pad;
};

struct summary {
	KMEM_LC_COUNTS;
};

struct site {
	uint64_t key;
	KMEM_SITE_LIVE;
};

/* An allocation of @bytes at @ptr, as slab.c and percpu.c make one. */
static void alloc_at(struct kmem_lc *lc, struct summary *s, struct site *st,
		     uint64_t ptr, uint32_t bytes, uint64_t ts)
{
	struct kmem_event ev = { .ts = ts, .cpu = 1 };
	uint32_t pi = kmem_lc_entry(lc, ptr);
	struct obj *o;

	CHECK(pi != ADDR_NONE);
	o = addr_table_at(&lc->objs, pi);
	if (kmem_lc_missed(&s->lc, &o->h, o->bytes))
		kmem_lc_drop(&s->lc, &st->live, NULL, &o->h, o->bytes);
	s->allocs++;
	kmem_obj_start(&o->h, &ev, 0, KMEM_OBJ_LIVE);
	o->bytes = bytes;
	kmem_lc_live(&s->lc, &st->live, NULL, &o->h, bytes);
}

/* A free at @ptr: what it was. */
static enum kmem_free_kind free_at(struct kmem_lc *lc, struct summary *s,
				   struct site *st, uint64_t ptr, uint64_t ts)
{
	enum kmem_free_kind k;
	struct obj *o;
	uint32_t pi;

	k = kmem_lc_free(lc, &s->lc, ptr, &pi);
	if (k != KMEM_FREE_MATCHED) {
		CHECK(k == KMEM_FREE_DOUBLE || pi == ADDR_NONE);
		return k;
	}
	o = addr_table_at(&lc->objs, pi);
	CHECK_U64(kmem_obj_life(&o->h, ts), ts - 100);
	kmem_lc_matched(lc, &s->lc, pi, &o->h, o->bytes);
	kmem_lc_drop(&s->lc, &st->live, NULL, &o->h, o->bytes);
	return k;
}

static void test_frees(void)
{
	struct kmem_match m = { 0 };
	struct summary s = { 0 };
	struct site st = { 0 };
	struct kmem_lc lc = { 0 };

	kmem_lc_init(&lc, sizeof(struct obj));
	lc.match = &m;
	alloc_at(&lc, &s, &st, 0x1000, 64, 100);
	alloc_at(&lc, &s, &st, 0x2000, 32, 100);
	CHECK_U64(s.live_count, 2);
	CHECK_U64(st.live_bytes, 96);
	CHECK(free_at(&lc, &s, &st, 0x1000, 150) == KMEM_FREE_MATCHED);
	CHECK(m.what == KMEM_MATCH_FREE && m.bytes == 64 && m.alloc_ts == 100);
	CHECK(free_at(&lc, &s, &st, 0x1000, 160) == KMEM_FREE_DOUBLE);
	CHECK(free_at(&lc, &s, &st, 0x3000, 170) == KMEM_FREE_ONLY);
	CHECK(free_at(&lc, &s, &st, 0x3000, 180) == KMEM_FREE_DOUBLE);
	alloc_at(&lc, &s, &st, 0x2000, 16, 100); /* 0x2000 still live */
	CHECK_U64(s.frees, 4);
	CHECK_U64(s.alloc_freed_count, 1);
	CHECK_U64(s.alloc_freed_bytes, 64);
	CHECK_U64(s.free_only, 1);
	CHECK_U64(s.double_frees, 2);
	CHECK_U64(s.missed_frees, 1);
	CHECK_U64(s.missed_free_bytes, 32);
	CHECK_U64(s.live_count, 1);
	CHECK_U64(s.live_bytes, 16);
	CHECK_U64(st.live_count, 1);
	CHECK_U64(st.live_bytes, 16);
	CHECK_U64(kmem_lc_alloc_only_count(&s.lc), 2);
	CHECK_U64(kmem_lc_alloc_only_bytes(&s.lc, 64 + 32 + 16), 48);
	CHECK_U64(lc.oom, 0);
	kmem_lc_release(&lc);
}

static void test_inc32(void)
{
	uint64_t saturated = 0;
	uint32_t v = UINT32_MAX - 1;

	kmem_inc32(&saturated, &v);
	kmem_inc32(&saturated, &v);
	CHECK_U64(v, UINT32_MAX);
	CHECK_U64(saturated, 1);
}

static void test_registry(void)
{
	enum kmem_ev_kind k;
	unsigned int id;

	/* every kind, by hand (a kind missing from kmem_kind_alloc[] would
	 * read as the slab allocator's) */
	for (k = KMEM_EV_NONE; k <= KMEM_NR_KINDS; k++) {
		enum kmem_alloc_id want = KMEM_NR_ALLOC;

		if (k == KMEM_EV_SLAB_ALLOC || k == KMEM_EV_SLAB_FREE)
			want = KMEM_ALLOC_SLAB;
		else if (k >= KMEM_EV_PAGE_ALLOC && k <= KMEM_EV_PAGE_EXTFRAG)
			want = KMEM_ALLOC_PAGE;
		else if (k >= KMEM_EV_PERCPU_ALLOC &&
			 k <= KMEM_EV_PERCPU_CHUNK_DEL)
			want = KMEM_ALLOC_PERCPU;
		else if (k >= KMEM_EV_VMALLOC_ALLOC &&
			 k <= KMEM_EV_VMALLOC_PURGE)
			want = KMEM_ALLOC_VMALLOC;
		CHECK_U64(kmem_alloc_of(k), want);
	}
	for (id = 0; id < KMEM_NR_ALLOC; id++) {
		const struct kmem_alloc_desc *d = &kmem_allocs[id];

		CHECK(d->name && d->init && d->release && d->account &&
		      d->merge);
		/* the kinds that make and end an object are its own */
		CHECK_U64(kmem_alloc_of(d->alloc_kind), id);
		CHECK_U64(kmem_alloc_of(d->free_kind), id);
		CHECK(d->alloc_kind != d->free_kind);
	}
	CHECK_STR(kmem_allocs[KMEM_ALLOC_SLAB].name, "slab");
	CHECK_STR(kmem_allocs[KMEM_ALLOC_PAGE].name, "page");
	CHECK_STR(kmem_allocs[KMEM_ALLOC_PERCPU].name, "percpu");
	CHECK(kmem_allocs[KMEM_ALLOC_PAGE].finish != NULL);
}

/* The lifecycle state sits where the descriptor says, under its names. */
static void test_lc_offsets(void)
{
	struct slab_stats *s = calloc(1, sizeof(*s));
	struct page_stats *p = calloc(1, sizeof(*p));

	CHECK(s && p);
	if (!s || !p)
		goto out;
	CHECK(kmem_alloc_lc(&kmem_allocs[KMEM_ALLOC_SLAB], s) == &s->lc);
	CHECK((void *)&kmem_alloc_lc(&kmem_allocs[KMEM_ALLOC_SLAB], s)->oom ==
	      (void *)&s->oom);
	CHECK(kmem_alloc_lc(&kmem_allocs[KMEM_ALLOC_PAGE], p) == &p->lc);
	CHECK((void *)&p->lc.objs == (void *)&p->objs);
	CHECK((void *)&s->sum.lc.live_bytes == (void *)&s->sum.live_bytes);
out:
	free(s);
	free(p);
}

/* The call-site index and a row's peak, where the descriptor says. */
static void test_site_offsets(void)
{
	struct slab_stats *s = calloc(1, sizeof(*s));
	struct percpu_stats *c = calloc(1, sizeof(*c));
	struct vmalloc_stats *v = calloc(1, sizeof(*v));
	struct page_stats *p = calloc(1, sizeof(*p));
	struct slab_site srow[2] = { { 0 } };
	struct percpu_site crow[2] = { 0 };
	struct vmalloc_site vrow[2] = { 0 };

	CHECK(s && c && v && p);
	if (!s || !c || !v || !p)
		goto out;
	s->sites = srow;
	c->sites = crow;
	v->sites = vrow;
	srow[1].peak_bytes = 11;
	crow[1].peak_bytes = 22;
	vrow[1].peak_bytes = 33;
	CHECK(kmem_alloc_site_ix(&kmem_allocs[KMEM_ALLOC_SLAB], s) ==
	      &s->site_ix);
	CHECK(kmem_alloc_site_ix(&kmem_allocs[KMEM_ALLOC_PERCPU], c) ==
	      &c->site_ix);
	CHECK(kmem_alloc_site_ix(&kmem_allocs[KMEM_ALLOC_VMALLOC], v) ==
	      &v->site_ix);
	/* page rows are keyed by more than the call site */
	CHECK(!kmem_alloc_site_ix(&kmem_allocs[KMEM_ALLOC_PAGE], p));
	CHECK_U64(kmem_alloc_site_peak(&kmem_allocs[KMEM_ALLOC_SLAB], s, 1),
		  11);
	CHECK_U64(kmem_alloc_site_peak(&kmem_allocs[KMEM_ALLOC_PERCPU], c, 1),
		  22);
	CHECK_U64(kmem_alloc_site_peak(&kmem_allocs[KMEM_ALLOC_VMALLOC], v, 1),
		  33);
out:
	free(s);
	free(c);
	free(v);
	free(p);
}

int main(void)
{
	RUN(test_frees);
	RUN(test_inc32);
	RUN(test_registry);
	RUN(test_lc_offsets);
	RUN(test_site_offsets);
	UNIT_EXIT();
}
