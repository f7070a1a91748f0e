/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * An open-addressing index from 64-bit keys to 32-bit entry numbers.
 *
 * The entries themselves live in arrays owned by the caller; the index
 * only maps a key (pointer, call site, name hash) to a position in such
 * an array.  Entries are never removed, which keeps linear probing
 * simple; the table doubles when half full, so inserts are amortised
 * O(1) and lookups never search linearly through the entries.
 */
#ifndef KMEM_HASHTAB_H
#define KMEM_HASHTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define U64_INDEX_NONE UINT32_MAX

struct u64_slot {
	uint64_t key;
	uint32_t idx;	/* U64_INDEX_NONE: empty */
};

struct u64_index {
	struct u64_slot *slots;
	size_t mask;	/* capacity - 1, capacity a power of two */
	size_t count;
};

int u64_index_init(struct u64_index *ix, size_t capacity);
void u64_index_free(struct u64_index *ix);
int u64_index_insert(struct u64_index *ix, uint64_t key, uint32_t idx);
uint32_t u64_index_next(const struct u64_index *ix, uint64_t key,
			size_t *pos);

/**
 * u64s_hash - a key for an array of 64-bit values (FNV-1a over them)
 * @v: the values (a stack's frames, say)
 * @n: how many
 *
 * Return: the key; equal arrays give equal keys.
 */
static inline uint64_t u64s_hash(const uint64_t *v, unsigned int n)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	unsigned int i;

	for (i = 0; i < n; i++)
		h = (h ^ v[i]) * 0x100000001b3ULL;
	return h ^ n;
}

int kmem_grow_array(void **arr, size_t *cap, size_t len, size_t elem);
uint32_t index_append(struct u64_index *ix, void **arr, size_t *cap,
		      size_t *len, size_t elem, uint64_t key);

/*
 * The slot a key probes first.  Fibonacci hashing: kernel pointers have
 * zero low bits.
 */
static inline size_t u64_slot_of(const struct u64_index *ix, uint64_t key)
{
	return (size_t)((key * 0x9E3779B97F4A7C15ULL) >> 17) & ix->mask;
}

/**
 * u64_index_find - look a key up
 * @ix: the index
 * @key: the key
 *
 * Inline: call sites and caches are looked up on the per-event path.
 *
 * Return: the element number stored under @key first, or
 * U64_INDEX_NONE.
 */
static inline uint32_t u64_index_find(const struct u64_index *ix, uint64_t key)
{
	size_t i;

	if (!ix->slots)
		return U64_INDEX_NONE;
	for (i = u64_slot_of(ix, key);; i = (i + 1) & ix->mask) {
		if (ix->slots[i].idx == U64_INDEX_NONE)
			return U64_INDEX_NONE;
		if (ix->slots[i].key == key)
			return ix->slots[i].idx;
	}
}

/**
 * index_get - the element stored under a key, appended if there is none
 * @ix: the index (one element per key)
 * @arr: pointer to the array pointer (updated on growth)
 * @cap: pointer to the capacity in elements
 * @len: pointer to the number of elements in use
 * @elem: size of one element
 * @key: the key
 * @added: set to whether the element was appended (zeroed) just now
 *
 * Return: the element's number, or U64_INDEX_NONE when memory is
 * exhausted.
 */
static inline uint32_t index_get(struct u64_index *ix, void **arr, size_t *cap,
				 size_t *len, size_t elem, uint64_t key,
				 bool *added)
{
	uint32_t i = u64_index_find(ix, key);

	*added = i == U64_INDEX_NONE;
	if (*added)
		i = index_append(ix, arr, cap, len, elem, key);
	return i;
}

#endif
