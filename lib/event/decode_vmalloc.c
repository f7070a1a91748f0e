// SPDX-License-Identifier: LGPL-2.1
/*
 * Record decoding for the vmalloc allocator's events, system "vmalloc"
 * (see field.h).
 *
 * Layouts (Linux 6.10 and later): alloc_vmap_area with addr, size,
 * align, vstart, vend and failed; free_vmap_area_noflush with va_start,
 * nr_lazy and nr_lazy_max; purge_vmap_area_lazy with start, end and
 * npurged.  An area is matched by its start: the allocation's addr, the
 * free's va_start.
 */
#include "decode_vmalloc.h"

/* its own fields, in struct kmem_fields' own[] */
enum {
	VF_FAILED,  /* alloc_vmap_area: no room found */
	VF_NR_LAZY, /* free_vmap_area_noflush */
	VF_NR_LAZY_MAX,
	VF_END, /* purge_vmap_area_lazy: the range's end */
	VF_NPURGED,
	VF_NR,
};
_Static_assert(VF_NR <= KMEM_OWN_FIELDS, "room in struct kmem_fields");

/**
 * kmem_vmalloc_fields_init - look up the fields of a vmalloc event
 * @f: set up by kmem_fields_init() with event and slot
 *
 * An allocation needs addr, size and failed, a free va_start, a purge
 * npurged; the rest (align, nr_lazy, nr_lazy_max, start, end) is read
 * when the format has it.
 */
void kmem_vmalloc_fields_init(struct kmem_fields *f)
{
	struct tep_event *ev = f->event;

	f->bytes_req = tep_find_field(ev, "size");
	f->align = tep_find_field(ev, "align");
	f->own[VF_FAILED] = tep_find_field(ev, "failed");
	f->own[VF_NR_LAZY] = tep_find_field(ev, "nr_lazy");
	f->own[VF_NR_LAZY_MAX] = tep_find_field(ev, "nr_lazy_max");
	f->own[VF_NPURGED] = tep_find_field(ev, "npurged");
	f->own[VF_END] = tep_find_field(ev, "end");
	switch (f->slot) {
	case KMEM_SLOT_VMAP_ALLOC:
		f->ptr = tep_find_field(ev, "addr");
		f->usable = f->ptr && f->bytes_req && f->own[VF_FAILED];
		break;
	case KMEM_SLOT_VMAP_FREE:
		f->ptr = tep_find_field(ev, "va_start");
		f->usable = f->ptr != NULL;
		break;
	default:
		f->ptr = tep_find_field(ev, "start");
		f->usable = f->own[VF_NPURGED] != NULL;
		break;
	}
}

/**
 * kmem_vmalloc_decode - decode one vmalloc record
 * @f: the fields of the record's event type
 * @rec: the record
 * @ev: filled in
 *
 * Return: 0 on success, -1 if the event lacks a required field, the
 * record is too short for a field its format has, or a size or
 * alignment is above KMEM_MAX_VMAP.
 */
int kmem_vmalloc_decode(const struct kmem_fields *f,
			const struct tep_record *rec, struct kmem_event *ev)
{
	kmem_decode_common(f, rec, ev);
	if (!f->usable || !field_fits(f->ptr, rec) ||
	    !field_fits(f->bytes_req, rec) || !field_fits(f->align, rec) ||
	    !field_fits(f->own[VF_FAILED], rec) ||
	    !field_fits(f->own[VF_NR_LAZY], rec) ||
	    !field_fits(f->own[VF_NR_LAZY_MAX], rec) ||
	    !field_fits(f->own[VF_NPURGED], rec) ||
	    !field_fits(f->own[VF_END], rec))
		return -1;
	ev->ptr = rd(f, f->ptr, rec);
	switch (f->slot) {
	case KMEM_SLOT_VMAP_ALLOC:
		ev->kind = KMEM_EV_VMALLOC_ALLOC;
		ev->bytes_req = rd(f, f->bytes_req, rec);
		ev->has_align = f->align != NULL;
		ev->align = rd(f, f->align, rec);
		ev->failed = rd(f, f->own[VF_FAILED], rec) != 0;
		/* beyond any address space: damaged */
		if (ev->bytes_req > KMEM_MAX_VMAP || ev->align > KMEM_MAX_VMAP)
			return -1;
		break;
	case KMEM_SLOT_VMAP_FREE:
		ev->kind = KMEM_EV_VMALLOC_FREE;
		ev->nr_lazy = rd(f, f->own[VF_NR_LAZY], rec);
		ev->nr_lazy_max = rd(f, f->own[VF_NR_LAZY_MAX], rec);
		break;
	default:
		ev->kind = KMEM_EV_VMALLOC_PURGE;
		ev->pfn = rd(f, f->own[VF_END], rec);
		ev->npurged = (uint32_t)rd(f, f->own[VF_NPURGED], rec);
		break;
	}
	return 0;
}
