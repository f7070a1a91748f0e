// SPDX-License-Identifier: LGPL-2.1
/*
 * What the follow pass found, made into what the plugin draws: the
 * leaks (objects live at the end), the call sites the dialog offers, and
 * each CPU's links apart from its leaks.
 */
#include <stdio.h>
#include <stdlib.h>

#include "base/hashtab.h"
#include "follow.h"

#define MAX_SITES 64 /* call sites the dialog offers */

/**
 * kmem_ks_split_links - each CPU's links, and its leaks apart
 * @fw: the pass
 *
 * Each CPU's list keeps its links, in place and in order; its leaks move
 * to their own list; allocations whose free was missed go.
 *
 * Return: 0, or -1 when memory ran out.
 */
int kmem_ks_split_links(struct follow *fw)
{
	struct kmem_ks_ctx *ks = fw->ks;
	int cpu;

	for (cpu = 0; cpu < ks->n_cpus; cpu++) {
		struct kmem_ks_list *l = &ks->links[cpu], *k = &ks->leaks[cpu];
		size_t i, w = 0;

		for (i = 0; i < l->n; i++) {
			if (l->p[i].fate == KMEM_KS_FREED) {
				l->p[w++] = l->p[i];
			} else if (l->p[i].fate == KMEM_KS_LEAK) {
				if (kmem_grow_array((void **)&k->p, &k->cap,
						    k->n, sizeof(*k->p)))
					return -1;
				k->p[k->n++] = l->p[i];
			}
		}
		l->n = w;
	}
	return 0;
}

static void add_leak(struct follow *fw, int a, uint32_t obj, uint64_t bytes,
		     uint32_t site)
{
	struct kmem_ks_pair *p = kmem_ks_alloc_of(fw, a, obj);

	if (!p || p->fate != KMEM_KS_LIVE) {
		fw->unmatched++;
		return;
	}
	p->fate = KMEM_KS_LEAK;
	p->bytes = bytes;
	p->call_site = kmem_ks_site_address(fw, a, site);
	fw->ks->counts.leaks[a]++;
	fw->ks->counts.leak_bytes[a] += bytes;
}

/**
 * kmem_ks_find_leaks - the allocations never freed (live at the end)
 * @fw: the pass
 */
void kmem_ks_find_leaks(struct follow *fw)
{
	int a;
	uint32_t i;

	for (a = 0; a < KMEM_NR_ALLOC; a++) {
		const struct kmem_alloc_desc *d = &kmem_allocs[a];
		const void *st = kmem_agg_stats(&fw->agg, a);
		const struct addr_table *objs = kmem_alloc_objs(d, st);

		for (i = 0; i < objs->len; i++) {
			const struct kmem_obj *o = addr_table_at(objs, i);

			if (o->flags & KMEM_OBJ_LIVE)
				add_leak(fw, a, i, d->obj_bytes(st, o),
					 o->site);
		}
	}
}

static int by_peak(const void *a, const void *b)
{
	const struct kmem_ks_site *x = a, *y = b;

	if (x->peak_bytes != y->peak_bytes)
		return x->peak_bytes > y->peak_bytes ? -1 : 1;
	return x->call_site < y->call_site ? -1 : x->call_site > y->call_site;
}

/**
 * kmem_ks_list_sites - the call sites the dialog offers
 * @fw: the pass
 *
 * The call sites of each allocator whose rows are keyed by call site
 * alone (kmem_alloc_site_ix()), by peak bytes, at most MAX_SITES.
 */
void kmem_ks_list_sites(struct follow *fw)
{
	size_t n = 0, i, k = 0;
	struct kmem_ks_site *s;
	char buf[KMEM_SYM_LEN];
	int a;

	for (a = 0; a < KMEM_NR_ALLOC; a++)
		if (kmem_allocs[a].site_ix_off)
			n += kmem_alloc_nr_sites(&kmem_allocs[a],
						 kmem_agg_stats(&fw->agg, a));
	s = calloc(n ? n : 1, sizeof(*s));
	if (!s)
		return;
	for (a = 0; a < KMEM_NR_ALLOC; a++) {
		const struct kmem_alloc_desc *d = &kmem_allocs[a];
		const void *st = kmem_agg_stats(&fw->agg, a);

		for (i = 0; d->site_ix_off && i < kmem_alloc_nr_sites(d, st);
		     i++, k++) {
			s[k].call_site = d->site_addr(st, (uint32_t)i);
			s[k].peak_bytes =
				kmem_alloc_site_peak(d, st, (uint32_t)i);
			s[k].allocator = (uint32_t)a;
		}
	}
	qsort(s, n, sizeof(*s), by_peak);
	if (n > MAX_SITES)
		n = MAX_SITES;
	for (i = 0; i < n; i++)
		snprintf(s[i].name, sizeof(s[i].name), "%s",
			 fmt_callsite(buf, &fw->sym, s[i].call_site, 0));
	fw->ks->sites = s;
	fw->ks->nr_sites = n;
}
