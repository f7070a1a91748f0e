// SPDX-License-Identifier: LGPL-2.1
/*
 * The numbers behind a mark: what the plugin says of an allocation when
 * it is double-clicked on the graph (gui.cpp), and which allocation an
 * entry is.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "alloc/registry.h"
#include "base/numfmt.h"
#include "event/symbols.h"
#include "event/tep_names.h"
#include "kmem_ks.h"
#include "libkshark-tepdata.h"

/**
 * kmem_ks_describe - one allocation in words
 * @ks: the stream's context, followed
 * @p: a link or leak of @ks
 * @buf: where to write
 * @len: its size
 *
 * Says the event, the bytes (and order of pages), the call site as
 * "sym+0xoff", the allocating CPU, and either the lifetime and the CPU
 * of the free ("ping-pong" when that is another) or that the object is
 * still live at the end of the trace, and for how long.
 *
 * Return: what snprintf() returns.
 */
int kmem_ks_describe(const struct kmem_ks_ctx *ks, const struct kmem_ks_pair *p,
		     char *buf, size_t len)
{
	char site[KMEM_SYM_LEN] = "call site unknown", order[32] = "";
	char dur[NUMFMT_LEN];
	char *ev = kshark_get_event_name(p->alloc);
	struct kmem_symbolizer sym;
	int64_t life;
	int n;

	kmem_tep_symbolizer(&sym, kshark_get_tep(ks->stream));
	if (p->call_site)
		fmt_callsite(site, &sym, p->call_site, 0);
	if (kmem_allocs[p->allocator].caps & KMEM_CAP_ORDERS)
		snprintf(order, sizeof(order), "order %u, ", p->order);
	if (p->free) {
		life = p->free->ts - p->alloc->ts;
		n = snprintf(buf, len,
			     "%s (%s): %s%" PRIu64 " bytes at %s, allocated "
			     "on CPU %d; freed on CPU %d%s after %s (%" PRId64
			     " ns)",
			     ev ? ev : "?", kmem_ks_alloc_name(p->allocator),
			     order, p->bytes, site, p->alloc->cpu, p->free->cpu,
			     p->free->cpu != p->alloc->cpu ? " (ping-pong)"
							   : "",
			     fmt_duration(dur, (uint64_t)(life > 0 ? life : 0)),
			     life);
	} else {
		life = ks->end_ts - p->alloc->ts;
		n = snprintf(buf, len,
			     "%s (%s): %s%" PRIu64 " bytes at %s, allocated "
			     "on CPU %d; never freed in the trace: live for "
			     "%s (%" PRId64 " ns) at its end",
			     ev ? ev : "?", kmem_ks_alloc_name(p->allocator),
			     order, p->bytes, site, p->alloc->cpu,
			     fmt_duration(dur, (uint64_t)(life > 0 ? life : 0)),
			     life);
	}
	free(ev);
	return n;
}

/* The allocation of @l (one CPU's, in time order) that entry @e is. */
static const struct kmem_ks_pair *find_in(const struct kmem_ks_list *l,
					  const struct kshark_entry *e)
{
	size_t lo = 0, hi = l->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct kshark_entry *a = l->p[mid].alloc;

		if (a->ts < e->ts || (a->ts == e->ts && a->offset < e->offset))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < l->n && l->p[lo].alloc == e ? &l->p[lo] : NULL;
}

/**
 * kmem_ks_find - the link or leak an allocation entry starts
 * @ks: the stream's context, followed
 * @e: an entry
 *
 * Return: the link or leak, or NULL if @e is no allocation of either.
 */
const struct kmem_ks_pair *kmem_ks_find(const struct kmem_ks_ctx *ks,
					const struct kshark_entry *e)
{
	const struct kmem_ks_pair *p;

	if (!ks->followed || ks->failed || e->cpu < 0 || e->cpu >= ks->n_cpus)
		return NULL;
	p = find_in(&ks->links[e->cpu], e);
	return p ? p : find_in(&ks->leaks[e->cpu], e);
}

/**
 * kmem_ks_describe_curve - the scale of one live-memory curve in words
 * @ks: the stream's context, followed
 * @which: an allocator (enum kmem_alloc_id), or KMEM_NR_ALLOC for the
 *	curve of the call site chosen in the dialog
 * @buf: where to write
 * @len: its size
 *
 * Each curve is drawn on its own scale: from 0 at the foot of a graph
 * to its peak over the whole trace at the top.  Says what it counts,
 * the peak in bytes and the time it is first reached, as KernelShark
 * shows times (seconds, to the microsecond).
 *
 * Return: what snprintf() returns, or 0 (and @buf empty) when the curve
 * is not drawn (no live byte ever).
 */
int kmem_ks_describe_curve(const struct kmem_ks_ctx *ks, unsigned int which,
			   char *buf, size_t len)
{
	const struct kmem_ks_series *s =
		which < KMEM_NR_ALLOC ? &ks->live[which] : &ks->site_live;
	char what[KMEM_SYM_LEN + 48], peak[NUMFMT_LEN];
	uint64_t ts;
	size_t i;

	if (len)
		buf[0] = '\0';
	if (which > KMEM_NR_ALLOC || !s->n || !s->max)
		return 0;
	for (i = 0; i < s->n && s->p[i].bytes != s->max; i++)
		;
	if (i == s->n)
		return 0;
	if (which < KMEM_NR_ALLOC) {
		snprintf(what, sizeof(what), "%s live bytes",
			 kmem_ks_alloc_name(which));
	} else {
		struct kmem_symbolizer sym;
		char site[KMEM_SYM_LEN];

		kmem_tep_symbolizer(&sym, kshark_get_tep(ks->stream));
		fmt_callsite(site, &sym, ks->site, 0);
		snprintf(what, sizeof(what), "live bytes of %s (%s)", site,
			 kmem_ks_alloc_name(ks->site_allocator));
	}
	ts = s->p[i].ts > 0 ? (uint64_t)s->p[i].ts : 0;
	return snprintf(buf, len,
			"%s: 0 at the foot of a graph, %s at its top (the "
			"peak, first reached at %" PRIu64 ".%06" PRIu64 ")",
			what, fmt_count(peak, s->max), ts / 1000000000,
			ts % 1000000000 / 1000);
}
