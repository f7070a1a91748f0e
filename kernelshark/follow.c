// SPDX-License-Identifier: LGPL-2.1
/*
 * The follow pass: the allocator records of a stream once more, in time
 * order, through lib/'s decoder and aggregate, the code of trace-kmem's
 * tables.  What lib/ matches (kmem_agg_follow()) becomes the links and
 * the leaks, its live bytes after each record the curves; each record
 * is tied to the entry KernelShark made of it, the next one the event
 * handler kept for its CPU, checked by file offset.
 *
 * Memory: 8 bytes an allocator entry (plugin.c), 40 a link or leak, 16
 * a change of live bytes, and while the pass runs lib/'s own state and
 * 8 bytes an object for the entry that allocated it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-cmd.h>

#include "agg.h"
#include "decode.h"
#include "kmem_ks.h"
#include "libkshark-tepdata.h"
#include "symbols.h"
#include "tep_names.h"

#define NR_IDS 65536		/* common_type is 16 bits */
#define MAX_SITES 64		/* call sites the dialog offers */

struct follow {
	struct kmem_ks_ctx *ks;
	struct tep_handle *tep;
	struct kmem_fields f[KMEM_NR_SLOTS];
	uint8_t slot_of[NR_IDS];	/* slot + 1, 0: not ours */
	size_t *next;			/* [cpu]: the next kept entry */
	struct kmem_agg agg;
	struct kmem_symbolizer sym;
	struct kmem_match m;
	/* [allocator][object]: the entry that made the object live */
	struct kshark_entry **obj_entry[KMEM_KS_NR];
	size_t obj_cap[KMEM_KS_NR];
	uint32_t site_row;		/* the chosen site's row, or NONE */
	int max_size;			/* no record is larger than a page */
	bool oom;
	uint64_t unmatched;		/* records without their entry */
};

static bool grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 1024;
	void *q;

	if (need <= *cap)
		return true;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * size);
	if (!q)
		return false;
	*p = q;
	*cap = n;
	return true;
}

static void series_add(struct follow *fw, struct kmem_ks_series *s,
		       int64_t ts, uint64_t bytes)
{
	if (s->n && s->p[s->n - 1].bytes == bytes)
		return;
	if (!grow((void **)&s->p, &s->cap, s->n + 1, sizeof(*s->p))) {
		fw->oom = true;
		return;
	}
	s->p[s->n].ts = ts;
	s->p[s->n].bytes = bytes;
	s->n++;
	if (bytes > s->max)
		s->max = bytes;
}

static int allocator_of(enum kmem_ev_kind kind)
{
	switch (kind) {
	case KMEM_EV_SLAB_ALLOC:
	case KMEM_EV_SLAB_FREE:
		return KMEM_KS_SLAB;
	case KMEM_EV_PAGE_ALLOC:
	case KMEM_EV_PAGE_FREE:
		return KMEM_KS_PAGE;
	case KMEM_EV_PERCPU_ALLOC:
	case KMEM_EV_PERCPU_FREE:
		return KMEM_KS_PERCPU;
	default:
		return -1;
	}
}

static uint64_t site_address(const struct follow *fw, int a, uint32_t site)
{
	if (site == U64_INDEX_NONE)
		return 0;
	switch (a) {
	case KMEM_KS_SLAB:
		return site < fw->agg.slab.nr_sites ?
			       fw->agg.slab.sites[site].call_site : 0;
	case KMEM_KS_PAGE:
		return site < fw->agg.page.nr_sites ?
			       fw->agg.page.sites[site].callsite : 0;
	default:
		return site < fw->agg.percpu.nr_sites ?
			       fw->agg.percpu.sites[site].call_site : 0;
	}
}

static void add_pair(struct follow *fw, struct kmem_ks_pair *p, bool leak)
{
	struct kmem_ks_ctx *ks = fw->ks;
	struct kmem_ks_pair **arr = leak ? &ks->leaks : &ks->pairs;
	size_t *n = leak ? &ks->nr_leaks : &ks->nr_pairs;
	size_t *cap = leak ? &ks->cap_leaks : &ks->cap_pairs;

	if (!grow((void **)arr, cap, *n + 1, sizeof(**arr))) {
		fw->oom = true;
		return;
	}
	(*arr)[(*n)++] = *p;
}

/* What lib/ did with the record of entry @e. */
static void note_match(struct follow *fw, int a, struct kshark_entry *e,
		       const struct kmem_event *ev)
{
	struct kmem_ks_counts *c = &fw->ks->counts;
	struct kmem_ks_pair p = { 0 };

	if (fw->m.what == KMEM_MATCH_ALLOC) {
		if (!grow((void **)&fw->obj_entry[a], &fw->obj_cap[a],
			  (size_t)fw->m.obj + 1, sizeof(*fw->obj_entry[a]))) {
			fw->oom = true;
			return;
		}
		fw->obj_entry[a][fw->m.obj] = e;
		return;
	}
	if (fw->m.what != KMEM_MATCH_FREE)
		return;
	p.alloc = fw->m.obj < fw->obj_cap[a] ? fw->obj_entry[a][fw->m.obj] :
					       NULL;
	if (!p.alloc || !e) {
		fw->unmatched++;
		return;
	}
	p.free = e;
	p.bytes = fw->m.bytes;
	p.call_site = site_address(fw, a, fw->m.site);
	p.allocator = (uint32_t)a;
	p.order = a == KMEM_KS_PAGE ? (uint32_t)(ev->order < 0 ? 0 : ev->order) :
				      0;
	if (e->ts - p.alloc->ts > fw->ks->max_life)
		fw->ks->max_life = e->ts - p.alloc->ts;
	c->pairs[a]++;
	c->pingpong[a] += e->cpu != p.alloc->cpu;
	add_pair(fw, &p, false);
}

static uint64_t chosen_live(struct follow *fw)
{
	const struct kmem_ks_ctx *ks = fw->ks;

	if (ks->site_allocator == KMEM_KS_SLAB) {
		if (fw->site_row == U64_INDEX_NONE)
			fw->site_row = u64_index_find(&fw->agg.slab.site_ix,
						      ks->site);
		return fw->site_row == U64_INDEX_NONE ?
			       0 : fw->agg.slab.sites[fw->site_row].live_bytes;
	}
	if (fw->site_row == U64_INDEX_NONE)
		fw->site_row = u64_index_find(&fw->agg.percpu.site_ix,
					      ks->site);
	return fw->site_row == U64_INDEX_NONE ?
		       0 : fw->agg.percpu.sites[fw->site_row].live_bytes;
}

/* The kept entry of the record at @offset on @cpu, if any. */
static struct kshark_entry *entry_of(struct follow *fw, int cpu,
				     uint64_t offset)
{
	struct kmem_ks_ctx *ks = fw->ks;
	size_t *i = &fw->next[cpu];

	while (*i < ks->cpu_len[cpu] &&
	       (uint64_t)ks->cpu_ents[cpu][*i]->offset < offset)
		(*i)++;
	if (*i < ks->cpu_len[cpu] &&
	    (uint64_t)ks->cpu_ents[cpu][*i]->offset == offset)
		return ks->cpu_ents[cpu][(*i)++];
	return NULL;
}

static void one_record(struct follow *fw, struct tep_record *rec, int cpu)
{
	struct kmem_ks_series *live = fw->ks->live;
	struct kshark_entry *e;
	struct kmem_event ev;
	int id, a;

	if (rec->missed_events)
		kmem_agg_missed(&fw->agg, rec->missed_events);
	if (rec->size < 2 || rec->size > fw->max_size) {
		fw->agg.skipped_records++;
		return;
	}
	id = tep_data_type(fw->tep, rec);
	if (id < 0 || id >= NR_IDS || !fw->slot_of[id])
		return;
	fw->ks->counts.records++;
	e = entry_of(fw, cpu, rec->offset);
	if (kmem_decode(&fw->f[fw->slot_of[id] - 1], rec, &ev)) {
		fw->agg.undecodable++;
		return;
	}
	fw->m.what = KMEM_MATCH_NONE;
	kmem_agg_event(&fw->agg, &ev);
	a = allocator_of(ev.kind);
	if (a < 0)
		return;
	note_match(fw, a, e, &ev);
	if (!e)
		return;
	if (e->ts > fw->ks->end_ts)
		fw->ks->end_ts = e->ts;
	series_add(fw, &live[KMEM_KS_SLAB], e->ts, fw->agg.slab.sum.live_bytes);
	series_add(fw, &live[KMEM_KS_PAGE], e->ts, fw->agg.page.sum.live_bytes);
	series_add(fw, &live[KMEM_KS_PERCPU], e->ts,
		   fw->agg.percpu.sum.live_bytes);
	if (fw->ks->site && a == (int)fw->ks->site_allocator)
		series_add(fw, &fw->ks->site_live, e->ts, chosen_live(fw));
}

/* Every record of the stream, in time order (ties: the lower CPU). */
static int read_all(struct follow *fw, struct tracecmd_input *in)
{
	int n = fw->ks->n_cpus, cpu, best;
	struct tep_record **rec = calloc((size_t)n, sizeof(*rec));

	if (!rec)
		return -1;
	for (cpu = 0; cpu < n; cpu++)
		rec[cpu] = tracecmd_read_cpu_first(in, cpu);
	for (;;) {
		best = -1;
		for (cpu = 0; cpu < n; cpu++)
			if (rec[cpu] &&
			    (best < 0 || rec[cpu]->ts < rec[best]->ts))
				best = cpu;
		if (best < 0)
			break;
		one_record(fw, rec[best], best);
		tracecmd_free_record(rec[best]);
		rec[best] = tracecmd_read_data(in, best);
	}
	free(rec);
	return 0;
}

static int by_cpu_time(const void *a, const void *b)
{
	const struct kshark_entry *x = ((const struct kmem_ks_pair *)a)->alloc;
	const struct kshark_entry *y = ((const struct kmem_ks_pair *)b)->alloc;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* Sort by allocating CPU and time; *@start gets each CPU's first. */
static int index_by_cpu(struct kmem_ks_pair *p, size_t n, int n_cpus,
			size_t **start)
{
	size_t i;
	int cpu;

	qsort(p, n, sizeof(*p), by_cpu_time);
	*start = calloc((size_t)n_cpus + 1, sizeof(**start));
	if (!*start)
		return -1;
	for (cpu = 0, i = 0; cpu <= n_cpus; cpu++) {
		while (i < n && p[i].alloc->cpu < cpu)
			i++;
		(*start)[cpu] = i;
	}
	return 0;
}

static void add_leak(struct follow *fw, int a, uint32_t obj, uint64_t bytes,
		     uint32_t site, uint32_t order)
{
	struct kmem_ks_pair p = { 0 };

	p.alloc = obj < fw->obj_cap[a] ? fw->obj_entry[a][obj] : NULL;
	if (!p.alloc) {
		fw->unmatched++;
		return;
	}
	p.bytes = bytes;
	p.call_site = site_address(fw, a, site);
	p.allocator = (uint32_t)a;
	p.order = order;
	fw->ks->counts.leaks[a]++;
	fw->ks->counts.leak_bytes[a] += bytes;
	add_pair(fw, &p, true);
}

/* The objects live at the end: the allocations never freed. */
static void find_leaks(struct follow *fw)
{
	const struct slab_stats *sl = &fw->agg.slab;
	const struct page_stats *pg = &fw->agg.page;
	const struct percpu_stats *pc = &fw->agg.percpu;
	uint32_t i;

	for (i = 0; i < sl->objs.len; i++) {
		const struct slab_obj *o = slab_obj_at(sl, i);

		if (o->flags & SLAB_OBJ_LIVE)
			add_leak(fw, KMEM_KS_SLAB, i, o->bytes, o->site, 0);
	}
	for (i = 0; i < pg->objs.len; i++) {
		const struct page_obj *o = page_obj_at(pg, i);

		if (o->flags & PAGE_OBJ_LIVE)
			add_leak(fw, KMEM_KS_PAGE, i, page_obj_bytes(pg, o),
				 o->site, o->border);
	}
	for (i = 0; i < pc->objs.len; i++) {
		const struct percpu_obj *o = percpu_obj_at(pc, i);

		if (o->flags & PERCPU_OBJ_LIVE)
			add_leak(fw, KMEM_KS_PERCPU, i, o->bytes, o->site, 0);
	}
}

static int by_peak(const void *a, const void *b)
{
	const struct kmem_ks_site *x = a, *y = b;

	if (x->peak_bytes != y->peak_bytes)
		return x->peak_bytes > y->peak_bytes ? -1 : 1;
	return x->call_site < y->call_site ? -1 : x->call_site > y->call_site;
}

/* The call sites the dialog offers: slab and per-CPU, by peak bytes. */
static void list_sites(struct follow *fw)
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

static int setup(struct follow *fw)
{
	struct kmem_ks_ctx *ks = fw->ks;
	int slot, page;

	fw->tep = kshark_get_tep(ks->stream);
	if (!fw->tep)
		return -1;
	page = tep_get_sub_buffer_size(fw->tep);
	fw->max_size = page > 0 ? page : 1 << 20;
	for (slot = 0; slot < KMEM_NR_SLOTS; slot++) {
		struct tep_event *ev = tep_find_event_by_name(
			fw->tep, kmem_slot_system(slot),
			kmem_slot_event_name(slot));

		if (!ev || ev->id < 0 || ev->id >= NR_IDS)
			continue;
		kmem_fields_init(&fw->f[slot], ev, slot);
		fw->slot_of[ev->id] = (uint8_t)(slot + 1);
	}
	fw->next = calloc((size_t)ks->n_cpus, sizeof(*fw->next));
	if (!fw->next)
		return -1;
	kmem_tep_symbolizer(&fw->sym, fw->tep);
	kmem_agg_init(&fw->agg);
	kmem_agg_configure(&fw->agg, &fw->sym, NULL, stderr);
	kmem_tep_page_geometry(&fw->agg.page, fw->tep);
	kmem_agg_follow(&fw->agg, &fw->m);
	fw->site_row = U64_INDEX_NONE;
	return 0;
}

static void teardown(struct follow *fw)
{
	int a;

	kmem_agg_release(&fw->agg);
	for (a = 0; a < KMEM_KS_NR; a++)
		free(fw->obj_entry[a]);
	free(fw->next);
	free(fw);
}

/**
 * kmem_ks_unfollow - drop what the follow pass made
 * @ks: the stream's context
 */
void kmem_ks_unfollow(struct kmem_ks_ctx *ks)
{
	int a;

	free(ks->pairs);
	free(ks->cpu_pairs);
	free(ks->leaks);
	free(ks->cpu_leaks);
	for (a = 0; a < KMEM_KS_NR; a++)
		free(ks->live[a].p);
	free(ks->site_live.p);
	free(ks->sites);
	ks->pairs = ks->leaks = NULL;
	ks->cpu_pairs = ks->cpu_leaks = NULL;
	ks->nr_pairs = ks->cap_pairs = ks->nr_leaks = ks->cap_leaks = 0;
	memset(ks->live, 0, sizeof(ks->live));
	memset(&ks->site_live, 0, sizeof(ks->site_live));
	memset(&ks->counts, 0, sizeof(ks->counts));
	ks->sites = NULL;
	ks->nr_sites = 0;
	ks->max_life = ks->end_ts = 0;
	ks->followed = ks->failed = false;
}

static int fail(struct kmem_ks_ctx *ks, const char *why)
{
	fprintf(stderr, "kmem plugin: %s: %s; nothing drawn\n",
		ks->stream->file ? ks->stream->file : "stream", why);
	kmem_ks_unfollow(ks);
	ks->followed = ks->failed = true;
	return -1;
}

/**
 * kmem_ks_follow - (re)make the links, leaks and curves of a stream
 * @ks: the stream's context, its entries loaded
 *
 * Return: 0, or -1 after one line on stderr saying why (the plugin
 * then draws nothing on this stream).
 */
int kmem_ks_follow(struct kmem_ks_ctx *ks)
{
	struct tracecmd_input *in = kshark_get_tep_input(ks->stream);
	struct follow *fw;
	int a, ret;

	kmem_ks_unfollow(ks);
	if (ks->oom)
		return fail(ks, "out of memory while loading");
	fw = calloc(1, sizeof(*fw));
	if (!fw)
		return fail(ks, "out of memory");
	fw->ks = ks;
	if (!in || setup(fw)) {
		teardown(fw);
		return fail(ks, "cannot read the trace's records again");
	}
	pthread_mutex_lock(&ks->stream->input_mutex);
	ret = read_all(fw, in);
	pthread_mutex_unlock(&ks->stream->input_mutex);
	kmem_tep_finish(&fw->agg, &fw->sym, fw->tep);
	if (!ret)
		find_leaks(fw);
	ks->counts.undecodable = fw->agg.undecodable;
	for (a = 0; a < KMEM_KS_NR; a++)
		ks->counts.live_bytes[a] =
			ks->live[a].n ? ks->live[a].p[ks->live[a].n - 1].bytes : 0;
	if (!ret)
		list_sites(fw);
	if (!ret && (fw->oom || fw->agg.slab.oom || fw->agg.page.oom ||
		     fw->agg.percpu.oom))
		ret = -2;
	if (!ret && fw->unmatched) {
		teardown(fw);
		return fail(ks, "records and KernelShark's entries differ");
	}
	teardown(fw);
	if (ret)
		return fail(ks, "out of memory");
	if (index_by_cpu(ks->pairs, ks->nr_pairs, ks->n_cpus, &ks->cpu_pairs) ||
	    index_by_cpu(ks->leaks, ks->nr_leaks, ks->n_cpus, &ks->cpu_leaks))
		return fail(ks, "out of memory");
	ks->followed = true;
	return 0;
}

/**
 * kmem_ks_ready - follow the stream if that is not done yet
 * @ks: the stream's context
 *
 * Return: true if links, leaks and curves are there to draw.
 */
bool kmem_ks_ready(struct kmem_ks_ctx *ks)
{
	if (!ks->followed)
		kmem_ks_follow(ks);
	return !ks->failed;
}
