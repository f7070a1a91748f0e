/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Bounded field reads shared by the decoders (decode.c, decode_page.c).
 */
#ifndef KMEM_DECODE_INTERNAL_H
#define KMEM_DECODE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

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
 * A field's value, or @def when the record is too short to hold it.
 * Inline rather than tep_read_number(): this is the per-record path, and
 * the call was 14% of trace-kmem stat's time (perf, 857k records).
 */
static inline unsigned long long rd_or(const struct kmem_fields *f,
				       const struct tep_format_field *field,
				       const struct tep_record *rec,
				       unsigned long long def)
{
	const unsigned char *p;
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	if (!in_record(field, rec))
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

void kmem_decode_common(const struct kmem_fields *f,
			const struct tep_record *rec, struct kmem_event *ev);

#endif
