/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Strings interned: each distinct string copied once and numbered in
 * the order first seen, found again by hash.  The pprof profile's string
 * table and the merged report's function and command names are kept so.
 */
#ifndef KMEM_STRTAB_H
#define KMEM_STRTAB_H

#include <stddef.h>
#include <stdint.h>

#include "hashtab.h"

struct strtab {
	char **s; /* by number */
	size_t n, cap;
	struct u64_index ix; /* a string's hash -> its number */
};

int strtab_init(struct strtab *t);
uint32_t strtab_id(struct strtab *t, const char *s);
void strtab_release(struct strtab *t);

/**
 * strtab_str - an interned string
 * @t: the table
 * @id: its number, below @t->n
 *
 * Return: the string.
 */
static inline const char *strtab_str(const struct strtab *t, uint32_t id)
{
	return t->s[id];
}

#endif
