/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Ordering table rows by the user's sort keys.
 *
 * A table offers its rows one at a time: the value of each key it has
 * (sort_key()), then the row's entry number (sort_add()).  It sorts by
 * the keys of the sort= list that it has, then by its default keys
 * (bytes, hit) where sort= did not name them; only those are kept, one
 * 64-bit word each, and the entry number: (keys + 1) * 8 bytes a row.  With a limit (the text tables'
 * lines=) only the best rows are kept, in a bounded heap, so a table of
 * a million addresses costs lines= rows.  Ties keep the entry order,
 * which is the order of first appearance in the trace.
 */
#ifndef KMEM_SORT_H
#define KMEM_SORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/sortkey.h"

/* sort= keys and the two defaults */
#define SORT_SET_KEYS (KMEM_MAX_SORT_KEYS + 2)

struct sort_set {
	int pos[NR_SORT_KEYS];	/* word of key k in a row, or -1 */
	bool asc[SORT_SET_KEYS];
	size_t width;		/* words a row: the keys, the entry */
	size_t limit;		/* rows kept, 0: all */
	size_t offered;		/* rows offered by the table */
	size_t held, cap;
	uint64_t *rows;
	uint64_t cur[SORT_SET_KEYS + 1];	/* the row being offered */
	bool oom;
};

void sort_set_init(struct sort_set *s, const struct kmem_sort_cfg *cfg,
		   unsigned int keys, size_t limit);
void sort_add(struct sort_set *s, uint32_t idx);
void sort_finish(struct sort_set *s);
void sort_set_release(struct sort_set *s);
uint64_t sort_frag_key(uint64_t bytes_req, uint64_t bytes_alloc);

/**
 * sort_key - the value of one key for the row being offered
 * @s: the set
 * @k: the key
 * @v: its value (keys a row is given no value for are 0)
 */
static inline void sort_key(struct sort_set *s, enum kmem_sort_key k,
			    uint64_t v)
{
	if (s->pos[k] >= 0)
		s->cur[s->pos[k]] = v;
}

/**
 * sort_idx - the entry number of the @i-th row, in order
 * @s: a finished set
 * @i: below s->held
 *
 * Return: the number given to sort_add().
 */
static inline uint32_t sort_idx(const struct sort_set *s, size_t i)
{
	return (uint32_t)s->rows[i * s->width + s->width - 1];
}

#endif
