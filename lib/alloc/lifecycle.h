/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * One object lifecycle for every allocator: an address is allocated
 * (a live object there already: its free was missed), freed (matched to
 * the live object, or freed-only, or a double free), and counted live
 * meanwhile, in the summary and in its call site's row.  slab.c, page.c
 * and percpu.c keep only what is theirs around these steps (caches and
 * anomaly rows, orders and pending stacks, failures and chunks).
 *
 * The steps are static inline: one event runs them once, and they cost
 * what the allocator's own copies did.  The definitions are in
 * Documentation/kmem-stat-definitions.txt.
 */
#ifndef KMEM_LIFECYCLE_H
#define KMEM_LIFECYCLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/addrtab.h"
#include "event/kmem_event.h"
#include "match.h"
#include "touched.h"

/*
 * The head of every allocator's per-address object (24 bytes): what
 * matching a free to its allocation needs.
 */
struct kmem_obj {
	uint64_t key;  /* the address: pointer, page frame */
	uint64_t ts;   /* when the object was allocated */
	uint32_t site; /* its call-site row; U64_INDEX_NONE: not yet */
	uint16_t cpu;  /* the allocating CPU */
	uint8_t flags; /* KMEM_OBJ_LIVE, then the allocator's bits */
	uint8_t aux;   /* the allocator's */
};

#define KMEM_OBJ_LIVE 1 /* not freed yet; allocator bits from 2 */

/*
 * KMEM_OBJ_HEAD(key, aux) - struct kmem_obj as an object's first member
 * "h", its members reachable by name too, the key and aux ones by the
 * allocator's names for them (ptr, pfn, border): the kernel's
 * struct_group().
 */
#define KMEM_OBJ_HEAD(KEY, AUX)                                                \
	union {                                                                \
		struct kmem_obj h;                                             \
		struct {                                                       \
			uint64_t KEY;                                          \
			uint64_t ts;                                           \
			uint32_t site;                                         \
			uint16_t cpu;                                          \
			uint8_t flags;                                         \
			uint8_t AUX;                                           \
		};                                                             \
	}

/* The counters every allocator's summary has (all u64: they merge). */
#define KMEM_LC_COUNTERS                                                       \
	uint64_t allocs;                                                       \
	uint64_t frees;                                                        \
	uint64_t alloc_freed_count; /* allocations matched by a free */        \
	uint64_t alloc_freed_bytes;                                            \
	uint64_t free_only; /* frees of addresses never allocated */           \
	uint64_t double_frees;                                                 \
	uint64_t missed_frees; /* allocation of a live address */              \
	uint64_t missed_free_bytes;                                            \
	uint64_t live_count;                                                   \
	uint64_t live_bytes

struct kmem_lc_counts {
	KMEM_LC_COUNTERS;
};

/* KMEM_LC_COUNTS - struct kmem_lc_counts "lc" in a summary, by name too */
#define KMEM_LC_COUNTS                                                         \
	union {                                                                \
		struct kmem_lc_counts lc;                                      \
		struct {                                                       \
			KMEM_LC_COUNTERS;                                      \
		};                                                             \
	}

/* What is live of a call site's allocations. */
struct kmem_site_live {
	uint64_t live_count;
	uint64_t live_bytes;
};

/* KMEM_SITE_LIVE - struct kmem_site_live "live" in a site row, by name too */
#define KMEM_SITE_LIVE                                                         \
	union {                                                                \
		struct kmem_site_live live;                                    \
		struct {                                                       \
			uint64_t live_count;                                   \
			uint64_t live_bytes;                                   \
		};                                                             \
	}

/*
 * What a call-site row holds of the lifecycle in an allocator with
 * lifetimes keyed by the call site alone (per-CPU, vmalloc): the key
 * first (sites.h), the allocations and their bytes (the allocator's, as
 * its summary counts them), the matched frees and lifetimes, what is
 * live and its peak.
 */
#define KMEM_LC_SITE_FIELDS                                                    \
	uint64_t call_site;                                                    \
	uint64_t hits;	       /* allocations */                               \
	uint64_t bytes;	       /* ... their bytes */                           \
	uint64_t frees;	       /* traced frees of objects allocated here */    \
	uint64_t lifetime_sum; /* sum of (free ts - alloc ts) */               \
	KMEM_SITE_LIVE;                                                        \
	uint64_t peak_bytes /* highest live_bytes seen */

struct kmem_lc_site {
	KMEM_LC_SITE_FIELDS;
};

/*
 * KMEM_LC_SITE - struct kmem_lc_site "lc" as a site row's first member,
 * its members reachable by name too: the report's shared call-site
 * columns (render/lc_cols.h) read them at the same offsets in every
 * such row.
 */
#define KMEM_LC_SITE                                                           \
	union {                                                                \
		struct kmem_lc_site lc;                                        \
		struct {                                                       \
			KMEM_LC_SITE_FIELDS;                                   \
		};                                                             \
	}

/*
 * An allocator's objects and what it counts of them besides its summary.
 * KMEM_LC puts it in the allocator's statistics as "lc", its members
 * reachable by name too (st->objs, st->oom).
 */
#define KMEM_LC_FIELDS                                                         \
	struct addr_table objs;	      /* the objects, by address */            \
	struct addr_table freed_only; /* freed, never allocated here */        \
	struct kmem_match *match;     /* NULL, or told each object's fate */   \
	struct kmem_match told;	      /* @match for the folded stacks */       \
	uint64_t oom;		      /* events dropped: out of memory */      \
	uint64_t saturated	      /* per-address counts at 2^32-1 */

struct kmem_lc {
	KMEM_LC_FIELDS;
};

#define KMEM_LC                                                                \
	union {                                                                \
		struct kmem_lc lc;                                             \
		struct {                                                       \
			KMEM_LC_FIELDS;                                        \
		};                                                             \
	}

/* What a free was. */
enum kmem_free_kind {
	KMEM_FREE_MATCHED, /* of a live object */
	KMEM_FREE_ONLY,	   /* of an address never allocated in the trace */
	KMEM_FREE_DOUBLE,  /* of an address freed already */
};

/**
 * kmem_add_u64s - add counters word by word
 * @to: the total
 * @from: what to add
 * @n: how many words
 */
static inline void kmem_add_u64s(uint64_t *to, const uint64_t *from, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		to[i] += from[i];
}

/* KMEM_ADD_COUNTERS(to, from) - add a summary of counters only to another */
#define KMEM_ADD_COUNTERS(to, from)                                            \
	do {                                                                   \
		_Static_assert(sizeof(*(to)) % sizeof(uint64_t) == 0,          \
			       "counters only");                               \
		kmem_add_u64s((uint64_t *)(to), (const uint64_t *)(from),      \
			      sizeof(*(to)) / sizeof(uint64_t));               \
	} while (0)

void kmem_lc_init(struct kmem_lc *lc, size_t obj_size);
void kmem_lc_release(struct kmem_lc *lc);

/**
 * kmem_obj_of - an allocator's object as its head
 * @objs: the allocator's objects
 * @i: the object's entry, below objs->len
 *
 * Return: the object.
 */
static inline struct kmem_obj *kmem_obj_of(const struct addr_table *objs,
					   uint32_t i)
{
	return (struct kmem_obj *)addr_table_at(objs, i);
}

/**
 * kmem_inc32 - one more in a per-address count, which stops at 2^32 - 1
 * @saturated: counts the increments lost so
 * @v: the count
 */
static inline void kmem_inc32(uint64_t *saturated, uint32_t *v)
{
	if (*v == UINT32_MAX)
		(*saturated)++;
	else
		(*v)++;
}

/**
 * kmem_lc_entry - the object entry of an allocation's address
 * @lc: the allocator's objects
 * @key: the address
 *
 * Return: the entry, added (zeroed) when the address is new, or
 * ADDR_NONE when memory ran out (counted in lc->oom).
 */
static inline uint32_t kmem_lc_entry(struct kmem_lc *lc, uint64_t key)
{
	uint32_t i = addr_table_find(&lc->objs, key);

	if (i == ADDR_NONE) {
		i = addr_table_add(&lc->objs, key);
		if (i == ADDR_NONE)
			lc->oom++;
	}
	return i;
}

/**
 * kmem_lc_missed - is an allocation's address still live (a missed free)?
 * @c: the summary's counters (missed_frees and _bytes counted)
 * @o: the object at the address
 * @bytes: its bytes
 *
 * The caller then drops the old object (kmem_lc_drop()) and does what
 * else it counts of it.
 *
 * Return: true if the free of @o was missed.
 */
static inline bool kmem_lc_missed(struct kmem_lc_counts *c,
				  const struct kmem_obj *o, uint64_t bytes)
{
	if (!(o->flags & KMEM_OBJ_LIVE))
		return false;
	c->missed_frees++;
	c->missed_free_bytes += bytes;
	return true;
}

/**
 * kmem_obj_start - an object's head at its allocation
 * @o: the object
 * @ev: the allocation
 * @site: its call-site row (U64_INDEX_NONE: not known yet)
 * @flags: KMEM_OBJ_LIVE and the allocator's bits
 */
static inline void kmem_obj_start(struct kmem_obj *o,
				  const struct kmem_event *ev, uint32_t site,
				  uint8_t flags)
{
	o->ts = ev->ts;
	o->site = site;
	o->cpu = (uint16_t)ev->cpu;
	o->flags = flags;
}

/**
 * kmem_lc_live - an allocation made an object live: the live counts
 * @c: the summary's counters
 * @s: its call site's live counts, or NULL (not known yet)
 * @t: the log of touched site rows, or NULL (none kept)
 * @o: the object, started (kmem_obj_start())
 * @bytes: its bytes
 */
static inline void kmem_lc_live(struct kmem_lc_counts *c,
				struct kmem_site_live *s,
				struct kmem_touched *t,
				const struct kmem_obj *o, uint64_t bytes)
{
	if (s) {
		s->live_count++;
		s->live_bytes += bytes;
		if (t)
			kmem_touch(t, o->site);
	}
	c->live_count++;
	c->live_bytes += bytes;
}

/**
 * kmem_lc_tell - tell a front end following objects what an event did
 * @lc: the allocator's objects (lc->match: NULL, nobody follows)
 * @what: KMEM_MATCH_ALLOC or KMEM_MATCH_FREE
 * @pi: the object's entry
 * @o: the object
 * @bytes: its bytes
 */
static inline void kmem_lc_tell(const struct kmem_lc *lc,
				enum kmem_match_what what, uint32_t pi,
				const struct kmem_obj *o, uint64_t bytes)
{
	kmem_match_set(lc->match, what, pi, o->site, o->cpu, o->ts, bytes);
}

/**
 * kmem_lc_drop - an object stops being live (freed, or its free missed)
 * @c: the summary's counters
 * @s: its call site's live counts, or NULL (not known yet)
 * @t: the log of touched site rows, or NULL (none kept)
 * @o: the object
 * @bytes: its bytes
 */
static inline void kmem_lc_drop(struct kmem_lc_counts *c,
				struct kmem_site_live *s,
				struct kmem_touched *t, struct kmem_obj *o,
				uint64_t bytes)
{
	if (s) {
		s->live_count--;
		s->live_bytes -= bytes;
		if (t)
			kmem_touch(t, o->site);
	}
	c->live_count--;
	c->live_bytes -= bytes;
	o->flags &= (uint8_t)~KMEM_OBJ_LIVE;
}

/**
 * kmem_lc_free - what a free of an address is
 * @lc: the allocator's objects
 * @c: the summary's counters (frees, free_only, double_frees counted)
 * @key: the address
 * @pi: set to the object's entry (ADDR_NONE if there is none)
 *
 * A freed-only address is remembered, so that a second free of it is a
 * double free.  A matched free is the caller's to count, with
 * kmem_lc_matched() and kmem_lc_drop().
 *
 * Return: KMEM_FREE_MATCHED, KMEM_FREE_ONLY or KMEM_FREE_DOUBLE.
 */
static inline enum kmem_free_kind kmem_lc_free(struct kmem_lc *lc,
					       struct kmem_lc_counts *c,
					       uint64_t key, uint32_t *pi)
{
	c->frees++;
	*pi = addr_table_find(&lc->objs, key);
	if (*pi != ADDR_NONE) {
		if (kmem_obj_of(&lc->objs, *pi)->flags & KMEM_OBJ_LIVE)
			return KMEM_FREE_MATCHED;
		c->double_frees++;
		return KMEM_FREE_DOUBLE;
	}
	if (addr_table_find(&lc->freed_only, key) != ADDR_NONE) {
		c->double_frees++;
		return KMEM_FREE_DOUBLE;
	}
	c->free_only++;
	if (addr_table_add(&lc->freed_only, key) == ADDR_NONE)
		lc->oom++;
	return KMEM_FREE_ONLY;
}

/**
 * kmem_lc_matched - a free matched a live object: counted and told
 * @lc: the allocator's objects
 * @c: the summary's counters
 * @pi: the object's entry
 * @o: the object (kmem_lc_drop() is the caller's, after its own counts)
 * @bytes: its bytes
 */
static inline void kmem_lc_matched(struct kmem_lc *lc, struct kmem_lc_counts *c,
				   uint32_t pi, const struct kmem_obj *o,
				   uint64_t bytes)
{
	kmem_lc_tell(lc, KMEM_MATCH_FREE, pi, o, bytes);
	c->alloc_freed_count++;
	c->alloc_freed_bytes += bytes;
}

/**
 * kmem_obj_life - how long an object lived
 * @o: the object
 * @ts: when it was freed
 *
 * Return: @ts - its allocation time, 0 if the clock went back.
 */
static inline uint64_t kmem_obj_life(const struct kmem_obj *o, uint64_t ts)
{
	return ts > o->ts ? ts - o->ts : 0;
}

/**
 * kmem_lc_alloc_only_count - allocations whose free was not traced
 * @c: the summary's counters
 *
 * Return: allocs - allocations matched by a free.
 */
static inline uint64_t kmem_lc_alloc_only_count(const struct kmem_lc_counts *c)
{
	return c->allocs - c->alloc_freed_count;
}

/**
 * kmem_lc_alloc_only_bytes - bytes of the allocations whose free was not
 *	traced
 * @c: the summary's counters
 * @bytes: the bytes of every allocation
 *
 * Return: @bytes - bytes of the allocations matched by a free.
 */
static inline uint64_t kmem_lc_alloc_only_bytes(const struct kmem_lc_counts *c,
						uint64_t bytes)
{
	return bytes - c->alloc_freed_bytes;
}

#endif
