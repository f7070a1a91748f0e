// SPDX-License-Identifier: LGPL-2.1
/*
 * The front ends' loop (see loop.h): no allocation, no formatting, no
 * search per record.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc/registry.h"
#include "loop.h"

/* Note in the aggregate that @f's event shares its id with another. */
static void note_clash(struct kmem_feed *fd, const struct kmem_fields *f)
{
	const struct tep_event *a = f->event, *b = f->clash;

	if (b && fd->agg && !fd->agg->id_clash[0])
		snprintf(fd->agg->id_clash, sizeof(fd->agg->id_clash),
			 "%.60s:%.60s and %.60s:%.60s share event id %d",
			 a->system, a->name, b->system, b->name, a->id);
}

/*
 * Where a record's event id is: the common_type every format gives (2
 * or 4 bytes), or the one most of them give (a majority vote, one pass).
 * One damaged format (the first, say) does not hide every record; a
 * format of ours that gives another is unsound (kmem_format_sound()),
 * its records not decoded.
 */
static const struct tep_format_field *common_type(struct tep_handle *tep)
{
	const struct tep_format_field *best = NULL, *t;
	int i, n = tep_get_events_count(tep), votes = 0;

	for (i = 0; i < n; i++) {
		t = tep_find_common_field(tep_get_event(tep, i), "common_type");
		if (!t || (t->size != 2 && t->size != 4))
			continue;
		if (best && t->offset == best->offset && t->size == best->size)
			votes++;
		else if (votes)
			votes--;
		else {
			best = t;
			votes = 1;
		}
	}
	return best;
}

/*
 * Which events are ours: event id -> slot, filled once per input.  Only
 * our events' ids are mapped; densely when the largest is below
 * KMEM_FEED_DENSE_IDS, else in a hash, so that no id in a file sizes an
 * allocation.  The handle's events are walked in its own order, by id
 * (libtraceevent keeps them sorted for its lookups): not through
 * tep_list_events(), whose sorted copy would stay in a handle that
 * trace-cmd or KernelShark lend, for the rest of their run.
 */
static int map_events(struct kmem_feed *fd, struct tep_handle *tep, bool fields)
{
	int i, slot, n = tep_get_events_count(tep), max = -1;
	const struct tep_format_field *t;
	struct tep_event *ev;

	for (i = 0; i < n; i++) {
		ev = tep_get_event(tep, i);
		if (ev->id >= 0 && ev->id > max &&
		    kmem_slot_by_name(ev->system, ev->name) >= 0)
			max = ev->id;
	}
	t = common_type(tep);
	if (t) {
		fd->type_off = (unsigned int)t->offset;
		fd->type_size = (unsigned int)t->size;
		fd->type_end = fd->type_off + fd->type_size;
		fd->type_span = 0x80000000u - fd->type_end;
		fd->type_swap = tep_is_file_bigendian(tep) !=
				tep_is_local_bigendian(tep);
	}
	/* a 2-byte common_type holds no id over 65535: a format claiming
	 * one (damaged) has no record, and the ids are mapped densely all
	 * the same, to tell the ids without a format apart */
	if (max < KMEM_FEED_DENSE_IDS || fd->type_size == 2) {
		/* a 2-byte id in our byte order always has its entry */
		fd->type_short = fd->type_size == 2 && !fd->type_swap;
		fd->nr_ids = fd->type_size == 2 ? KMEM_FEED_DENSE_IDS : max + 1;
		fd->slot_of = malloc(fd->nr_ids ? (size_t)fd->nr_ids : 1);
		if (!fd->slot_of)
			return -1;
		memset(fd->slot_of, -1, fd->nr_ids ? (size_t)fd->nr_ids : 1);
	} else if (u64_index_init(&fd->id_ix, 16)) {
		return -1;
	}
	for (i = 0; i < n; i++) {
		ev = tep_get_event(tep, i);
		slot = kmem_slot_by_name(ev->system, ev->name);
		if (slot < 0 || ev->id < 0)
			continue;
		if (fields) {
			kmem_fields_init(&fd->fields[slot], ev, slot);
			note_clash(fd, &fd->fields[slot]);
		}
		if (fd->slot_of && ev->id < fd->nr_ids)
			fd->slot_of[ev->id] = (int8_t)slot;
		else if (fd->slot_of)
			continue; /* no record can have it */
		else if (u64_index_insert(&fd->id_ix, (uint64_t)ev->id,
					  (uint32_t)slot))
			return -1;
	}
	return 0;
}

/**
 * kmem_feed_init - start the loop for one tep handle
 * @fd: the feed
 * @tep: the handle (its event formats); with KMEM_FEED_MAP_IDS only
 * @agg: where the records go, initialised by the caller; NULL when the
 *	records are only told apart (kmem_feed_slot()), not accounted
 * @flags: KMEM_FEED_MAP_IDS: map the event ids of @tep to slots, and
 *	look up the fields of each of our events; with KMEM_FEED_SLOTS_ONLY
 *	too, not the fields (a third of a million instructions an event,
 *	the print fmt probed): the feed tells records apart
 *	(kmem_feed_slot()), and is not stepped
 *
 * Return: 0, or -1 when memory ran out (kmem_feed_release() all the
 * same).
 */
int kmem_feed_init(struct kmem_feed *fd, struct tep_handle *tep,
		   struct kmem_agg *agg, unsigned int flags)
{
	memset(fd, 0, sizeof(*fd));
	fd->agg = agg;
	if (!(flags & KMEM_FEED_MAP_IDS))
		return 0;
	return map_events(fd, tep, !(flags & KMEM_FEED_SLOTS_ONLY));
}

/**
 * kmem_feed_release - free the id map
 * @fd: the feed (zeroed, or kmem_feed_init()'s)
 */
void kmem_feed_release(struct kmem_feed *fd)
{
	free(fd->lens);
	fd->lens = NULL;
	if (!fd->slot_of && fd->id_ix.slots)
		u64_index_free(&fd->id_ix);
	free(fd->slot_of);
	fd->slot_of = NULL;
}

/**
 * kmem_feed_fields - the fields of a slot, for the event handed over
 * @fd: the feed
 * @slot: the slot of @event
 * @event: the event type
 *
 * Looked up the first time, and again when @event is not the event type
 * they were looked up for.
 *
 * Return: the fields.
 */
struct kmem_fields *kmem_feed_fields(struct kmem_feed *fd, enum kmem_slot slot,
				     struct tep_event *event)
{
	struct kmem_fields *f = &fd->fields[slot];

	if (f->event != event) {
		kmem_fields_init(f, event, slot);
		note_clash(fd, f);
	}
	return f;
}

/* Is id @k set in @ids (NULL: none is)? */
static bool has_format(const uint8_t *ids, int k)
{
	return ids && ids[k / 8] & (1u << (k % 8));
}

/*
 * Every id that is not ours and not in @ids (NULL: none) to
 * KMEM_FEED_NO_FORMAT.  Eight ids at a time where all eight are not
 * ours and have no format, as most of the 65536 are.
 */
static void mark_unknown(struct kmem_feed *fd, const uint8_t *ids)
{
	const uint64_t none = 0xffffffffffffffffULL;	/* eight -1 */
	const uint64_t unknown = 0xfefefefefefefefeULL; /* eight -2 */
	int i, k;

	for (i = 0; i < fd->nr_ids; i += 8) {
		uint64_t w;

		if (i + 8 <= fd->nr_ids && !(ids && ids[i / 8])) {
			memcpy(&w, fd->slot_of + i, 8);
			if (w == none) {
				memcpy(fd->slot_of + i, &unknown, 8);
				continue;
			}
		}
		for (k = i; k < i + 8 && k < fd->nr_ids; k++)
			if (fd->slot_of[k] == -1 && !has_format(ids, k))
				fd->slot_of[k] = KMEM_FEED_NO_FORMAT;
	}
}

/**
 * kmem_feed_known - the event ids that have a format, from the file
 * @fd: the feed, its ids mapped (KMEM_FEED_MAP_IDS)
 * @ids: a bit for each id below KMEM_FEED_DENSE_IDS that a format of
 *	the file names (tdat_format_ids()); NULL: none do
 *
 * From then on, kmem_feed_slot() tells a record of an id no format has
 * (KMEM_FEED_NO_FORMAT) from one of another event's: for the front end
 * to count (kmem_feed_no_format()), as no one can say what it was.
 * Only ids below @fd's @nr_ids are told apart: all of a 2-byte
 * common_type's.
 */
void kmem_feed_known(struct kmem_feed *fd, const uint8_t *ids)
{
	if (fd->slot_of)
		mark_unknown(fd, ids);
}

/**
 * kmem_feed_known_tep - the event ids that have a format, from a handle
 * @fd: the feed, its ids mapped (KMEM_FEED_MAP_IDS)
 * @tep: the handle holding every format of the file (libtracecmd's)
 *
 * As kmem_feed_known(), the formats being @tep's events: a format
 * libtraceevent could not parse has none.
 */
void kmem_feed_known_tep(struct kmem_feed *fd, struct tep_handle *tep)
{
	int i, n = tep_get_events_count(tep);

	if (!fd->slot_of)
		return;
	mark_unknown(fd, NULL);
	for (i = 0; i < n; i++) {
		const struct tep_event *ev = tep_get_event(tep, i);

		if (ev && ev->id >= 0 && ev->id < fd->nr_ids &&
		    fd->slot_of[ev->id] == KMEM_FEED_NO_FORMAT)
			fd->slot_of[ev->id] = -1;
	}
}

/**
 * kmem_feed_no_format - count a record of an event id no format has
 * @fd: the feed, its aggregate set
 * @rec: the record (kmem_feed_slot() said KMEM_FEED_NO_FORMAT)
 *
 * Not on the path of our records: called only for such a record, which
 * a healthy file seldom holds.
 */
void kmem_feed_no_format(struct kmem_feed *fd, const struct tep_record *rec)
{
	if (fd->agg)
		kmem_agg_unknown(fd->agg, kmem_feed_type(fd, rec), 1);
}

/**
 * kmem_feed_missed - the ring buffer lost events before a record
 * @fd: the feed
 * @missed: the record's missed_events (-1: an unknown number)
 */
void kmem_feed_missed(struct kmem_feed *fd, long long missed)
{
	kmem_agg_missed(fd->agg, missed);
}

/*
 * The ids a record of another event can have that a format gives: below
 * the highest one not marked KMEM_FEED_NO_FORMAT (kmem_feed_known()),
 * and below @cap.  Eight at a time from the top, where most of the 65536
 * have none.
 */
static int ids_with_format(const struct kmem_feed *fd, int cap)
{
	const uint64_t unknown = 0xfefefefefefefefeULL; /* eight -2 */
	int n = fd->nr_ids < cap ? fd->nr_ids : cap > 0 ? cap : 0;
	uint64_t w;

	while (n >= 8) {
		memcpy(&w, fd->slot_of + n - 8, 8);
		if (w != unknown)
			break;
		n -= 8;
	}
	while (n > 0 && fd->slot_of[n - 1] == KMEM_FEED_NO_FORMAT)
		n--;
	return n;
}

/* kmem_feed_lens() for the ids below @cap. */
static int lens_below(struct kmem_feed *fd, kmem_len_fn len_of, void *arg,
		      int cap)
{
	int nr = fd->slot_of && fd->nr_ids <= KMEM_FEED_DENSE_IDS
			 ? ids_with_format(fd, cap)
			 : 0;

	free(fd->lens);
	fd->lens = nr ? calloc(2 * (size_t)nr, sizeof(uint32_t)) : NULL;
	fd->nr_lens = fd->lens ? nr : 0;
	fd->len_of = len_of;
	fd->len_arg = arg;
	return nr && !fd->lens ? -1 : 0;
}

/**
 * kmem_feed_lens - how long the records of each event can be
 * @fd: the feed, its ids mapped (KMEM_FEED_MAP_IDS), those without a
 *	format marked (kmem_feed_known()) when they are known
 * @len_of: tells it for an event id, from the file's formats (asked once
 *	an id, at its first record kmem_feed_other() checks)
 * @arg: @len_of's first argument, for the feed's life
 *
 * For kmem_feed_other(): a record of another event that its format does
 * not fit is damaged, or one of ours whose id was (its allocation or free
 * would be lost without a word).  The ids of a 2-byte common_type (all of
 * them, every kernel so far) are checked; the table holds two lengths an
 * id up to the highest id a format gives (a record of an id above it is
 * one of no format: kmem_feed_no_format()'s), 16 KB for 2,000 events
 * rather than 512 KB for all 65536.
 *
 * Return: 0, or -1 when memory ran out (no length is then checked).
 */
int kmem_feed_lens(struct kmem_feed *fd, kmem_len_fn len_of, void *arg)
{
	return lens_below(fd, len_of, arg, INT_MAX);
}

/* kmem_feed_lens_tep()'s: the lengths of @tep's format of id @id. */
static void tep_len_of(void *tep, int id, uint32_t *lo, uint32_t *hi)
{
	const struct tep_event *ev = tep_find_event(tep, id);

	*lo = 1;
	*hi = UINT32_MAX;
	if (ev)
		kmem_event_len(ev, lo, hi);
}

/**
 * kmem_feed_lens_tep - kmem_feed_lens() from a handle's event formats
 * @fd: the feed, its ids mapped (KMEM_FEED_MAP_IDS)
 * @tep: the handle: every format it holds, as kmem_event_len() reads it
 *
 * An id above the handle's highest has no format of it: any length
 * fits, and it takes no room in the table.
 *
 * Return: as kmem_feed_lens().
 */
int kmem_feed_lens_tep(struct kmem_feed *fd, struct tep_handle *tep)
{
	int n = tep_get_events_count(tep);
	/* the last is the highest: libtraceevent keeps them sorted by id */
	int top = n > 0 ? tep_get_event(tep, n - 1)->id : -1;

	/* a damaged id up to INT_MAX: every id of the map */
	return lens_below(fd, tep_len_of, tep,
			  top < fd->nr_ids ? top + 1 : fd->nr_ids);
}

/**
 * kmem_feed_other - check the length of a record of another event
 * @fd: the feed
 * @rec: the record; kmem_feed_slot() said -1 (not ours)
 *
 * A record its event's format does not fit (kmem_feed_lens()) is counted
 * as of an impossible size: in the aggregate's skipped records, and in
 * @fd->misfits (the first one's place kept), for the front end to say.
 * Out of line: the path of the records of events not ours.
 */
void kmem_feed_other(struct kmem_feed *fd, const struct tep_record *rec)
{
	uint32_t *at;
	int id;

	if (!fd->lens || !fd->type_size)
		return;
	/* one too short to hold an id is no event's */
	if (rec->size >= 0 && (unsigned int)rec->size >= fd->type_end) {
		id = kmem_feed_type(fd, rec);
		if (id < 0 || id >= fd->nr_lens)
			return;
		at = fd->lens + 2 * id;
		if (!at[0]) /* its first record: ask, once */
			fd->len_of(fd->len_arg, id, &at[0], &at[1]);
		if ((unsigned int)rec->size >= at[0] &&
		    (unsigned int)rec->size <= at[1])
			return;
	}
	if (!fd->misfits++) {
		fd->misfit_cpu = rec->cpu;
		fd->misfit_offset = rec->offset;
	}
	if (fd->agg)
		fd->agg->skipped_records++;
}
