/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Ring-buffer page geometry: where the record after another one can
 * start, so that a kernel_stack record is known to belong to the
 * allocation recorded just before it on its CPU.  Inline: asked for
 * every kernel_stack record.
 */
#ifndef KMEM_RBGEOM_H
#define KMEM_RBGEOM_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Between the end of one record's data and the start of the next one's:
 * its event header (4 bytes, 8 with a length word) and perhaps a time
 * extend (8): 16 at most, while any record in between takes at least
 * 4 + 8 + 4.  At a ring-buffer page start, the 16-byte page header.
 */
#define KMEM_RB_GAP_MAX 16
#define KMEM_RB_PAGE_START_MAX (16 + KMEM_RB_GAP_MAX)

/**
 * kmem_rb_follows - does a record directly follow another one?
 * @subbuf_size: the ring-buffer page size (0: 4096)
 * @end: where the earlier record ended in its CPU's buffer
 * @off: where the later one starts
 *
 * A few header bytes later, or first thing on the next ring-buffer page:
 * a kernel_stack record there belongs to the allocation before it.
 *
 * Return: true if it does.
 */
static inline bool kmem_rb_follows(uint64_t subbuf_size, uint64_t end,
				   uint64_t off)
{
	uint64_t ps = subbuf_size ? subbuf_size : 4096;

	if (off < end)
		return false;
	if (off - end <= KMEM_RB_GAP_MAX)
		return true;
	return end && off / ps == (end - 1) / ps + 1 &&
	       off % ps <= KMEM_RB_PAGE_START_MAX;
}

#endif
