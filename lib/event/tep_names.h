/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A struct kmem_symbolizer backed by a libtraceevent handle: kallsyms,
 * comms, and GFP names and migration type numbering from the trace's
 * own event formats.
 */
#ifndef KMEM_TEP_NAMES_H
#define KMEM_TEP_NAMES_H

#include <event-parse.h>

#include "symbols.h"

/* The trace's page size and ring-buffer sub-buffer size, in bytes. */
struct kmem_page_geometry {
	unsigned int page_size;
	unsigned int subbuf_size;	/* ring-buffer page: stack adjacency */
};

void kmem_tep_symbolizer(struct kmem_symbolizer *sym, struct tep_handle *tep);
int kmem_tep_old_migratetypes(struct tep_handle *tep);
void kmem_tep_prepare_gfp(struct tep_handle *tep);
struct kmem_page_geometry kmem_tep_page_geometry(struct tep_handle *tep);
void kmem_tep_register_functions(struct tep_handle *tep);
void kmem_tep_say_unprobed(struct tep_handle *tep);

#endif
