// SPDX-License-Identifier: LGPL-2.1
/*
 * Record decoding for the kmem events (see decode.h): the fields every
 * event has, then those of its slot, through the event table (events.c).
 */
#include <string.h>

#include "decode.h"

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
	memset(f, 0, sizeof(*f));
	f->event = event;
	f->slot = slot;
	f->def = &kmem_event_defs[slot];
	f->pid = tep_find_common_field(event, "common_pid");
	f->swap = tep_is_file_bigendian(event->tep) !=
		  tep_is_local_bigendian(event->tep);
	f->def->fields_init(f);
	f->fit_end = kmem_fields_fit_end(f);
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
