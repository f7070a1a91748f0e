// SPDX-License-Identifier: LGPL-2.1
/*
 * Per-CPU allocator statistics (see percpu.h and
 * Documentation/kmem-stat-definitions.txt).
 *
 * The per-event functions only look keys up in hash indexes and append
 * to arrays that double when full: no per-event allocation, no string
 * formatting, no linear search.
 */
#include <stdlib.h>
#include <string.h>

#include "percpu.h"
#include "sites.h"

/**
 * percpu_stats_init - set up empty per-CPU allocator statistics
 * @st: the statistics
 */
void percpu_stats_init(struct percpu_stats *st)
{
	memset(st, 0, sizeof(*st));
	kmem_lc_init(&st->lc, sizeof(struct percpu_obj));
}

/**
 * percpu_stats_release - free everything percpu_account() allocated
 * @st: the statistics
 */
void percpu_stats_release(struct percpu_stats *st)
{
	u64_index_free(&st->site_ix);
	u64_index_free(&st->fail_ix);
	free(st->sites);
	free(st->fails);
	kmem_lc_release(&st->lc);
	kmem_life_release(&st->life);
	memset(st, 0, sizeof(*st));
}

static uint64_t fail_key(uint64_t size, uint64_t align, bool atomic,
			 bool reserved)
{
	uint64_t h = size * 0x9e3779b97f4a7c15ULL;

	h ^= (align + (atomic ? 1 : 0) * 2 + (reserved ? 1 : 0)) *
	     0xc2b2ae3d27d4eb4fULL;
	return h ^ (h >> 29);
}

/* The row of a failed request, added when new; NULL: out of memory. */
static struct percpu_fail *fail_row(struct percpu_stats *st, uint64_t size,
				    uint64_t align, bool atomic, bool reserved)
{
	uint64_t key = fail_key(size, align, atomic, reserved);
	size_t pos = SIZE_MAX;
	struct percpu_fail *f;
	uint32_t i;

	while ((i = u64_index_next(&st->fail_ix, key, &pos)) !=
	       U64_INDEX_NONE) {
		f = &st->fails[i];
		if (f->size == size && f->align == align &&
		    f->atomic == atomic && f->reserved == reserved)
			return f;
	}
	i = index_append(&st->fail_ix, (void **)&st->fails, &st->cap_fails,
			 &st->nr_fails, sizeof(*st->fails), key);
	if (i == U64_INDEX_NONE)
		return NULL;
	f = &st->fails[i];
	f->size = size;
	f->align = align;
	f->atomic = atomic;
	f->reserved = reserved;
	f->count = 0;
	return f;
}

/* A failed allocation, counted by its request. */
static void failure(struct percpu_stats *st, const struct kmem_event *ev,
		    uint64_t align)
{
	struct percpu_fail *f =
		fail_row(st, ev->bytes_req, align, ev->atomic, ev->reserved);

	st->sum.alloc_failures++;
	if (!f) {
		st->oom++;
		return;
	}
	f->count++;
}

static void percpu_alloc(struct percpu_stats *st, const struct kmem_event *ev)
{
	uint64_t cs = ev->has_call_site ? ev->call_site : 0;
	uint32_t site, pi;
	struct percpu_site *s;
	struct percpu_obj *p;

	if (!ev->ptr) {		/* no kernel traces this; a failure */
		failure(st, ev, ev->has_align ? ev->align : UINT64_MAX);
		return;
	}
	site = KMEM_SITE_GET(st, cs);
	if (site == U64_INDEX_NONE) {
		st->oom++;
		return;
	}
	pi = kmem_lc_entry(&st->lc, ev->ptr);
	if (pi == ADDR_NONE)
		return;
	p = percpu_obj_at(st, pi);
	if (kmem_lc_missed(&st->sum.lc, &p->h, p->bytes))
		kmem_lc_drop(&st->sum.lc, &st->sites[p->site].live,
			     &st->touched, &p->h, p->bytes);
	s = &st->sites[site];
	s->hits++;
	s->atomic += ev->atomic;
	s->reserved += ev->reserved;
	s->bytes_req += ev->bytes_req;
	s->bytes += ev->bytes_alloc;
	st->sum.allocs++;
	st->sum.bytes_req += ev->bytes_req;
	st->sum.bytes += ev->bytes_alloc;
	if (ev->has_bytes_alloc)
		st->sum.bytes_alloc += ev->bytes_alloc;
	else
		st->sum.size_bytes++;
	st->sum.no_call_site += !ev->has_call_site;
	st->sum.atomic += ev->atomic;
	st->sum.reserved += ev->reserved;

	kmem_obj_start(&p->h, ev, site, PERCPU_OBJ_LIVE);
	p->bytes = (uint32_t)ev->bytes_alloc;
	p->size = (uint32_t)ev->bytes_req;
	kmem_lc_live(&st->sum.lc, &s->live, &st->touched, &p->h,
		     ev->bytes_alloc);
	if (s->live_bytes > s->peak_bytes)
		s->peak_bytes = s->live_bytes;
	kmem_lc_tell(&st->lc, KMEM_MATCH_ALLOC, pi, &p->h, p->bytes);
}

static void percpu_free(struct percpu_stats *st, const struct kmem_event *ev)
{
	struct percpu_site *s;
	struct percpu_obj *p;
	uint64_t life;
	uint32_t pi;

	if (!ev->ptr)		/* free_percpu(NULL) returns before tracing */
		return;
	if (kmem_lc_free(&st->lc, &st->sum.lc, ev->ptr, &pi) !=
	    KMEM_FREE_MATCHED)
		return;
	p = percpu_obj_at(st, pi);
	s = &st->sites[p->site];
	life = kmem_obj_life(&p->h, ev->ts);
	kmem_lc_matched(&st->lc, &st->sum.lc, pi, &p->h, p->bytes);
	st->sum.cross_cpu_frees += ev->cpu != p->cpu;
	s->frees++;
	s->lifetime_sum += life;
	kmem_life_add(&st->life, p->site, life);
	kmem_lc_drop(&st->sum.lc, &s->live, &st->touched, &p->h, p->bytes);
}

/**
 * percpu_account - add one per-CPU allocator event to the statistics
 * @st: the statistics
 * @ev: a decoded KMEM_EV_PERCPU_* event
 *
 * Events of other kinds are ignored.  As for the slab allocator, an
 * allocation of a pointer still live counts as a missed free, a free of
 * a pointer already freed as a double free.
 */
void percpu_account(struct percpu_stats *st, const struct kmem_event *ev)
{
	switch (ev->kind) {
	case KMEM_EV_PERCPU_ALLOC:
		percpu_alloc(st, ev);
		break;
	case KMEM_EV_PERCPU_FREE:
		percpu_free(st, ev);
		break;
	case KMEM_EV_PERCPU_FAIL:
		failure(st, ev, ev->has_align ? ev->align : UINT64_MAX);
		break;
	case KMEM_EV_PERCPU_CHUNK_NEW:
		st->sum.chunks_created++;
		break;
	case KMEM_EV_PERCPU_CHUNK_DEL:
		st->sum.chunks_destroyed++;
		break;
	default:
		break;
	}
}

/**
 * percpu_merge_tables - add another input's call sites and failed requests
 * @t: the merged statistics
 * @f: the input's, finished
 * @m: its call sites in @t's terms
 *
 * Return: 0, or -1 when memory ran out.
 */
int percpu_merge_tables(struct percpu_stats *t, const struct percpu_stats *f,
			const struct kmem_site_map *m)
{
	size_t i;

	if (KMEM_SITES_MERGE(t, f, sizeof(*t->sites), m))
		return -1;
	for (i = 0; i < f->nr_fails; i++) {
		const struct percpu_fail *x = &f->fails[i];
		struct percpu_fail *d =
			fail_row(t, x->size, x->align, x->atomic, x->reserved);

		if (!d)
			return -1;
		d->count += x->count;
	}
	return 0;
}
