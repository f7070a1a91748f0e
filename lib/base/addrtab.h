/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A table of fixed-size entries keyed by a 64-bit address (a slab
 * object's pointer, a page frame number): the per-address state, the
 * part of the statistics that grows with the trace's memory.
 *
 * Entries sit in one dense array, in the order they were added, each
 * starting with its key (a uint64_t).  The index holds 4 bytes a slot:
 * the entry number + 1 in the low bits, and in the bits the number does
 * not need, more bits of the key's hash, so that a probe rarely reads
 * an entry that is not the one sought.  It doubles at three quarters
 * full, so it costs 5.3 to 10.7 bytes an entry, and the array costs the
 * entry size (the pages realloc() reserves beyond the last entry are
 * never touched).  Entries are never removed.
 */
#ifndef KMEM_ADDRTAB_H
#define KMEM_ADDRTAB_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define ADDR_NONE UINT32_MAX

struct addr_table {
	char *ents;
	size_t size;		/* bytes an entry, a multiple of 8 */
	size_t len, cap;	/* entries in use, room */
	uint32_t *slots;	/* NULL until the first entry */
	unsigned int bits;	/* 1 << bits slots */
	uint32_t mask;		/* (1 << bits) - 1 */
	unsigned int shift;	/* 64 - bits */
};

void addr_table_init(struct addr_table *t, size_t entry_size);
void addr_table_release(struct addr_table *t);
uint32_t addr_table_add(struct addr_table *t, uint64_t key);

/**
 * addr_table_at - an entry
 * @t: the table
 * @i: its number, below t->len
 *
 * Return: the entry (valid until the next addr_table_add()).
 */
static inline void *addr_table_at(const struct addr_table *t, uint32_t i)
{
	return t->ents + (size_t)i * t->size;
}

/* Fibonacci hashing: kernel pointers and pfns have few random bits. */
static inline uint64_t addr_hash(uint64_t key)
{
	return key * 0x9E3779B97F4A7C15ULL;
}

/*
 * The slot's tag: the hash bits just below the @bits that chose the
 * slot, moved above the @bits of the entry number.
 */
static inline uint32_t addr_tag(uint64_t h, unsigned int bits)
{
	return (uint32_t)(h >> 32) << bits;
}

/* The slot a hash probes first. */
static inline size_t addr_first_slot(uint64_t h, unsigned int bits)
{
	return (size_t)(h >> (64 - bits));
}

/* The key of entry @i. */
static inline uint64_t addr_key_at(const struct addr_table *t, uint32_t i)
{
	uint64_t k;

	memcpy(&k, t->ents + (size_t)i * t->size, sizeof(k));
	return k;
}

/**
 * addr_table_find - the entry of a key
 * @t: the table
 * @key: the key
 *
 * Inline: every slab and page event looks its address up.
 *
 * Return: the entry number, or ADDR_NONE.
 */
static inline uint32_t addr_table_find(const struct addr_table *t, uint64_t key)
{
	uint64_t h = addr_hash(key);
	uint32_t mask, tag, s;
	size_t i;

	if (!t->slots)
		return ADDR_NONE;
	mask = t->mask;
	tag = addr_tag(h, t->bits);
	for (i = (size_t)(h >> t->shift); (s = t->slots[i]);
	     i = (i + 1) & mask) {
		if ((s & ~mask) == tag && addr_key_at(t, (s & mask) - 1) == key)
			return (s & mask) - 1;
	}
	return ADDR_NONE;
}

#endif
