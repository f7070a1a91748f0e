// SPDX-License-Identifier: LGPL-2.1
/*
 * Decoding kmem records of several kernel generations and machines.
 *
 * The event formats (tests/formats/, see the README there) are parsed
 * into a tep handle as the trace would carry them; records are built
 * byte by byte at the offsets those formats give, in the byte order of
 * the traced machine, then go through kmem_fields_init(), kmem_decode()
 * and kmem_agg_event().  Every layout replays the same 15-record stream,
 * whose statistics were counted by hand (see stream[] and
 * check_stream_stats()).
 *
 * Single records written out byte by byte are in test_decode_fields.c,
 * records that end early in test_decode_cut.c; what they share in
 * decode_util.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/agg.h"
#include "agg_util.h"
#include "decode_util.h"
#include "unit.h"

static bool is_alloc_op(const struct op *o)
{
	return o->kind == OP_KMALLOC || o->kind == OP_CACHE_ALLOC;
}

/* Every decoded field against what build() wrote. */
static void check_decoded(const struct layout *L, enum kmem_slot slot,
			  const struct op *o, const struct kmem_event *ev)
{
	const struct ev_layout *e = &L->ev[slot];
	bool alloc = is_alloc_op(o);

	CHECK(ev->kind == (alloc ? KMEM_EV_SLAB_ALLOC : KMEM_EV_SLAB_FREE));
	CHECK(ev->is_cache ==
	      (o->kind == OP_CACHE_ALLOC || o->kind == OP_CACHE_FREE));
	CHECK(ev->cpu == o->cpu);
	CHECK(ev->pid == o->pid);
	CHECK_U64(ev->ts, o->ts);
	CHECK_U64(ev->call_site, site_addr(L, o->site));
	CHECK_U64(ev->ptr, obj_addr(L, o->obj));
	CHECK_U64(ev->bytes_req, alloc ? o->req : 0);
	CHECK_U64(ev->bytes_alloc, alloc ? o->alloc : 0);
	CHECK_U64(ev->gfp_flags, alloc ? o->gfp : 0);
	/* NO_NODE when the event has no node field, too */
	CHECK(ev->node == (alloc ? o->node : KMEM_NO_NODE));
	if (e->name.size && o->cache) {
		CHECK(ev->name != NULL);
		CHECK_U64(kmem_event_name_len(ev), strlen(o->cache));
		CHECK(ev->name &&
		      !memcmp(ev->name, o->cache, kmem_event_name_len(ev)));
	} else {
		CHECK(ev->name == NULL);
		CHECK_U64(kmem_event_name_len(ev), 0);
	}
}

static const struct slab_site *find_site(const struct slab_stats *st,
					 uint64_t call_site)
{
	size_t i;

	for (i = 0; i < st->nr_sites; i++)
		if (st->sites[i].call_site == call_site)
			return &st->sites[i];
	return NULL;
}

static const struct slab_obj_row *find_ptr(const struct slab_stats *st,
					   uint64_t ptr)
{
	uint32_t i = addr_table_find(&st->objs, ptr);

	return i == ADDR_NONE ? NULL : slab_row_at(st, i);
}

struct cache_want {
	const char *name;
	uint64_t allocs, bytes_req, bytes_alloc, frees, free_only;
	uint64_t live_count, live_bytes;
};

/* The cache rows, in the order they first appeared. */
static void check_caches(const struct slab_stats *st,
			 const struct cache_want *want, size_t n)
{
	char name[64];
	size_t i;

	CHECK_U64(st->nr_caches, n);
	for (i = 0; i < n && i < st->nr_caches; i++) {
		const struct slab_cache *c = &st->caches[i];

		snprintf(name, sizeof(name), "%s", slab_cache_name(st, c));
		CHECK_STR(name, want[i].name);
		CHECK_U64(c->allocs, want[i].allocs);
		CHECK_U64(c->bytes_req, want[i].bytes_req);
		CHECK_U64(c->bytes_alloc, want[i].bytes_alloc);
		CHECK_U64(c->frees, want[i].frees);
		CHECK_U64(c->free_only, want[i].free_only);
		CHECK_U64(c->live_count, want[i].live_count);
		CHECK_U64(c->live_bytes, want[i].live_bytes);
	}
}

/* The statistics of stream[], counted by hand. */
static void check_stream_stats(const struct layout *L,
			       const struct kmem_agg *a)
{
	const struct slab_stats *st = agg_slab(a);
	const struct slab_summary *s = &st->sum;
	const struct slab_site *site;
	const struct slab_obj_row *p;

	CHECK_U64(a->events[KMEM_ALLOC_SLAB], 15); /* every record */
	CHECK_U64(a->undecodable, 0);
	CHECK_U64(st->oom, 0);

	CHECK_U64(s->allocs, 6);		/* #1 #2 #3 #11 #12 #13 */
	CHECK_U64(s->alloc_failures, 1);	/* #10 */
	CHECK_U64(s->zero_size_allocs, 1);	/* #13 */
	CHECK_U64(s->bytes_req, 594);		/* 100+60+192+50+192+0 */
	CHECK_U64(s->bytes_alloc, 640);		/* 128+64+192+64+192+0 */
	CHECK_U64(s->frees, 6);			/* #4 #5 #7 #8 #9 #15 */
	CHECK_U64(s->null_frees, 2);		/* #6 #14 */
	CHECK_U64(s->alloc_freed_count, 3);	/* #4:P1 #5:P3 #15:P2 */
	CHECK_U64(s->alloc_freed_bytes, 384);	/* 128+192+64 */
	CHECK_U64(s->free_only, 2);		/* #7:P9 #8:P10 */
	CHECK_U64(s->double_frees, 1);		/* #9:P1 */
	CHECK_U64(s->missed_frees, 1);		/* #11 over #2 */
	CHECK_U64(s->missed_free_bytes, 64);	/* #2's object */
	CHECK_U64(s->cross_cpu_frees, 2);	/* #4 0->1, #5 1->0; not #15 */
	CHECK_U64(s->live_count, 1);		/* P4 from #12 */
	CHECK_U64(s->live_bytes, 192);
	/* #2 (missed), #12, #13: 64+192+0 bytes */
	CHECK_U64(kmem_lc_alloc_only_count(&s->lc), 3);
	CHECK_U64(kmem_lc_alloc_only_bytes(&s->lc, s->bytes_alloc), 256);

	CHECK_U64(st->nr_sites, 3);		/* frees make no site rows */
	site = find_site(st, site_addr(L, 1));	/* #1 #2 #13 */
	CHECK(site != NULL);
	if (site) {
		CHECK_U64(site->hits, 3);
		CHECK_U64(site->failures, 0);
		CHECK_U64(site->bytes_req, 160);	/* 100+60+0 */
		CHECK_U64(site->bytes_alloc, 192);	/* 128+64+0 */
		CHECK_U64(site->frees, 1);		/* #4 */
		CHECK_U64(site->pingpong, 1);
		CHECK_U64(site->lifetime_sum, 3000);	/* 4000-1000 */
		CHECK_U64(site->live_count, 0);	/* #2's object: missed */
		CHECK_U64(site->live_bytes, 0);
		CHECK_U64(site->peak_bytes, 192);	/* after #2: 128+64 */
	}
	site = find_site(st, site_addr(L, 2));	/* #3 #12 */
	CHECK(site != NULL);
	if (site) {
		CHECK_U64(site->hits, 2);
		CHECK_U64(site->failures, 0);
		CHECK_U64(site->bytes_req, 384);
		CHECK_U64(site->bytes_alloc, 384);
		CHECK_U64(site->frees, 1);		/* #5 */
		CHECK_U64(site->pingpong, 1);
		CHECK_U64(site->lifetime_sum, 2000);	/* 5000-3000 */
		CHECK_U64(site->live_count, 1);	/* P4 */
		CHECK_U64(site->live_bytes, 192);
		CHECK_U64(site->peak_bytes, 192);
	}
	site = find_site(st, site_addr(L, 3));	/* #10 (NULL) #11 */
	CHECK(site != NULL);
	if (site) {
		CHECK_U64(site->hits, 1);
		CHECK_U64(site->failures, 1);
		CHECK_U64(site->bytes_req, 50);
		CHECK_U64(site->bytes_alloc, 64);
		CHECK_U64(site->frees, 1);		/* #15 */
		CHECK_U64(site->pingpong, 0);		/* CPU 0 both */
		CHECK_U64(site->lifetime_sum, 4000);	/* 15000-11000 */
		CHECK_U64(site->live_count, 0);
		CHECK_U64(site->live_bytes, 0);
		CHECK_U64(site->peak_bytes, 64);
	}

	CHECK_U64(st->objs.len, 4);	/* P1-P4 allocated (not NULL or
					   ZERO_SIZE_PTR) */
	CHECK_U64(st->freed_only.len, 2);	/* P9 P10 freed only */
	p = find_ptr(st, obj_addr(L, 2));	/* #2 #11 #15 */
	CHECK(p != NULL);
	if (p) {
		CHECK_U64(p->hits, 2);
		CHECK_U64(p->bytes_req, 110);		/* 60+50 */
		CHECK_U64(p->bytes_alloc, 128);		/* 64+64 */
		CHECK_U64(p->frees, 1);
		CHECK_U64(p->pingpong, 0);
		CHECK_U64(p->lifetime_sum, 4000);
		CHECK(!(p->o.flags & SLAB_OBJ_LIVE));
	}
	p = find_ptr(st, obj_addr(L, 1));	/* #1 #4 (#9 double) */
	CHECK(p != NULL);
	if (p) {
		CHECK_U64(p->hits, 1);
		CHECK_U64(p->frees, 1);
		CHECK_U64(p->pingpong, 1);
		CHECK_U64(p->lifetime_sum, 3000);
		CHECK(!(p->o.flags & SLAB_OBJ_LIVE));
	}
	p = find_ptr(st, obj_addr(L, 4));
	CHECK(p != NULL);
	if (p) {
		CHECK_U64(p->hits, 1);
		CHECK_U64(p->frees, 0);
		CHECK(p->o.flags & SLAB_OBJ_LIVE);
		CHECK_U64(p->o.bytes, 192);
	}

	switch (L->names) {
	case NAMES_BOTH: {
		/* #3 #12 name the cache; #5 frees P3, #8 frees unknown P10 */
		static const struct cache_want want[] = {
			{ "kmalloc-128", 1, 100, 128, 1, 0, 0, 0 },  /* #1 #4 */
			{ "kmalloc-64", 2, 110, 128, 1, 0, 0, 0 }, /* #2 #11 #15 */
			{ "dentry", 2, 384, 384, 1, 1, 1, 192 },  /* #3 #12 #5 #8 */
		};
		check_caches(st, want, 3);
		break;
	}
	case NAMES_FREE: {
		/*
		 * allocations are unnamed; #5's named free of P3 moves #3 to
		 * "dentry", #12 stays live and unnamed; #8's free_only names
		 * "dentry"
		 */
		static const struct cache_want want[] = {
			{ "kmalloc-128", 1, 100, 128, 1, 0, 0, 0 },
			{ "kmalloc-64", 2, 110, 128, 1, 0, 0, 0 },
			{ "(unnamed)", 1, 192, 192, 0, 0, 1, 192 }, /* #12 */
			{ "dentry", 1, 192, 192, 1, 1, 0, 0 },	/* #3 #5 #8 */
		};
		check_caches(st, want, 4);
		break;
	}
	case NAMES_NONE: {
		/* #8 names no cache: a free_only with no row */
		static const struct cache_want want[] = {
			{ "kmalloc-128", 1, 100, 128, 1, 0, 0, 0 },
			{ "kmalloc-64", 2, 110, 128, 1, 0, 0, 0 },
			{ "(unnamed)", 2, 384, 384, 1, 0, 1, 192 },
		};
		check_caches(st, want, 3);
		break;
	}
	}
}

/*
 * The straight path (64-bit layouts in our byte order) and the checked
 * one (every other) give the same event, to the byte: @ev decoded again
 * with the straight path off.
 */
static void check_paths(const struct layout *L, const struct kmem_fields *f,
			const struct tep_record *tr,
			const struct kmem_event *ev)
{
	struct kmem_fields checked = *f;
	struct kmem_event again;
	bool native = L->long_size == 8 &&
		      L->big_endian == (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);

	CHECK(f->slab.on == native);
	checked.slab.on = false;
	memset(&again, 0xa5, sizeof(again));
	CHECK(kmem_decode(&checked, tr, &again) == 0);
	CHECK(!memcmp(&again, ev, offsetof(struct kmem_event, frames)));
}

static void run_layout(const struct layout *L)
{
	struct kmem_fields fields[KMEM_NR_SLOTS];
	struct tep_handle *tep;
	struct kmem_agg a;
	int i;

	printf("  layout %s (%s)\n", L->label, L->file);
	tep = load_formats(L->file, L->long_size, L->big_endian);
	if (!tep)
		return;
	check_fields(L, tep, fields);

	kmem_agg_init(&a);
	for (i = 0; i < NR_STREAM; i++) {
		const struct op *o = &stream[i];
		enum kmem_slot slot = op_slot(L, o);
		int before = unit_failed;
		struct tep_record tr;
		struct kmem_event ev;
		struct rec r;
		void *copy;

		build(L, slot, o, &r);
		/* exactly the record's bytes, so ASan sees any overrun */
		copy = malloc((size_t)r.len);
		if (!copy)
			break;
		memcpy(copy, r.d, (size_t)r.len);
		set_record(&tr, copy, r.len, o);
		CHECK(kmem_decode(&fields[slot], &tr, &ev) == 0);
		check_decoded(L, slot, o, &ev);
		check_paths(L, &fields[slot], &tr, &ev);
		if (unit_failed != before)
			printf("  ... in record #%d (%s)\n", i + 1,
			       kmem_slot_event_name(slot));
		kmem_agg_event(&a, &ev);
		free(copy);
	}
	check_stream_stats(L, &a);
	kmem_agg_release(&a);
	tep_free(tep);
}

static void test_layout_2_6_32_x86_64(void)
{
	run_layout(&linux_2_6_32);
}

static void test_layout_5_15_x86_64(void)
{
	run_layout(&linux_5_15);
}

static void test_layout_6_0_x86_64(void)
{
	run_layout(&linux_6_0);
}

static void test_layout_6_1_ppc32_big_endian(void)
{
	run_layout(&linux_6_1_ppc32);
}

static void test_layout_6_18_x86_64(void)
{
	run_layout(&linux_6_18);
}

static void test_layout_6_18_big_endian_64(void)
{
	run_layout(&linux_6_18_be64);
}

static void test_layout_rel_loc(void)
{
	run_layout(&synthetic_rel_loc);
}

int main(int argc, char **argv)
{
	(void)argc;
	find_formats_dir(argv[0]);
	RUN(test_layout_2_6_32_x86_64);
	RUN(test_layout_5_15_x86_64);
	RUN(test_layout_6_0_x86_64);
	RUN(test_layout_6_1_ppc32_big_endian);
	RUN(test_layout_6_18_x86_64);
	RUN(test_layout_6_18_big_endian_64);
	RUN(test_layout_rel_loc);
	UNIT_EXIT();
}
