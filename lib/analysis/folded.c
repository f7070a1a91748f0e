// SPDX-License-Identifier: LGPL-2.1
/*
 * Allocations by kernel stack (see folded.h).  Per event: a pending
 * slot per CPU, one hash lookup per stack; the objects are found by the
 * entry their allocator's match gives, never by address; no allocation
 * but when a new stack is first seen or the objects' table grows.
 */
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "event/rbgeom.h"
#include "folded.h"

/**
 * kmem_folded_init - nothing collected, off
 * @f: the collector
 */
void kmem_folded_init(struct kmem_folded *f)
{
	memset(f, 0, sizeof(*f));
}

/**
 * kmem_folded_enable - collect stacks from the next event on
 * @f: the collector
 * @live: weigh only what is still allocated at the end
 * @takes: the allocators whose allocations are taken, by enum
 *	kmem_alloc_id (those with KMEM_CAP_FOLDED; the others are left out)
 * @stats: every allocator's statistics, by enum kmem_alloc_id (what
 *	kmem_allocs[]'s calls take): the objects of those taken, whose
 *	match the allocators fill in (kmem_folded_hook()), and the frame
 *	caches and skip rules of those whose call sites come from stacks
 */
void kmem_folded_enable(struct kmem_folded *f, bool live,
			const bool takes[KMEM_NR_ALLOC],
			void *const stats[KMEM_NR_ALLOC])
{
	unsigned int id;

	f->on = true;
	f->live = live;
	for (id = 0; id < KMEM_NR_ALLOC; id++) {
		const struct kmem_alloc_desc *d = &kmem_allocs[id];

		f->lc[id] = takes[id] && (d->caps & KMEM_CAP_FOLDED)
				    ? kmem_alloc_lc(d, stats[id])
				    : NULL;
		f->fr[id] = d->caps & KMEM_CAP_STACKS
				    ? (struct kmem_frames *)((char *)stats[id] +
							     d->frames_off)
				    : NULL;
	}
	kmem_folded_hook(f);
	/* all FOLDED_NONE; without it, stacks are found the long way */
	if (!f->memo)
		f->memo = malloc(sizeof(*f->memo) << FOLDED_MEMO_BITS);
	if (f->memo)
		memset(f->memo, 0xff, sizeof(*f->memo) << FOLDED_MEMO_BITS);
}

/**
 * kmem_folded_hook - have the allocators taken tell what each event did
 * @f: the collector, on
 *
 * An allocator that tells no front end (kmem_agg_follow()) fills in its
 * objects' own match (lc->told); one that does fills in the front end's,
 * which @f reads too.  kmem_agg_follow() calls it again after it changes
 * them.
 */
void kmem_folded_hook(struct kmem_folded *f)
{
	unsigned int id;

	for (id = 0; id < KMEM_NR_ALLOC; id++)
		if (f->lc[id] && !f->lc[id]->match)
			f->lc[id]->match = &f->lc[id]->told;
}

/**
 * kmem_folded_release - free what was collected
 * @f: the collector (empty and off afterwards)
 */
void kmem_folded_release(struct kmem_folded *f)
{
	unsigned int id;

	free(f->stacks);
	free(f->frames);
	free(f->pending);
	free(f->memo);
	u64_index_free(&f->ix);
	for (id = 0; id < KMEM_NR_ALLOC; id++) {
		if (f->lc[id] && f->lc[id]->match == &f->lc[id]->told)
			f->lc[id]->match = NULL;
		free(f->obj_live[id]);
	}
	kmem_folded_init(f);
}

/* A raw page stack is not the same stack as those frames skipped. */
#define FOLDED_RAW_SALT 0x9E3779B97F4A7C15ULL

/* The same frames of another allocator are another stack. */
static uint64_t stack_hash(const uint64_t *fr, unsigned int n, uint8_t id)
{
	return u64s_hash(fr, n) ^ ((uint64_t)id * FOLDED_RAW_SALT << 1);
}

/* The frames of a stack, few (one, most often): a loop, not a call. */
static inline bool same_frames(const uint64_t *a, const uint64_t *b,
			       unsigned int n)
{
	unsigned int k;

	for (k = 0; k < n; k++)
		if (a[k] != b[k])
			return false;
	return true;
}

static uint32_t intern_slow(struct kmem_folded *f, uint8_t id,
			    const uint64_t *fr, unsigned int n, bool raw);

/* Where intern() memoizes the stack of one frame @leaf of allocator @id. */
static inline struct folded_memo *memo_of(const struct kmem_folded *f,
					  uint64_t leaf, uint8_t id)
{
	uint64_t h = (leaf ^ id) * 0x9E3779B97F4A7C15ULL;

	return &f->memo[h >> (64 - FOLDED_MEMO_BITS)];
}

/*
 * The stack of these frames of allocator @id, added when new;
 * FOLDED_NONE: no memory.  A stack of one frame is most often the one
 * its memo holds.
 */
static uint32_t intern(struct kmem_folded *f, uint8_t id, const uint64_t *fr,
		       unsigned int n, bool raw)
{
	struct folded_memo *e;
	uint32_t i;

	if (n != 1 || raw || !f->memo)
		return intern_slow(f, id, fr, n, raw);
	e = memo_of(f, fr[0], id);
	if (e->stack != FOLDED_NONE && e->leaf == fr[0] && e->id == id)
		return e->stack;
	i = intern_slow(f, id, fr, n, raw);
	if (i != FOLDED_NONE) {
		e->leaf = fr[0];
		e->id = id;
		e->stack = i;
	}
	return i;
}

static uint32_t intern_slow(struct kmem_folded *f, uint8_t id,
			    const uint64_t *fr, unsigned int n, bool raw)
{
	uint64_t h = stack_hash(fr, n, id) ^ (raw ? FOLDED_RAW_SALT : 0);
	size_t pos = SIZE_MAX;
	uint32_t i;

	while ((i = u64_index_next(&f->ix, h, &pos)) != U64_INDEX_NONE)
		if (f->stacks[i].n == n && f->stacks[i].raw == raw &&
		    f->stacks[i].id == id &&
		    same_frames(f->frames + f->stacks[i].off, fr, n))
			return i;
	while (f->nr_frames + n > f->cap_frames) {
		size_t cap = f->cap_frames ? f->cap_frames * 2 : 1024;
		uint64_t *p;

		if (cap > UINT32_MAX)	/* frames are found by a u32 offset */
			return FOLDED_NONE;
		p = realloc(f->frames, cap * sizeof(*p));
		if (!p)
			return FOLDED_NONE;
		f->frames = p;
		f->cap_frames = cap;
	}
	i = index_append(&f->ix, (void **)&f->stacks, &f->cap, &f->nr,
			 sizeof(*f->stacks), h);
	if (i == U64_INDEX_NONE)
		return FOLDED_NONE;
	memcpy(f->frames + f->nr_frames, fr, n * sizeof(*fr));
	f->stacks[i].off = (uint32_t)f->nr_frames;
	f->stacks[i].n = n;
	f->stacks[i].raw = raw;
	f->stacks[i].id = id;
	f->nr_frames += n;
	return i;
}

/* The objects' stacks of allocator @id (live mode), room for entry @i. */
static struct folded_live *live_at(struct kmem_folded *f, unsigned int id,
				   uint32_t i)
{
	size_t used = f->nr_obj_live[id], n = f->cap_obj_live[id];
	struct folded_live *v = f->obj_live[id];

	if (i < used)
		return &v[i];
	if (i == ADDR_NONE)
		return NULL;
	if (i >= n) {
		while (n <= i) {
			if (n > SIZE_MAX / 2 / sizeof(*v))
				return NULL;
			n = n ? n * 2 : 1024;
		}
		v = realloc(v, n * sizeof(*v));
		if (!v)
			return NULL;
		f->obj_live[id] = v;
		f->cap_obj_live[id] = n;
	}
	/*
	 * Entries up to @i only (the allocator's table grows one address
	 * at a time): not live, with no stack, FOLDED_NONE (and a seq no
	 * pending has); the room after them stays untouched.
	 */
	memset(v + used, 0xff, (i + 1 - used) * sizeof(*v));
	f->nr_obj_live[id] = (size_t)i + 1;
	return &v[i];
}

/* Object @i of allocator @id is gone (freed, or allocated again). */
static void drop(struct kmem_folded *f, unsigned int id, uint32_t i)
{
	struct folded_live *l;

	if (i >= f->nr_obj_live[id])
		return;
	l = &f->obj_live[id][i];
	if (l->stack != FOLDED_NONE && l->stack != FOLDED_PENDING) {
		f->stacks[l->stack].live_bytes -= l->bytes;
		f->stacks[l->stack].live_hits--;
	}
	l->stack = FOLDED_NONE;	/* a pending stack finds it freed */
}

/*
 * The pending allocation gets its stack (@fr, @n frames; @raw: a page
 * stack whose internal frames are skipped later) and counts.
 */
static void attach(struct kmem_folded *f, struct folded_pending *pd,
		   const uint64_t *fr, unsigned int n, bool raw)
{
	uint32_t s = intern(f, pd->id, fr, n, raw);
	struct folded_live *l;

	pd->active = false;
	if (s == FOLDED_NONE) {
		f->lost++;
		f->lost_bytes += pd->bytes;
		return;
	}
	f->stacks[s].bytes += pd->bytes;
	f->stacks[s].hits++;
	if (!f->live || pd->obj >= f->nr_obj_live[pd->id])
		return;
	/* live still, and still this allocation (not freed, not reused)? */
	l = &f->obj_live[pd->id][pd->obj];
	if (l->seq != pd->seq || l->stack != FOLDED_PENDING)
		return;
	l->stack = s;
	f->stacks[s].live_bytes += pd->bytes;
	f->stacks[s].live_hits++;
}

/*
 * No stack came: a slab allocation is its call site, one of an allocator
 * whose call sites come from stacks "(no stack)".
 */
static void no_stack(struct kmem_folded *f, struct folded_pending *pd)
{
	uint64_t leaf = pd->call_site;

	if (pd->active)
		attach(f, pd, &leaf, 1, false);
}

static __attribute__((noinline)) struct folded_pending *
grow_pending(struct kmem_folded *f, int cpu)
{
	size_t n = f->nr_pending;
	struct folded_pending *p;

	while (n <= (size_t)cpu)
		n = n ? n * 2 : 64;
	p = realloc(f->pending, n * sizeof(*p));
	if (!p)
		return NULL;
	memset(p + f->nr_pending, 0, (n - f->nr_pending) * sizeof(*p));
	f->pending = p;
	f->nr_pending = n;
	return &f->pending[cpu];
}

static inline struct folded_pending *pending_of(struct kmem_folded *f, int cpu)
{
	if (cpu < 0 || cpu > KMEM_MAX_CPU)
		return NULL;
	if ((size_t)cpu < f->nr_pending)
		return &f->pending[cpu];
	return grow_pending(f, cpu);
}

/*
 * Live mode: object @i is live from now, its stack pending (one there
 * before it had its free missed).  Return: -1 without memory.
 */
static int live_add(struct kmem_folded *f, unsigned int id, uint32_t i,
		    uint64_t bytes, struct folded_pending *pd)
{
	struct folded_live *l = live_at(f, id, i);

	if (!l) {
		f->lost++;
		f->lost_bytes += bytes;
		return -1;
	}
	drop(f, id, i); /* when its free was missed */
	l->bytes = bytes;
	l->stack = FOLDED_PENDING;
	l->seq = pd->seq = ++f->seq;
	return 0;
}

/* Allocator @id made object @i live: its stack may follow. */
static void alloc_event(struct kmem_folded *f, const struct kmem_event *ev,
			unsigned int id, uint32_t i, uint64_t bytes)
{
	struct folded_pending *pd = pending_of(f, ev->cpu), now;

	if (pd) {
		no_stack(f, pd);
	} else if (ev->cpu >= 0 && ev->cpu <= KMEM_MAX_CPU) {
		/* no memory for its CPU's slot: its stack would be lost */
		f->lost++;
		f->lost_bytes += bytes;
		return;
	} else { /* no CPU's: no stack can follow */
		pd = &now;
	}
	if (f->live && live_add(f, id, i, bytes, pd))
		return;
	pd->active = true;
	pd->id = (uint8_t)id;
	pd->obj = i;
	pd->rec_end = ev->rec_offset + ev->rec_size;
	pd->call_site =
		kmem_allocs[id].caps & KMEM_CAP_STACKS ? 0 : ev->call_site;
	pd->bytes = bytes;
	if (pd == &now)
		no_stack(f, pd);
}

/*
 * The stack of the pending allocation: a slab one's from its call_site's
 * frame outward, one of an allocator whose call sites come from stacks
 * from the first frame that is not allocator or tracing internals (the
 * last one if all are); a page one's as recorded while deferred.
 */
static void stack_event(struct kmem_folded *f, struct page_stats *pst,
			const struct kmem_event *ev)
{
	struct folded_pending *pd = pending_of(f, ev->cpu);
	unsigned int i = 0, n = ev->nr_frames;

	if (!pd || !pd->active)
		return;
	if (!n || ev->after_loss ||
	    !kmem_rb_follows(pst->subbuf_size, pd->rec_end, ev->rec_offset)) {
		no_stack(f, pd);
		return;
	}
	if (!(kmem_allocs[pd->id].caps & KMEM_CAP_STACKS)) {
		while (i < n && ev->frames[i] != pd->call_site)
			i++;
		if (i == n) {	/* the call site is not in it */
			no_stack(f, pd);
			return;
		}
	} else if (f->defer && pd->id == KMEM_ALLOC_PAGE) {
		attach(f, pd, ev->frames, n, true);
		return;
	} else {
		while (i + 1 < n && f->fr[pd->id] &&
		       kmem_frames_skipped(f->fr[pd->id], ev->frames[i]))
			i++;
	}
	attach(f, pd, ev->frames + i, n - i, false);
}

/**
 * kmem_folded_event - account one decoded event
 * @f: the collector (nothing is done while it is off)
 * @pst: the page statistics: ring-buffer page size, skip rules
 * @ev: the event, accounted by its allocator since kmem_folded_before()
 *
 * An allocation that made an object live, of an allocator taken, is
 * waiting for its stack; with live, a free that matched a live object
 * drops it.  The allocator's match says which, and which object.
 */
void kmem_folded_event(struct kmem_folded *f, struct page_stats *pst,
		       const struct kmem_event *ev)
{
	const struct kmem_match *m;
	enum kmem_alloc_id id;

	if (!f->on)
		return;
	if (ev->kind == KMEM_EV_STACK) {
		stack_event(f, pst, ev);
		return;
	}
	id = kmem_alloc_of(ev->kind);
	if (id >= KMEM_NR_ALLOC || !f->lc[id] || !f->lc[id]->match)
		return;
	m = f->lc[id]->match;
	if (m->what == KMEM_MATCH_ALLOC)
		alloc_event(f, ev, id, m->obj, m->bytes);
	else if (m->what == KMEM_MATCH_FREE && f->live)
		drop(f, id, m->obj);
}

/**
 * kmem_folded_live - the objects' stacks of an allocator (live mode)
 * @f: the collector
 * @id: the allocator
 * @nr: set to the entries: those of the allocator's objs table that
 *	were ever made live, and entries not yet used (FOLDED_NONE)
 *
 * Return: the entries, by the allocator's objs entry; NULL with *@nr 0
 * when @f followed none of @id's.
 */
const struct folded_live *kmem_folded_live(const struct kmem_folded *f,
					   enum kmem_alloc_id id, size_t *nr)
{
	*nr = f->nr_obj_live[id];
	return f->obj_live[id];
}

/**
 * kmem_folded_finish - the end of the stream: waiting allocations had
 *	no stack
 * @f: the collector
 */
void kmem_folded_finish(struct kmem_folded *f)
{
	size_t cpu;

	for (cpu = 0; cpu < f->nr_pending; cpu++)
		no_stack(f, &f->pending[cpu]);
}

/**
 * kmem_folded_defer - skip a page stack's internal frames after counting
 * @f: the collector, before its first event
 *
 * Page stacks are kept as recorded, with no frame resolved while
 * counting; kmem_folded_resolve() skips their allocator and tracing
 * frames once symbols are known.
 */
void kmem_folded_defer(struct kmem_folded *f)
{
	if (!f->nr)
		f->defer = true;
}

/* Stacks with the same frames now become one, in the order they came. */
static void merge_stacks(struct kmem_folded *f)
{
	struct u64_index ix = { 0 };
	uint32_t *map = malloc((f->nr + 1) * sizeof(*map)), i, j, k = 0;
	size_t pos, o;
	int w;

	if (!map || u64_index_init(&ix, 64)) {
		/* stacks stay apart; each is still right (a folded file's
		 * reader sums equal lines, pprof equal samples) */
		free(map);
		return;
	}
	for (i = 0; i < f->nr; i++) {
		struct folded_stack s = f->stacks[i];
		const uint64_t *fr = f->frames + s.off;
		uint64_t h = stack_hash(fr, s.n, s.id);

		pos = SIZE_MAX;
		while ((j = u64_index_next(&ix, h, &pos)) != U64_INDEX_NONE)
			if (f->stacks[j].n == s.n && f->stacks[j].id == s.id &&
			    !memcmp(f->frames + f->stacks[j].off, fr,
				    s.n * sizeof(*fr)))
				break;
		if (j == U64_INDEX_NONE) {
			j = k++;
			f->stacks[j] = s;
			/* no memory: later ones stay apart from it */
			(void)u64_index_insert(&ix, h, j);
		} else {
			f->stacks[j].bytes += s.bytes;
			f->stacks[j].hits += s.hits;
			f->stacks[j].live_bytes += s.live_bytes;
			f->stacks[j].live_hits += s.live_hits;
		}
		map[i] = j;
	}
	f->nr = k;
	if (f->memo) /* the stacks have new numbers */
		memset(f->memo, 0xff, sizeof(*f->memo) << FOLDED_MEMO_BITS);
	u64_index_free(&f->ix);
	f->ix = ix;
	for (w = 0; w < KMEM_NR_ALLOC; w++)
		for (o = 0; o < f->nr_obj_live[w]; o++) {
			struct folded_live *l = &f->obj_live[w][o];

			if (l->stack < FOLDED_PENDING)
				l->stack = map[l->stack];
		}
	free(map);
}

/**
 * kmem_folded_resolve - skip the internal frames kmem_folded_defer() left
 * @f: the collector, every stack record counted
 * @pst: the page statistics, their skip rules and symbols (every frame of
 *	@f resolvable now)
 *
 * A page stack loses its allocator and tracing frames as it would have
 * while counting; stacks with the same frames then become one, in the
 * order they first came.  Nothing is done unless stacks were deferred.
 */
void kmem_folded_resolve(struct kmem_folded *f, struct page_stats *pst)
{
	bool any = false;
	size_t i;

	if (!f->defer)
		return;
	f->defer = false;
	for (i = 0; i < f->nr; i++) {
		struct folded_stack *s = &f->stacks[i];
		uint32_t k = 0;

		if (!s->raw)
			continue;
		while (k + 1 < s->n &&
		       page_frame_skipped(pst, f->frames[s->off + k]))
			k++;
		s->off += k;
		s->n -= k;
		s->raw = false;
		any = true;
	}
	if (any)
		merge_stacks(f);
}

/* A frame as flame graphs name it: its function, or its address. */
static void put_frame(FILE *out, const struct kmem_symbolizer *sym,
		      uint64_t addr)
{
	uint64_t start = 0;
	const char *name = NULL;

	if (!addr) {
		fputs("(no stack)", out);
		return;
	}
	if (sym && sym->resolve)
		name = sym->resolve(sym->priv, addr, &start);
	if (name)
		utf8_put_folded(out, name);
	else
		fprintf(out, "0x%llx", (unsigned long long)addr);
}

/**
 * kmem_folded_write - the folded lines
 * @f: the collector, finished
 * @sym: names the frames
 * @hits: weigh by allocations, not bytes
 * @live: weigh what is live at the end (@f collected it: live mode)
 * @out: where to
 *
 * One line per stack with a weight, in the order the stacks first came,
 * its root frame its allocator's ("[slab]", "[page]", "[vmalloc]"): a
 * slab's pages are also page allocations (allocate_slab), so each
 * allocator's memory is its own tower, never added to another's.
 *
 * Return: 0, or -1 when writing failed.
 */
int kmem_folded_write(const struct kmem_folded *f,
		      const struct kmem_symbolizer *sym, bool hits, bool live,
		      FILE *out)
{
	size_t i;
	uint32_t k;

	for (i = 0; i < f->nr; i++) {
		const struct folded_stack *s = &f->stacks[i];
		uint64_t w = live ? (hits ? s->live_hits : s->live_bytes)
				  : (hits ? s->hits : s->bytes);

		if (!w)
			continue;
		fprintf(out, "[%s];", kmem_allocs[s->id].name);
		for (k = s->n; k-- > 0;) {	/* root first */
			put_frame(out, sym, f->frames[s->off + k]);
			if (k)
				fputc(';', out);
		}
		fprintf(out, " %llu\n", (unsigned long long)w);
	}
	return ferror(out) ? -1 : 0;
}
