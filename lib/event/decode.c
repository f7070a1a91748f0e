// SPDX-License-Identifier: LGPL-2.1
/*
 * Record decoding for the kmem events (see decode.h).
 *
 * Slab field layouts handled: kmalloc/kmem_cache_alloc with or without
 * node (separate *_node events before Linux 6.1), with or without
 * name (kmem_cache_free since 5.12, kmem_cache_alloc since 6.18) and
 * accounted; kfree/kmem_cache_free with or without name.  Field sizes and byte order come from the
 * trace's own format files.
 */
#include <string.h>

#include <stddef.h>

#include "decode.h"
#include "field.h"
#include "fmtprobe.h"

static bool is_alloc(enum kmem_slot slot)
{
	return slot <= KMEM_SLOT_CACHE_ALLOC_NODE;
}

static bool is_cache(enum kmem_slot slot)
{
	return slot == KMEM_SLOT_CACHE_ALLOC ||
	       slot == KMEM_SLOT_CACHE_ALLOC_NODE ||
	       slot == KMEM_SLOT_CACHE_FREE;
}

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
	f->pid = tep_find_common_field(event, "common_pid");
	f->swap = tep_is_file_bigendian(event->tep) !=
		  tep_is_local_bigendian(event->tep);
	if (kmem_slot_is_percpu(slot)) {
		kmem_percpu_fields_init(f);
		return;
	}
	if (!kmem_slot_is_slab(slot)) {
		kmem_page_fields_init(f);
		return;
	}
	f->call_site = tep_find_field(event, "call_site");
	f->ptr = tep_find_field(event, "ptr");
	f->name = tep_find_field(event, "name");
	if (f->name && !(f->name->flags & TEP_FIELD_IS_DYNAMIC) &&
	    !(f->name->flags & TEP_FIELD_IS_STRING))
		f->name = NULL;
	f->usable = f->call_site && f->ptr;
	if (!is_alloc(slot))
		return;
	f->bytes_req = tep_find_field(event, "bytes_req");
	f->bytes_alloc = tep_find_field(event, "bytes_alloc");
	f->gfp_flags = tep_find_field(event, "gfp_flags");
	f->node = tep_find_field(event, "node");
	f->accounted = tep_find_field(event, "accounted");
	if (!f->accounted && f->gfp_flags)
		f->account_bit = fmt_account_bit(event);
	f->usable = f->usable && f->bytes_req && f->bytes_alloc;
}

static void read_name(const struct kmem_fields *f,
		      const struct tep_record *rec, struct kmem_event *ev)
{
	const struct tep_format_field *nf = f->name;
	unsigned long long loc;
	long long off, len, n;
	const char *s;

	if (nf->flags & TEP_FIELD_IS_DYNAMIC) {
		if (!in_record(nf, rec))
			return;
		loc = rd(f, nf, rec);
		off = loc & 0xffff;
		len = (loc >> 16) & 0xffff;
		if (nf->flags & TEP_FIELD_IS_RELATIVE)
			off += (long long)nf->offset + nf->size;
	} else {
		off = nf->offset;
		len = nf->size;
	}
	if (!span_in(off, len, rec))
		return;
	s = (const char *)rec->data + off;
	/* strings are NUL terminated in the record; never read past it
	 * (a loop, not strnlen(): names are short, and this runs for every
	 * slab record of kernels that name the cache) */
	for (n = 0; n < len && s[n]; n++)
		;
	ev->name_len = (unsigned int)n;
	ev->name = s;
}

/**
 * kmem_decode - decode one record
 * @f: the fields of the record's event type (kmem_fields_init())
 * @rec: the record
 * @ev: filled in
 *
 * Return: 0 on success, -1 if the event type lacks required fields, the
 * record is too short to hold them, or it holds what no kernel records
 * (a CPU above KMEM_MAX_CPU, a slab object above KMEM_MAX_OBJECT bytes):
 * the caller counts such records as undecodable rather than guessing.
 */
int kmem_decode(const struct kmem_fields *f, const struct tep_record *rec,
		struct kmem_event *ev)
{
	if (rec->cpu < 0 || rec->cpu > KMEM_MAX_CPU)
		return -1;
	if (kmem_slot_is_percpu(f->slot))
		return kmem_percpu_decode(f, rec, ev);
	if (!kmem_slot_is_slab(f->slot))
		return kmem_page_decode(f, rec, ev);
	kmem_decode_common(f, rec, ev);
	if (!f->usable || !in_record(f->call_site, rec) ||
	    !in_record(f->ptr, rec))
		return -1;
	if (is_alloc(f->slot) && (!in_record(f->bytes_req, rec) ||
				  !in_record(f->bytes_alloc, rec)))
		return -1;
	ev->kind = is_alloc(f->slot) ? KMEM_EV_SLAB_ALLOC : KMEM_EV_SLAB_FREE;
	ev->is_cache = is_cache(f->slot);
	ev->call_site = rd(f, f->call_site, rec);
	ev->ptr = rd(f, f->ptr, rec);
	if (f->name)
		read_name(f, rec, ev);
	if (ev->kind != KMEM_EV_SLAB_ALLOC)
		return 0;
	ev->bytes_req = rd(f, f->bytes_req, rec);
	ev->bytes_alloc = rd(f, f->bytes_alloc, rec);
	if (ev->bytes_req > KMEM_MAX_OBJECT ||
	    ev->bytes_alloc > KMEM_MAX_OBJECT)
		return -1;
	ev->gfp_flags = rd(f, f->gfp_flags, rec);
	ev->node = (int)rd_or(f, f->node, rec, (unsigned long long)KMEM_NO_NODE);
	if (f->accounted) {
		ev->accounted = rd(f, f->accounted, rec) != 0;
		ev->acct_how = KMEM_ACCT_FIELD;
	} else if (f->account_bit) {
		ev->accounted = (ev->gfp_flags & f->account_bit) != 0;
		ev->acct_how = KMEM_ACCT_GFP;
	}
	return 0;
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
