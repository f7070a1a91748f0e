// SPDX-License-Identifier: LGPL-2.1
/*
 * Slab aggregation on hand-made event streams; every expected number is
 * counted by hand in the comment next to it.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/agg.h"
#include "agg_util.h"
#include "options/config.h"
#include "unit.h"

static struct kmem_event ev_alloc(uint64_t ts, int cpu, uint64_t site,
				  uint64_t ptr, uint64_t req, uint64_t alloc)
{
	struct kmem_event e = { 0 };

	e.kind = KMEM_EV_SLAB_ALLOC;
	e.ts = ts;
	e.cpu = cpu;
	e.call_site = site;
	e.ptr = ptr;
	e.bytes_req = req;
	e.bytes_alloc = alloc;
	e.node = KMEM_NO_NODE;
	return e;
}

static struct kmem_event ev_free(uint64_t ts, int cpu, uint64_t ptr)
{
	struct kmem_event e = { 0 };

	e.kind = KMEM_EV_SLAB_FREE;
	e.ts = ts;
	e.cpu = cpu;
	e.call_site = 0xf00;
	e.ptr = ptr;
	return e;
}

static void feed(struct kmem_agg *a, struct kmem_event e)
{
	kmem_agg_event(a, &e);
}

static const struct slab_site *site(const struct kmem_agg *a, uint64_t cs)
{
	size_t i;

	for (i = 0; i < agg_slab(a)->nr_sites; i++)
		if (agg_slab(a)->sites[i].call_site == cs)
			return &agg_slab(a)->sites[i];
	return NULL;
}

/* The basic grouping: allocated+freed, allocated-only, freed-only. */
static void test_groups(void)
{
	struct kmem_agg a;
	const struct slab_site *s;

	kmem_agg_init(&a);
	feed(&a, ev_alloc(100, 0, 0xA, 0x1000, 10, 16));	/* A1 */
	feed(&a, ev_alloc(200, 0, 0xA, 0x2000, 20, 32));	/* A2 */
	feed(&a, ev_alloc(300, 1, 0xB, 0x3000, 64, 64));	/* B1 */
	feed(&a, ev_free(400, 1, 0x1000));	/* A1 freed, other CPU */
	feed(&a, ev_free(1300, 1, 0x3000));	/* B1 freed, same CPU */
	feed(&a, ev_free(500, 0, 0x9000));	/* never allocated */

	CHECK_U64(agg_slab(&a)->sum.allocs, 3);
	CHECK_U64(agg_slab(&a)->sum.frees, 3);
	CHECK_U64(agg_slab(&a)->sum.bytes_req, 94);	    /* 10+20+64 */
	CHECK_U64(agg_slab(&a)->sum.bytes_alloc, 112);	    /* 16+32+64 */
	CHECK_U64(agg_slab(&a)->sum.alloc_freed_count, 2);  /* A1, B1 */
	CHECK_U64(agg_slab(&a)->sum.alloc_freed_bytes, 80); /* 16+64 */
	CHECK_U64(kmem_lc_alloc_only_count(&agg_slab(&a)->sum.lc), 1); /* A2 */
	CHECK_U64(kmem_lc_alloc_only_bytes(&agg_slab(&a)->sum.lc,
					   agg_slab(&a)->sum.bytes_alloc),
		  32);
	CHECK_U64(agg_slab(&a)->sum.free_only, 1);
	CHECK_U64(agg_slab(&a)->sum.cross_cpu_frees, 1); /* A1 */
	CHECK_U64(agg_slab(&a)->sum.live_count, 1);
	CHECK_U64(agg_slab(&a)->sum.live_bytes, 32);

	s = site(&a, 0xA);
	CHECK(s != NULL);
	if (s) {
		CHECK_U64(s->hits, 2);
		CHECK_U64(s->frees, 1);
		CHECK_U64(s->pingpong, 1);
		CHECK_U64(s->lifetime_sum, 300);	/* 400-100 */
		CHECK_U64(s->live_count, 1);
		CHECK_U64(s->live_bytes, 32);
		CHECK_U64(s->peak_bytes, 48);		/* 16+32 at t=200 */
	}
	s = site(&a, 0xB);
	CHECK(s && s->pingpong == 0 && s->lifetime_sum == 1000);
	CHECK_U64(agg_slab(&a)->nr_sites,
		  2); /* frees do not create call sites */
	kmem_agg_release(&a);
}

/* NULL, ZERO_SIZE_PTR, double and missed frees. */
static void test_anomalies(void)
{
	struct kmem_agg a;

	kmem_agg_init(&a);
	feed(&a, ev_alloc(1, 0, 0xA, 0, 100, 128));	/* failure */
	feed(&a, ev_alloc(2, 0, 0xA, 0x10, 0, 0));	/* kmalloc(0) */
	feed(&a, ev_free(3, 0, 0));			/* kfree(NULL) */
	feed(&a, ev_free(4, 0, 0x10));			/* kfree(ZERO_SIZE_PTR) */
	feed(&a, ev_alloc(5, 0, 0xA, 0x1000, 8, 8));	/* X */
	feed(&a, ev_alloc(6, 0, 0xB, 0x1000, 16, 16));	/* Y: X's free missed */
	feed(&a, ev_free(7, 0, 0x1000));		/* Y freed */
	feed(&a, ev_free(8, 0, 0x1000));		/* double free */
	feed(&a, ev_free(9, 0, 0x7000));		/* freed-only */
	feed(&a, ev_free(10, 0, 0x7000));		/* ... then double */

	CHECK_U64(agg_slab(&a)->sum.alloc_failures, 1);
	CHECK_U64(agg_slab(&a)->sum.allocs, 3);	      /* 0x10, X, Y */
	CHECK_U64(agg_slab(&a)->sum.bytes_alloc, 24); /* 0+8+16 */
	CHECK_U64(agg_slab(&a)->sum.zero_size_allocs, 1);
	CHECK_U64(agg_slab(&a)->sum.null_frees, 2);
	CHECK_U64(agg_slab(&a)->sum.frees, 4); /* Y's, double, 0x7000 x2 */
	CHECK_U64(agg_slab(&a)->sum.missed_frees, 1);
	CHECK_U64(agg_slab(&a)->sum.missed_free_bytes, 8);
	CHECK_U64(agg_slab(&a)->sum.double_frees, 2);	   /* 0x1000, 0x7000 */
	CHECK_U64(agg_slab(&a)->sum.free_only, 1);	   /* 0x7000 */
	CHECK_U64(agg_slab(&a)->sum.alloc_freed_count, 1); /* Y */
	CHECK_U64(agg_slab(&a)->sum.alloc_freed_bytes, 16);
	CHECK_U64(kmem_lc_alloc_only_count(&agg_slab(&a)->sum.lc),
		  2); /* 0x10, X */
	CHECK_U64(agg_slab(&a)->sum.live_count, 0);
	CHECK_U64(agg_slab(&a)->sum.live_bytes, 0);
	CHECK_U64(agg_slab(&a)->objs.len, 1); /* 0x1000 */
	CHECK_U64(slab_row_at(agg_slab(&a), 0)->o.ptr, 0x1000);
	CHECK_U64(slab_row_at(agg_slab(&a), 0)->hits, 2);
	CHECK_U64(agg_slab(&a)->freed_only.len, 1); /* 0x7000 */
	CHECK(site(&a, 0xA) && site(&a, 0xA)->failures == 1);
	CHECK(site(&a, 0xA) && site(&a, 0xA)->live_count == 0);
	/* identities from the definitions */
	CHECK_U64(agg_slab(&a)->sum.frees,
		  agg_slab(&a)->sum.alloc_freed_count +
			  agg_slab(&a)->sum.free_only +
			  agg_slab(&a)->sum.double_frees);
	kmem_agg_release(&a);
}

/* Cache rows: by name, kmalloc by size, unnamed kmem_cache events. */
static void test_caches(void)
{
	struct kmem_agg a;
	struct kmem_event e;
	char name[64];
	size_t i;
	int seen = 0;

	kmem_agg_init(&a);
	e = ev_alloc(1, 0, 0xA, 0x1000, 50, 64);	/* kmalloc-64 */
	feed(&a, e);
	e = ev_alloc(2, 0, 0xA, 0x2000, 60, 64);	/* kmalloc-64 */
	feed(&a, e);
	e = ev_alloc(3, 0, 0xB, 0x3000, 184, 192);
	e.is_cache = true;
	e.name = "filpXXX"; /* name_len ends it: "filp" */
	e.name_len = 4;
	feed(&a, e);
	e = ev_alloc(4, 0, 0xC, 0x4000, 40, 40);
	e.is_cache = true;				/* no name field */
	feed(&a, e);
	e = ev_free(5, 0, 0x3000);
	e.is_cache = true;
	e.name = "filp";
	e.name_len = 4;
	feed(&a, e);
	e = ev_free(6, 0, 0x5000);			/* free-only, named */
	e.is_cache = true;
	e.name = "filp";
	e.name_len = 4;
	feed(&a, e);

	CHECK_U64(agg_slab(&a)->nr_caches, 3);
	for (i = 0; i < agg_slab(&a)->nr_caches; i++) {
		const struct slab_cache *c = &agg_slab(&a)->caches[i];

		snprintf(name, sizeof(name), "%s",
			 slab_cache_name(agg_slab(&a), c));
		if (!strcmp(name, "kmalloc-64")) {
			seen++;
			CHECK_U64(c->allocs, 2);
			CHECK_U64(c->bytes_req, 110);
			CHECK_U64(c->live_count, 2);
			CHECK_U64(c->live_bytes, 128);
		} else if (!strcmp(name, "filp")) {
			seen++;
			CHECK_U64(c->allocs, 1);
			CHECK_U64(c->frees, 1);
			CHECK_U64(c->free_only, 1);
			CHECK_U64(c->live_count, 0);
		} else if (!strcmp(name, "(unnamed)")) {
			seen++;
			CHECK_U64(c->allocs, 1);
			CHECK_U64(c->bytes_alloc, 40);
		}
	}
	CHECK_U64(seen, 3);
	kmem_agg_release(&a);
}

/*
 * Cache names of every length the name memo treats apart (1-3, 4-7,
 * 8-16 bytes: whole in its words; longer: its middle compared), each
 * name next to names one byte away from it, fed twice, in an order
 * that makes the memo's 256 slots collide: every name is its own row,
 * with its two allocations.  Names of length L: "aaa..." and L
 * variants with a 'b' at one position, so 1 + L names.  Then two
 * families of 300 that only one word tells apart, more than the slots,
 * so that some share one (the second family all do): 12 bytes, the
 * first 8 the same (only the second word differs); 20 bytes, the first
 * and last 8 the same (only the middle differs).
 */
static void test_cache_names(void)
{
	static const unsigned int lens[] = { 1, 2,  3,	4,  5,	7,  8,
					     9, 15, 16, 17, 18, 24, 40 };
	char names[800][48];
	char mid[5];
	unsigned int n = 0, i, j, k, p;
	struct kmem_agg a;
	struct kmem_event e;
	uint64_t ptr = 0x10000;

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		for (p = 0; p <= lens[i]; p++, n++) {
			memset(names[n], 'a', lens[i]);
			/* bytes past name_len that must not count */
			strcpy(names[n] + lens[i], "ZZZZZZZZ");
			if (p < lens[i])
				names[n][p] = 'b';
		}
	}
	/* 1+2+3+4+5+7+8+9+15+16+17+18+24+40 = 169 positions, + 14 bases */
	CHECK_U64(n, 183);
	for (i = 0; i < 300; i++, n++) {
		snprintf(mid, sizeof(mid), "%04u", i);
		snprintf(names[n], sizeof(names[n]), "aaaaaaaa%sZZ", mid);
	}
	for (i = 0; i < 300; i++, n++) {
		snprintf(mid, sizeof(mid), "%04u", i);
		snprintf(names[n], sizeof(names[n]), "aaaaaaaa%saaaaaaaaZZ",
			 mid);
	}
	kmem_agg_init(&a);
	for (k = 0; k < 2; k++) {
		for (j = 0; j < n; j++) {
			/* n = 783, not a multiple of 37: all of them */
			i = (j * 37 + k * 11) % n;
			e = ev_alloc(j + 1, 0, 0xA, ptr, 8, 8);
			ptr += 0x40;
			e.is_cache = true;
			e.name = names[i];
			e.name_len = (unsigned int)(strchr(names[i], 'Z') -
						    names[i]);
			feed(&a, e);
		}
	}
	CHECK_U64(agg_slab(&a)->nr_caches, 783);
	for (j = 0; j < agg_slab(&a)->nr_caches; j++) {
		const struct slab_cache *c = &agg_slab(&a)->caches[j];
		const char *s = slab_cache_name(agg_slab(&a), c);
		unsigned int hits = 0;

		for (i = 0; i < n; i++)
			hits += strlen(s) == (size_t)(strchr(names[i], 'Z') -
						      names[i]) &&
				!strncmp(s, names[i], strlen(s));
		CHECK_U64(hits, 1);
		CHECK_U64(c->allocs, 2);
	}
	kmem_agg_release(&a);
}

/*
 * A record's name bytes as its __data_loc gives them: the name is what
 * comes before the first NUL, whatever follows it.  "filp" with its NUL,
 * without, and with bytes after it are one cache; "fi\0lp" is "fi";
 * "dentry_and_more_1\0" (18 bytes: its middle compared) and the same
 * name with another byte after the NUL are one.  Each fed three times,
 * interleaved, so that memoized bytes are found again.
 */
static void test_cache_name_bytes(void)
{
	static const struct {
		const char *bytes;
		unsigned int n;
		const char *name;
	} b[] = {
		{ "filp", 5, "filp" },
		{ "filp", 4, "filp" },
		{ "filp\0XY", 7, "filp" },
		{ "fi\0lp", 6, "fi" },
		{ "dentry_and_more_1", 18, "dentry_and_more_1" },
		{ "dentry_and_more_1\0Q", 19, "dentry_and_more_1" },
	};
	const unsigned int nb = sizeof(b) / sizeof(b[0]);
	static const char *const want[] = { "filp", "fi", "dentry_and_more_1" };
	static const unsigned int allocs[] = { 9, 3, 6 };
	struct kmem_agg a;
	struct kmem_event e;
	unsigned int i, j, k, seen = 0;
	uint64_t ptr = 0x10000;

	kmem_agg_init(&a);
	for (k = 0; k < 3; k++) {
		for (i = 0; i < nb; i++) {
			e = ev_alloc(k * nb + i + 1, 0, 0xA, ptr, 8, 8);
			ptr += 0x40;
			e.is_cache = true;
			e.name = b[i].bytes;
			e.name_len = b[i].n;
			feed(&a, e);
		}
	}
	CHECK_U64(agg_slab(&a)->nr_caches, 3);
	for (j = 0; j < agg_slab(&a)->nr_caches; j++) {
		const struct slab_cache *c = &agg_slab(&a)->caches[j];
		const char *s = slab_cache_name(agg_slab(&a), c);

		for (i = 0; i < 3; i++) {
			if (strcmp(s, want[i]))
				continue;
			seen++;
			CHECK_U64(c->allocs, allocs[i]);
		}
	}
	CHECK_U64(seen, 3);
	kmem_agg_release(&a);
}

/*
 * One row per cache name: a kmem_cache event naming "kmalloc-64" joins
 * the kmalloc events of size 64; zero-size allocations have no row; an
 * unnamed allocation (5.12-6.17) moves to the cache its free names.
 */
static void test_cache_rows(void)
{
	struct kmem_agg a;
	struct kmem_event e;
	const struct slab_cache *c;

	kmem_agg_init(&a);
	feed(&a, ev_alloc(1, 0, 0xA, 0x1000, 50, 64));	/* kmalloc-64 */
	e = ev_alloc(2, 0, 0xA, 0x2000, 64, 64);
	e.is_cache = true;
	e.name = "kmalloc-64";
	e.name_len = 10;
	feed(&a, e);					/* same row */
	feed(&a, ev_alloc(3, 0, 0xA, 0x10, 0, 0));	/* kmalloc(0): none */
	e = ev_alloc(4, 0, 0xB, 0x3000, 184, 192);	/* unnamed, freed */
	e.is_cache = true;
	feed(&a, e);
	e = ev_alloc(5, 0, 0xB, 0x4000, 184, 192);	/* unnamed, live */
	e.is_cache = true;
	feed(&a, e);
	e = ev_free(6, 1, 0x3000);
	e.is_cache = true;
	e.name = "filp";
	e.name_len = 4;
	feed(&a, e);

	CHECK_U64(agg_slab(&a)->nr_caches, 3); /* kmalloc-64, (unnamed), filp */
	c = &agg_slab(&a)->caches[0];
	CHECK_STR(slab_cache_name(agg_slab(&a), c), "kmalloc-64");
	CHECK_U64(c->allocs, 2);
	CHECK_U64(c->bytes_req, 114);			/* 50+64 */
	c = &agg_slab(&a)->caches[1];
	CHECK_STR(slab_cache_name(agg_slab(&a), c), "(unnamed)");
	CHECK_U64(c->allocs, 1);			/* 0x4000 */
	CHECK_U64(c->live_count, 1);
	CHECK_U64(c->live_bytes, 192);
	c = &agg_slab(&a)->caches[2];
	CHECK_STR(slab_cache_name(agg_slab(&a), c), "filp");
	CHECK_U64(c->allocs, 1);			/* 0x3000, moved */
	CHECK_U64(c->bytes_req, 184);
	CHECK_U64(c->frees, 1);
	CHECK_U64(c->live_count, 0);
	kmem_agg_release(&a);
}

/* Many objects: the hash indexes grow and every object is found again. */
static void test_many(void)
{
	struct kmem_agg a;
	uint64_t i, n = 200000;

	kmem_agg_init(&a);
	for (i = 0; i < n; i++)
		feed(&a, ev_alloc(i, (int)(i & 1), 0x100 + (i % 1000),
				  0xffff888000000000ULL + i * 64, 40, 64));
	for (i = 0; i < n; i += 2)
		feed(&a, ev_free(n + i, 0, 0xffff888000000000ULL + i * 64));
	CHECK_U64(agg_slab(&a)->nr_sites, 1000);
	CHECK_U64(agg_slab(&a)->objs.len, n);
	CHECK_U64(agg_slab(&a)->sum.alloc_freed_count, n / 2);
	CHECK_U64(agg_slab(&a)->sum.free_only, 0);
	CHECK_U64(agg_slab(&a)->sum.live_count, n / 2);
	CHECK_U64(agg_slab(&a)->sum.live_bytes, n / 2 * 64);
	/* even i allocated on CPU 0 and freed on CPU 0: no ping-pong */
	CHECK_U64(agg_slab(&a)->sum.cross_cpu_frees, 0);
	kmem_agg_release(&a);
}

/* Lost events are summed; unknown-size losses are counted apart. */
static void test_lost(void)
{
	struct kmem_agg a;

	kmem_agg_init(&a);
	kmem_agg_missed(&a, 10);
	kmem_agg_missed(&a, 5);
	kmem_agg_missed(&a, -1);
	CHECK_U64(a.events_lost, 15);
	CHECK_U64(a.lost_unknown, 1);
	kmem_agg_release(&a);
}

/* Without per-address rows: the same summary, sites and caches. */
static void test_lean(void)
{
	struct kmem_collect_cfg cc;
	struct kmem_agg full, lean;
	struct kmem_opts o;
	uint64_t i;
	size_t c;

	kmem_opts_init(&o);
	o.caller = true;	/* no per-allocation table */
	kmem_agg_init(&full);
	kmem_agg_init(&lean);
	cc = kmem_opts_collect_cfg(&o);
	kmem_agg_keep_rows(&lean, &cc);
	CHECK(agg_slab(&full)->rows && !agg_slab(&lean)->rows);
	for (i = 0; i < 5000; i++) {
		uint64_t ptr = 0xffff888000000000ULL + (i % 700) * 32;
		struct kmem_event e = i % 3 ? ev_alloc(i, (int)(i % 4),
						       0x100 + i % 7, ptr,
						       i % 50, 64) :
					      ev_free(i, (int)(i % 3), ptr);

		e.name = i % 5 ? NULL : "dentry";
		e.name_len = e.name ? 6 : 0;
		e.is_cache = i % 2;
		feed(&full, e);
		feed(&lean, e);
	}
	CHECK(!memcmp(&agg_slab(&full)->sum, &agg_slab(&lean)->sum,
		      sizeof(agg_slab(&full)->sum)));
	CHECK_U64(agg_slab(&lean)->nr_sites, agg_slab(&full)->nr_sites);
	CHECK(!memcmp(agg_slab(&full)->sites, agg_slab(&lean)->sites,
		      agg_slab(&full)->nr_sites *
			      sizeof(*agg_slab(&full)->sites)));
	CHECK_U64(agg_slab(&lean)->nr_caches, agg_slab(&full)->nr_caches);
	for (c = 0;
	     c < agg_slab(&full)->nr_caches && c < agg_slab(&lean)->nr_caches;
	     c++) {
		CHECK_U64(agg_slab(&lean)->caches[c].allocs,
			  agg_slab(&full)->caches[c].allocs);
		CHECK_U64(agg_slab(&lean)->caches[c].bytes_req,
			  agg_slab(&full)->caches[c].bytes_req);
		CHECK_U64(agg_slab(&lean)->caches[c].live_bytes,
			  agg_slab(&full)->caches[c].live_bytes);
		CHECK_U64(agg_slab(&lean)->caches[c].frees,
			  agg_slab(&full)->caches[c].frees);
	}
	CHECK_U64(agg_slab(&lean)->objs.len, agg_slab(&full)->objs.len);
	CHECK(agg_slab(&lean)->objs.size == 32 &&
	      agg_slab(&full)->objs.size == 72);
	kmem_agg_release(&full);
	kmem_agg_release(&lean);
	kmem_opts_release(&o);
}

/* The folded stack (no kernel stacks: the call site alone) of @cs. */
static const struct folded_stack *fstack(const struct kmem_agg *a,
					 uint64_t cs)
{
	const struct kmem_folded *f = &a->folded;
	uint32_t i;

	for (i = 0; i < f->nr; i++)
		if (f->stacks[i].n == 1 && f->frames[f->stacks[i].off] == cs)
			return &f->stacks[i];
	return NULL;
}

/*
 * One stream for test_folded_follows(): @m, when not NULL, is a front
 * end's match, reset before each event as KernelShark's plugin does.
 */
static void folded_stream(struct kmem_agg *a, struct kmem_match *m,
			  unsigned int *told)
{
	struct kmem_event evs[] = {
		ev_alloc(100, 0, 0xA, 0x1000, 60, 64),	/* X at S_A */
		ev_alloc(200, 1, 0xB, 0x2000, 30, 32),	/* Y at S_B */
		ev_free(300, 0, 0x1000),		/* X freed */
		ev_alloc(400, 0, 0xB, 0x1000, 100, 128), /* X' at S_B */
		ev_free(500, 1, 0x9000),		/* never allocated */
		ev_alloc(600, 1, 0xA, 0x2000, 16, 16),	/* Y' at S_A: Y's
							 * free was missed */
		ev_free(700, 0, 0x1000),		/* X' freed */
		ev_free(800, 0, 0x1000),		/* X' again: double */
		ev_alloc(900, 0, 0xA, 0, 8, 8),		/* failed: no object */
	};
	size_t i;

	for (i = 0; i < sizeof(evs) / sizeof(evs[0]); i++) {
		if (m)
			m->what = KMEM_MATCH_NONE;
		feed(a, evs[i]);
		if (m && m->what != KMEM_MATCH_NONE)
			(*told)++;
	}
	kmem_agg_finish(a);
}

/*
 * The folded stacks follow the allocator's own objects: the same
 * stacks, counts and live figures whether or not a front end follows
 * the objects too (kmem_agg_follow(), before or after), and again once
 * it stops.  Counted by hand:
 *   S_A: X 64 + Y' 16 = 80 bytes, 2 hits; live: Y' (16 bytes, 1)
 *   S_B: Y 32 + X' 128 = 160 bytes, 2 hits; live: none (Y's free was
 *        missed, X' freed)
 */
static void test_folded_follows(void)
{
	struct kmem_opts o = { .folded = "-",
			       .live = true,
			       .allocator[KMEM_ALLOC_SLAB] = true };
	struct kmem_collect_cfg cc = kmem_opts_collect_cfg(&o);
	struct kmem_match m;
	int round;

	for (round = 0; round < 4; round++) {
		const struct folded_stack *sa, *sb;
		unsigned int told = 0;
		struct kmem_agg a;

		kmem_agg_init(&a);
		if (round == 1)	/* followed before the stacks are asked */
			kmem_agg_follow(&a, &m);
		kmem_agg_keep_rows(&a, &cc);
		if (round == 2)	/* ... after */
			kmem_agg_follow(&a, &m);
		if (round == 3) {	/* ... and no more */
			kmem_agg_follow(&a, &m);
			kmem_agg_follow(&a, NULL);
		}
		folded_stream(&a, round == 1 || round == 2 ? &m : NULL, &told);
		/* 4 objects made live, 2 frees matched */
		CHECK_U64(told, round == 1 || round == 2 ? 6 : 0);
		CHECK_U64(a.folded.nr, 2);
		sa = fstack(&a, 0xA);
		sb = fstack(&a, 0xB);
		CHECK(sa && sb);
		if (sa && sb) {
			CHECK_U64(sa->bytes, 80);
			CHECK_U64(sa->hits, 2);
			CHECK_U64(sa->live_bytes, 16);
			CHECK_U64(sa->live_hits, 1);
			CHECK_U64(sb->bytes, 160);
			CHECK_U64(sb->hits, 2);
			CHECK_U64(sb->live_bytes, 0);
			CHECK_U64(sb->live_hits, 0);
		}
		/* the allocator's own live figures are the same */
		CHECK_U64(agg_slab(&a)->sum.live_bytes, 16);
		CHECK_U64(agg_slab(&a)->sum.live_count, 1);
		kmem_agg_release(&a);
	}
}

int main(void)
{
	RUN(test_groups);
	RUN(test_lean);
	RUN(test_anomalies);
	RUN(test_caches);
	RUN(test_cache_rows);
	RUN(test_cache_names);
	RUN(test_cache_name_bytes);
	RUN(test_many);
	RUN(test_lost);
	RUN(test_folded_follows);
	UNIT_EXIT();
}
