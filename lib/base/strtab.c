// SPDX-License-Identifier: LGPL-2.1
/*
 * Interned strings (see strtab.h).
 */
#include <stdlib.h>
#include <string.h>

#include "strtab.h"

/**
 * strtab_init - an empty table
 * @t: the table
 *
 * Return: 0, or -1 when memory ran out.
 */
int strtab_init(struct strtab *t)
{
	memset(t, 0, sizeof(*t));
	return u64_index_init(&t->ix, 64);
}

static uint64_t str_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

/**
 * strtab_id - the number of a string, interned when new
 * @t: the table
 * @s: the string (copied)
 *
 * Return: its number, or U64_INDEX_NONE when memory ran out.
 */
uint32_t strtab_id(struct strtab *t, const char *s)
{
	uint64_t h = str_hash(s);
	size_t pos = SIZE_MAX;
	uint32_t i;
	char *copy;

	while ((i = u64_index_next(&t->ix, h, &pos)) != U64_INDEX_NONE)
		if (!strcmp(t->s[i], s))
			return i;
	if (t->n >= U64_INDEX_NONE ||
	    kmem_grow_array((void **)&t->s, &t->cap, t->n, sizeof(*t->s)))
		return U64_INDEX_NONE;
	copy = strdup(s);
	if (!copy || u64_index_insert(&t->ix, h, (uint32_t)t->n)) {
		free(copy);
		return U64_INDEX_NONE;
	}
	t->s[t->n] = copy;
	return (uint32_t)t->n++;
}

/**
 * strtab_release - free the table and its strings
 * @t: the table
 */
void strtab_release(struct strtab *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->s[i]);
	free(t->s);
	u64_index_free(&t->ix);
	memset(t, 0, sizeof(*t));
}
