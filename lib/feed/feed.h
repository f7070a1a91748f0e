/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The feed: what the front ends (trace-kmem, the trace-cmd plugin, the
 * KernelShark plugin) do around their loop over one input's records,
 * between the trace's handle (event/) and the statistics (analysis/).
 */
#ifndef KMEM_FEED_H
#define KMEM_FEED_H

#include <event-parse.h>

#include "analysis/agg.h"
#include "event/symbols.h"

void kmem_feed_page_geometry(struct kmem_agg *a, struct tep_handle *tep);
void kmem_feed_prepare(struct kmem_agg *a, struct tep_handle *tep);
void kmem_feed_finish(struct kmem_agg *a, struct kmem_symbolizer *sym,
		      struct tep_handle *tep);

#endif
