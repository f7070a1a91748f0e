// SPDX-License-Identifier: LGPL-2.1
/*
 * The ring-buffer page decoder (see ringbuf.h).
 */
#include "internal.h"
#include "ringbuf.h"

#define COMMIT_MASK ((1U << 27) - 1)
#define MISSING_EVENTS (1ULL << 31)
#define MISSING_STORED (1ULL << 30)
#define TS_SHIFT 27
#define TS_MSB (0xf8ULL << 56)

enum {
	TYPE_DATA_LEN = 0, /* length in the next word */
	TYPE_PADDING = 29,
	TYPE_TIME_EXTEND = 30,
	TYPE_TIME_STAMP = 31,
};

/**
 * rb_page_load - start reading a page
 * @pg: the decoder
 * @page: the page's bytes
 * @avail: how many of them there are (a page size, or less at the end)
 * @long_size: the kernel's long, 4 or 8 (the header page's commit size)
 * @big: the file is big-endian
 *
 * Return: 0, or -1 when the page header lies (a commit past the page).
 */
int rb_page_load(struct rb_page *pg, const uint8_t *page, uint32_t avail,
		 int long_size, bool big)
{
	uint64_t flags;

	pg->hdr = 8 + (uint32_t)long_size;
	pg->big = big;
	pg->next = 0;
	pg->lost = 0;
	pg->size = 0;
	if (avail < pg->hdr)
		return -1;
	pg->ts = tdat_num(page, 8, big);
	flags = tdat_num(page + 8, long_size, big);
	pg->data = page + pg->hdr;
	pg->size = (uint32_t)flags & COMMIT_MASK;
	if (pg->size > avail - pg->hdr) {
		pg->size = 0;
		return -1;
	}
	if (flags & MISSING_EVENTS) {
		/* a count stored after the data, when it fits in the page
		 * (a page its data fills has no room: the count is unknown;
		 * kbuffer reads it from the next page's bytes) */
		if ((flags & MISSING_STORED) &&
		    avail - pg->hdr - pg->size >= (uint32_t)long_size)
			pg->lost = (int)tdat_num(pg->data + pg->size, long_size,
						 big);
		else
			pg->lost = -1;
	}
	return 0;
}

static uint32_t word(const struct rb_page *pg, uint32_t at)
{
	return (uint32_t)tdat_num(pg->data + at, 4, pg->big);
}

/**
 * rb_page_next - the next data record of the page
 * @pg: the decoder, after rb_page_load()
 * @rec: filled in
 *
 * Return: 1 with @rec, 0 at the end of the page, -1 when the page is
 * damaged from here on (the rest of it cannot be trusted).
 */
int rb_page_next(struct rb_page *pg, struct rb_record *rec)
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
		x = word(pg, curr);
		if (pg->big) {
			type = x >> 27;
			delta = x & ((1U << 27) - 1);
		} else {
			type = x & 0x1f;
			delta = x >> 5;
		}
		if (type >= TYPE_PADDING || type == TYPE_DATA_LEN) {
			if (pg->size - curr < 8)
				return type == TYPE_PADDING ? 0 : -1;
		}
		switch (type) {
		case TYPE_PADDING:
			len = (int32_t)word(pg, curr + 4);
			if (len < 0)
				return -1;
			pg->ts += delta;
			end = (uint64_t)curr + 4 + (uint64_t)len;
			pg->next = end > pg->size ? pg->size : (uint32_t)end;
			continue;
		case TYPE_TIME_EXTEND:
			pg->ts += ((uint64_t)word(pg, curr + 4) << TS_SHIFT) +
				  delta;
			pg->next = curr + 8;
			continue;
		case TYPE_TIME_STAMP:
			pg->ts = (((uint64_t)word(pg, curr + 4) << TS_SHIFT) +
				  delta) |
				 (pg->ts & TS_MSB);
			pg->next = curr + 8;
			continue;
		case TYPE_DATA_LEN:
			len = (int32_t)(word(pg, curr + 4) - 4);
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
