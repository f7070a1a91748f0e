/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Ordering table rows by the user's sort keys.
 */
#ifndef KMEM_SORT_H
#define KMEM_SORT_H

#include <stddef.h>
#include <stdint.h>

#include "options.h"

/*
 * A row to sort: its entry number, its value for every key, and its
 * place in the trace (when the row first appeared) for ties.
 */
struct sort_row {
	uint32_t idx;
	uint64_t seq;
	uint64_t key[NR_SORT_KEYS];
};

struct sort_row *sort_rows_new(size_t n);
uint64_t sort_frag_key(uint64_t bytes_req, uint64_t bytes_alloc);
void sort_rows(struct sort_row *rows, size_t n, const struct kmem_opts *o);

#endif
