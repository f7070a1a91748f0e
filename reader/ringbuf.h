/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * One ring-buffer page (sub-buffer) decoded in place: the page header
 * (a u64 timestamp and a long-sized commit word with the missed-events
 * flags), then events, each a 32-bit type_len/time_delta word in the
 * file's byte order, with padding, time-extend and absolute time-stamp
 * events between the data (Linux 2.6.31 and later).
 *
 * The records and timestamps are those libtraceevent's kbuffer gives;
 * unlike kbuffer, nothing is read outside the committed bytes, and a
 * length that points outside them (or backwards) marks the page
 * damaged instead of being followed.
 */
#ifndef TDAT_RINGBUF_H
#define TDAT_RINGBUF_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

struct rb_page {
	const uint8_t *data; /* the first event */
	uint32_t size;	     /* committed bytes from @data */
	uint32_t next;	     /* where the next event starts */
	uint32_t hdr;	     /* page header bytes: 16, or 12 (4-byte long) */
	uint64_t ts;	     /* the running timestamp */
	int lost;	     /* missed events before the page, -1: unknown */
	bool big;
	bool swap; /* @big is not the host's byte order */
};

struct rb_record {
	const uint8_t *data;
	uint32_t size;
	uint32_t offset; /* of its header, from the page start */
	uint64_t ts;	 /* raw, before the file's corrections */
	int missed;
};

int rb_page_load(struct rb_page *pg, const uint8_t *page, uint32_t avail,
		 int long_size, bool big);

#define RB_TS_SHIFT 27
#define RB_TS_MSB (0xf8ULL << 56)
/*
 * No page's time is later (rb_page_load()): 2^63 ns is 292 years, and
 * 2^63 cycles of a 3 GHz TSC 97.  A later one is damaged: the times of
 * its records would wrap past 2^64 to tiny ones, the trace read out of
 * order.  From a checked page time, a time stamp keeps below 2^64, and
 * so do the deltas and time extends of any page that has fewer than 16
 * extends of 2^59 ns each (the records' path checks nothing more).
 */
#define RB_TS_LIMIT (1ULL << 63)

enum {
	RB_TYPE_DATA_LEN = 0, /* length in the next word */
	RB_TYPE_PADDING = 29,
	RB_TYPE_TIME_EXTEND = 30,
	RB_TYPE_TIME_STAMP = 31,
};

/*
 * The 32-bit word at @at of the page's data, in the file's byte order;
 * @native (a constant): the page is little-endian, as the host is.
 */
static inline __attribute__((always_inline)) uint32_t
rb_word_as(const struct rb_page *pg, uint32_t at, bool native)
{
	uint32_t v;

	memcpy(&v, pg->data + at, 4);
	return !native && pg->swap ? __builtin_bswap32(v) : v;
}

/**
 * rb_page_next_as - the next data record of the page
 * @pg: the decoder, after rb_page_load()
 * @rec: filled in
 * @native: a constant; true only for a little-endian page on a
 *	little-endian host (!@pg->big, !@pg->swap): the byte order and bit
 *	layout tests are left out of that instance
 *
 * Inline: the per-record path of the reader.
 *
 * Return: 1 with @rec, 0 at the end of the page, -1 when the page is
 * damaged from here on (the rest of it cannot be trusted).
 */
static inline __attribute__((always_inline)) int
rb_page_next_as(struct rb_page *pg, struct rb_record *rec, bool native)
{
	uint32_t curr, x, type, delta, index;
	uint64_t end;
	int64_t len;

	for (;;) {
		curr = pg->next;
		if (curr >= pg->size)
			return 0;
		if (pg->size - curr < 4)
			return -1;
		x = rb_word_as(pg, curr, native);
		if (!native && pg->big) {
			type = x >> 27;
			delta = x & ((1U << 27) - 1);
		} else {
			type = x & 0x1f;
			delta = x >> 5;
		}
		if (type >= RB_TYPE_PADDING || type == RB_TYPE_DATA_LEN) {
			if (pg->size - curr < 8)
				return type == RB_TYPE_PADDING ? 0 : -1;
		}
		switch (type) {
		case RB_TYPE_PADDING:
			len = (int32_t)rb_word_as(pg, curr + 4, native);
			if (len < 0)
				return -1;
			pg->ts += delta;
			end = (uint64_t)curr + 4 + (uint64_t)len;
			/* a discarded event (delta 1, rb_event_discard())
			 * keeps its own length, inside the data; only the
			 * page's tail padding (delta 0) may run past it */
			if (delta && end > pg->size)
				return -1;
			pg->next = end > pg->size ? pg->size : (uint32_t)end;
			continue;
		case RB_TYPE_TIME_EXTEND:
			pg->ts += ((uint64_t)rb_word_as(pg, curr + 4, native)
				   << RB_TS_SHIFT) +
				  delta;
			pg->next = curr + 8;
			continue;
		case RB_TYPE_TIME_STAMP:
			pg->ts = (((uint64_t)rb_word_as(pg, curr + 4, native)
				   << RB_TS_SHIFT) +
				  delta) |
				 (pg->ts & RB_TS_MSB);
			pg->next = curr + 8;
			continue;
		case RB_TYPE_DATA_LEN:
			len = (int32_t)(rb_word_as(pg, curr + 4, native) - 4);
			len = (len + 3) & ~(int64_t)3;
			index = curr + 8;
			break;
		default:
			len = (int64_t)type * 4;
			index = curr + 4;
			break;
		}
		if (len < 0 || (uint64_t)index + (uint64_t)len > pg->size)
			return -1;
		pg->ts += delta;
		pg->next = index + (uint32_t)len;
		rec->data = pg->data + index;
		rec->size = (uint32_t)len;
		rec->offset = pg->hdr + curr;
		rec->ts = pg->ts;
		rec->missed = curr ? 0 : pg->lost;
		return 1;
	}
}

/**
 * rb_page_next - the next data record of the page, of any byte order
 * @pg: the decoder, after rb_page_load()
 * @rec: filled in
 *
 * Return: as rb_page_next_as().
 */
static inline __attribute__((always_inline)) int
rb_page_next(struct rb_page *pg, struct rb_record *rec)
{
	return rb_page_next_as(pg, rec, false);
}

#endif
