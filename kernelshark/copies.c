// SPDX-License-Identifier: LGPL-2.1
/*
 * The records of one CPU, copied while KernelShark loads them (its
 * records are freed as soon as our handler returns), for the follow
 * pass: in blocks of 1 MB, each copy a 24-byte header (its time, its
 * entry, its size, missed_events) and the record's data, unpadded.
 *
 * One thread appends (KernelShark's loading thread, in the event
 * handler) while another may read what was published to it (the follow
 * pass, follow.c): the writer never touches what the reader has been
 * given, and tells it where a block ends with a header of its own, so
 * the reader never reads the writer's length of a block.  The reader
 * frees each block it has read past; the blocks' list is then freed
 * from there.
 */
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "event/extent.h"
#include "kmem_ks.h"

#define BLOCK_SIZE (1u << 20)

struct kmem_ks_block {
	struct kmem_ks_block *next;
	size_t len;
	char data[];
};

/* The header of a copy (read and written with memcpy: unaligned). */
struct copy_head {
	int64_t ts;
	struct kshark_entry *entry;
	int32_t missed; /* missed_events, clamped */
	uint32_t size;	/* or COPY_BAD, COPY_NEXT */
};

#define COPY_BAD UINT32_MAX	   /* impossible size: no data copied */
#define COPY_NEXT (UINT32_MAX - 1) /* the rest is in the next block */

static struct kmem_ks_block *new_block(size_t need)
{
	size_t size = need > BLOCK_SIZE ? need : BLOCK_SIZE;
	struct kmem_ks_block *b = malloc(sizeof(*b) + size);

	if (b) {
		b->next = NULL;
		b->len = 0;
	}
	return b;
}

/**
 * kmem_ks_copy - keep a copy of a record
 * @a: its CPU's copies
 * @rec: the record
 * @e: KernelShark's entry of it
 * @max_size: records larger than this (or of negative size) are kept
 *	as damaged, without their data
 * @page: kmem_page_bound() of the trace: records that run past the end
 *	of their page are kept as damaged too
 *
 * Return: 0, or -1 out of memory (nothing kept).
 */
int kmem_ks_copy(struct kmem_ks_copies *a, const struct tep_record *rec,
		 struct kshark_entry *e, int max_size, unsigned int page)
{
	bool bad = rec->size < 0 || rec->size > max_size || !rec->data ||
		   !kmem_record_in_page(rec, page);
	size_t data = bad ? 0 : (size_t)rec->size;
	/* room for this copy and a COPY_NEXT header after it */
	size_t need = 2 * sizeof(struct copy_head) + data;
	struct kmem_ks_block *b = a->tail;
	struct copy_head h;

	if (!b || b->len + need > BLOCK_SIZE) {
		struct kmem_ks_block *nb = new_block(need);

		if (!nb)
			return -1;
		if (b) {
			memset(&h, 0, sizeof(h));
			h.size = COPY_NEXT;
			memcpy(b->data + b->len, &h, sizeof(h));
			b->next = nb;
		} else {
			a->head = nb;
		}
		a->tail = b = nb;
	}
	h.ts = (int64_t)rec->ts;
	h.entry = e;
	h.missed = rec->missed_events > INT32_MAX ? INT32_MAX
		   : rec->missed_events < INT32_MIN
			   ? INT32_MIN
			   : (int32_t)rec->missed_events;
	h.size = bad ? COPY_BAD : (uint32_t)rec->size;
	memcpy(b->data + b->len, &h, sizeof(h));
	if (data)
		memcpy(b->data + b->len + sizeof(h), rec->data, data);
	b->len += sizeof(h) + data;
	a->count++;
	return 0;
}

/**
 * kmem_ks_copy_read - the next copy, as a record
 * @c: the reader's place (zeroed before the first read)
 * @a: the copies, at least one more of them published to the reader
 * @rec: filled in (ts, size, data, missed_events; size -1 when damaged);
 *	its data is valid until the next read
 *
 * Each block read past is freed.
 *
 * Return: its entry.
 */
struct kshark_entry *kmem_ks_copy_read(struct kmem_ks_cursor *c,
				       struct kmem_ks_copies *a,
				       struct tep_record *rec)
{
	struct copy_head h;

	if (!c->b)
		c->b = a->head;
	for (;;) {
		memcpy(&h, c->b->data + c->pos, sizeof(h));
		if (h.size != COPY_NEXT)
			break;
		a->head = c->b->next;
		free(c->b);
		c->b = a->head;
		c->pos = 0;
	}
	rec->ts = (unsigned long long)h.ts;
	rec->missed_events = h.missed;
	rec->size = h.size == COPY_BAD ? -1 : (int)h.size;
	rec->data = c->b->data + c->pos + sizeof(h);
	c->pos += sizeof(h) + (h.size == COPY_BAD ? 0 : h.size);
	return h.entry;
}

/**
 * kmem_ks_copies_free - drop a CPU's copies (no reader or writer left)
 * @a: the copies
 */
void kmem_ks_copies_free(struct kmem_ks_copies *a)
{
	while (a->head) {
		struct kmem_ks_block *next = a->head->next;

		free(a->head);
		a->head = next;
	}
	a->tail = NULL;
	a->count = 0;
}
