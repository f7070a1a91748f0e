/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Decoding libtraceevent records of the kmem events into struct
 * kmem_event.  Fields are looked up once per event type (struct
 * kmem_fields) and read with libtraceevent's endian-aware readers, so
 * traces from other architectures and older kernels decode the same.
 */
#ifndef KMEM_DECODE_H
#define KMEM_DECODE_H

#include <event-parse.h>

#include "events.h"
#include "field.h"
#include "kmem_event.h"

void kmem_fields_init(struct kmem_fields *f, struct tep_event *event,
		      enum kmem_slot slot);

/**
 * kmem_decode - decode one record
 * @f: the fields of the record's event type (kmem_fields_init())
 * @rec: the record
 * @ev: filled in
 *
 * Inline, an indirect call to the slot's decoder: the per-record path.
 *
 * Return: 0 on success, -1 if the event type lacks required fields, the
 * record is too short to hold them, or it holds what no kernel records
 * (a CPU above KMEM_MAX_CPU, a slab object above KMEM_MAX_OBJECT bytes):
 * the caller counts such records as undecodable rather than guessing.
 */
static inline int kmem_decode(const struct kmem_fields *f,
			      const struct tep_record *rec,
			      struct kmem_event *ev)
{
	if (rec->cpu < 0 || rec->cpu > KMEM_MAX_CPU)
		return -1;
	return f->def->decode(f, rec, ev);
}

struct tep_event *kmem_event_id_clash(const struct tep_event *event);
int kmem_read_call_site(const struct kmem_fields *f,
			const struct tep_record *rec, unsigned long long *val);

#endif
