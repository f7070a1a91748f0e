// SPDX-License-Identifier: LGPL-2.1
/*
 * The ring-buffer page header (see ringbuf.h; the records are read by
 * rb_page_next(), inline there).
 */
#include "internal.h"
#include "ringbuf.h"

#define COMMIT_MASK ((1U << 27) - 1)
#define MISSING_EVENTS (1ULL << 31)
#define MISSING_STORED (1ULL << 30)

/**
 * rb_page_load - start reading a page
 * @pg: the decoder
 * @page: the page's bytes
 * @avail: how many of them there are (a page size, or less at the end)
 * @long_size: the kernel's long, 4 or 8 (the header page's commit size)
 * @big: the file is big-endian
 *
 * Return: 0, or -1 when the page header lies (a commit of 0, or past the
 * page; a time past RB_TS_LIMIT).
 */
int rb_page_load(struct rb_page *pg, const uint8_t *page, uint32_t avail,
		 int long_size, bool big)
{
	uint64_t flags;

	pg->hdr = 8 + (uint32_t)long_size;
	pg->big = big;
	pg->swap = big != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	pg->next = 0;
	pg->lost = 0;
	pg->size = 0;
	if (avail < pg->hdr)
		return -1;
	pg->ts = tdat_num(page, 8, big);
	if (pg->ts > RB_TS_LIMIT)
		return -1;
	flags = tdat_num(page + 8, long_size, big);
	pg->data = page + pg->hdr;
	pg->size = (uint32_t)flags & COMMIT_MASK;
	/* no data: the kernel gives a reader no empty page, and trace-cmd
	 * writes none (not even trace-cmd split, whose pages are made at
	 * their first record) */
	if (!pg->size || pg->size > avail - pg->hdr) {
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
