/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The vmalloc allocator's decoder (decode_vmalloc.c), named by the event
 * table (events.c).
 */
#ifndef KMEM_DECODE_VMALLOC_H
#define KMEM_DECODE_VMALLOC_H

#include "field.h"

void kmem_vmalloc_fields_init(struct kmem_fields *f);
int kmem_vmalloc_decode(const struct kmem_fields *f,
			const struct tep_record *rec, struct kmem_event *ev);

#endif
