// SPDX-License-Identifier: LGPL-2.1
/*
 * Per-input aggregation: dispatch of decoded events (see agg.h).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "agg.h"
#include "alloc/page.h"
#include "base/msg.h"

/* Each allocator's statistics, aligned for any of their members. */
static size_t stats_room(enum kmem_alloc_id id)
{
	size_t a = _Alignof(max_align_t);

	return (kmem_allocs[id].stats_size + a - 1) / a * a;
}

/**
 * kmem_agg_init - empty statistics for one input
 * @a: the aggregate
 *
 * Every allocator's statistics are one block, of the sizes their
 * descriptors give; kmem_agg_release() frees it.
 *
 * Return: 0, or -1 when that block could not be allocated (@a then
 * holds nothing; kmem_agg_release() may still be called).
 */
int kmem_agg_init(struct kmem_agg *a)
{
	size_t size = 0, off = 0;
	unsigned int id;
	char *block;

	memset(a, 0, sizeof(*a));
	kmem_folded_init(&a->folded);
	for (id = 0; id < KMEM_NR_ALLOC; id++)
		size += stats_room(id);
	block = calloc(1, size);
	if (!block)
		return -1;
	for (id = 0; id < KMEM_NR_ALLOC; id++) {
		a->stats[id] = block + off;
		a->account[id] = kmem_allocs[id].account;
		off += stats_room(id);
		kmem_allocs[id].init(a->stats[id]);
	}
	return 0;
}

/**
 * kmem_agg_configure - symbols and skip rules for stack call sites
 * @a: the aggregate, before its first event
 * @sym: resolves stack frames (must outlive @a)
 * @skip: regex of frames to skip, NULL for each allocator's default
 *	rules (its own file's under alloc/, kept by its frame cache)
 * @err: set to the regex error when @skip does not compile, for the
 *	front end's one line (KMEM_BAD_SKIP_FMT)
 * @errlen: size of @err
 *
 * Return: 0, or -1 if @skip did not compile (the default rules apply).
 */
int kmem_agg_configure(struct kmem_agg *a, const struct kmem_symbolizer *sym,
		       const char *skip, char *err, size_t errlen)
{
	unsigned int id;
	int ret = 0;

	for (id = 0; id < KMEM_NR_ALLOC; id++)
		if (kmem_allocs[id].configure &&
		    kmem_allocs[id].configure(kmem_agg_stats(a, id), sym, skip,
					      err, errlen))
			ret = -1;
	return ret;
}

/**
 * kmem_agg_set_subbuf - the ring buffer's page size, for stack adjacency
 * @a: the aggregate, before its first event
 * @subbuf_size: the size of a ring-buffer page (sub-buffer)
 *
 * Every allocator that reads kernel stacks tells by it whether a
 * kernel_stack record directly follows an allocation.
 */
void kmem_agg_set_subbuf(struct kmem_agg *a, unsigned int subbuf_size)
{
	unsigned int id;

	for (id = 0; id < KMEM_NR_ALLOC; id++)
		if (kmem_allocs[id].caps & KMEM_CAP_STACKS)
			*(unsigned int *)((char *)kmem_agg_stats(a, id) +
					  kmem_allocs[id].subbuf_off) =
				subbuf_size;
}

/**
 * kmem_agg_keep_rows - keep per-address rows only if they are shown
 * @a: the aggregate, before its first event
 * @c: what to collect: the rows for the per-allocation tables, the
 *	lifetimes, the stacks
 *
 * Without rows an address costs 32 bytes (slab) or 24 (page) and its
 * index slot, instead of 72 or 40.  With kmem:folded, the stacks are
 * collected too (what is live at the end only, with kmem:live); with
 * kmem:leaks those of the live objects, for the leaks by stack.
 */
void kmem_agg_keep_rows(struct kmem_agg *a, const struct kmem_collect_cfg *c)
{
	void *stats[KMEM_NR_ALLOC];
	unsigned int id;

	for (id = 0; id < KMEM_NR_ALLOC; id++) {
		const struct kmem_alloc_desc *d = &kmem_allocs[id];
		void *st = kmem_agg_stats(a, id);
		struct kmem_lifetimes *l = kmem_alloc_life(d, st);

		stats[id] = st;
		if (d->caps & KMEM_CAP_ROWS)
			d->keep_rows(st, c->rows);
		if (l)
			l->on = c->lifetimes; /* kmem:lifetimes */
	}
	/* the stacks, when they are asked for, or live ones for leaks */
	if (c->stacks)
		kmem_folded_enable(&a->folded, c->stacks_live, c->alloc, stats);
}

/**
 * kmem_agg_set_numa - a topology for the cross-node figures
 * @a: the aggregate, before its first event
 * @numa: the topology (must outlive @a), or NULL
 */
void kmem_agg_set_numa(struct kmem_agg *a, const struct kmem_numa *numa)
{
	unsigned int id;

	for (id = 0; id < KMEM_NR_ALLOC; id++) {
		const struct kmem_numa **p = kmem_alloc_numa(
			&kmem_allocs[id], kmem_agg_stats(a, id));

		if (p)
			*p = numa;
	}
}

/**
 * kmem_agg_finish - the end of the stream
 * @a: the aggregate
 *
 * Page allocations still waiting for a kernel_stack record get none.
 */
void kmem_agg_finish(struct kmem_agg *a)
{
	unsigned int id;

	for (id = 0; id < KMEM_NR_ALLOC; id++)
		if (kmem_allocs[id].finish)
			kmem_allocs[id].finish(kmem_agg_stats(a, id));
	kmem_folded_finish(&a->folded);
}

/**
 * kmem_agg_release - free what the statistics hold
 * @a: the aggregate
 */
void kmem_agg_release(struct kmem_agg *a)
{
	unsigned int id;

	kmem_folded_release(&a->folded); /* its hooks in the stats */
	if (a->stats[0]) {
		for (id = 0; id < KMEM_NR_ALLOC; id++)
			kmem_allocs[id].release(kmem_agg_stats(a, id));
		free(a->stats[0]); /* the block (kmem_agg_init()) */
		memset(a->stats, 0, sizeof(a->stats));
	}
}

/*
 * An allocator record (not kernel_stack: the plugin sees those only with
 * page stacks).  Records come in time order: the last is the latest.
 */
static inline void saw(struct kmem_agg *a, uint64_t ts)
{
	if (!a->first_ts)
		a->first_ts = ts;
	a->last_ts = ts;
}

/**
 * kmem_agg_follow - be told what each event does to the object it names
 * @a: the aggregate, before its first event
 * @m: filled in by kmem_agg_event() when an allocation makes an object
 *	live or a free matches one (the caller resets m->what first);
 *	NULL stops it
 */
void kmem_agg_follow(struct kmem_agg *a, struct kmem_match *m)
{
	unsigned int id;

	for (id = 0; id < KMEM_NR_ALLOC; id++) {
		void *st = kmem_agg_stats(a, id);

		kmem_alloc_lc(&kmem_allocs[id], st)->match = m;
	}
	if (a->folded.on)
		kmem_folded_hook(&a->folded); /* m NULL: its own again */
}

/* An event of allocator @id: its counters, then the allocator's. */
static inline void count_event(struct kmem_agg *a, const struct kmem_event *ev,
			       enum kmem_alloc_id id)
{
	saw(a, ev->ts);
	a->events[id]++;
	a->kinds[ev->kind]++;
	a->idle_records += !ev->pid;
	a->account[id](kmem_agg_stats(a, id), ev);
}

/*
 * kmem_agg_event() for a stack record, or for any event while folded
 * stacks are collected.  Out of line: the common case's call to the
 * allocator's account() is then its last, a jump.
 */
static __attribute__((noinline)) void
agg_event_other(struct kmem_agg *a, const struct kmem_event *ev,
		enum kmem_alloc_id id)
{
	if (a->folded.on)
		kmem_folded_before(&a->folded, id);
	if (id != KMEM_NR_ALLOC) {
		count_event(a, ev, id);
	} else if (ev->kind == KMEM_EV_STACK) {
		a->stack_records++;
		for (id = 0; id < KMEM_NR_ALLOC; id++)
			if (kmem_allocs[id].caps & KMEM_CAP_STACKS)
				kmem_allocs[id].account(kmem_agg_stats(a, id),
							ev);
	}
	if (a->folded.on)
		kmem_folded_event(&a->folded,
				  kmem_agg_stats(a, KMEM_ALLOC_PAGE), ev);
}

/**
 * kmem_agg_event - account one decoded event
 * @a: the aggregate
 * @ev: the event
 */
void kmem_agg_event(struct kmem_agg *a, const struct kmem_event *ev)
{
	enum kmem_alloc_id id = kmem_alloc_of(ev->kind);

	if (id == KMEM_NR_ALLOC || a->folded.on) {
		agg_event_other(a, ev, id);
		return;
	}
	count_event(a, ev, id);
}

/**
 * kmem_agg_unknown - count records of an event id no format has
 * @a: the statistics
 * @id: their id
 * @n: how many (0: none, nothing noted)
 *
 * The first id counted is the one the report names; another id sets
 * @a->unknown_ids_more.
 */
void kmem_agg_unknown(struct kmem_agg *a, long long id, uint64_t n)
{
	if (!n)
		return;
	if (!a->unknown_records)
		a->unknown_id = id;
	else if (id != a->unknown_id)
		a->unknown_ids_more = true;
	a->unknown_records += n;
}

/**
 * kmem_agg_missed - note that the ring buffer dropped events
 * @a: the aggregate
 * @missed: the record's missed_events: a count, or negative when the
 *	kernel did not record how many
 */
void kmem_agg_missed(struct kmem_agg *a, long long missed)
{
	if (missed > 0)
		a->events_lost += (uint64_t)missed;
	else if (missed < 0)
		a->lost_unknown++;
}

/**
 * kmem_agg_oom - the events the allocators could not count
 * @a: the aggregate
 *
 * Return: the sum of the allocators' oom (their tables' "Events not
 * counted (out of memory)").
 */
uint64_t kmem_agg_oom(const struct kmem_agg *a)
{
	uint64_t n = 0;
	int id;

	for (id = 0; id < KMEM_NR_ALLOC; id++)
		if (kmem_agg_stats(a, id))
			n += kmem_alloc_lc(&kmem_allocs[id],
					   kmem_agg_stats(a, id))
				     ->oom;
	return n;
}

/**
 * kmem_agg_unrecorded - the free events an allocator's records lack
 * @a: the aggregate
 * @id: the allocator
 *
 * Frees whose event was not recorded leave what is live unknown: the
 * allocator's own answer (kmem_allocs[].unrecorded), or its free_slot
 * when its allocations have records and its frees none; with those of
 * every trace merged into @a.
 *
 * Return: the set of those events (KMEM_SLOT_BIT()), 0 for none.
 */
uint64_t kmem_agg_unrecorded(const struct kmem_agg *a, enum kmem_alloc_id id)
{
	const struct kmem_alloc_desc *d = &kmem_allocs[id];
	uint64_t set = 0;
	int slot;

	for (slot = 0; slot < KMEM_NR_SLOTS; slot++)
		if (kmem_event_defs[slot].alloc == id)
			set |= a->unrecorded & KMEM_SLOT_BIT(slot);
	if (!a->kinds[d->alloc_kind])
		return set;
	if (d->unrecorded && kmem_agg_stats(a, id))
		return set | d->unrecorded(kmem_agg_stats(a, id));
	if (!a->kinds[d->free_kind])
		set |= KMEM_SLOT_BIT(d->free_slot);
	return set;
}

/**
 * kmem_agg_merge - add one input's summary counters to a merged total
 * @to: the total: summaries and stream counters only, no tables
 * @from: a finished input
 * @old_migratetypes: @from's kernel numbered migration types before 4.4;
 *	@to is kept in the 4.4 numbering
 *
 * Everything added is a count, so the merged summary is the sum of the
 * inputs' summaries; per-callsite and per-page tables are not merged
 * (addresses of different boots or machines mean different things).
 */
void kmem_agg_merge(struct kmem_agg *to, const struct kmem_agg *from,
		    bool old_migratetypes)
{
	unsigned int id;

	for (id = 0; id < KMEM_NR_ALLOC; id++) {
		to->unrecorded |= kmem_agg_unrecorded(from, id);
		to->events[id] += from->events[id];
		kmem_allocs[id].merge(kmem_agg_stats(to, id),
				      kmem_agg_stats(from, id),
				      old_migratetypes);
	}
	for (id = 0; id < KMEM_NR_KINDS; id++)
		to->kinds[id] += from->kinds[id];
	to->idle_records += from->idle_records;
	to->stack_records += from->stack_records;
	to->events_lost += from->events_lost;
	to->lost_unknown += from->lost_unknown;
	to->undecodable += from->undecodable;
	if (from->last_ts > to->last_ts)
		to->last_ts = from->last_ts;
	if (from->first_ts && (from->first_ts < to->first_ts || !to->first_ts))
		to->first_ts = from->first_ts;
	to->skipped_records += from->skipped_records;
	to->damaged_pages += from->damaged_pages;
	to->damaged_chunks += from->damaged_chunks;
	to->unread_records += from->unread_records;
	kmem_agg_unknown(to, from->unknown_id, from->unknown_records);
	to->unknown_ids_more |= from->unknown_ids_more;
	if (!to->id_clash[0])
		memcpy(to->id_clash, from->id_clash, sizeof(to->id_clash));
}

/**
 * kmem_agg_addresses - the code addresses a report of @a may name
 * @a: the statistics, every event accounted
 * @n: set to their number
 *
 * Call sites of every table and the frames of every stack kept, in no
 * order, with repeats: what a front end resolves in one go before the
 * report (an address left out still resolves, only more slowly).  With
 * page call sites deferred (kmem_agg_defer_callsites()), every frame of
 * the page stacks instead of their call sites: what
 * kmem_agg_resolve_callsites() looks up, and the report after it.
 *
 * Return: a malloc()ed array of *@n addresses, or NULL (also when
 * there are none, *@n 0) when memory ran out.
 */
uint64_t *kmem_agg_addresses(const struct kmem_agg *a, size_t *n)
{
	const struct kmem_folded *fo = &a->folded;
	size_t i, k = 0, cap = fo->nr_frames + 1;
	unsigned int id;
	uint64_t *v;

	for (id = 0; id < KMEM_NR_ALLOC; id++)
		cap += kmem_allocs[id].addresses(kmem_agg_stats(a, id), NULL);
	v = malloc(cap * sizeof(*v));
	*n = 0;
	if (!v)
		return NULL;
	for (id = 0; id < KMEM_NR_ALLOC; id++)
		k += kmem_allocs[id].addresses(kmem_agg_stats(a, id), v + k);
	for (i = 0; i < fo->nr_frames; i++)
		v[k++] = fo->frames[i];
	*n = k;
	return v;
}

/**
 * kmem_agg_defer_callsites - choose page call sites after counting
 * @a: the aggregate, before its first event
 *
 * For a front end that resolves symbols best all at once, after counting
 * (the native reader over a big kallsyms): no stack frame is resolved
 * while counting, each distinct page stack is kept instead (memory grows
 * with distinct stacks, not with events), and the skip rules choose the
 * call sites, and the folded page stacks' first frame, in
 * kmem_agg_resolve_callsites().  Not with a timeline, which reads the
 * call-site rows while counting: page_account() then resolves as it
 * goes.
 */
void kmem_agg_defer_callsites(struct kmem_agg *a)
{
	struct page_stats *p = kmem_agg_stats(a, KMEM_ALLOC_PAGE);

	if (p->touched.on)
		return;
	page_defer_callsites(p);
	if (p->defer)
		kmem_folded_defer(&a->folded);
}

/**
 * kmem_agg_resolve_callsites - the call sites kmem_agg_defer_callsites()
 *	put off
 * @a: the aggregate, every event counted, before kmem_agg_finish()
 *
 * Every frame of kmem_agg_addresses() is looked up here, each once: a
 * front end announces them to its symbols first.  The statistics are
 * then those that choosing while counting gives, rows in the same order.
 */
void kmem_agg_resolve_callsites(struct kmem_agg *a)
{
	struct page_stats *p = kmem_agg_stats(a, KMEM_ALLOC_PAGE);

	page_resolve_callsites(p);
	kmem_folded_resolve(&a->folded, p);
}
