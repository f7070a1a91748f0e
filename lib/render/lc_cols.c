// SPDX-License-Identifier: LGPL-2.1
/*
 * The object lifecycle's call-site fields and summary fields, declared
 * once (see lc_cols.h): their sort keys and callbacks.
 */
#include <stdio.h>

#include "base/numfmt.h"
#include "lc_cols.h"
#include "report_lifetimes.h"
#include "sort.h"

const struct col_sort lc_site_sorts[LC_SITE_NR_SORTS] = {
	{ SORT_CALLSITE, LC_SITE(call_site) },
	{ SORT_BYTES, LC_SITE(bytes) },
	{ SORT_HIT, LC_SITE(hits) },
	{ SORT_LIVE, LC_SITE(live_bytes) },
	{ SORT_PEAK, LC_SITE(peak_bytes) },
};

/**
 * lc_site_hist - a call site's lifetime members (CF_JSON)
 * @c: the table: its priv the allocator's struct kmem_lifetimes
 * @row: the call site's row
 * @j: the writer, inside the row's object
 */
void lc_site_hist(const struct cols_ctx *c, const void *row, struct json *j)
{
	size_t i = (size_t)((const char *)row - (const char *)c->base) /
		   c->def->stride;

	lifetimes_json_site(j, c->priv, (uint32_t)i);
}

/**
 * lc_site_unfreed - leaves out a call site without frees (cols_def.skip)
 * @c: the table
 * @row: the call site's row
 *
 * Return: true if no object allocated there was freed in the trace.
 */
bool lc_site_unfreed(const struct cols_ctx *c, const void *row)
{
	(void)c;
	return !((const struct kmem_lc_site *)row)->frees;
}

static const struct kmem_lc_counts *counts_of(const struct sum_ctx *c)
{
	return (const struct kmem_lc_counts *)((const char *)c->base +
					       c->def->lc.counts);
}

/**
 * sum_lc_alloc_only_count - the allocations whose free was not traced
 * @c: the summary (its sum_def.lc set)
 *
 * Return: kmem_lc_alloc_only_count() of its counts.
 */
uint64_t sum_lc_alloc_only_count(const struct sum_ctx *c)
{
	return kmem_lc_alloc_only_count(counts_of(c));
}

/**
 * sum_lc_alloc_only_bytes - the bytes of the allocations whose free was
 *	not traced
 * @c: the summary (its sum_def.lc set)
 *
 * Return: kmem_lc_alloc_only_bytes() of its counts and bytes.
 */
uint64_t sum_lc_alloc_only_bytes(const struct sum_ctx *c)
{
	return kmem_lc_alloc_only_bytes(counts_of(c),
					sum_num(c, &c->def->lc.bytes));
}

/**
 * sum_lc_net_bytes - the bytes allocated less the bytes freed
 * @c: the summary (its sum_def.lc set)
 *
 * A free carries no size: the bytes freed are those of the allocations
 * matched.
 *
 * Return: the net bytes, as the two's complement of a negative number.
 */
uint64_t sum_lc_net_bytes(const struct sum_ctx *c)
{
	return sum_num(c, &c->def->lc.bytes) - counts_of(c)->alloc_freed_bytes;
}

/**
 * sum_lc_cross_cpu_note - the cross-CPU frees' share of the matched frees
 * @c: the summary (its sum_def.lc set, with cross_cpu)
 * @buf: SUM_NOTE_LEN bytes
 *
 * Return: @buf, "(P% of matched frees)".
 */
const char *sum_lc_cross_cpu_note(const struct sum_ctx *c, char *buf)
{
	snprintf(buf, SUM_NOTE_LEN, "(%.2f%% of matched frees)",
		 pct_of(sum_num(c, &c->def->lc.cross_cpu),
			counts_of(c)->alloc_freed_count));
	return buf;
}
