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

/*
 * The straight path (struct kmem_fields' slab): the layout of 64-bit
 * kernels in our byte order.  Any other (32-bit, the other byte order,
 * a static name) decodes through rdf().
 */
static void slab_plan(struct kmem_fields *f)
{
	bool alloc = is_alloc(f->slot);

	f->slab.on = false;
	if (!f->usable || f->swap || !field_sized(f->pid, 4) ||
	    !field_sized(f->call_site, 8) || !field_sized(f->ptr, 8))
		return;
	if (f->name && (!(f->name->flags & TEP_FIELD_IS_DYNAMIC) ||
			!field_sized(f->name, 4)))
		return;
	if (alloc &&
	    (!field_sized(f->bytes_req, 8) || !field_sized(f->bytes_alloc, 8) ||
	     !(field_sized(f->gfp_flags, 4) || field_sized(f->gfp_flags, 8)) ||
	     !field_sized_or_none(f->node, 4) ||
	     !field_sized_or_none(f->accounted, 1)))
		return;
	f->slab.kind = alloc ? KMEM_EV_SLAB_ALLOC : KMEM_EV_SLAB_FREE;
	f->slab.is_cache = is_cache(f->slot);
	f->slab.pid = field_at(f->pid);
	f->slab.call_site = field_at(f->call_site);
	f->slab.ptr = field_at(f->ptr);
	f->slab.name = field_at(f->name);
	f->slab.name_rel = f->name && (f->name->flags & TEP_FIELD_IS_RELATIVE);
	if (alloc) {
		f->slab.bytes_req = field_at(f->bytes_req);
		f->slab.bytes_alloc = field_at(f->bytes_alloc);
		f->slab.gfp = field_at(f->gfp_flags);
		f->slab.gfp64 = f->gfp_flags->size == 8;
		f->slab.node = field_at(f->node);
		f->slab.accounted = field_at(f->accounted);
	}
	f->slab.on = true;
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
	if (!is_alloc(f->slot)) {
		slab_plan(f);
		return;
	}
	f->bytes_req = tep_find_field(event, "bytes_req");
	f->bytes_alloc = tep_find_field(event, "bytes_alloc");
	f->gfp_flags = tep_find_field(event, "gfp_flags");
	f->node = tep_find_field(event, "node");
	f->accounted = tep_find_field(event, "accounted");
	if (!f->accounted && f->gfp_flags)
		f->account_bit = fmt_account_bit(event);
	f->usable = f->usable && f->bytes_req && f->bytes_alloc;
	slab_plan(f);
}

/*
 * The name of @len bytes at @off, when they lie inside @rec: its bytes
 * as the record gives them (NUL terminated there), cut at the NUL only
 * by whoever needs its length (kmem_event_name_len()); the slab
 * statistics mostly know the bytes whole (lib/alloc/slab.c).
 */
static inline void name_at(const struct tep_record *rec, long long off,
			   long long len, struct kmem_event *ev)
{
	if (!span_in(off, len, rec))
		return;
	ev->name_len = (unsigned int)len;
	ev->name = (const char *)rec->data + off;
}

static void read_name(const struct kmem_fields *f, const struct tep_record *rec,
		      struct kmem_event *ev, bool all)
{
	const struct tep_format_field *nf = f->name;
	unsigned long long loc;
	long long off, len;

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
	name_at(rec, off, len, ev);
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

/*
 * Any other record: read through rdf(), with one bounds check for a
 * record that holds every field.  Out of line, so that the straight path
 * saves no registers for it.
 */
static __attribute__((noinline)) int
slab_decode_checked(const struct kmem_fields *f, const struct tep_record *rec,
		    struct kmem_event *ev)
{
	if (misfit_record(f, rec)) {
		kmem_decode_common(f, rec, ev); /* as every refusal leaves it */
		return -1;
	}
	if (holds_all(f, rec))
		return slab_decode(f, rec, ev, true);
	return slab_decode(f, rec, ev, false);
}

/*
 * The straight path: @rec holds every field (holds_all()) and f->slab.on.
 * The same event as slab_decode() gives.
 */
static int slab_decode_straight(const struct kmem_fields *f,
				const struct tep_record *rec,
				struct kmem_event *ev)
{
	const uint8_t *d = rec->data;
	uint64_t gfp;

	decode_place(rec, ev);
	ev->pid = (int)ld32(d + f->slab.pid);
	ev->kind = (enum kmem_ev_kind)f->slab.kind;
	ev->is_cache = f->slab.is_cache;
	ev->call_site = ld64(d + f->slab.call_site);
	ev->ptr = ld64(d + f->slab.ptr);
	if (ev->kind == KMEM_EV_SLAB_ALLOC) {
		ev->bytes_req = ld64(d + f->slab.bytes_req);
		ev->bytes_alloc = ld64(d + f->slab.bytes_alloc);
		if (ev->bytes_req > KMEM_MAX_OBJECT ||
		    ev->bytes_alloc > KMEM_MAX_OBJECT)
			return -1;
		gfp = f->slab.gfp64 ? ld64(d + f->slab.gfp)
				    : ld32(d + f->slab.gfp);
		ev->gfp_flags = gfp;
		if (f->slab.node)
			ev->node = (int)ld32(d + f->slab.node);
		if (f->slab.accounted) {
			ev->accounted = d[f->slab.accounted] != 0;
			ev->acct_how = KMEM_ACCT_FIELD;
		} else if (f->account_bit) {
			ev->accounted = (gfp & f->account_bit) != 0;
			ev->acct_how = KMEM_ACCT_GFP;
		}
	}
	if (f->slab.name) {
		uint32_t loc = ld32(d + f->slab.name);
		long long off = loc & 0xffff, len = loc >> 16;

		if (f->slab.name_rel)
			off += (long long)f->slab.name + 4;
		name_at(rec, off, len, ev);
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
	if (f->slab.on && holds_all(f, rec))
		return slab_decode_straight(f, rec, ev);
	return slab_decode_checked(f, rec, ev);
}
