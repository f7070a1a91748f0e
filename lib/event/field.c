// SPDX-License-Identifier: LGPL-2.1
/*
 * What every record of an event has (see field.h).
 */
#include "field.h"

/**
 * kmem_decode_common - the part of an event every record has
 * @f: the fields of the record's event type
 * @rec: the record
 * @ev: cleared (but for the stack frames) and filled in
 */
void kmem_decode_common(const struct kmem_fields *f,
			const struct tep_record *rec, struct kmem_event *ev)
{
	kmem_event_clear(ev);
	ev->cpu = rec->cpu;
	ev->ts = rec->ts;
	ev->pid = (int)rd_or(f, f->pid, rec, (unsigned long long)-1);
	ev->node = KMEM_NO_NODE;
	ev->rec_offset = rec->offset;
	ev->rec_size = (unsigned int)rec->size;
	ev->after_loss = rec->missed_events != 0;
}
