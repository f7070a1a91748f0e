/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A timeline (timeline.h) drawn as one self-contained SVG document:
 * live memory over the trace's time, a line for each allocator and for
 * each call site chosen, a legend, axes with units and thousands
 * separators, and marks where the ring buffer lost events.
 */
#ifndef KMEM_PLOT_SVG_H
#define KMEM_PLOT_SVG_H

#include <stdio.h>

#include "analysis/timeline.h"
#include "event/symbols.h"

/* What the picture says about its input besides the lines. */
struct kmem_plot_info {
	const char *label;		/* the input, in the title */
	uint64_t events;		/* kmem events drawn from */
	uint64_t lost;			/* events the ring buffer lost */
	uint64_t lost_unknown;		/* ... losses of unknown size */
	int raw_ip;			/* addresses instead of symbols */
};

void kmem_plot_svg(FILE *out, const struct kmem_timeline *tl,
		   const struct kmem_symbolizer *sym,
		   const struct kmem_plot_info *info);

#endif
