/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Which call-site rows an event changed the live bytes of: a short log
 * the allocators keep while a timeline (timeline.h) reads them, so that
 * following the rows costs O(1) an event, not a scan of every row.
 */
#ifndef KMEM_TOUCHED_H
#define KMEM_TOUCHED_H

#include <stdbool.h>
#include <stdint.h>

#define KMEM_TOUCHED_MAX 6	/* an event changes at most 3 rows so far */

struct kmem_touched {
	bool on;		/* kept only while a timeline reads it */
	uint8_t n;		/* rows logged; > KMEM_TOUCHED_MAX: more */
	uint32_t row[KMEM_TOUCHED_MAX];
};

/**
 * kmem_touch - log that a row's live bytes changed
 * @t: the log
 * @row: the row's index
 */
static inline void kmem_touch(struct kmem_touched *t, uint32_t row)
{
	if (!t->on)
		return;
	if (t->n < KMEM_TOUCHED_MAX)
		t->row[t->n] = row;
	if (t->n < UINT8_MAX)
		t->n++;
}

#endif
