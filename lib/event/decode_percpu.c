// SPDX-License-Identifier: LGPL-2.1
/*
 * Record decoding for the per-CPU allocator's events, system "percpu"
 * (see field.h).
 *
 * Layouts: percpu_alloc_percpu with reserved, is_atomic, size, align,
 * base_addr, off and ptr (4.14 and later), and since 6.0 call_site,
 * bytes_alloc and gfp_flags as well; percpu_free_percpu with base_addr,
 * off and ptr; percpu_alloc_percpu_fail with reserved, is_atomic, size
 * and align; percpu_create_chunk and percpu_destroy_chunk with
 * base_addr.  What a format lacks is flagged in the event, not read as
 * zero.
 */
#include "field.h"

/**
 * kmem_percpu_fields_init - look up the fields of a per-CPU allocator
 * event
 * @f: set up by kmem_fields_init() with event and slot
 *
 * An allocation needs ptr and size, a free ptr, a failure size; the
 * chunk events need nothing but their header.
 */
void kmem_percpu_fields_init(struct kmem_fields *f)
{
	struct tep_event *ev = f->event;

	f->call_site = tep_find_field(ev, "call_site");
	f->ptr = tep_find_field(ev, "ptr");
	f->bytes_req = tep_find_field(ev, "size");
	f->bytes_alloc = tep_find_field(ev, "bytes_alloc");
	f->gfp_flags = tep_find_field(ev, "gfp_flags");
	f->align = tep_find_field(ev, "align");
	f->reserved = tep_find_field(ev, "reserved");
	f->is_atomic = tep_find_field(ev, "is_atomic");
	switch (f->slot) {
	case KMEM_SLOT_PERCPU_ALLOC:
		f->usable = f->ptr && f->bytes_req;
		break;
	case KMEM_SLOT_PERCPU_FREE:
		f->usable = f->ptr != NULL;
		break;
	case KMEM_SLOT_PERCPU_FAIL:
		f->usable = f->bytes_req != NULL;
		break;
	default:
		f->usable = true;
		break;
	}
}

static const enum kmem_ev_kind kinds[] = {
	[KMEM_SLOT_PERCPU_ALLOC - KMEM_SLOT_PERCPU_ALLOC] =
		KMEM_EV_PERCPU_ALLOC,
	[KMEM_SLOT_PERCPU_FREE - KMEM_SLOT_PERCPU_ALLOC] = KMEM_EV_PERCPU_FREE,
	[KMEM_SLOT_PERCPU_FAIL - KMEM_SLOT_PERCPU_ALLOC] = KMEM_EV_PERCPU_FAIL,
	[KMEM_SLOT_PERCPU_CREATE_CHUNK - KMEM_SLOT_PERCPU_ALLOC] =
		KMEM_EV_PERCPU_CHUNK_NEW,
	[KMEM_SLOT_PERCPU_DESTROY_CHUNK - KMEM_SLOT_PERCPU_ALLOC] =
		KMEM_EV_PERCPU_CHUNK_DEL,
};

/**
 * kmem_percpu_decode - decode one per-CPU allocator record
 * @f: the fields of the record's event type
 * @rec: the record
 * @ev: filled in
 *
 * Return: 0 on success, -1 if the event lacks a required field, the
 * record is too short for a field its format has, or a size or
 * alignment is above KMEM_MAX_OBJECT (the kernel refuses more than
 * 32 KB a CPU).
 */
int kmem_percpu_decode(const struct kmem_fields *f,
		       const struct tep_record *rec, struct kmem_event *ev)
{
	kmem_decode_common(f, rec, ev);
	if (!f->usable || !field_fits(f->call_site, rec) || !field_fits(f->ptr, rec) ||
	    !field_fits(f->bytes_req, rec) || !field_fits(f->bytes_alloc, rec) ||
	    !field_fits(f->gfp_flags, rec) || !field_fits(f->align, rec) ||
	    !field_fits(f->reserved, rec) || !field_fits(f->is_atomic, rec))
		return -1;
	ev->kind = kinds[f->slot - KMEM_SLOT_PERCPU_ALLOC];
	ev->ptr = rd(f, f->ptr, rec);
	ev->bytes_req = rd(f, f->bytes_req, rec);
	ev->has_align = f->align != NULL;
	ev->align = rd(f, f->align, rec);
	ev->reserved = rd(f, f->reserved, rec) != 0;
	ev->atomic = rd(f, f->is_atomic, rec) != 0;
	if (ev->bytes_req > KMEM_MAX_OBJECT || ev->align > KMEM_MAX_OBJECT)
		return -1;
	if (ev->kind != KMEM_EV_PERCPU_ALLOC)
		return 0;
	ev->has_call_site = f->call_site != NULL;
	ev->call_site = rd(f, f->call_site, rec);
	ev->has_bytes_alloc = f->bytes_alloc != NULL;
	ev->bytes_alloc = ev->has_bytes_alloc ? rd(f, f->bytes_alloc, rec)
					      : ev->bytes_req;
	ev->gfp_flags = rd(f, f->gfp_flags, rec);
	return ev->bytes_alloc > KMEM_MAX_OBJECT ? -1 : 0;
}
