/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A struct kmem_symbolizer backed by a libtraceevent handle: kallsyms,
 * comms, and GFP names and migration type numbering from the trace's
 * own event formats.
 */
#ifndef KMEM_TEP_NAMES_H
#define KMEM_TEP_NAMES_H

#include <event-parse.h>

#include "analysis/agg.h"
#include "symbols.h"

void kmem_tep_symbolizer(struct kmem_symbolizer *sym, struct tep_handle *tep);
int kmem_tep_old_migratetypes(struct tep_handle *tep);
void kmem_tep_page_geometry(struct page_stats *st, struct tep_handle *tep);
void kmem_tep_register_functions(struct tep_handle *tep);
void kmem_tep_say_unprobed(struct tep_handle *tep);

#endif
