// SPDX-License-Identifier: LGPL-2.1
/*
 * What a trace recorded (see recorded.h).
 */
#include <stdio.h>

#include "alloc/registry.h"
#include "recorded.h"

/**
 * kmem_recorded - does the trace hold records of an event kind?
 * @r: the report
 * @kind: the kind (KMEM_EV_*)
 *
 * A kind with no record is taken as not recorded: trace-cmd extract
 * saves every event's format, enabled or not, so the formats cannot
 * tell.  An allocator's frees are not recorded either when one of its
 * free events is missing, or was in a trace merged into the report
 * (kmem_agg_unrecorded()); not under the front end's filters (--time,
 * --pid ...), whose window or tasks may hold one free event's records
 * and not another's.  Without a report (@r NULL), and for
 * KMEM_EV_NONE, the answer is yes.
 *
 * Return: true when at least one record of @kind was accounted, and
 * none of its events is missing.
 */
bool kmem_recorded(const struct kmem_report_ctx *r, enum kmem_ev_kind kind)
{
	enum kmem_alloc_id id;

	if (!r || kind <= KMEM_EV_NONE || kind >= KMEM_NR_KINDS)
		return true;
	if (!r->agg->kinds[kind])
		return false;
	id = kmem_alloc_of(kind);
	return id >= KMEM_NR_ALLOC || kind != kmem_allocs[id].free_kind ||
	       (r->in && r->in->filters) || !kmem_agg_unrecorded(r->agg, id);
}

/* The event each kind is named by (the first of several). */
static const enum kmem_slot kind_slot[KMEM_NR_KINDS] = {
	[KMEM_EV_SLAB_ALLOC] = KMEM_SLOT_KMALLOC,
	[KMEM_EV_SLAB_FREE] = KMEM_SLOT_KFREE,
	[KMEM_EV_PAGE_ALLOC] = KMEM_SLOT_PAGE_ALLOC,
	[KMEM_EV_PAGE_FREE] = KMEM_SLOT_PAGE_FREE,
	[KMEM_EV_PAGE_FREE_BATCHED] = KMEM_SLOT_PAGE_FREE_BATCHED,
	[KMEM_EV_PAGE_ZONE_LOCKED] = KMEM_SLOT_PAGE_ZONE_LOCKED,
	[KMEM_EV_PAGE_PCPU_DRAIN] = KMEM_SLOT_PAGE_PCPU_DRAIN,
	[KMEM_EV_PAGE_EXTFRAG] = KMEM_SLOT_PAGE_EXTFRAG,
	[KMEM_EV_STACK] = KMEM_SLOT_KERNEL_STACK,
	[KMEM_EV_PERCPU_ALLOC] = KMEM_SLOT_PERCPU_ALLOC,
	[KMEM_EV_PERCPU_FREE] = KMEM_SLOT_PERCPU_FREE,
	[KMEM_EV_PERCPU_FAIL] = KMEM_SLOT_PERCPU_FAIL,
	[KMEM_EV_PERCPU_CHUNK_NEW] = KMEM_SLOT_PERCPU_CREATE_CHUNK,
	[KMEM_EV_PERCPU_CHUNK_DEL] = KMEM_SLOT_PERCPU_DESTROY_CHUNK,
	[KMEM_EV_VMALLOC_ALLOC] = KMEM_SLOT_VMAP_ALLOC,
	[KMEM_EV_VMALLOC_FREE] = KMEM_SLOT_VMAP_FREE,
	[KMEM_EV_VMALLOC_PURGE] = KMEM_SLOT_VMAP_PURGE,
};

/**
 * kmem_kind_slot - the event to enable for records of a kind
 * @kind: the kind (not KMEM_EV_NONE)
 *
 * Return: its slot (kmem_slot_system(), kmem_slot_event_name()); of a
 * kind several events make, the first.
 */
enum kmem_slot kmem_kind_slot(enum kmem_ev_kind kind)
{
	return (unsigned int)kind < KMEM_NR_KINDS ? kind_slot[kind]
						  : KMEM_SLOT_KMALLOC;
}

/**
 * kmem_unrecorded_slots - the events to enable for figures of a kind
 * @r: the report
 * @kind: a kind kmem_recorded() says is not recorded
 *
 * Return: the set of events (KMEM_SLOT_BIT()): an allocator's missing
 * free events (kmem_agg_unrecorded()), else kmem_kind_slot()'s.
 */
uint64_t kmem_unrecorded_slots(const struct kmem_report_ctx *r,
			       enum kmem_ev_kind kind)
{
	enum kmem_alloc_id id = kmem_alloc_of(kind);
	uint64_t set = 0;

	if (r && id < KMEM_NR_ALLOC && kind == kmem_allocs[id].free_kind)
		set = kmem_agg_unrecorded(r->agg, id);
	return set ? set : KMEM_SLOT_BIT(kmem_kind_slot(kind));
}

/*
 * One report over several traces (stat --merge): its repeated frees
 * are its traces', so they are double frees only when each trace that
 * has some holds all its allocations; else the first that may not, and
 * why.  (The traces' summed counts would blame one trace's repeated
 * frees on another's lost events.)
 */
static const char *parts_doubt(const struct kmem_report_ctx *r,
			       enum kmem_alloc_id id, char *buf, size_t len)
{
	int i;

	for (i = 0; i < r->in->nr_parts; i++) {
		const struct kmem_merge_part *pt = &r->in->parts[i];
		struct kmem_input in = { .label = pt->label,
					 .filters = r->in->filters };
		struct kmem_report_ctx one = { .agg = &pt->head,
					       .cfg = r->cfg,
					       .sym = r->sym,
					       .in = &in };
		char why[KMEM_DOUBT_LEN];
		const char *d;

		if (!pt->double_frees[id])
			continue; /* none of the repeated frees */
		d = kmem_free_doubt(&one, id, why, sizeof(why));
		if (d) { /* the file's name: room for the reason */
			const char *base = strrchr(pt->label, '/');

			snprintf(buf, len, "%s: %s",
				 base ? base + 1 : pt->label, d);
			return buf;
		}
	}
	return NULL;
}

/**
 * kmem_free_doubt - why a repeated free may not be a double free
 * @r: the report
 * @id: the allocator
 * @buf: room for the reason (KMEM_DOUBT_LEN bytes)
 * @len: its size
 *
 * A free of an object already freed, with no allocation recorded in
 * between, is a double free only when every allocation was surely
 * recorded.  It is not when the ring buffer lost events or damaged data
 * was skipped, when the front end's filters left records out, when the
 * allocator's allocation event has no record, or when no record comes
 * from pid 0: interrupts on an idle CPU allocate and free in every
 * recording of the whole system, and none in one of chosen tasks
 * (set_event_pid, trace-cmd record -P), where an object allocated by
 * an untraced task and freed by traced ones shows as freed twice.  A
 * live trace of every task (kmem_input.all_tasks) with no pid 0 record
 * ran on CPUs never idle: there allocations that pass no tracepoint
 * (kmem_cache_alloc_bulk()) are the likely cause.
 *
 * Return: NULL when the frees are double frees; else the reason, in
 * @buf or static, a phrase to follow "no allocation seen between; ".
 */
const char *kmem_free_doubt(const struct kmem_report_ctx *r,
			    enum kmem_alloc_id id, char *buf, size_t len)
{
	const struct kmem_agg *a;

	if (!r)
		return NULL;
	if (r->in->nr_parts)
		return parts_doubt(r, id, buf, len);
	a = r->agg;
	if (a->events_lost || a->lost_unknown)
		return "the ring buffer lost events";
	if (kmem_agg_damaged(a))
		return "damaged trace data was skipped";
	if (r->in->filters) {
		snprintf(buf, len, "the filters (%s) left records out",
			 r->in->filters);
		return buf;
	}
	if (!kmem_recorded(r, kmem_allocs[id].alloc_kind))
		return "no allocation was recorded";
	if (!a->idle_records)
		return r->in->all_tasks
			       ? "allocations that pass no tracepoint (bulk "
				 "ones) may lie between"
			       : "no pid 0 record: likely only chosen tasks "
				 "were traced";
	return NULL;
}
