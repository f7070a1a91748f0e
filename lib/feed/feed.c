// SPDX-License-Identifier: LGPL-2.1
/*
 * What every front end does around its loop over one input's records
 * (see feed.h).
 */
#include "event/tep_names.h"
#include "feed.h"

/**
 * kmem_feed_page_geometry - the trace's page geometry, for its statistics
 * @a: the statistics, before their first event
 * @tep: the trace's handle, its header parsed
 *
 * The page statistics count page bytes and tell a page's kernel stack
 * by the sizes kmem_tep_page_geometry() reads.
 */
void kmem_feed_page_geometry(struct kmem_agg *a, struct tep_handle *tep)
{
	struct kmem_page_geometry g = kmem_tep_page_geometry(tep);

	struct page_stats *p = kmem_agg_stats(a, KMEM_ALLOC_PAGE);

	p->page_size = g.page_size;
	kmem_agg_set_subbuf(a, g.subbuf_size);
}

/**
 * kmem_feed_prepare - make ready what kmem_feed_finish() will read
 * @a: the aggregate, its records counted
 * @tep: the trace's handle
 *
 * The print fmt whose GFP flags kmem_feed_finish() probes for the
 * migration type numbering, parsed now if it was left for later: for a
 * front end that waits for something else before the end (the symbols,
 * while the kallsyms section is still decompressed).  Nothing else
 * changes.
 */
void kmem_feed_prepare(struct kmem_agg *a, struct tep_handle *tep)
{
	if (a->events[KMEM_ALLOC_PAGE])
		kmem_tep_prepare_gfp(tep);
}

/**
 * kmem_feed_finish - the end of one input's stream
 * @a: its statistics
 * @sym: its symbolizer, told the migration type numbering
 * @tep: the trace's handle
 *
 * Pending page allocations get no stack; the numbering comes from the
 * trace's GFP flag table, or from the allocations themselves.  A print
 * fmt too long to probe is said on stderr.
 */
void kmem_feed_finish(struct kmem_agg *a, struct kmem_symbolizer *sym,
		      struct tep_handle *tep)
{
	const struct page_stats *p = kmem_agg_stats(a, KMEM_ALLOC_PAGE);

	kmem_agg_finish(a);
	kmem_tep_say_unprobed(tep);
	/*
	 * Only page records have migration types.  Without one the probe
	 * is left out: mm_page_alloc's print fmt names a kernel symbol,
	 * which libtraceevent looks up at its first print among every
	 * function name (8.0 M instructions in trace-cmd report).
	 */
	if (!a->events[KMEM_ALLOC_PAGE]) {
		sym->old_migratetypes = 0;
		return;
	}
	sym->old_migratetypes = kmem_tep_old_migratetypes(tep);
	if (sym->old_migratetypes < 0)
		sym->old_migratetypes = page_old_migratetypes(&p->sum);
}
