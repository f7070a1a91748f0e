// SPDX-License-Identifier: LGPL-2.1
/*
 * Slab allocator statistics (see slab.h and
 * Documentation/kmem-stat-definitions.txt).
 *
 * The per-event functions only look keys up in hash indexes and append
 * to arrays that double when full: no per-event allocation, no string
 * formatting, no linear search.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event/events.h"
#include "sites.h"
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
	kmem_lc_init(&st->lc, sizeof(struct slab_obj_row));
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
	kmem_lc_release(&st->lc);
	free(st->caches);
	free(st->names);
	kmem_life_release(&st->life);
	memset(st, 0, sizeof(*st));
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

/*
 * A name's words for name_memo: with its length they are the whole name
 * up to 16 bytes (the first and last 8 bytes, or 4, or three bytes), and
 * its first and last 8 bytes beyond that.  A record names its cache each
 * time: hashing the whole name and walking the index was a tenth of the
 * counting of a slab-heavy trace, and a memcmp() call per record the
 * most of what was left.
 */
static inline void name_words(const char *name, unsigned int len, uint64_t w[2])
{
	uint32_t x, y;

	if (len >= 8) {
		memcpy(&w[0], name, 8);
		memcpy(&w[1], name + len - 8, 8);
	} else if (len >= 4) {
		memcpy(&x, name, 4);
		memcpy(&y, name + len - 4, 4);
		w[0] = x;
		w[1] = y;
	} else {
		w[0] = len ? (unsigned char)name[0] |
				       (unsigned char)name[len / 2] << 8 |
				       (unsigned char)name[len - 1] << 16
			   : 0;
		w[1] = 0;
	}
}

/*
 * Is @e the memo of these bytes?  Its bytes, of the same length, are
 * those of its cache's name, with its NUL when @len holds one more
 * (memo_set() keeps no other): the words give the first and last 8,
 * and the interned name (NUL terminated) the rest.
 */
static inline bool memo_is(const struct slab_stats *st,
			   const struct slab_name_memo *e, const char *name,
			   unsigned int len, const uint64_t w[2])
{
	return e->idx1 && e->len == len && e->w[0] == w[0] && e->w[1] == w[1] &&
	       (len <= 16 ||
		!memcmp(st->names + st->caches[e->idx1 - 1].name_off + 8,
			name + 8, len - 16));
}

static void memo_set(struct slab_name_memo *e, unsigned int len,
		     const uint64_t w[2], uint32_t i)
{
	e->w[0] = w[0];
	e->w[1] = w[1];
	e->len = len;
	e->idx1 = i + 1;
}

/*
 * Bytes not in name_memo: their cache, found or added, by the name
 * before their first NUL; memoized when the bytes are that name, with
 * or without its NUL (not when other bytes follow the NUL).
 */
static __attribute__((noinline)) uint32_t
named_cache_slow(struct slab_stats *st, struct slab_name_memo *e,
		 const char *bytes, unsigned int n, const uint64_t w[2])
{
	const char *end = memchr(bytes, '\0', n);
	unsigned int len = end ? (unsigned int)(end - bytes) : n;
	uint64_t key = name_hash(bytes, len);
	uint32_t i = find_named(st, key, bytes, len), off;

	if (i == U64_INDEX_NONE) {
		if (intern(st, bytes, len, &off))
			goto oom;
		i = index_append(&st->cache_ix, (void **)&st->caches,
				 &st->cap_caches, &st->nr_caches,
				 sizeof(*st->caches), key);
		if (i == U64_INDEX_NONE)
			goto oom;
		st->caches[i].name_off = off;
		st->caches[i].name_len = len;
	}
	if (n <= len + 1)
		memo_set(e, n, w, i);
	return i;
oom: /* the event's cache row misses it: said as the oom's */
	st->oom++;
	return SLAB_NO_CACHE;
}

/*
 * The cache named by the @n bytes at @bytes: the name is what comes
 * before their first NUL, or all of them (a record's name field, or a
 * name of ours).  Inline: once a slab allocation, the per-record path;
 * a record's bytes are most often found in name_memo whole, NUL and
 * all, without looking for the NUL.
 */
static inline uint32_t get_named_cache(struct slab_stats *st, const char *bytes,
				       unsigned int n)
{
	struct slab_name_memo *e;
	uint64_t w[2];

	name_words(bytes, n, w);
	e = &st->name_memo[((w[0] ^ (w[1] << 29 | w[1] >> 35) ^ n) *
			    0x9e3779b97f4a7c15ULL) >>
			   (64 - SLAB_NAME_MEMO_BITS)];
	if (memo_is(st, e, bytes, n, w))
		return e->idx1 - 1;
	return named_cache_slow(st, e, bytes, n, w);
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
	if (i != U64_INDEX_NONE && u64_index_insert(&st->kmalloc_ix, size, i)) {
		st->oom++;
		return SLAB_NO_CACHE;
	}
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
	uint32_t i =
		kmem_site_get(&st->anom_ix, (void **)&st->anoms, &st->cap_anoms,
			      &st->nr_anoms, sizeof(*st->anoms), cs);

	if (i == U64_INDEX_NONE) {
		st->oom++;
		return NULL;
	}
	return &st->anoms[i];
}

/* A double free (counted in the summary): its call site's row. */
static void double_free(struct slab_stats *st, const struct kmem_event *ev)
{
	struct slab_anomaly *a = anomaly(st, ev->call_site);

	if (a)
		a->double_frees++;
}

static uint32_t obj_cache(const struct slab_stats *st,
			  const struct slab_obj *p)
{
	return p->flags & SLAB_OBJ_UNNAMED ? st->unnamed : p->cache;
}

/* The object at @p stops being live (freed, or its free was missed). */
static inline void drop_live(struct slab_stats *st, struct slab_obj *p)
{
	uint32_t cache = obj_cache(st, p);

	if (cache != SLAB_NO_CACHE) {
		st->caches[cache].live_count--;
		st->caches[cache].live_bytes -= p->bytes;
	}
	kmem_lc_drop(&st->sum.lc, &st->sites[p->site].live, &st->touched, &p->h,
		     p->bytes);
}

static void make_live(struct slab_stats *st, uint32_t pi, uint32_t site,
		      uint32_t cache, const struct kmem_event *ev)
{
	struct slab_obj *p = slab_obj_at(st, pi);
	struct slab_site *s = &st->sites[site];

	kmem_obj_start(&p->h, ev, site,
		       SLAB_OBJ_LIVE | (ev->accounted ? SLAB_OBJ_MEMCG : 0));
	p->bytes = (uint32_t)ev->bytes_alloc;
	if (cache != SLAB_NO_CACHE && cache == st->unnamed) {
		p->flags |= SLAB_OBJ_UNNAMED;
		p->cache = (uint32_t)ev->bytes_req;
	} else {
		p->cache = cache;
	}
	if (st->rows) {
		struct slab_obj_row *r = slab_row_at(st, pi);

		kmem_inc32(&st->saturated, &r->hits);
		r->bytes_req += ev->bytes_req;
		r->bytes_alloc += ev->bytes_alloc;
	}
	kmem_lc_live(&st->sum.lc, &s->live, &st->touched, &p->h,
		     ev->bytes_alloc);
	if (s->live_bytes > s->peak_bytes)
		s->peak_bytes = s->live_bytes;
	if (cache != SLAB_NO_CACHE) {
		st->caches[cache].live_count++;
		st->caches[cache].live_bytes += ev->bytes_alloc;
	}
	kmem_lc_tell(&st->lc, KMEM_MATCH_ALLOC, pi, &p->h, p->bytes);
}

/* One more allocation of a call site from @cache. */
static inline void site_cache(struct slab_site *s, uint32_t cache,
			      uint32_t caches)
{
	if (!s->caches) {
		s->cache = cache;
		s->caches = caches;
	} else if (s->cache != cache || caches > 1) {
		s->caches = 2;
	}
}

static void slab_alloc(struct slab_stats *st, const struct kmem_event *ev)
{
	uint32_t site = KMEM_SITE_GET(st, ev->call_site), cache, pi;
	struct slab_site *s;
	struct slab_obj *p;

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
		site_cache(&st->sites[site], cache, 1);
		st->caches[cache].allocs++;
		st->caches[cache].bytes_req += ev->bytes_req;
		st->caches[cache].bytes_alloc += ev->bytes_alloc;
		if (ev->accounted)
			st->caches[cache].memcg_bytes += ev->bytes_alloc;
	}
	pi = kmem_lc_entry(&st->lc, ev->ptr);
	if (pi == ADDR_NONE)
		return;
	p = slab_obj_at(st, pi);
	if (kmem_lc_missed(&st->sum.lc, &p->h, p->bytes)) {
		struct slab_anomaly *a =
			anomaly(st, st->sites[p->site].call_site);

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
	p->flags &= (uint8_t)~SLAB_OBJ_UNNAMED;
	p->cache = to;
}

static void matched_free(struct slab_stats *st, uint32_t pi,
			 const struct kmem_event *ev)
{
	struct slab_obj *p = slab_obj_at(st, pi);
	struct slab_site *s = &st->sites[p->site];
	uint64_t life = kmem_obj_life(&p->h, ev->ts);
	bool cross = ev->cpu != p->cpu;
	uint32_t cache;

	kmem_lc_matched(&st->lc, &st->sum.lc, pi, &p->h, p->bytes);
	st->sum.cross_cpu_frees += cross;
	s->frees++;
	s->pingpong += cross;
	s->lifetime_sum += life;
	kmem_life_add(&st->life, p->site, life);
	if (st->rows) {
		struct slab_obj_row *r = slab_row_at(st, pi);

		kmem_inc32(&st->saturated, &r->frees);
		if (cross)
			kmem_inc32(&st->saturated, &r->pingpong);
		r->lifetime_sum += life;
	}
	name_object(st, p, ev);
	cache = obj_cache(st, p);
	if (cache != SLAB_NO_CACHE)
		st->caches[cache].frees++;
	drop_live(st, p);
}

/*
 * A free of a pointer never allocated in the trace (counted in the
 * summary): its call site's row, and its cache's when it names one.
 */
static void free_only(struct slab_stats *st, const struct kmem_event *ev)
{
	struct slab_anomaly *a = anomaly(st, ev->call_site);
	uint32_t cache;

	if (a)
		a->free_only++;
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
	switch (kmem_lc_free(&st->lc, &st->sum.lc, ev->ptr, &pi)) {
	case KMEM_FREE_MATCHED:
		matched_free(st, pi, ev);
		break;
	case KMEM_FREE_ONLY:
		free_only(st, ev);
		break;
	case KMEM_FREE_DOUBLE:
		double_free(st, ev);
		break;
	}
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
	if (ev->kind == KMEM_EV_SLAB_ALLOC) {
		st->sum.records[SLAB_REC_KMALLOC + ev->is_cache]++;
		slab_alloc(st, ev);
	} else if (ev->kind == KMEM_EV_SLAB_FREE) {
		st->sum.records[SLAB_REC_KFREE + ev->is_cache]++;
		slab_free(st, ev);
	}
}

/**
 * slab_unrecorded - the free events the allocations lack
 * @st: the statistics
 *
 * kmalloc's objects end in kfree, kmem_cache_alloc's in
 * kmem_cache_free: allocations of one kind with no record of its free
 * event mean that event was not recorded (trace-cmd extract saves every
 * format, so the formats cannot tell), and what is live at the end is
 * then unknown.
 *
 * Return: the set of those free events (KMEM_SLOT_BIT()), 0 for none.
 */
uint64_t slab_unrecorded(const struct slab_stats *st)
{
	const uint64_t *n = st->sum.records;
	uint64_t set = 0;

	if (n[SLAB_REC_KMALLOC] && !n[SLAB_REC_KFREE])
		set |= KMEM_SLOT_BIT(KMEM_SLOT_KFREE);
	if (n[SLAB_REC_CACHE_ALLOC] && !n[SLAB_REC_CACHE_FREE])
		set |= KMEM_SLOT_BIT(KMEM_SLOT_CACHE_FREE);
	return set;
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

/* Add another input's cache row to the row of its name: its number. */
static uint32_t merge_cache(struct slab_stats *t, const struct slab_stats *f,
			    const struct slab_cache *c)
{
	uint32_t k = get_named_cache(t, slab_cache_name(f, c), c->name_len);
	struct slab_cache *d;

	if (k == U64_INDEX_NONE)
		return k;
	d = &t->caches[k];
	if (c->unnamed) {
		d->unnamed = true;
		t->unnamed = k;
	}
	d->allocs += c->allocs;
	d->frees += c->frees;
	d->free_only += c->free_only;
	d->bytes_req += c->bytes_req;
	d->bytes_alloc += c->bytes_alloc;
	d->live_count += c->live_count;
	d->live_bytes += c->live_bytes;
	d->memcg_bytes += c->memcg_bytes;
	return k;
}

/**
 * slab_merge_tables - add another input's call sites, caches and anomalies
 * @t: the merged statistics
 * @f: the input's, finished
 * @m: its call sites in @t's terms
 *
 * Rows of one key are summed, the peak live bytes too (the sum of each
 * input's peak: what they hold at most if their peaks coincide); caches
 * join by name, and a call site's one cache stays one if it is the same
 * by name.  Objects are not merged: no address is in two inputs.
 *
 * Return: 0, or -1 when memory ran out.
 */
int slab_merge_tables(struct slab_stats *t, const struct slab_stats *f,
		      const struct kmem_site_map *m)
{
	uint32_t *to = calloc(f->nr_caches + 1, sizeof(*to));
	int ret = -1;
	size_t i;
	uint32_t k;

	if (!to || KMEM_SITES_MERGE(t, f, offsetof(struct slab_site, cache), m))
		goto out;
	for (i = 0; i < f->nr_caches; i++)
		if ((to[i] = merge_cache(t, f, &f->caches[i])) ==
		    U64_INDEX_NONE)
			goto out;
	for (i = 0; i < f->nr_sites; i++) {
		const struct slab_site *x = &f->sites[i];

		k = u64_index_find(&t->site_ix, kmem_map_site(m, x->call_site));
		if (k != U64_INDEX_NONE && x->caches && x->cache < f->nr_caches)
			site_cache(&t->sites[k], to[x->cache], x->caches);
	}
	for (i = 0; i < f->nr_anoms; i++) {
		k = kmem_site_add(
			&t->anom_ix, (void **)&t->anoms, &t->cap_anoms,
			&t->nr_anoms, sizeof(*t->anoms), sizeof(*t->anoms),
			kmem_map_site(m, f->anoms[i].call_site), &f->anoms[i]);
		if (k == U64_INDEX_NONE)
			goto out;
	}
	ret = 0;
out:
	free(to);
	return ret;
}
