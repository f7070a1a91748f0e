/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Everything one input contributes: the per-allocator statistics and
 * the facts about the stream itself (lost events, undecodable records).
 */
#ifndef KMEM_AGG_H
#define KMEM_AGG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "alloc/registry.h"
#include "event/kmem_event.h"
#include "folded.h"

/*
 * What an input collects beyond its counts (filled by the front end,
 * from the options: kmem_opts_collect_cfg()).
 */
struct kmem_collect_cfg {
	bool rows;		/* per-address rows (per-allocation tables) */
	bool lifetimes;		/* lifetime histograms (KMEM_CAP_LIFETIMES) */
	bool stacks;		/* allocations by stack (folded, leaks) */
	bool stacks_live;	/* ... of what is live at the end only */
	bool alloc[KMEM_NR_ALLOC];	/* analysed, by enum kmem_alloc_id */
	const char *skip;	/* stack frames to skip, NULL: default */
};

/* Room for struct kmem_agg's id_clash */
#define KMEM_ID_CLASH_LEN 288

struct kmem_agg {
	/* each allocator's statistics (kmem_agg_stats()), in one block */
	void *stats[KMEM_NR_ALLOC];
	/* ... and its kmem_allocs[].account, read where the event is */
	void (*account[KMEM_NR_ALLOC])(void *st, const struct kmem_event *ev);
	struct kmem_folded folded;	/* by stack, with kmem:folded */
	uint64_t events[KMEM_NR_ALLOC]; /* records accounted, by allocator */
	uint64_t kinds[KMEM_NR_KINDS];	/* ... by kind (KMEM_EV_*) */
	/* allocator records of pid 0: interrupts on an idle CPU, which a
	 * recording of chosen tasks (set_event_pid) leaves out */
	uint64_t idle_records;
	uint64_t stack_records;	/* kernel_stack records seen */
	uint64_t events_lost;	/* events the ring buffer reported lost */
	uint64_t lost_unknown;	/* losses whose size was not recorded */
	uint64_t undecodable;	/* records of an event lacking fields */
	uint64_t first_ts;	/* the first allocator record's time */
	uint64_t last_ts;	/* the last's: the end (records are sorted) */
	/* trace data the reader could not trust, skipped */
	uint64_t skipped_records;	/* records of impossible sizes */
	uint64_t damaged_pages;		/* ring-buffer pages (or their rest) */
	uint64_t damaged_chunks;	/* compressed chunks */
	uint64_t unread_records;	/* left unread by libtracecmd */
	/* records of an event id no format in the file has, unread: the
	 * first one's id, and whether others had other ids */
	uint64_t unknown_records;
	long long unknown_id;
	bool unknown_ids_more;
	/* free events some merged trace lacks (kmem_agg_unrecorded()) */
	uint64_t unrecorded;
	/* "SYS:A and SYS:B share event id N": two formats of one id (the
	 * records of that id are undecodable), or "" */
	char id_clash[KMEM_ID_CLASH_LEN];
};

/**
 * kmem_agg_stats - an allocator's statistics in an aggregate
 * @a: the aggregate
 * @id: the allocator
 *
 * Return: its statistics (kmem_allocs[@id].stats_size bytes), what
 * kmem_allocs[@id]'s calls take (writable only through an @a that is).
 */
static inline void *kmem_agg_stats(const struct kmem_agg *a,
				   enum kmem_alloc_id id)
{
	return a->stats[id];
}

int kmem_agg_init(struct kmem_agg *a);
/*
 * What a front end says of a skip regex kmem_agg_configure() refused:
 * its name, the regex, the error.
 */
#define KMEM_BAD_SKIP_FMT "%s: bad skip=%s: %s; using the default rules\n"

int kmem_agg_configure(struct kmem_agg *a, const struct kmem_symbolizer *sym,
		       const char *skip, char *err, size_t errlen);
void kmem_agg_set_subbuf(struct kmem_agg *a, unsigned int subbuf_size);
void kmem_agg_keep_rows(struct kmem_agg *a,
			const struct kmem_collect_cfg *c);
void kmem_agg_set_numa(struct kmem_agg *a, const struct kmem_numa *numa);
void kmem_agg_follow(struct kmem_agg *a, struct kmem_match *m);
void kmem_agg_finish(struct kmem_agg *a);
void kmem_agg_release(struct kmem_agg *a);
void kmem_agg_event(struct kmem_agg *a, const struct kmem_event *ev);
void kmem_agg_missed(struct kmem_agg *a, long long missed);
void kmem_agg_unknown(struct kmem_agg *a, long long id, uint64_t n);
uint64_t *kmem_agg_addresses(const struct kmem_agg *a, size_t *n);
void kmem_agg_defer_callsites(struct kmem_agg *a);
void kmem_agg_resolve_callsites(struct kmem_agg *a);
uint64_t kmem_agg_oom(const struct kmem_agg *a);
uint64_t kmem_agg_unrecorded(const struct kmem_agg *a, enum kmem_alloc_id id);
void kmem_agg_merge(struct kmem_agg *to, const struct kmem_agg *from,
		    bool old_migratetypes);

#endif
