/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Bounded field reads shared by the decoders (decode.c, decode_page.c).
 */
#ifndef KMEM_DECODE_INTERNAL_H
#define KMEM_DECODE_INTERNAL_H

#include <stdbool.h>

#include "decode.h"

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

/* A field's value, or @def when the record is too short to hold it. */
static inline unsigned long long rd_or(const struct tep_format_field *field,
				       const struct tep_record *rec,
				       unsigned long long def)
{
	if (!in_record(field, rec) ||
	    (field->size != 1 && field->size != 2 && field->size != 4 &&
	     field->size != 8))
		return def;
	/* libtraceevent's endian-aware reader, the field checked above */
	return tep_read_number(field->event->tep,
			       (const char *)rec->data + field->offset,
			       field->size);
}

static inline unsigned long long rd(const struct tep_format_field *field,
				    const struct tep_record *rec)
{
	return rd_or(field, rec, 0);
}

/* A signed field of up to 4 bytes (order, migratetype ...). */
static inline int rd_int(const struct tep_format_field *field,
			 const struct tep_record *rec, int def)
{
	return (int)rd_or(field, rec, (unsigned long long)(long long)def);
}

void kmem_decode_common(const struct kmem_fields *f,
			const struct tep_record *rec, struct kmem_event *ev);

#endif
