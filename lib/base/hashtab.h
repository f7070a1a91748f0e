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
uint32_t u64_index_find(const struct u64_index *ix, uint64_t key);
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
uint32_t index_get(struct u64_index *ix, void **arr, size_t *cap,
		   size_t *len, size_t elem, uint64_t key, bool *added);

#endif
