/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The front ends' loop: a record's event id to its slot, the slot's
 * decoder, then the aggregate.  trace-kmem (cli/session.c), the
 * libtraceevent plugin (plugin/handlers.c) and the KernelShark plugin
 * (kernelshark/follow.c) each keep only what is their own around it:
 * how records arrive, their filters, what they print.
 *
 * A front end that is handed its records by event (the plugin, through
 * libtraceevent's handlers) needs no id map: kmem_feed_fields() gives
 * the fields of the event it was handed.  The others map the ids once
 * (KMEM_FEED_MAP_IDS) and ask kmem_feed_slot() per record.
 */
#ifndef KMEM_FEED_LOOP_H
#define KMEM_FEED_LOOP_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <event-parse.h>

#include "analysis/agg.h"
#include "base/hashtab.h"
#include "event/decode.h"

/* kmem_feed_init() flags: map event ids to slots */
#define KMEM_FEED_MAP_IDS 1u
/* ... and only that: no fields looked up, for a feed that only tells
 * records apart (kmem_feed_slot()), never decodes them */
#define KMEM_FEED_SLOTS_ONLY 2u

/* Ids below this are mapped in an array (always, for the 2-byte
 * common_type of every kernel so far), the others in a hash. */
#define KMEM_FEED_DENSE_IDS 65536

/* kmem_feed_slot() of a record whose event id has no format, once told
 * (kmem_feed_known()); -1: not ours */
#define KMEM_FEED_NO_FORMAT (-2)

/* Sets the shortest and longest record of event id @id can be (1 and
 * UINT32_MAX: any); kmem_feed_lens(). */
typedef void (*kmem_len_fn)(void *arg, int id, uint32_t *lo, uint32_t *hi);

/**
 * struct kmem_feed - the loop's state, one a tep handle
 * @fields: the fields of each slot's event
 * @slot_of: event id -> slot, -1: not ours, KMEM_FEED_NO_FORMAT: no
 *	format (ids below KMEM_FEED_DENSE_IDS; all of them for a 2-byte
 *	common_type)
 * @nr_ids: entries of @slot_of
 * @id_ix: event id -> slot, when an id is too large for @slot_of
 * @type_off: where common_type lies in a record
 * @type_size: its size, 2 or 4; 0: unknown, no record is ours
 * @type_end: @type_off + @type_size
 * @type_span: 2^31 - @type_end, 0 when @type_size is: a record holds the
 *	type when its size less @type_end, unsigned, is below it (one
 *	comparison for a negative size, a short one and an unknown type)
 * @type_swap: the file's byte order is not ours
 * @type_short: a 2-byte common_type in our byte order, and @slot_of holds
 *	all 65536 ids: the slot is read with no other test
 * @len_of: tells the shortest and longest record of an id's event
 *	(kmem_feed_lens()), or NULL
 * @len_arg: its first argument
 * @lens: what it told, at [2 * id] and [2 * id + 1] (0 at [2 * id]: not
 *	asked yet), for @nr_lens ids
 * @misfits: records of other events whose length their format does not
 *	allow (kmem_feed_other()), since the front end last set it to 0
 * @misfit_cpu: the first one's CPU
 * @misfit_offset: its offset, as records count them
 * @agg: the aggregate the records go to
 * @keep: NULL, or whether a decoded event is accounted (filters)
 * @keep_arg: @keep's first argument
 */
struct kmem_feed {
	struct kmem_fields fields[KMEM_NR_SLOTS];
	int8_t *slot_of;
	int nr_ids;
	struct u64_index id_ix;
	unsigned int type_off, type_size, type_end, type_span;
	bool type_swap;
	bool type_short;
	kmem_len_fn len_of;
	void *len_arg;
	uint32_t *lens;
	int nr_lens;
	uint64_t misfits;
	int misfit_cpu;
	uint64_t misfit_offset;
	struct kmem_agg *agg;
	bool (*keep)(void *arg, const struct kmem_event *ev);
	void *keep_arg;
};

int kmem_feed_init(struct kmem_feed *fd, struct tep_handle *tep,
		   struct kmem_agg *agg, unsigned int flags);
void kmem_feed_release(struct kmem_feed *fd);
struct kmem_fields *kmem_feed_fields(struct kmem_feed *fd, enum kmem_slot slot,
				     struct tep_event *event);
void kmem_feed_missed(struct kmem_feed *fd, long long missed);
void kmem_feed_known(struct kmem_feed *fd, const uint8_t *ids);
void kmem_feed_known_tep(struct kmem_feed *fd, struct tep_handle *tep);
void kmem_feed_no_format(struct kmem_feed *fd, const struct tep_record *rec);
int kmem_feed_lens(struct kmem_feed *fd, kmem_len_fn len_of, void *arg);
int kmem_feed_lens_tep(struct kmem_feed *fd, struct tep_handle *tep);
__attribute__((cold)) void kmem_feed_other(struct kmem_feed *fd,
					   const struct tep_record *rec);

/* The event id of @rec, its common_type read here (the per-record path). */
static inline int kmem_feed_type(const struct kmem_feed *fd,
				 const struct tep_record *rec)
{
	const char *p = (const char *)rec->data + fd->type_off;
	uint16_t v16;
	uint32_t v32;

	if (fd->type_size == 2) {
		memcpy(&v16, p, 2);
		return fd->type_swap ? __builtin_bswap16(v16) : v16;
	}
	memcpy(&v32, p, 4);
	return (int)(fd->type_swap ? __builtin_bswap32(v32) : v32);
}

/**
 * kmem_feed_slot - the slot of a record's event
 * @fd: the feed, its ids mapped (KMEM_FEED_MAP_IDS)
 * @rec: the record
 *
 * An array lookup by event id (a hash lookup for ids of KMEM_FEED_DENSE_IDS
 * and above); inline: the per-record path.
 *
 * Return: the slot, or -1: not one of ours, or too short to say;
 * KMEM_FEED_NO_FORMAT: of an event id no format has (kmem_feed_known()).
 */
static inline int kmem_feed_slot(const struct kmem_feed *fd,
				 const struct tep_record *rec)
{
	uint32_t v;
	int id;

	if ((unsigned int)rec->size - fd->type_end >= fd->type_span)
		return -1;
	if (fd->type_short) {
		uint16_t v16;

		memcpy(&v16, (const char *)rec->data + fd->type_off, 2);
		return fd->slot_of[v16];
	}
	id = kmem_feed_type(fd, rec);
	if (fd->slot_of)
		return id >= 0 && id < fd->nr_ids ? fd->slot_of[id] : -1;
	v = u64_index_find(&fd->id_ix, (uint64_t)(unsigned int)id);
	return v == U64_INDEX_NONE ? -1 : (int)v;
}

/**
 * kmem_feed_step_as - decode one record of ours and account it
 * @fd: the feed
 * @slot: the record's slot, its fields set up (kmem_feed_slot(), or
 *	kmem_feed_fields())
 * @rec: the record
 * @ev: filled in
 * @keep: a constant: false leaves the @fd->keep test out of that
 *	instance, for a caller that knows @fd->keep is NULL
 *
 * Inline: the per-record path.
 *
 * Return: 0: accounted; 1: decoded but left out by @fd->keep; -1:
 * undecodable (counted in the aggregate).
 */
static inline __attribute__((always_inline)) int
kmem_feed_step_as(struct kmem_feed *fd, int slot, const struct tep_record *rec,
		  struct kmem_event *ev, bool keep)
{
	const struct kmem_fields *f = &fd->fields[slot];

	if (kmem_decode(f, rec, ev)) {
		fd->agg->undecodable++;
		return -1;
	}
	if (keep && fd->keep && !fd->keep(fd->keep_arg, ev))
		return 1;
	kmem_agg_event(fd->agg, ev);
	return 0;
}

/**
 * kmem_feed_step - decode one record of ours and account it
 * @fd: the feed
 * @slot: the record's slot, as for kmem_feed_step_as()
 * @rec: the record
 * @ev: filled in
 *
 * Return: as kmem_feed_step_as().
 */
static inline int kmem_feed_step(struct kmem_feed *fd, int slot,
				 const struct tep_record *rec,
				 struct kmem_event *ev)
{
	return kmem_feed_step_as(fd, slot, rec, ev, true);
}

#endif
