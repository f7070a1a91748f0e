// SPDX-License-Identifier: LGPL-2.1
/*
 * Slab allocator statistics (see slab.h and
 * Documentation/kmem-stat-definitions.txt).
 *
 * The per-event functions only look keys up in hash indexes and append
 * to arrays that double when full: no per-event allocation, no string
 * formatting, no linear search.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slab.h"

#define UNNAMED "(unnamed)"

/**
 * slab_stats_init - set up empty slab statistics
 * @st: the statistics
 */
void slab_stats_init(struct slab_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->rows = true;
	st->unnamed = SLAB_NO_CACHE;
	addr_table_init(&st->objs, sizeof(struct slab_obj_row));
	addr_table_init(&st->freed_only, sizeof(uint64_t));
}

/**
 * slab_stats_keep_rows - keep the per-allocation table, or not
 * @st: the statistics, before their first event
 * @rows: false: only what matching frees needs, 32 bytes an address
 *	instead of 72, and no per-allocation rows
 */
void slab_stats_keep_rows(struct slab_stats *st, bool rows)
{
	st->rows = rows;
	addr_table_init(&st->objs, rows ? sizeof(struct slab_obj_row) :
					  sizeof(struct slab_obj));
}

/**
 * slab_stats_release - free everything slab_account() allocated
 * @st: the statistics
 */
void slab_stats_release(struct slab_stats *st)
{
	u64_index_free(&st->site_ix);
	u64_index_free(&st->cache_ix);
	u64_index_free(&st->kmalloc_ix);
	u64_index_free(&st->anom_ix);
	free(st->anoms);
	free(st->sites);
	addr_table_release(&st->objs);
	addr_table_release(&st->freed_only);
	free(st->caches);
	free(st->names);
	kmem_life_release(&st->life);
	memset(st, 0, sizeof(*st));
}

static uint32_t get_site(struct slab_stats *st, uint64_t call_site)
{
	bool added;
	uint32_t i = index_get(&st->site_ix, (void **)&st->sites,
			       &st->cap_sites, &st->nr_sites,
			       sizeof(*st->sites), call_site, &added);

	if (added && i != U64_INDEX_NONE)
		st->sites[i].call_site = call_site;
	return i;
}

static uint64_t name_hash(const char *s, unsigned int len)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	unsigned int i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
	return h;
}

static uint32_t find_named(const struct slab_stats *st, uint64_t key,
			   const char *name, unsigned int len)
{
	size_t pos = SIZE_MAX;
	uint32_t i;

	while ((i = u64_index_next(&st->cache_ix, key, &pos)) !=
	       U64_INDEX_NONE) {
		const struct slab_cache *c = &st->caches[i];

		if (c->name_len == len &&
		    !memcmp(st->names + c->name_off, name, len))
			return i;
	}
	return U64_INDEX_NONE;
}

/* Copy a name into the arena, NUL-terminated. */
static int intern(struct slab_stats *st, const char *name, unsigned int len,
		  uint32_t *off)
{
	while (st->names_len + len + 1 > st->names_cap) {
		size_t n = st->names_cap ? st->names_cap * 2 : 1024;
		char *p = realloc(st->names, n);

		if (!p)
			return -1;
		st->names = p;
		st->names_cap = n;
	}
	memcpy(st->names + st->names_len, name, len);
	st->names[st->names_len + len] = '\0';
	*off = (uint32_t)st->names_len;
	st->names_len += len + 1;
	return 0;
}


static uint32_t get_named_cache(struct slab_stats *st, const char *name,
				unsigned int len)
{
	uint64_t key = name_hash(name, len);
	uint32_t i = find_named(st, key, name, len);
	uint32_t off;

	if (i != U64_INDEX_NONE)
		return i;
	if (intern(st, name, len, &off))
		return U64_INDEX_NONE;
	i = index_append(&st->cache_ix, (void **)&st->caches, &st->cap_caches,
			 &st->nr_caches, sizeof(*st->caches), key);
	if (i != U64_INDEX_NONE) {
		st->caches[i].name_off = off;
		st->caches[i].name_len = len;
	}
	return i;
}

/* kmalloc events name no cache: "kmalloc-SIZE", built once per size. */
static uint32_t get_kmalloc_cache(struct slab_stats *st, uint64_t size)
{
	uint32_t i = u64_index_find(&st->kmalloc_ix, size);
	char name[32];
	int n;

	if (i != U64_INDEX_NONE)
		return i;
	n = snprintf(name, sizeof(name), "kmalloc-%llu",
		     (unsigned long long)size);
	i = get_named_cache(st, name, (unsigned int)n);
	if (i != U64_INDEX_NONE && u64_index_insert(&st->kmalloc_ix, size, i))
		return U64_INDEX_NONE;
	return i;
}

static uint32_t get_cache(struct slab_stats *st, const struct kmem_event *ev)
{
	uint32_t i;

	if (ev->name)
		return get_named_cache(st, ev->name, ev->name_len);
	if (!ev->is_cache)
		return get_kmalloc_cache(st, ev->bytes_alloc);
	i = get_named_cache(st, UNNAMED, sizeof(UNNAMED) - 1);
	if (i != U64_INDEX_NONE) {
		st->caches[i].unnamed = true;
		st->unnamed = i;
	}
	return i;
}

/* The anomaly row of a call site; NULL when memory ran out (counted). */
static struct slab_anomaly *anomaly(struct slab_stats *st, uint64_t cs)
{
	bool added;
	uint32_t i = index_get(&st->anom_ix, (void **)&st->anoms,
			       &st->cap_anoms, &st->nr_anoms,
			       sizeof(*st->anoms), cs, &added);

	if (i == U64_INDEX_NONE) {
		st->oom++;
		return NULL;
	}
	st->anoms[i].call_site = cs;
	return &st->anoms[i];
}

static void double_free(struct slab_stats *st, const struct kmem_event *ev)
{
	struct slab_anomaly *a = anomaly(st, ev->call_site);

	st->sum.double_frees++;
	if (a)
		a->double_frees++;
}

/* One more in a per-address count, which stops at 2^32 - 1. */
static void inc32(struct slab_stats *st, uint32_t *v)
{
	if (*v == UINT32_MAX)
		st->saturated++;
	else
		(*v)++;
}

static uint32_t obj_cache(const struct slab_stats *st,
			  const struct slab_obj *p)
{
	return p->flags & SLAB_OBJ_UNNAMED ? st->unnamed : p->cache;
}

/* The object at @p stops being live (freed, or its free was missed). */
static void drop_live(struct slab_stats *st, struct slab_obj *p)
{
	struct slab_site *s = &st->sites[p->site];
	uint32_t cache = obj_cache(st, p);

	s->live_count--;
	s->live_bytes -= p->bytes;
	kmem_touch(&st->touched, p->site);
	if (cache != SLAB_NO_CACHE) {
		st->caches[cache].live_count--;
		st->caches[cache].live_bytes -= p->bytes;
	}
	st->sum.live_count--;
	st->sum.live_bytes -= p->bytes;
	p->flags &= (uint16_t)~SLAB_OBJ_LIVE;
}

static void make_live(struct slab_stats *st, uint32_t pi, uint32_t site,
		      uint32_t cache, const struct kmem_event *ev)
{
	struct slab_obj *p = slab_obj_at(st, pi);
	struct slab_site *s = &st->sites[site];

	p->ts = ev->ts;
	p->bytes = (uint32_t)ev->bytes_alloc;
	p->site = site;
	p->cpu = (uint16_t)ev->cpu;
	p->flags = SLAB_OBJ_LIVE | (ev->accounted ? SLAB_OBJ_MEMCG : 0);
	if (cache != SLAB_NO_CACHE && cache == st->unnamed) {
		p->flags |= SLAB_OBJ_UNNAMED;
		p->cache = (uint32_t)ev->bytes_req;
	} else {
		p->cache = cache;
	}
	if (st->rows) {
		struct slab_obj_row *r = slab_row_at(st, pi);

		inc32(st, &r->hits);
		r->bytes_req += ev->bytes_req;
		r->bytes_alloc += ev->bytes_alloc;
	}

	s->live_count++;
	s->live_bytes += ev->bytes_alloc;
	if (s->live_bytes > s->peak_bytes)
		s->peak_bytes = s->live_bytes;
	kmem_touch(&st->touched, site);
	if (cache != SLAB_NO_CACHE) {
		st->caches[cache].live_count++;
		st->caches[cache].live_bytes += ev->bytes_alloc;
	}
	st->sum.live_count++;
	st->sum.live_bytes += ev->bytes_alloc;
	kmem_match_set(st->match, KMEM_MATCH_ALLOC, pi, site, p->cpu, p->ts,
		       p->bytes);
}

static void slab_alloc(struct slab_stats *st, const struct kmem_event *ev)
{
	uint32_t site = get_site(st, ev->call_site), cache, pi;
	struct slab_site *s;

	if (site == U64_INDEX_NONE)
		goto oom;
	s = &st->sites[site];
	if (!ev->ptr) {
		s->failures++;
		st->sum.alloc_failures++;
		return;
	}
	s->hits++;
	s->bytes_req += ev->bytes_req;
	s->bytes_alloc += ev->bytes_alloc;
	st->sum.acct[ev->acct_how]++;	/* below 3: set by kmem_decode() */
	if (ev->accounted) {
		s->memcg_bytes += ev->bytes_alloc;
		st->sum.memcg_allocs++;
		st->sum.memcg_bytes += ev->bytes_alloc;
	}
	st->sum.node_requests += ev->node >= 0;
	if (st->numa && ev->node >= 0 &&
	    kmem_numa_cpu(st->numa, ev->cpu) >= 0 &&
	    kmem_numa_cpu(st->numa, ev->cpu) != ev->node)
		st->sum.cross_node_allocs++;
	st->sum.allocs++;
	st->sum.bytes_req += ev->bytes_req;
	st->sum.bytes_alloc += ev->bytes_alloc;

	if (ev->ptr <= KMEM_ZERO_SIZE_PTR) {	/* served by no cache */
		st->sum.zero_size_allocs++;
		return;
	}
	cache = get_cache(st, ev);
	if (cache != SLAB_NO_CACHE) {
		st->caches[cache].allocs++;
		st->caches[cache].bytes_req += ev->bytes_req;
		st->caches[cache].bytes_alloc += ev->bytes_alloc;
		if (ev->accounted)
			st->caches[cache].memcg_bytes += ev->bytes_alloc;
	}
	pi = addr_table_find(&st->objs, ev->ptr);
	if (pi == ADDR_NONE) {
		pi = addr_table_add(&st->objs, ev->ptr);
		if (pi == ADDR_NONE)
			goto oom;
	} else if (slab_obj_at(st, pi)->flags & SLAB_OBJ_LIVE) {
		struct slab_obj *p = slab_obj_at(st, pi);
		struct slab_anomaly *a =
			anomaly(st, st->sites[p->site].call_site);

		st->sum.missed_frees++;
		st->sum.missed_free_bytes += p->bytes;
		if (a) {
			a->missed++;
			a->missed_bytes += p->bytes;
		}
		drop_live(st, p);
	}
	make_live(st, pi, site, cache, ev);
	return;
oom:
	st->oom++;
}

/* The object's share of a cache's allocation counts (@sign: +1 or -1). */
static void cache_add(struct slab_cache *c, const struct slab_obj *p,
		      uint64_t bytes_req, int sign)
{
	c->allocs += sign;
	c->bytes_req += sign * (int64_t)bytes_req;
	c->bytes_alloc += sign * (int64_t)p->bytes;
	c->live_count += sign;
	c->live_bytes += sign * (int64_t)p->bytes;
	if (p->flags & SLAB_OBJ_MEMCG)
		c->memcg_bytes += sign * (int64_t)p->bytes;
}

/*
 * Kernels 5.12 to 6.17 name the cache in kmem_cache_free but not in
 * kmem_cache_alloc: the free tells which cache an "(unnamed)" object
 * belonged to, so the object moves there.
 */
static void name_object(struct slab_stats *st, struct slab_obj *p,
			const struct kmem_event *ev)
{
	uint32_t to;

	if (!ev->name || !(p->flags & SLAB_OBJ_UNNAMED))
		return;
	to = get_named_cache(st, ev->name, ev->name_len);
	if (to == SLAB_NO_CACHE || to == st->unnamed)
		return;
	cache_add(&st->caches[st->unnamed], p, p->cache, -1);
	cache_add(&st->caches[to], p, p->cache, 1);
	p->flags &= (uint16_t)~SLAB_OBJ_UNNAMED;
	p->cache = to;
}

static void matched_free(struct slab_stats *st, uint32_t pi,
			 const struct kmem_event *ev)
{
	struct slab_obj *p = slab_obj_at(st, pi);
	struct slab_site *s = &st->sites[p->site];
	uint64_t life = ev->ts > p->ts ? ev->ts - p->ts : 0;
	bool cross = ev->cpu != p->cpu;
	uint32_t cache;

	kmem_match_set(st->match, KMEM_MATCH_FREE, pi, p->site, p->cpu, p->ts,
		       p->bytes);
	st->sum.alloc_freed_count++;
	st->sum.alloc_freed_bytes += p->bytes;
	st->sum.cross_cpu_frees += cross;
	s->frees++;
	s->pingpong += cross;
	s->lifetime_sum += life;
	kmem_life_add(&st->life, p->site, life);
	if (st->rows) {
		struct slab_obj_row *r = slab_row_at(st, pi);

		inc32(st, &r->frees);
		if (cross)
			inc32(st, &r->pingpong);
		r->lifetime_sum += life;
	}
	name_object(st, p, ev);
	cache = obj_cache(st, p);
	if (cache != SLAB_NO_CACHE)
		st->caches[cache].frees++;
	drop_live(st, p);
}

/* A free of a pointer never allocated in the trace. */
static void free_only(struct slab_stats *st, const struct kmem_event *ev)
{
	struct slab_anomaly *a;
	uint32_t cache;

	/* remembered as freed, so that a second free is double */
	if (addr_table_find(&st->freed_only, ev->ptr) != ADDR_NONE) {
		double_free(st, ev);
		return;
	}
	st->sum.free_only++;
	a = anomaly(st, ev->call_site);
	if (a)
		a->free_only++;
	if (addr_table_add(&st->freed_only, ev->ptr) == ADDR_NONE)
		st->oom++;
	if (!ev->name)
		return;
	cache = get_named_cache(st, ev->name, ev->name_len);
	if (cache != SLAB_NO_CACHE)
		st->caches[cache].free_only++;
}

static void slab_free(struct slab_stats *st, const struct kmem_event *ev)
{
	uint32_t pi;

	if (ev->ptr <= KMEM_ZERO_SIZE_PTR) {
		st->sum.null_frees++;
		return;
	}
	st->sum.frees++;
	pi = addr_table_find(&st->objs, ev->ptr);
	if (pi == ADDR_NONE) {
		free_only(st, ev);
		return;
	}
	if (!(slab_obj_at(st, pi)->flags & SLAB_OBJ_LIVE)) {
		double_free(st, ev);
		return;
	}
	matched_free(st, pi, ev);
}

/**
 * slab_account - add one slab event to the statistics
 * @st: the statistics
 * @ev: a decoded KMEM_EV_SLAB_ALLOC or KMEM_EV_SLAB_FREE event
 *
 * Events of other kinds are ignored.  Events are expected in time
 * order; an allocation of a pointer that is still live counts as a
 * missed free, a free of a pointer already freed as a double free.
 */
void slab_account(struct slab_stats *st, const struct kmem_event *ev)
{
	if (ev->kind == KMEM_EV_SLAB_ALLOC)
		slab_alloc(st, ev);
	else if (ev->kind == KMEM_EV_SLAB_FREE)
		slab_free(st, ev);
}

/**
 * slab_cache_name - the display name of a cache row
 * @st: the statistics
 * @c: a cache of @st
 *
 * Return: the cache's name, e.g. "dentry", "kmalloc-64", "(unnamed)".
 */
const char *slab_cache_name(const struct slab_stats *st,
			    const struct slab_cache *c)
{
	return st->names + c->name_off;
}

/**
 * slab_alloc_only_count - allocations whose free was not traced
 * @s: the summary
 *
 * Return: allocs - allocations matched by a free.
 */
uint64_t slab_alloc_only_count(const struct slab_summary *s)
{
	return s->allocs - s->alloc_freed_count;
}

/**
 * slab_alloc_only_bytes - bytes of the allocations whose free was not traced
 * @s: the summary
 *
 * Return: bytes allocated - bytes freed.
 */
uint64_t slab_alloc_only_bytes(const struct slab_summary *s)
{
	return s->bytes_alloc - s->alloc_freed_bytes;
}
