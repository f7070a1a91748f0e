// SPDX-License-Identifier: LGPL-2.1
/*
 * Record decoding for the page allocator events and ftrace's
 * kernel_stack (see field.h).
 *
 * Layouts: "page" (a struct page address, before 3.17 or so) or "pfn";
 * free events with or without "order" (mm_pagevec_free and
 * mm_page_free_batched free order-0 pages); mm_page_alloc_zone_locked
 * with or without percpu_refill; mm_page_alloc_extfrag with or without
 * change_ownership.  A failed allocation has pfn -1 or page 0.
 */
#include "field.h"
#include "fmtprobe.h"

static struct tep_format_field *field(struct tep_event *ev, const char *name)
{
	return tep_find_field(ev, name);
}

/**
 * kmem_stack_fields_init - look up the fields of ftrace's kernel_stack
 * @f: set up by kmem_fields_init() with event and slot
 */
void kmem_stack_fields_init(struct kmem_fields *f)
{
	f->stack_size = field(f->event, "size");
	f->caller = field(f->event, "caller");
	/*
	 * The frames are kernel longs: the caller array's element size,
	 * else the header page's commit word (the kernel's long), not the
	 * file header's long (trace-cmd's user space: 4 for a 32-bit
	 * trace-cmd on a 64-bit kernel).
	 */
	f->long_size = f->caller ? (int)f->caller->elementsize : 0;
	if (f->long_size != 4 && f->long_size != 8)
		f->long_size = tep_get_header_page_size(f->event->tep);
	if (f->long_size != 4 && f->long_size != 8)
		f->long_size = tep_get_long_size(f->event->tep);
	if (f->long_size != 4 && f->long_size != 8)
		f->long_size = 8;
	f->usable = f->caller != NULL;
}

static void page_plan(struct kmem_fields *f);

/**
 * kmem_page_fields_init - look up the fields of a page allocator event
 * @f: set up by kmem_fields_init() with event and slot
 */
void kmem_page_fields_init(struct kmem_fields *f)
{
	struct tep_event *ev = f->event;

	f->page = field(ev, "pfn");
	if (!f->page) {
		f->page = field(ev, "page");
		f->page_ptr = f->page != NULL;
	}
	f->gfp_flags = field(ev, "gfp_flags");
	f->order = field(ev, "order");
	f->migratetype = field(ev, "migratetype");
	f->percpu_refill = field(ev, "percpu_refill");
	if (f->slot == KMEM_SLOT_PAGE_EXTFRAG) {
		f->order = field(ev, "alloc_order");
		f->migratetype = field(ev, "alloc_migratetype");
		f->fallback_order = field(ev, "fallback_order");
		f->fallback_migratetype = field(ev, "fallback_migratetype");
		f->change_ownership = field(ev, "change_ownership");
		f->pageblock_order = fmt_pageblock_order(ev);
	}
	f->usable = f->page != NULL;
	page_plan(f);
}

static enum kmem_ev_kind page_kind(enum kmem_slot slot)
{
	switch (slot) {
	case KMEM_SLOT_PAGE_ALLOC:
		return KMEM_EV_PAGE_ALLOC;
	case KMEM_SLOT_PAGE_FREE:
	case KMEM_SLOT_PAGE_FREE_DIRECT:
	case KMEM_SLOT_PAGEVEC_FREE:
		return KMEM_EV_PAGE_FREE;
	case KMEM_SLOT_PAGE_FREE_BATCHED:
		return KMEM_EV_PAGE_FREE_BATCHED;
	case KMEM_SLOT_PAGE_ZONE_LOCKED:
		return KMEM_EV_PAGE_ZONE_LOCKED;
	case KMEM_SLOT_PAGE_PCPU_DRAIN:
		return KMEM_EV_PAGE_PCPU_DRAIN;
	case KMEM_SLOT_PAGE_EXTFRAG:
	default:
		return KMEM_EV_PAGE_EXTFRAG;
	}
}

/*
 * The straight path (struct kmem_fields' pages): the layout of 64-bit
 * kernels in our byte order, for every event but mm_page_alloc_extfrag
 * (rare, and its fields read through rdf()).
 */
static void page_plan(struct kmem_fields *f)
{
	f->pages.on = false;
	if (!f->usable || f->swap || f->slot == KMEM_SLOT_PAGE_EXTFRAG ||
	    !field_sized(f->pid, 4) || !field_sized(f->page, 8) ||
	    !field_sized_or_none(f->order, 4) ||
	    !field_sized_or_none(f->migratetype, 4) ||
	    !field_sized_or_none(f->percpu_refill, 4) ||
	    !(field_sized_or_none(f->gfp_flags, 4) ||
	      field_sized(f->gfp_flags, 8)))
		return;
	f->pages.kind = page_kind(f->slot);
	f->pages.pid = field_at(f->pid);
	f->pages.page = field_at(f->page);
	f->pages.order = field_at(f->order);
	f->pages.migratetype = field_at(f->migratetype);
	f->pages.gfp = field_at(f->gfp_flags);
	f->pages.gfp64 = f->gfp_flags && f->gfp_flags->size == 8;
	f->pages.percpu_refill = field_at(f->percpu_refill);
	f->pages.on = true;
}

/* pfn -1 (all ones in the field's size) or page NULL: no page. */
static bool valid_page(const struct kmem_fields *f, uint64_t v)
{
	uint64_t ones =
		f->page->size >= 8 ? ~0ULL : (1ULL << (8 * f->page->size)) - 1;

	return f->page_ptr ? v != 0 : v != ones;
}

static int decode_stack(const struct kmem_fields *f,
			const struct tep_record *rec, struct kmem_event *ev)
{
	long long off = f->caller->offset;
	const char *p = (const char *)rec->data + off;
	uint64_t end = f->long_size == 8 ? ~0ULL : 0xffffffffULL;
	unsigned int n = 0, max = KMEM_MAX_FRAMES;
	int size = rd_int(f, f->stack_size, rec, 0);

	if (!span_in(off, f->long_size, rec))
		return -1;
	/* "size" frames were saved; words after them are not frames */
	if (size > 0 && (unsigned int)size < max)
		max = (unsigned int)size;
	for (; off + f->long_size <= rec->size && n < max;
	     off += f->long_size, p += f->long_size) {
		uint64_t addr = rd_word(f, p, f->long_size);

		if (addr == end)
			break;
		ev->frames[n++] = addr;
	}
	ev->nr_frames = n;
	return 0;
}

/**
 * kmem_stack_decode - decode a kernel_stack record
 * @f: the fields of the record's event type
 * @rec: the record
 * @ev: filled in
 *
 * Return: 0 on success, -1 if the event has no caller field or the
 * record cannot hold one frame.
 */
int kmem_stack_decode(const struct kmem_fields *f, const struct tep_record *rec,
		      struct kmem_event *ev)
{
	kmem_decode_common(f, rec, ev);
	if (!f->usable)
		return -1;
	ev->kind = KMEM_EV_STACK;
	return decode_stack(f, rec, ev);
}

/*
 * kmem_page_decode()'s work, @all as for fits(): inlined twice, as
 * slab_decode() is.
 */
static inline __attribute__((always_inline)) int
page_decode(const struct kmem_fields *f, const struct tep_record *rec,
	    struct kmem_event *ev, bool all)
{
	decode_common(f, rec, ev, all);
	if (!f->usable)
		return -1;
	ev->kind = page_kind(f->slot);
	if (!fits(all, f->page, rec) || (f->order && !fits(all, f->order, rec)))
		return -1;
	ev->pfn = rdf(f, all, f->page, rec, 0);
	ev->page_ptr = f->page_ptr;
	ev->page_valid = valid_page(f, ev->pfn);
	ev->order = (int)rdf(f, all, f->order, rec, 0);
	ev->migratetype =
		(int)rdf(f, all, f->migratetype, rec, (unsigned long long)-1LL);
	ev->gfp_flags = rdf(f, all, f->gfp_flags, rec, 0);
	ev->batched = f->slot == KMEM_SLOT_PAGEVEC_FREE;
	/* before the percpu_refill field, the print fmt said order == 0 */
	ev->percpu_refill =
		f->percpu_refill
			? (int)rdf(f, all, f->percpu_refill, rec, 0) != 0
			: ev->order == 0;
	ev->fallback_order = (int)rdf(f, all, f->fallback_order, rec, 0);
	ev->fallback_migratetype = (int)rdf(f, all, f->fallback_migratetype,
					    rec, (unsigned long long)-1LL);
	/* before the change_ownership field, the print fmt compared types */
	ev->change_ownership =
		f->change_ownership
			? (int)rdf(f, all, f->change_ownership, rec, 0) != 0
			: ev->migratetype == ev->fallback_migratetype;
	ev->frag_known =
		f->slot == KMEM_SLOT_PAGE_EXTFRAG && f->pageblock_order >= 0;
	ev->fragmenting =
		ev->frag_known && ev->fallback_order < f->pageblock_order;
	return 0;
}

/* Any other record, out of line (as slab_decode_checked()). */
static __attribute__((noinline)) int
page_decode_checked(const struct kmem_fields *f, const struct tep_record *rec,
		    struct kmem_event *ev)
{
	if (misfit_record(f, rec)) {
		kmem_decode_common(f, rec, ev); /* as every refusal leaves it */
		return -1;
	}
	if (holds_all(f, rec))
		return page_decode(f, rec, ev, true);
	return page_decode(f, rec, ev, false);
}

/*
 * The straight path: @rec holds every field (holds_all()) and
 * f->pages.on.  The same event as page_decode() gives: no extfrag
 * fields, so fallback_migratetype -1 and change_ownership when the
 * migration type is -1 too.
 */
static int page_decode_straight(const struct kmem_fields *f,
				const struct tep_record *rec,
				struct kmem_event *ev)
{
	const uint8_t *d = rec->data;

	decode_place(rec, ev);
	ev->pid = (int)ld32(d + f->pages.pid);
	ev->kind = f->pages.kind;
	ev->pfn = ld64(d + f->pages.page);
	ev->page_ptr = f->page_ptr;
	ev->page_valid = f->page_ptr ? ev->pfn != 0 : ev->pfn != ~0ULL;
	ev->order = f->pages.order ? (int)ld32(d + f->pages.order) : 0;
	ev->migratetype =
		f->pages.migratetype ? (int)ld32(d + f->pages.migratetype) : -1;
	if (f->pages.gfp)
		ev->gfp_flags = f->pages.gfp64 ? ld64(d + f->pages.gfp)
					       : ld32(d + f->pages.gfp);
	ev->batched = f->slot == KMEM_SLOT_PAGEVEC_FREE;
	ev->percpu_refill = f->pages.percpu_refill
				    ? ld32(d + f->pages.percpu_refill) != 0
				    : ev->order == 0;
	ev->fallback_migratetype = -1;
	ev->change_ownership = ev->migratetype == -1;
	return 0;
}

/**
 * kmem_page_decode - decode a page allocator record
 * @f: the fields of the record's event type
 * @rec: the record
 * @ev: filled in
 *
 * Return: 0 on success, -1 if the record lacks a field the statistics
 * need (counted as undecodable by the caller).
 */
int kmem_page_decode(const struct kmem_fields *f, const struct tep_record *rec,
		     struct kmem_event *ev)
{
	if (f->pages.on && holds_all(f, rec))
		return page_decode_straight(f, rec, ev);
	return page_decode_checked(f, rec, ev);
}
