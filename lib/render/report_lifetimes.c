// SPDX-License-Identifier: LGPL-2.1
/*
 * Lifetime histograms (kmem:lifetimes): text in the layout of bpftrace's
 * hist(), and the per-call-site JSON members.
 */
#include <inttypes.h>
#include <string.h>

#include "base/numfmt.h"
#include "base/utf8.h"
#include "report_lifetimes.h"
#include "tables.h"
#include "views.h"

#define BAR 52

/* A bucket bound as bpftrace writes it: 512, 1K, 2M (powers of 1024). */
static char *bound(char *buf, size_t len, uint64_t v)
{
	static const char sfx[] = "KMGTPE";
	int i;

	for (i = 5; i >= 0; i--) {
		uint64_t u = 1ULL << (10 * (i + 1));

		if (v >= u && !(v % u)) {
			snprintf(buf, len, "%" PRIu64 "%c", v / u, sfx[i]);
			return buf;
		}
	}
	snprintf(buf, len, "%" PRIu64, v);
	return buf;
}

static void print_hist(FILE *out, const uint64_t *h)
{
	char lo[24], hi[24], label[56], cnt[NUMFMT_LEN], bar[BAR + 1];
	unsigned int b, first = KMEM_LIFE_BUCKETS, last = 0;
	uint64_t max = 0;

	for (b = 0; b < KMEM_LIFE_BUCKETS; b++)
		if (h[b]) {
			if (first == KMEM_LIFE_BUCKETS)
				first = b;
			last = b;
			if (h[b] > max)
				max = h[b];
		}
	for (b = first; b <= last && max; b++) {
		size_t n = (size_t)((h[b] * BAR + max - 1) / max);

		bound(lo, sizeof(lo), kmem_life_bucket_lo(b));
		if (b == KMEM_LIFE_BUCKETS - 1)
			strcpy(hi, "...");
		else
			bound(hi, sizeof(hi), 1ULL << (b + 1));
		snprintf(label, sizeof(label), "[%s, %s)", lo, hi);
		memset(bar, '@', n);
		bar[n] = '\0';
		fprintf(out, " %-18s %10s |%-*s|\n", label,
			fmt_count(cnt, h[b]), BAR, bar);
	}
}

/* The call sites with frees, the first lines= by the table's keys. */
static void offer(const struct kmem_report_ctx *r, enum kmem_alloc_id id,
		  struct sort_set *set)
{
	const struct kmem_alloc_view *v = &kmem_alloc_views[id];
	struct cols_ctx c;

	v->sites(r, &c, v->freed_sites);
	sort_set_init(set, &r->cfg->sort, cols_keys(c.def), r->cfg->lines);
	cols_offer(&c, set);
}

/**
 * lifetimes_print - the lifetime histograms of an allocator's top call
 * sites (kmem:lifetimes)
 * @r: what to print
 * @out: where to
 * @id: the allocator: one with lifetimes (KMEM_CAP_LIFETIMES)
 *
 * The call sites with matched frees, in the order of the call-site
 * table (its sort keys), the first lines= of them.
 */
void lifetimes_print(const struct kmem_report_ctx *r, FILE *out,
		     enum kmem_alloc_id id)
{
	const struct kmem_alloc_desc *d = &kmem_allocs[id];
	const void *st = kmem_agg_stats(r->agg, id);
	const struct kmem_lifetimes *l = kmem_alloc_life(d, st);
	char cs[KMEM_SYM_LEN], n[NUMFMT_LEN], p50[NUMFMT_LEN],
		p99[NUMFMT_LEN];
	struct sort_set set;
	size_t i;

	if (!r->cfg->lifetimes || r->in->merged || !l)
		return;
	offer(r, id, &set);
	if (set.oom) {
		sort_set_release(&set);
		fprintf(out, " (out of memory: lifetimes left out)\n\n");
		return;
	}
	sort_finish(&set);
	fprintf(out,
		" Lifetimes (%s) of the objects freed, by call site: "
		"nanoseconds of the\n trace clock (cycles with the "
		"counter and x86-tsc clocks), in log2 buckets\n\n",
		d->title);
	if (!set.held)
		fprintf(out, " No object allocated in the trace was freed.\n\n");
	for (i = 0; i < set.held; i++) {
		uint32_t x = sort_idx(&set, i);
		const uint64_t *h = kmem_life_hist(l, x);
		uint64_t cs_addr = d->site_addr(st, x);

		if (!cs_addr && d->no_site)
			strcpy(cs, d->no_site);
		else
			fmt_callsite(cs, r->sym, cs_addr, r->cfg->raw_ip);
		utf8_plain_line(cs);
		if (!h) {
			fprintf(out, " %s: not counted (out of memory)\n\n", cs);
			continue;
		}
		fprintf(out, " %s: %s freed, median %s, p99 %s\n", cs,
			fmt_count(n, d->site_frees(st, x)),
			fmt_duration(p50, kmem_life_percentile(h, 50)),
			fmt_duration(p99, kmem_life_percentile(h, 99)));
		print_hist(out, h);
		fputc('\n', out);
	}
	if (set.held < set.offered)
		fprintf(out, " (%zu more call sites with frees; lines= shows "
			     "more)\n\n", set.offered - set.held);
	sort_set_release(&set);
}

/**
 * lifetimes_json_site - a call site's lifetime members (kmem:lifetimes)
 * @j: the writer, inside the call site's object
 * @l: the allocator's histograms
 * @site: the call site's index
 *
 * "lifetime_p50_ns" and "lifetime_p99_ns" (null without frees) and
 * "lifetime_hist": the non-empty buckets, [lo, hi) and count.
 */
void lifetimes_json_site(struct json *j, const struct kmem_lifetimes *l,
			 uint32_t site)
{
	const uint64_t *h;
	unsigned int b;
	uint64_t n = 0;

	if (!l->on)
		return;
	h = kmem_life_hist(l, site);
	for (b = 0; h && b < KMEM_LIFE_BUCKETS; b++)
		n += h[b];
	if (!n) {
		json_str(j, "lifetime_p50_ns", NULL);
		json_str(j, "lifetime_p99_ns", NULL);
	} else {
		json_u64(j, "lifetime_p50_ns", kmem_life_percentile(h, 50));
		json_u64(j, "lifetime_p99_ns", kmem_life_percentile(h, 99));
	}
	json_open(j, "lifetime_hist", '[');
	for (b = 0; n && b < KMEM_LIFE_BUCKETS; b++) {
		if (!h[b])
			continue;
		json_open(j, NULL, '{');
		json_u64(j, "lo_ns", kmem_life_bucket_lo(b));
		if (b == KMEM_LIFE_BUCKETS - 1)
			json_str(j, "hi_ns", NULL);
		else
			json_u64(j, "hi_ns", 1ULL << (b + 1));
		json_u64(j, "count", h[b]);
		json_close(j, '}');
	}
	json_close(j, ']');
}
