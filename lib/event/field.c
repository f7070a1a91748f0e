// SPDX-License-Identifier: LGPL-2.1
/*
 * What every record of an event has (see field.h).
 */
#include <limits.h>
#include <string.h>

#include "field.h"
#include "fmtsound.h"

/**
 * kmem_decode_common - the part of an event every record has
 * @f: the fields of the record's event type
 * @rec: the record
 * @ev: cleared (but for the stack frames) and filled in
 */
void kmem_decode_common(const struct kmem_fields *f,
			const struct tep_record *rec, struct kmem_event *ev)
{
	decode_common(f, rec, ev, false);
}

/* Where @fl ends in a record: 0 when absent, LLONG_MAX when it lies
 * nowhere a record can hold it (in_record() is false of every record). */
static long long field_end(const struct tep_format_field *fl)
{
	if (!fl)
		return 0;
	if (fl->offset < 0 || fl->size <= 0)
		return LLONG_MAX;
	return (long long)fl->offset + fl->size;
}

/*
 * Every field of @f, @f->own's included, into @out (KMEM_ALL_FIELDS):
 * the number fields first (KMEM_NUM_FIELDS of them), then the name (a
 * string) and the stack's caller (an array).
 */
#define KMEM_NUM_FIELDS (19 + KMEM_OWN_FIELDS)
#define KMEM_ALL_FIELDS (KMEM_NUM_FIELDS + 2)

static void all_fields(const struct kmem_fields *f,
		       const struct tep_format_field **out)
{
	const struct tep_format_field *const named[] = {
		f->pid,
		f->call_site,
		f->ptr,
		f->bytes_req,
		f->bytes_alloc,
		f->gfp_flags,
		f->node,
		f->accounted,
		f->page,
		f->order,
		f->migratetype,
		f->percpu_refill,
		f->fallback_order,
		f->fallback_migratetype,
		f->change_ownership,
		f->stack_size,
		f->align,
		f->reserved,
		f->is_atomic,
	};
	size_t i, n = sizeof(named) / sizeof(named[0]);

	_Static_assert(sizeof(named) / sizeof(named[0]) + KMEM_OWN_FIELDS ==
			       KMEM_NUM_FIELDS,
		       "KMEM_NUM_FIELDS counts the fields named here");
	for (i = 0; i < n; i++)
		out[i] = named[i];
	for (i = 0; i < KMEM_OWN_FIELDS; i++)
		out[n + i] = f->own[i];
	out[KMEM_NUM_FIELDS] = f->name;
	out[KMEM_NUM_FIELDS + 1] = f->caller;
}

/* Can rdf() read @fl: absent, or of 1, 2, 4 or 8 bytes, the size of
 * its type? */
static bool readable(const struct tep_format_field *fl)
{
	return !fl || ((fl->size == 1 || fl->size == 2 || fl->size == 4 ||
			fl->size == 8) &&
		       kmem_field_sound(fl));
}

/**
 * kmem_fields_readable - can every number field of an event be read?
 * @f: the fields of an event type, looked up
 *
 * The decoders read a number of 1, 2, 4 or 8 bytes; a format that gives
 * one of another size is damaged, and its records would be read as if
 * the field held 0.  So is one that gives a number a size its C type
 * does not have (kmem_field_sound()): its records would be read from
 * the wrong bytes.  The name (a string) and the stack's caller (an
 * array) are not numbers.
 *
 * Return: true when each number field @f has is of a size read.
 */
bool kmem_fields_readable(const struct kmem_fields *f)
{
	const struct tep_format_field *fl[KMEM_ALL_FIELDS];
	int i;

	all_fields(f, fl);
	for (i = 0; i < KMEM_NUM_FIELDS; i++)
		if (!readable(fl[i]))
			return false;
	return true;
}

/* The largest end (offset + size) of @f's first @n fields (all_fields()'s
 * order), at least 1; LLONG_MAX when one lies nowhere a record can. */
static long long fields_end(const struct kmem_fields *f, int n)
{
	const struct tep_format_field *fl[KMEM_ALL_FIELDS];
	long long end = 1;
	int i;

	all_fields(f, fl);
	for (i = 0; i < n; i++)
		end = field_end(fl[i]) > end ? field_end(fl[i]) : end;
	return end;
}

/**
 * kmem_fields_num_end - how long every record of an event is
 * @f: the fields of an event type, looked up
 *
 * A record is its event's struct, then its dynamic data: it holds every
 * number field, and the word of its dynamic string (a stack's frames
 * may be fewer than its array holds).  A shorter one is damaged, or its
 * format is (a field moved past the struct's end would read as absent).
 *
 * Return: the largest end (offset + size) of @f's number fields and
 * name word, at least 1; LLONG_MAX as for kmem_fields_fit_end().
 */
long long kmem_fields_num_end(const struct kmem_fields *f)
{
	return fields_end(f, KMEM_NUM_FIELDS + 1); /* the name's word too */
}

/**
 * kmem_event_len - how long the records of an event can be
 * @ev: the event, its format parsed
 * @lo: set to the shortest: the end (offset + size) of its last field,
 *	the struct the kernel writes; 1 when the format tells nothing
 * @hi: set to the longest, UINT32_MAX when there is no bound
 *
 * The kernel writes a record as its event's struct (its fields, the
 * struct padded to at most 8 bytes), 4- or 8-byte aligned in the ring
 * buffer, then its dynamic data.  An event with no data of its own after
 * the struct (no __data_loc or __rel_loc field, no array of no size; not
 * one of ftrace's own, whose stacks hold as many frames as they have;
 * not a user event, whose writer chooses its length) has no record
 * longer than the end of its last field rounded up to 8, with 8 bytes to
 * spare.  A record outside these is damaged, or another event's (its id
 * damaged).  A field past KMEM_MAX_STRUCT bytes, or at a negative offset,
 * leaves the lengths unknown.  The reader says the same of a format's
 * text (tdat_text_len()).
 */
void kmem_event_len(const struct tep_event *ev, uint32_t *lo, uint32_t *hi)
{
	const struct tep_format_field *fl;
	bool open = !ev->system || !strcmp(ev->system, "ftrace") ||
		    !strncmp(ev->system, "user_events", 11);
	long long end = 0;
	int pass;

	*lo = 1;
	*hi = UINT32_MAX;
	for (pass = 0; pass < 2; pass++)
		for (fl = pass ? ev->format.fields : ev->format.common_fields;
		     fl; fl = fl->next) {
			if (fl->offset < 0 || fl->size < 0 ||
			    (long long)fl->offset + fl->size > KMEM_MAX_STRUCT)
				return;
			if (!fl->size || fl->flags & (TEP_FIELD_IS_DYNAMIC |
						      TEP_FIELD_IS_RELATIVE))
				open = true;
			if ((long long)fl->offset + fl->size > end)
				end = (long long)fl->offset + fl->size;
		}
	if (!end)
		return;
	*lo = (uint32_t)end;
	if (!open)
		*hi = (uint32_t)((end + 7) / 8 * 8 + 8);
}

/**
 * kmem_fields_max_len - how long a record of an event can be
 * @f: the fields of an event type, looked up
 *
 * Return: kmem_event_len()'s longest, or LLONG_MAX when there is no such
 * bound.
 */
long long kmem_fields_max_len(const struct kmem_fields *f)
{
	uint32_t lo, hi;

	if (!f->event)
		return LLONG_MAX;
	kmem_event_len(f->event, &lo, &hi);
	return hi == UINT32_MAX ? LLONG_MAX : hi;
}

/**
 * kmem_fields_fit_end - how long a record must be to hold every field
 * @f: the fields of an event type, looked up
 *
 * Return: the largest end (offset + size) of the fields @f has, at least
 * 1; LLONG_MAX when one of them has a negative offset or no size.
 */
long long kmem_fields_fit_end(const struct kmem_fields *f)
{
	return fields_end(f, KMEM_ALL_FIELDS);
}
