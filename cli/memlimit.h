/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A memory bound for libtracecmd: while it reads a file, the process's
 * address space is limited (RLIMIT_AS), so that a file whose numbers
 * make the library allocate without end (a damaged CPU id made it grow
 * to 23.5 GB) ends in one line instead of the kernel's OOM killer.
 * The limit is the machine's RAM (at least 4 GiB) plus the inputs'
 * size, or $TRACE_KMEM_MEMORY_LIMIT MB (0: none).  Not in sanitizer
 * builds, whose shadow memory needs terabytes of address space.
 */
#ifndef TRACE_KMEM_MEMLIMIT_H
#define TRACE_KMEM_MEMLIMIT_H

#include <stdbool.h>
#include <stddef.h>

int tk_memlimit_apply(unsigned long long inputs_bytes);
bool tk_memlimit_hit(void);
const char *tk_memlimit_note(void);
void tk_memlimit_hit_note(char *buf, size_t len, const char *msg);

#endif
