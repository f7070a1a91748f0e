// SPDX-License-Identifier: LGPL-2.1
/*
 * Open-addressing u64 -> u32 index (see hashtab.h).
 */
#include <stdlib.h>
#include <string.h>

#include "hashtab.h"

static struct u64_slot *alloc_slots(size_t n)
{
	struct u64_slot *s = malloc(n * sizeof(*s));
	size_t i;

	if (!s)
		return NULL;
	for (i = 0; i < n; i++)
		s[i].idx = U64_INDEX_NONE;
	return s;
}

/**
 * u64_index_init - set up an empty index
 * @ix: the index
 * @capacity: initial number of slots, rounded up to a power of two
 *
 * Return: 0 on success, -1 when memory is exhausted.
 */
int u64_index_init(struct u64_index *ix, size_t capacity)
{
	size_t n = 16;

	while (n < capacity)
		n <<= 1;
	ix->slots = alloc_slots(n);
	ix->mask = n - 1;
	ix->count = 0;
	return ix->slots ? 0 : -1;
}

/**
 * u64_index_free - release the slots of an index
 * @ix: the index
 */
void u64_index_free(struct u64_index *ix)
{
	free(ix->slots);
	ix->slots = NULL;
	ix->mask = 0;
	ix->count = 0;
}

/**
 * u64_index_next - walk the entries stored under one key
 * @ix: the index
 * @key: the key
 * @pos: probe position; set *@pos to SIZE_MAX before the first call
 *
 * Several entries may share a key when the key is itself a hash (cache
 * names); the caller compares the entries and asks for the next one.
 *
 * Return: the next entry number stored under @key, or U64_INDEX_NONE.
 */
uint32_t u64_index_next(const struct u64_index *ix, uint64_t key, size_t *pos)
{
	size_t i;

	if (!ix->slots)
		return U64_INDEX_NONE;
	i = *pos == SIZE_MAX ? u64_slot_of(ix, key) : ((*pos + 1) & ix->mask);
	for (;; i = (i + 1) & ix->mask) {
		if (ix->slots[i].idx == U64_INDEX_NONE) {
			*pos = i;
			return U64_INDEX_NONE;
		}
		if (ix->slots[i].key == key) {
			*pos = i;
			return ix->slots[i].idx;
		}
	}
}

static void place(struct u64_slot *slots, size_t mask, size_t start,
		  uint64_t key, uint32_t idx)
{
	size_t i = start;

	while (slots[i].idx != U64_INDEX_NONE)
		i = (i + 1) & mask;
	slots[i].key = key;
	slots[i].idx = idx;
}

static int rehash(struct u64_index *ix)
{
	size_t n = (ix->mask + 1) * 2, i;
	struct u64_slot *s = alloc_slots(n);
	struct u64_index bigger = { s, n - 1, ix->count };

	if (!s)
		return -1;
	for (i = 0; i <= ix->mask; i++) {
		struct u64_slot *o = &ix->slots[i];

		if (o->idx != U64_INDEX_NONE)
			place(s, n - 1, u64_slot_of(&bigger, o->key), o->key,
			      o->idx);
	}
	free(ix->slots);
	*ix = bigger;
	return 0;
}

/**
 * u64_index_insert - store an entry number under a key
 * @ix: the index
 * @key: the key
 * @idx: the entry number (not U64_INDEX_NONE)
 *
 * Does not check for an existing entry with the same key: callers look
 * up first.  Grows the index when it becomes half full.
 *
 * Return: 0 on success, -1 when memory is exhausted.
 */
int u64_index_insert(struct u64_index *ix, uint64_t key, uint32_t idx)
{
	if (!ix->slots && u64_index_init(ix, 16))
		return -1;
	if ((ix->count + 1) * 2 > ix->mask + 1 && rehash(ix))
		return -1;
	place(ix->slots, ix->mask, u64_slot_of(ix, key), key, idx);
	ix->count++;
	return 0;
}

/**
 * kmem_grow_array - make room for one more element in a caller-owned array
 * @arr: pointer to the array pointer (updated on growth)
 * @cap: pointer to the capacity in elements (updated on growth)
 * @len: number of elements in use
 * @elem: size of one element
 *
 * Doubles the capacity when @len has reached it, so appends cost
 * amortised O(1) and the per-event path almost never allocates.
 *
 * Return: 0 on success, -1 when memory is exhausted (array unchanged).
 */
int kmem_grow_array(void **arr, size_t *cap, size_t len, size_t elem)
{
	size_t n;
	void *p;

	if (len < *cap)
		return 0;
	n = *cap ? *cap * 2 : 64;
	p = realloc(*arr, n * elem);
	if (!p)
		return -1;
	*arr = p;
	*cap = n;
	return 0;
}

/**
 * index_append - append a zeroed element to an array and index it
 * @ix: the index
 * @arr: pointer to the array pointer (updated on growth)
 * @cap: pointer to the capacity in elements
 * @len: pointer to the number of elements in use (incremented)
 * @elem: size of one element
 * @key: the key to store the new element under
 *
 * Return: the new element's number, or U64_INDEX_NONE when memory is
 * exhausted (nothing changed then).
 */
uint32_t index_append(struct u64_index *ix, void **arr, size_t *cap,
		      size_t *len, size_t elem, uint64_t key)
{
	uint32_t i = (uint32_t)*len;

	if (*len >= U64_INDEX_NONE || kmem_grow_array(arr, cap, *len, elem) ||
	    u64_index_insert(ix, key, i))
		return U64_INDEX_NONE;
	memset((char *)*arr + (size_t)i * elem, 0, elem);
	(*len)++;
	return i;
}
