/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The fields of an event type, and bounded reads of them: the lowest
 * part of decoding, under the decoders of each allocator
 * (decode_<allocator>.c, declared at the end), which the event table
 * (events.c) names, under decode.c, which dispatches through it.
 */
#ifndef KMEM_FIELD_H
#define KMEM_FIELD_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <event-parse.h>

#include "events.h"
#include "kmem_event.h"

/* Room in struct kmem_fields for a decoder's own fields. */
#define KMEM_OWN_FIELDS 8

/* The fields of one event type, found once. */
struct kmem_fields {
	struct tep_event *event;
	enum kmem_slot slot;
	const struct kmem_event_def *def; /* kmem_event_defs[slot] */
	bool usable;			  /* all required fields present */
	struct tep_event *clash;	  /* another event of its id, or NULL */
	bool swap;		      /* the file's byte order is not ours */
	struct tep_format_field *pid; /* common_pid */
	/* slab */
	struct tep_format_field *call_site;
	struct tep_format_field *ptr;
	struct tep_format_field *bytes_req;
	struct tep_format_field *bytes_alloc;
	struct tep_format_field *gfp_flags;
	struct tep_format_field *node;	    /* optional */
	struct tep_format_field *accounted; /* optional (6.0) */
	unsigned long long account_bit;	    /* else __GFP_ACCOUNT, 0: unknown */
	struct tep_format_field *name;	    /* optional */
	/* page allocator: pfn, or page on old kernels */
	struct tep_format_field *page;
	bool page_ptr;
	struct tep_format_field *order; /* absent: order 0 */
	struct tep_format_field *migratetype;
	struct tep_format_field *percpu_refill;
	struct tep_format_field *fallback_order;
	struct tep_format_field *fallback_migratetype;
	struct tep_format_field *change_ownership;
	int pageblock_order; /* -1: unknown */
	/* kernel_stack */
	struct tep_format_field *stack_size;
	struct tep_format_field *caller;
	int long_size;
	/* per-CPU allocator (size: bytes_req) */
	struct tep_format_field *align;
	struct tep_format_field *reserved;
	struct tep_format_field *is_atomic;
	/* fields that one allocator's decoder alone reads, by its own
	 * indices (decode_vmalloc.c) */
	struct tep_format_field *own[KMEM_OWN_FIELDS];
	/*
	 * The slab decoder's straight path (kmem_slab_fields_init()): the
	 * file's byte order is ours and every field has the size of a
	 * 64-bit kernel's, so that a record holding every field (@fit_end)
	 * is read at these offsets with no check a field.  0: absent.
	 */
	struct {
		bool on;
		bool gfp64;    /* gfp_flags is 8 bytes, else 4 */
		bool name_rel; /* __rel_loc: after the field */
		bool is_cache; /* kmem_cache_*, not kmalloc/kfree */
		uint8_t kind;  /* KMEM_EV_SLAB_ALLOC or KMEM_EV_SLAB_FREE */
		uint32_t pid, call_site, ptr, bytes_req, bytes_alloc, gfp;
		uint32_t node, accounted, name;
	} slab;
	/* ... and the page allocator's (kmem_page_fields_init()) */
	struct {
		bool on;
		bool gfp64; /* gfp_flags is 8 bytes, else 4 */
		enum kmem_ev_kind kind;
		uint32_t pid, page, order, migratetype, gfp, percpu_refill;
	} pages;
	/*
	 * A record at least this long holds every field above
	 * (kmem_fields_fit_end()): the decoders of the busiest events then
	 * read them with one bounds check for the record, not two a field.
	 */
	long long fit_end;
	/* every record is at least this long (kmem_fields_num_end()), and
	 * at most max_len (kmem_fields_max_len()); INT_MAX: no bound */
	int num_end, max_len;
	/* max_len - fit_end, or 2^31 (holds_all()) */
	unsigned int fit_span;
};

/* Do @len bytes at @off lie inside the record?  (No int overflow.) */
static inline bool span_in(long long off, long long len,
			   const struct tep_record *rec)
{
	return off >= 0 && len > 0 && rec->size > 0 &&
	       off + len <= (long long)rec->size;
}

static inline bool in_record(const struct tep_format_field *field,
			     const struct tep_record *rec)
{
	return field && span_in(field->offset, field->size, rec);
}

/* A 4- or 8-byte word at @p, in the file's byte order. */
static inline uint64_t rd_word(const struct kmem_fields *f, const void *p,
			       int size)
{
	uint32_t v32;
	uint64_t v64;

	if (size == 4) {
		memcpy(&v32, p, 4);
		return f->swap ? __builtin_bswap32(v32) : v32;
	}
	memcpy(&v64, p, 8);
	return f->swap ? __builtin_bswap64(v64) : v64;
}

/*
 * Does @field lie inside @rec?  @all: @rec is at least @f->fit_end long,
 * so that every field the format has does.
 */
static inline bool fits(bool all, const struct tep_format_field *field,
			const struct tep_record *rec)
{
	return all ? field != NULL : in_record(field, rec);
}

/* Is @rec shorter or longer than any record of its event (a damaged
 * record, its event id, or its format)?  Then it is not decoded. */
static inline bool misfit_record(const struct kmem_fields *f,
				 const struct tep_record *rec)
{
	return rec->size < f->num_end || rec->size > f->max_len;
}

/* Is @rec long enough to hold every field of @f, and no longer than a
 * record of its event?  (One compare.) */
static inline bool holds_all(const struct kmem_fields *f,
			     const struct tep_record *rec)
{
	return (unsigned long long)((long long)rec->size - f->fit_end) <=
	       (unsigned long long)f->fit_span;
}

/*
 * A field's value, or @def when the record is too short to hold it (@all
 * as for fits()).  Inline rather than tep_read_number(): this is the
 * per-record path, and the call was 14% of trace-kmem stat's time (perf,
 * 857k records).
 */
static inline unsigned long long rdf(const struct kmem_fields *f, bool all,
				     const struct tep_format_field *field,
				     const struct tep_record *rec,
				     unsigned long long def)
{
	const unsigned char *p;
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	if (!fits(all, field, rec))
		return def;
	p = (const unsigned char *)rec->data + field->offset;
	switch (field->size) {
	case 1:
		return *p;
	case 2:
		memcpy(&v16, p, 2);
		return f->swap ? __builtin_bswap16(v16) : v16;
	case 4:
		memcpy(&v32, p, 4);
		return f->swap ? __builtin_bswap32(v32) : v32;
	case 8:
		memcpy(&v64, p, 8);
		return f->swap ? __builtin_bswap64(v64) : v64;
	}
	return def;
}

static inline unsigned long long rd_or(const struct kmem_fields *f,
				       const struct tep_format_field *field,
				       const struct tep_record *rec,
				       unsigned long long def)
{
	return rdf(f, false, field, rec, def);
}

/**
 * field_fits - does an optional field fit in the record?
 * @field: the field, or NULL when the format lacks it
 * @rec: the record
 *
 * Return: true if the format lacks it or it lies inside the record.
 */
static inline bool field_fits(const struct tep_format_field *field,
			      const struct tep_record *rec)
{
	return !field || in_record(field, rec);
}

static inline unsigned long long rd(const struct kmem_fields *f,
				    const struct tep_format_field *field,
				    const struct tep_record *rec)
{
	return rd_or(f, field, rec, 0);
}

/* A signed field of up to 4 bytes (order, migratetype ...). */
static inline int rd_int(const struct kmem_fields *f,
			 const struct tep_format_field *field,
			 const struct tep_record *rec, int def)
{
	return (int)rd_or(f, field, rec, (unsigned long long)(long long)def);
}

/*
 * The straight paths of the decoders: a field of @size bytes, at an
 * offset past common_type; its offset (0: absent); words read in our
 * byte order.
 */
static inline bool field_sized(const struct tep_format_field *fl, int size)
{
	return fl && fl->size == size && fl->offset > 0;
}

static inline bool field_sized_or_none(const struct tep_format_field *fl,
				       int size)
{
	return !fl || field_sized(fl, size);
}

static inline uint32_t field_at(const struct tep_format_field *fl)
{
	return fl ? (uint32_t)fl->offset : 0;
}

static inline uint32_t ld32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static inline uint64_t ld64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* @ev cleared (but for the stack frames), and where @rec lies. */
static inline void decode_place(const struct tep_record *rec,
				struct kmem_event *ev)
{
	kmem_event_clear(ev);
	ev->cpu = rec->cpu;
	ev->ts = rec->ts;
	ev->node = KMEM_NO_NODE;
	ev->rec_offset = rec->offset;
	ev->rec_size = (unsigned int)rec->size;
	ev->after_loss = rec->missed_events != 0;
}

/*
 * The part of an event every record has: @ev cleared (but for the stack
 * frames) and filled in; @all as for fits().  Inline for the busiest
 * decoders; kmem_decode_common() for the others.
 */
static inline void decode_common(const struct kmem_fields *f,
				 const struct tep_record *rec,
				 struct kmem_event *ev, bool all)
{
	decode_place(rec, ev);
	ev->pid = (int)rdf(f, all, f->pid, rec, (unsigned long long)-1);
}

void kmem_decode_common(const struct kmem_fields *f,
			const struct tep_record *rec, struct kmem_event *ev);
long long kmem_fields_fit_end(const struct kmem_fields *f);
long long kmem_fields_num_end(const struct kmem_fields *f);
long long kmem_fields_max_len(const struct kmem_fields *f);
/* No event's struct is larger (a field beyond: its format is damaged). */
#define KMEM_MAX_STRUCT (1 << 24)
void kmem_event_len(const struct tep_event *ev, uint32_t *lo, uint32_t *hi);
bool kmem_fields_readable(const struct kmem_fields *f);

/*
 * The decoders, one pair a kind of event, named by events.c's table (a
 * later allocator's in its own header: decode_vmalloc.h).
 */
void kmem_slab_fields_init(struct kmem_fields *f);
int kmem_slab_decode(const struct kmem_fields *f, const struct tep_record *rec,
		     struct kmem_event *ev);
void kmem_page_fields_init(struct kmem_fields *f);
int kmem_page_decode(const struct kmem_fields *f, const struct tep_record *rec,
		     struct kmem_event *ev);
void kmem_stack_fields_init(struct kmem_fields *f);
int kmem_stack_decode(const struct kmem_fields *f, const struct tep_record *rec,
		      struct kmem_event *ev);
void kmem_percpu_fields_init(struct kmem_fields *f);
int kmem_percpu_decode(const struct kmem_fields *f,
		       const struct tep_record *rec, struct kmem_event *ev);

#endif
