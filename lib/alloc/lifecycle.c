// SPDX-License-Identifier: LGPL-2.1
/*
 * The object lifecycle every allocator shares (see lifecycle.h): the
 * steps an event runs are inline there; setting up and freeing are here.
 */
#include "lifecycle.h"

_Static_assert(sizeof(struct kmem_obj) == 24, "an object's head: 24 bytes");

/**
 * kmem_lc_init - no objects yet
 * @lc: the allocator's objects
 * @obj_size: bytes an object (and its row, when the allocator keeps one)
 */
void kmem_lc_init(struct kmem_lc *lc, size_t obj_size)
{
	addr_table_init(&lc->objs, obj_size);
	addr_table_init(&lc->freed_only, sizeof(uint64_t));
}

/**
 * kmem_lc_release - free the objects and the freed-only addresses
 * @lc: the allocator's objects
 */
void kmem_lc_release(struct kmem_lc *lc)
{
	addr_table_release(&lc->objs);
	addr_table_release(&lc->freed_only);
}
