/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * One report over many inputs (trace-kmem stat --merge): each input's
 * statistics added to one aggregate, its call sites matched by what they
 * name, not by address.  A call site becomes "function+offset" (or the
 * function alone, by_function) through the input's own symbols, and each
 * such name a number in the merged report; its symbolizer names them
 * back.  What was per input (its time span, losses, host and kernel) is
 * kept per input, for the report to list.
 */
#ifndef KMEM_MERGE_H
#define KMEM_MERGE_H

#include <stdbool.h>
#include <stdint.h>

#include "agg.h"
#include "base/numa.h"
#include "base/strtab.h"
#include "event/symbols.h"

/* One input of a merged report. */
struct kmem_merge_part {
	char *label;	      /* its file (and instance) */
	char *host, *release; /* where the trace says, else NULL */
	/* its stream counts and time span: an aggregate's, no tables */
	struct kmem_agg head;
	uint64_t events; /* allocator records accounted */
	/* its repeated frees, by allocator (kmem_free_doubt()) */
	uint64_t double_frees[KMEM_NR_ALLOC];
};

struct kmem_merge {
	struct kmem_agg agg;	    /* the merged statistics */
	struct kmem_symbolizer sym; /* names its call sites */
	struct strtab fns;	    /* function names, by number */
	struct strtab comms;	    /* command names: pid - 1 */
	/* the first input's symbolizer names the GFP flags */
	struct kmem_symbolizer first;
	struct kmem_merge_part *parts;
	int nr_parts;
	/* while an input is added: its symbolizer, out of memory */
	const struct kmem_symbolizer *from;
	bool oom;
};

int kmem_merge_init(struct kmem_merge *m, const struct kmem_collect_cfg *c,
		    const struct kmem_numa *numa, bool by_function);
int kmem_merge_add(struct kmem_merge *m, const struct kmem_agg *from,
		   const struct kmem_symbolizer *sym, const char *label,
		   const char *host, const char *release);
void kmem_merge_release(struct kmem_merge *m);

#endif
