// SPDX-License-Identifier: LGPL-2.1
/*
 * Per-address entries and their index (see addrtab.h).
 */
#include <stdlib.h>
#include <string.h>

#include "addrtab.h"

#define MIN_BITS 8
#define MAX_BITS 31	/* entry number + 1 always fits in the slot */

/**
 * addr_table_init - an empty table
 * @t: the table
 * @entry_size: bytes an entry, starting with its uint64_t key; rounded
 *	up to a multiple of 8
 */
void addr_table_init(struct addr_table *t, size_t entry_size)
{
	memset(t, 0, sizeof(*t));
	t->size = (entry_size + 7) & ~(size_t)7;
}

/**
 * addr_table_release - free the entries and the index
 * @t: the table (empty afterwards, same entry size)
 */
void addr_table_release(struct addr_table *t)
{
	free(t->ents);
	free(t->slots);
	addr_table_init(t, t->size);
}

static void place(uint32_t *slots, unsigned int bits, uint64_t h, uint32_t i)
{
	size_t mask = ((size_t)1 << bits) - 1, p = addr_first_slot(h, bits);

	while (slots[p])
		p = (p + 1) & mask;
	slots[p] = addr_tag(h, bits) | (i + 1);
}

/* Twice the slots, rebuilt from the entries' keys. */
static int grow_index(struct addr_table *t)
{
	unsigned int bits = t->slots ? t->bits + 1 : MIN_BITS;
	uint32_t *slots, i;

	if (bits > MAX_BITS)
		return -1;
	slots = calloc((size_t)1 << bits, sizeof(*slots));
	if (!slots)
		return -1;
	for (i = 0; i < t->len; i++)
		place(slots, bits, addr_hash(addr_key_at(t, i)), i);
	free(t->slots);
	t->slots = slots;
	t->bits = bits;
	t->mask = (uint32_t)(((size_t)1 << bits) - 1);
	t->shift = 64 - bits;
	return 0;
}

static int grow_entries(struct addr_table *t)
{
	size_t cap = t->cap ? t->cap * 2 : 256;
	char *p = realloc(t->ents, cap * t->size);

	if (!p)
		return -1;
	t->ents = p;
	t->cap = cap;
	return 0;
}

/**
 * addr_table_add - append a zeroed entry for a key not in the table
 * @t: the table
 * @key: the key (the caller has looked it up)
 *
 * Return: the new entry's number, or ADDR_NONE when memory ran out
 * (the table is unchanged then).
 */
uint32_t addr_table_add(struct addr_table *t, uint64_t key)
{
	uint32_t i = (uint32_t)t->len;

	if ((!t->slots || (t->len + 1) * 4 > ((size_t)3 << t->bits)) &&
	    grow_index(t))
		return ADDR_NONE;
	if (t->len == t->cap && grow_entries(t))
		return ADDR_NONE;
	memset(t->ents + (size_t)i * t->size, 0, t->size);
	memcpy(t->ents + (size_t)i * t->size, &key, sizeof(key));
	t->len++;
	place(t->slots, t->bits, addr_hash(key), i);
	return i;
}
