/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A block of records as the pipeline (pipeline.c) hands them from the
 * reading thread to the counting one: each record a struct tk_rec_hdr,
 * then its data, padded to 8 bytes.  tk_pipe_push() writes them,
 * tk_block_next() reads them back (tk_session_block()).
 */
#ifndef TRACE_KMEM_BLOCK_H
#define TRACE_KMEM_BLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <event-parse.h>

struct tk_rec_hdr {
	uint64_t ts;
	uint64_t offset;
	long long missed;
	int cpu;
	unsigned int size;
};

/* The bytes a record of @size takes in a block. */
static inline size_t tk_rec_bytes(size_t size)
{
	return sizeof(struct tk_rec_hdr) + ((size + 7) & ~(size_t)7);
}

/* A block's records, read in order: @at the next one, @end past them. */
struct tk_block_reader {
	const char *at, *end;
};

/**
 * tk_block_next - the next record of a block
 * @b: the reader
 * @rec: its ts, offset, missed_events, cpu, size and data are set; the
 *	other members are left as they are
 *
 * Inline: the counting thread's per-record path.
 *
 * Return: true with @rec, false after the last record.
 */
static inline bool tk_block_next(struct tk_block_reader *b,
				 struct tep_record *rec)
{
	const struct tk_rec_hdr *r = (const void *)b->at;

	if (b->at >= b->end)
		return false;
	rec->ts = r->ts;
	rec->offset = r->offset;
	rec->missed_events = r->missed;
	rec->cpu = r->cpu;
	rec->size = (int)r->size;
	rec->data = (void *)(r + 1);
	b->at += tk_rec_bytes(r->size);
	return true;
}

#endif
