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

struct rb_page {
	const uint8_t *data; /* the first event */
	uint32_t size;	     /* committed bytes from @data */
	uint32_t next;	     /* where the next event starts */
	uint32_t hdr;	     /* page header bytes: 16, or 12 (4-byte long) */
	uint64_t ts;	     /* the running timestamp */
	int lost;	     /* missed events before the page, -1: unknown */
	bool big;
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
int rb_page_next(struct rb_page *pg, struct rb_record *rec);

#endif
