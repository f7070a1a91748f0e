// SPDX-License-Identifier: LGPL-2.1
/*
 * Record decoding for the slab allocator's events (see field.h).
 *
 * Slab field layouts handled: kmalloc/kmem_cache_alloc with or without
 * node (separate *_node events before Linux 6.1), with or without
 * name (kmem_cache_free since 5.12, kmem_cache_alloc since 6.18) and
 * accounted; kfree/kmem_cache_free with or without name.  Field sizes
 * and byte order come from the trace's own format files.
 */
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
 * kmem_slab_fields_init - look up the fields of a slab event
 * @f: set up by kmem_fields_init() with event and slot
 */
void kmem_slab_fields_init(struct kmem_fields *f)
{
	struct tep_event *event = f->event;

	f->call_site = tep_find_field(event, "call_site");
	f->ptr = tep_find_field(event, "ptr");
	f->name = tep_find_field(event, "name");
	if (f->name && !(f->name->flags & TEP_FIELD_IS_DYNAMIC) &&
	    !(f->name->flags & TEP_FIELD_IS_STRING))
		f->name = NULL;
	f->usable = f->call_site && f->ptr;
	if (!is_alloc(f->slot))
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

static void read_name(const struct kmem_fields *f, const struct tep_record *rec,
		      struct kmem_event *ev, bool all)
{
	const struct tep_format_field *nf = f->name;
	unsigned long long loc;
	long long off, len;
	const char *s, *end;

	if (nf->flags & TEP_FIELD_IS_DYNAMIC) {
		if (!fits(all, nf, rec))
			return;
		loc = rdf(f, all, nf, rec, 0);
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
	/* strings are NUL terminated in the record; never read past it */
	end = memchr(s, '\0', (size_t)len);
	ev->name_len = (unsigned int)(end ? end - s : len);
	ev->name = s;
}

/*
 * kmem_slab_decode()'s work, @all as for fits(): inlined twice, once for
 * records that hold every field (no bounds check a field) and once for
 * the others.
 */
static inline __attribute__((always_inline)) int
slab_decode(const struct kmem_fields *f, const struct tep_record *rec,
	    struct kmem_event *ev, bool all)
{
	decode_common(f, rec, ev, all);
	if (!f->usable || !fits(all, f->call_site, rec) ||
	    !fits(all, f->ptr, rec))
		return -1;
	if (is_alloc(f->slot) &&
	    (!fits(all, f->bytes_req, rec) || !fits(all, f->bytes_alloc, rec)))
		return -1;
	ev->kind = is_alloc(f->slot) ? KMEM_EV_SLAB_ALLOC : KMEM_EV_SLAB_FREE;
	ev->is_cache = is_cache(f->slot);
	ev->call_site = rdf(f, all, f->call_site, rec, 0);
	ev->ptr = rdf(f, all, f->ptr, rec, 0);
	if (f->name)
		read_name(f, rec, ev, all);
	if (ev->kind != KMEM_EV_SLAB_ALLOC)
		return 0;
	ev->bytes_req = rdf(f, all, f->bytes_req, rec, 0);
	ev->bytes_alloc = rdf(f, all, f->bytes_alloc, rec, 0);
	if (ev->bytes_req > KMEM_MAX_OBJECT ||
	    ev->bytes_alloc > KMEM_MAX_OBJECT)
		return -1;
	ev->gfp_flags = rdf(f, all, f->gfp_flags, rec, 0);
	ev->node = (int)rdf(f, all, f->node, rec,
			    (unsigned long long)KMEM_NO_NODE);
	if (f->accounted) {
		ev->accounted = rdf(f, all, f->accounted, rec, 0) != 0;
		ev->acct_how = KMEM_ACCT_FIELD;
	} else if (f->account_bit) {
		ev->accounted = (ev->gfp_flags & f->account_bit) != 0;
		ev->acct_how = KMEM_ACCT_GFP;
	}
	return 0;
}

/**
 * kmem_slab_decode - decode one slab allocator record
 * @f: the fields of the record's event type
 * @rec: the record
 * @ev: filled in
 *
 * Return: 0 on success, -1 if the event type lacks required fields, the
 * record is too short to hold them, or a slab object is above
 * KMEM_MAX_OBJECT bytes.
 */
int kmem_slab_decode(const struct kmem_fields *f, const struct tep_record *rec,
		     struct kmem_event *ev)
{
	if (holds_all(f, rec))
		return slab_decode(f, rec, ev, true);
	return slab_decode(f, rec, ev, false);
}
