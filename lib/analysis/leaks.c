// SPDX-License-Identifier: LGPL-2.1
/*
 * The leak report's rows (see leaks.h).
 */
#include <stdlib.h>
#include <string.h>

#include "leaks.h"

/* One live object old enough: its call site, age, bytes, entry. */
struct leak_item {
	uint64_t call_site;
	uint64_t age;
	uint64_t bytes;
	uint64_t entry;
};

struct items {
	struct leak_item *v;
	size_t n, cap;
	bool oom;
};

static void add(struct items *it, uint64_t end, uint64_t older_than,
		uint64_t cs, uint64_t ts, uint64_t bytes, uint64_t entry)
{
	uint64_t age = end > ts ? end - ts : 0;
	struct leak_item *p;

	if (age < older_than || it->oom)
		return;
	if (it->n == it->cap) {
		size_t cap = it->cap ? it->cap * 2 : 256;

		p = realloc(it->v, cap * sizeof(*p));
		if (!p) {
			it->oom = true;
			return;
		}
		it->v = p;
		it->cap = cap;
	}
	it->v[it->n++] = (struct leak_item){ cs, age, bytes, entry };
}

/* The allocator's live objects. */
static void collect(struct items *it, const struct kmem_alloc_desc *d,
		    const void *st, uint64_t end, uint64_t older)
{
	const struct addr_table *objs = kmem_alloc_objs(d, st);
	uint32_t i;

	for (i = 0; i < objs->len; i++) {
		const struct kmem_obj *o = kmem_obj_of(objs, i);

		if (o->flags & KMEM_OBJ_LIVE)
			add(it, end, older, d->site_addr(st, o->site), o->ts,
			    d->obj_bytes(st, o), i);
	}
}

static int by_site_age(const void *a, const void *b)
{
	const struct leak_item *x = a, *y = b;

	if (x->call_site != y->call_site)
		return x->call_site < y->call_site ? -1 : 1;
	if (x->age != y->age)
		return x->age < y->age ? -1 : 1;
	return x->entry < y->entry ? -1 : x->entry > y->entry;
}

/* The rows of @it's items, sorted by call site then age. */
static int group(struct leak_set *ls, const struct items *it)
{
	size_t i = 0, j, k, nr = 0;

	ls->rows = calloc(it->n ? it->n : 1, sizeof(*ls->rows));
	if (!ls->rows)
		return -1;
	while (i < it->n) {
		struct leak_row *r = &ls->rows[nr++];

		for (j = i; j < it->n && it->v[j].call_site == it->v[i].call_site;
		     j++)
			;
		r->call_site = it->v[i].call_site;
		r->count = j - i;
		for (k = i; k < j; k++)
			r->bytes += it->v[k].bytes;
		r->oldest_ns = it->v[j - 1].age;
		r->median_ns = it->v[i + (r->count - 1) / 2].age;
		ls->count += r->count;
		ls->bytes += r->bytes;
		i = j;
	}
	ls->nr = nr;
	return 0;
}

/* The items grouped into rows, and freed. */
static void finish(struct leak_set *ls, struct items *it)
{
	if (!it->oom && it->n)
		qsort(it->v, it->n, sizeof(*it->v), by_site_age);
	if (it->oom || group(ls, it)) {
		free(ls->rows);
		ls->rows = NULL;
		ls->nr = 0;
		ls->count = ls->bytes = 0;
		ls->oom = true;
	}
	free(it->v);
}

/**
 * kmem_leaks_build - the leak rows of one allocator
 * @ls: filled in; kmem_leaks_release() it
 * @a: a finished input's statistics
 * @which: the allocator
 * @older_than_ns: only objects at least this old at the end
 *
 * The end of the trace is its last allocator record (a->last_ts: of
 * the slab, page or per-CPU allocator, not a kernel stack); an
 * object's age is the end minus its allocation's time.  Rows are in the
 * order of their call sites' addresses; ls->oom says memory ran out
 * (no rows then).
 */
void kmem_leaks_build(struct leak_set *ls, const struct kmem_agg *a,
		      enum kmem_alloc_id which, uint64_t older_than_ns)
{
	struct items it = { 0 };

	memset(ls, 0, sizeof(*ls));
	ls->end_ns = a->last_ts;
	ls->older_than_ns = older_than_ns;
	collect(&it, &kmem_allocs[which], kmem_agg_stats(a, which), a->last_ts,
		older_than_ns);
	finish(ls, &it);
}

/* The live objects the stack collector followed, by their stack. */
static void collect_stacks(struct items *it, const struct kmem_agg *a,
			   enum kmem_alloc_id id, uint64_t end, uint64_t older)
{
	const struct kmem_alloc_desc *d = &kmem_allocs[id];
	const void *st = kmem_agg_stats(a, id);
	const struct addr_table *objs = kmem_alloc_objs(d, st);
	const struct folded_live *l;
	size_t i, n;

	/* an object's stack is at its own entry in objs */
	l = kmem_folded_live(&a->folded, id, &n);
	for (i = 0; i < n && i < objs->len; i++) {
		const struct kmem_obj *p;

		if (l[i].stack == FOLDED_NONE || l[i].stack == FOLDED_PENDING)
			continue;
		p = kmem_obj_of(objs, (uint32_t)i);
		if (p->flags & KMEM_OBJ_LIVE)
			add(it, end, older, l[i].stack, p->ts,
			    d->obj_bytes(st, p), (uint32_t)i);
	}
}

/**
 * kmem_leaks_have_stacks - can the leaks be grouped by stack?
 * @a: a finished input's statistics
 * @which: the allocator
 *
 * Return: true when the trace has kernel stacks and the stack collector
 * followed the allocator's live objects (kmem:leaks, or kmem:folded
 * with kmem:live).
 */
bool kmem_leaks_have_stacks(const struct kmem_agg *a, enum kmem_alloc_id which)
{
	const struct kmem_folded *f = &a->folded;

	if (!a->stack_records || !f->on || !f->live)
		return false;
	return f->lc[which] != NULL; /* the allocations it takes */
}

/**
 * kmem_leaks_build_stacks - the leak rows of one allocator, by stack
 * @ls: filled in (ls->by_stack); kmem_leaks_release() it
 * @a: a finished input's statistics, kmem_leaks_have_stacks()
 * @which: the allocator (one the stack collector takes)
 * @older_than_ns: only objects at least this old at the end
 *
 * A row's call_site is the stack's index in a->folded.stacks.
 */
void kmem_leaks_build_stacks(struct leak_set *ls, const struct kmem_agg *a,
			     enum kmem_alloc_id which, uint64_t older_than_ns)
{
	struct items it = { 0 };

	memset(ls, 0, sizeof(*ls));
	ls->by_stack = true;
	ls->end_ns = a->last_ts;
	ls->older_than_ns = older_than_ns;
	collect_stacks(&it, a, which, a->last_ts, older_than_ns);
	finish(ls, &it);
}

/**
 * kmem_leaks_release - free the rows
 * @ls: built by kmem_leaks_build()
 */
void kmem_leaks_release(struct leak_set *ls)
{
	free(ls->rows);
	memset(ls, 0, sizeof(*ls));
}
