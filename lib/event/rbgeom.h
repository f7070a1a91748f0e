/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Ring-buffer page geometry: where the record after another one can
 * start, so that a kernel_stack record is known to belong to the
 * allocation recorded just before it on its CPU.
 */
#ifndef KMEM_RBGEOM_H
#define KMEM_RBGEOM_H

#include <stdbool.h>
#include <stdint.h>

bool kmem_rb_follows(uint64_t subbuf_size, uint64_t end, uint64_t off);

#endif
