// SPDX-License-Identifier: LGPL-2.1
/*
 * Record decoding for the kmem events (see decode.h): the fields every
 * event has, then those of its slot, through the event table (events.c).
 */
#include <limits.h>
#include <string.h>

#include "decode.h"
#include "fmtsound.h"

/**
 * kmem_fields_init - look up the fields of one event type
 * @f: filled in
 * @event: the event type, from the trace's own format
 * @slot: which kmem event it is
 *
 * @f->usable is false when a field the statistics need is missing.
 */
void kmem_fields_init(struct kmem_fields *f, struct tep_event *event,
		      enum kmem_slot slot)
{
	long long lo, hi;

	memset(f, 0, sizeof(*f));
	f->event = event;
	f->slot = slot;
	f->def = &kmem_event_defs[slot];
	f->pid = tep_find_common_field(event, "common_pid");
	f->swap = tep_is_file_bigendian(event->tep) !=
		  tep_is_local_bigendian(event->tep);
	f->def->fields_init(f);
	/* a damaged format: said, not read as 0 or from the wrong bytes */
	if (!kmem_fields_readable(f) || !kmem_format_sound(event))
		f->usable = false;
	f->clash = kmem_event_id_clash(event);
	if (f->clash)
		f->usable = false; /* its records may be either event's */
	if (!f->usable)		   /* and no straight path around the test */
		f->slab.on = f->pages.on = false;
	f->fit_end = kmem_fields_fit_end(f);
	/* record sizes are ints: a bound past INT_MAX is none */
	lo = kmem_fields_num_end(f);
	hi = kmem_fields_max_len(f);
	f->num_end = (int)(lo < INT_MAX ? lo : INT_MAX);
	f->max_len = (int)(hi < INT_MAX ? hi : INT_MAX);
	f->fit_span = f->max_len != INT_MAX && f->max_len >= f->fit_end
			      ? (unsigned int)(f->max_len - f->fit_end)
			      : 1U << 31;
}

/**
 * kmem_event_id_clash - another event of the same id
 * @event: an event of its tep handle
 *
 * Two formats that give one id (a damaged file) leave a record of that
 * id either event's: its records are not decoded (counted, and said).
 * A walk over the handle's events, once per event type looked up.
 *
 * Return: the other event, or NULL.
 */
struct tep_event *kmem_event_id_clash(const struct tep_event *event)
{
	int i, n = tep_get_events_count(event->tep);

	for (i = 0; i < n; i++) {
		struct tep_event *e = tep_get_event(event->tep, i);

		if (e && e != event && e->id == event->id)
			return e;
	}
	return NULL;
}

/**
 * kmem_read_call_site - read the call_site field of a record
 * @f: the fields of the record's event type
 * @rec: the record
 * @val: the call site
 *
 * Return: 0 on success, -1 if the event has no call_site field.
 */
int kmem_read_call_site(const struct kmem_fields *f,
			const struct tep_record *rec, unsigned long long *val)
{
	if (!in_record(f->call_site, rec))
		return -1;
	return tep_read_number_field(f->call_site, rec->data, val) ? -1 : 0;
}
