// SPDX-License-Identifier: LGPL-2.1
/*
 * Per-input aggregation: dispatch of decoded events (see agg.h).
 */
#include <string.h>

#include "agg.h"

/**
 * kmem_agg_init - empty statistics for one input
 * @a: the aggregate
 */
void kmem_agg_init(struct kmem_agg *a)
{
	memset(a, 0, sizeof(*a));
	slab_stats_init(&a->slab);
}

/**
 * kmem_agg_release - free what the statistics hold
 * @a: the aggregate
 */
void kmem_agg_release(struct kmem_agg *a)
{
	slab_stats_release(&a->slab);
}

/**
 * kmem_agg_event - account one decoded event
 * @a: the aggregate
 * @ev: the event
 */
void kmem_agg_event(struct kmem_agg *a, const struct kmem_event *ev)
{
	switch (ev->kind) {
	case KMEM_EV_SLAB_ALLOC:
	case KMEM_EV_SLAB_FREE:
		a->slab_events++;
		slab_account(&a->slab, ev);
		break;
	case KMEM_EV_NONE:
		break;
	}
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
