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
	const struct slab_stats *sl = &fw->agg.slab;
	const struct page_stats *pg = &fw->agg.page;
	const struct percpu_stats *pc = &fw->agg.percpu;
	uint32_t i;

	for (i = 0; i < sl->objs.len; i++) {
		const struct slab_obj *o = slab_obj_at(sl, i);

		if (o->flags & SLAB_OBJ_LIVE)
			add_leak(fw, KMEM_KS_SLAB, i, o->bytes, o->site);
	}
	for (i = 0; i < pg->objs.len; i++) {
		const struct page_obj *o = page_obj_at(pg, i);

		if (o->flags & PAGE_OBJ_LIVE)
			add_leak(fw, KMEM_KS_PAGE, i, page_obj_bytes(pg, o),
				 o->site);
	}
	for (i = 0; i < pc->objs.len; i++) {
		const struct percpu_obj *o = percpu_obj_at(pc, i);

		if (o->flags & PERCPU_OBJ_LIVE)
			add_leak(fw, KMEM_KS_PERCPU, i, o->bytes, o->site);
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
 * Slab and per-CPU call sites, by peak bytes, at most MAX_SITES.
 */
void kmem_ks_list_sites(struct follow *fw)
{
	size_t n = fw->agg.slab.nr_sites + fw->agg.percpu.nr_sites, i, k = 0;
	struct kmem_ks_site *s = calloc(n ? n : 1, sizeof(*s));
	char buf[KMEM_SYM_LEN];

	if (!s)
		return;
	for (i = 0; i < fw->agg.slab.nr_sites; i++, k++) {
		s[k].call_site = fw->agg.slab.sites[i].call_site;
		s[k].peak_bytes = fw->agg.slab.sites[i].peak_bytes;
		s[k].allocator = KMEM_KS_SLAB;
	}
	for (i = 0; i < fw->agg.percpu.nr_sites; i++, k++) {
		s[k].call_site = fw->agg.percpu.sites[i].call_site;
		s[k].peak_bytes = fw->agg.percpu.sites[i].peak_bytes;
		s[k].allocator = KMEM_KS_PERCPU;
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
