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
int kmem_decode(const struct kmem_fields *f, const struct tep_record *rec,
		struct kmem_event *ev);

int kmem_read_call_site(const struct kmem_fields *f,
			const struct tep_record *rec, unsigned long long *val);

#endif
