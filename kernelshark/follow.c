// SPDX-License-Identifier: LGPL-2.1
/*
 * The follow pass: the allocator records of a stream, in time order,
 * through lib/'s decoder and aggregate, the code of trace-kmem's tables.
 * What lib/ matches (kmem_agg_follow()) becomes the links and the
 * leaks, its live bytes after each record the curves.
 *
 * The first pass reads the copies the event handler kept (copies.c),
 * each with its entry, and runs beside KernelShark's loading: it starts
 * in a thread of its own when the last CPU's entries begin to come
 * (KernelShark reads the CPUs in turn, so the other CPUs' copies are
 * complete then), reads the last CPU's as the handler hands them over,
 * and is waited for when the graph is first drawn.  A later pass (the
 * dialog's Apply) reads the records from the file through libtracecmd
 * and ties each to the entry KernelShark made of it, the next one kept
 * for its CPU, by file offset.
 *
 * Memory: 8 bytes an allocator entry (plugin.c) and, until the first
 * pass has read it, 24 bytes and its record's data; 40 an allocation
 * (its link or leak), 16 a change of live bytes; and while the pass
 * runs lib/'s own state and 8 bytes an object.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-cmd.h>

#include "analysis/agg.h"
#include "base/hashtab.h"
#include "event/decode.h"
#include "event/extent.h"
#include "event/symbols.h"
#include "event/tep_names.h"
#include "feed/feed.h"
#include "feed/loop.h"
#include "kmem_ks.h"
#include "libkshark-tepdata.h"

#define MAX_SITES 64 /* call sites the dialog offers */

struct follow {
	struct kmem_ks_ctx *ks;
	struct tep_handle *tep;
	struct kmem_feed feed; /* event id -> decode -> agg */
	size_t *next;	       /* [cpu]: the next kept entry */
	struct kmem_agg agg;
	struct kmem_symbolizer sym;
	struct kmem_match m;
	/*
	 * [allocator][object]: its latest allocation, CPU << 32 | index in
	 * ks->links[CPU], where every allocation is kept until the end
	 */
	uint64_t *obj_alloc[KMEM_KS_NR];
	size_t obj_cap[KMEM_KS_NR];
	uint32_t site_row; /* the chosen site's row, or NONE */
	size_t seen;	   /* the last CPU's copies published */
	int max_size;	   /* no record is larger than a page */
	bool oom;
	uint64_t unmatched; /* records without their entry */
};

static void series_add(struct follow *fw, struct kmem_ks_series *s, int64_t ts,
		       uint64_t bytes)
{
	if (s->n && s->p[s->n - 1].bytes == bytes)
		return;
	if (kmem_grow_array((void **)&s->p, &s->cap, s->n, sizeof(*s->p))) {
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
		return site < fw->agg.slab.nr_sites
			       ? fw->agg.slab.sites[site].call_site
			       : 0;
	case KMEM_KS_PAGE:
		return site < fw->agg.page.nr_sites
			       ? fw->agg.page.sites[site].callsite
			       : 0;
	default:
		return site < fw->agg.percpu.nr_sites
			       ? fw->agg.percpu.sites[site].call_site
			       : 0;
	}
}

/* An allocation made object m.obj live: kept on its CPU's list. */
static void note_alloc(struct follow *fw, int a, struct kshark_entry *e,
		       const struct kmem_event *ev)
{
	struct kmem_ks_list *l = &fw->ks->links[e->cpu];
	struct kmem_ks_pair *p;

	/* objects are numbered as they appear: one more at most */
	if (l->n >= UINT32_MAX ||
	    kmem_grow_array((void **)&fw->obj_alloc[a], &fw->obj_cap[a],
			    fw->m.obj, sizeof(*fw->obj_alloc[a])) ||
	    fw->m.obj >= fw->obj_cap[a] ||
	    kmem_grow_array((void **)&l->p, &l->cap, l->n, sizeof(*l->p))) {
		fw->oom = true;
		return;
	}
	fw->obj_alloc[a][fw->m.obj] = (uint64_t)e->cpu << 32 | l->n;
	p = &l->p[l->n++];
	memset(p, 0, sizeof(*p));
	p->alloc = e;
	p->allocator = (uint8_t)a;
	p->order = a == KMEM_KS_PAGE && ev->order > 0 ? (uint16_t)ev->order : 0;
}

/* The allocation of object @obj, if it was made in this pass. */
static struct kmem_ks_pair *alloc_of(struct follow *fw, int a, uint32_t obj)
{
	uint64_t at = obj < fw->obj_cap[a] ? fw->obj_alloc[a][obj] : UINT64_MAX;
	uint64_t cpu = at >> 32, i = at & UINT32_MAX;

	return cpu < (uint64_t)fw->ks->n_cpus && i < fw->ks->links[cpu].n
		       ? &fw->ks->links[cpu].p[i]
		       : NULL;
}

/* What lib/ did with the record of entry @e. */
static void note_match(struct follow *fw, int a, struct kshark_entry *e,
		       const struct kmem_event *ev)
{
	struct kmem_ks_counts *c = &fw->ks->counts;
	struct kmem_ks_pair *p;

	if (fw->m.what == KMEM_MATCH_ALLOC) {
		if (!e)
			fw->unmatched++;
		else
			note_alloc(fw, a, e, ev);
		return;
	}
	if (fw->m.what != KMEM_MATCH_FREE)
		return;
	p = alloc_of(fw, a, fw->m.obj);
	if (!p || !e || p->fate != KMEM_KS_LIVE) {
		fw->unmatched++;
		return;
	}
	p->free = e;
	p->fate = KMEM_KS_FREED;
	p->bytes = fw->m.bytes;
	p->call_site = site_address(fw, a, fw->m.site);
	if (e->ts - p->alloc->ts > fw->ks->max_life)
		fw->ks->max_life = e->ts - p->alloc->ts;
	c->pairs[a]++;
	c->pingpong[a] += e->cpu != p->alloc->cpu;
}

/* The chosen call site's live bytes (its row found once it exists). */
static uint64_t chosen_live(struct follow *fw)
{
	bool slab = fw->ks->site_allocator == KMEM_KS_SLAB;

	if (fw->site_row == U64_INDEX_NONE)
		fw->site_row = u64_index_find(slab ? &fw->agg.slab.site_ix
						   : &fw->agg.percpu.site_ix,
					      fw->ks->site);
	if (fw->site_row == U64_INDEX_NONE)
		return 0;
	return slab ? fw->agg.slab.sites[fw->site_row].live_bytes
		    : fw->agg.percpu.sites[fw->site_row].live_bytes;
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

static void one_record(struct follow *fw, struct tep_record *rec, int cpu,
		       struct kshark_entry *e)
{
	struct kmem_ks_series *live = fw->ks->live;
	struct kmem_event ev;
	int slot, a;

	if (rec->missed_events)
		kmem_feed_missed(&fw->feed, rec->missed_events);
	if (rec->size < 2 || rec->size > fw->max_size) {
		fw->agg.skipped_records++;
		return;
	}
	slot = kmem_feed_slot(&fw->feed, rec);
	if (slot < 0)
		return;
	fw->ks->counts.records++;
	if (!e)
		e = entry_of(fw, cpu, rec->offset);
	fw->m.what = KMEM_MATCH_NONE;
	if (kmem_feed_step(&fw->feed, slot, rec, &ev))
		return;
	a = allocator_of(ev.kind);
	if (a < 0)
		return;
	note_match(fw, a, e, &ev);
	if (!e)
		return;
	if (e->ts > fw->ks->end_ts)
		fw->ks->end_ts = e->ts;
	/* an event changes its own allocator's live bytes only */
	series_add(fw, &live[a], e->ts,
		   a == KMEM_KS_SLAB   ? fw->agg.slab.sum.live_bytes
		   : a == KMEM_KS_PAGE ? fw->agg.page.sum.live_bytes
				       : fw->agg.percpu.sum.live_bytes);
	/* a call site's live bytes change when an object is made or ends */
	if (fw->ks->site && a == (int)fw->ks->site_allocator &&
	    fw->m.what != KMEM_MATCH_NONE)
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
		/* one that runs past its page: damaged, its data not read */
		if (!kmem_record_in_page(rec[best], fw->ks->page))
			rec[best]->size = -1;
		one_record(fw, rec[best], best, NULL);
		tracecmd_free_record(rec[best]);
		rec[best] = tracecmd_read_data(in, best);
	}
	free(rec);
	return 0;
}

/*
 * The pass beside KernelShark's loading: started when the last CPU's
 * first entry comes, it reads the other CPUs' copies, complete by then,
 * and the last CPU's as the event handler publishes them (every 256).
 */
struct kmem_ks_worker {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t more;
	size_t published; /* copies of the last CPU it may read */
	bool closed;	  /* no more will come */
	bool abort;	  /* stop: the result is thrown away */
	struct follow *fw;
	int ret;
};

/* Are there copies of @cpu beyond @taken to read (waiting for them)? */
static bool available(struct follow *fw, int cpu, size_t taken)
{
	struct kmem_ks_worker *w = fw->ks->worker;
	bool ok;

	if (!w || cpu != fw->ks->n_cpus - 1)
		return taken < fw->ks->cpu_raw[cpu].count;
	if (taken < fw->seen)
		return true;
	pthread_mutex_lock(&w->lock);
	while (taken == w->published && !w->closed && !w->abort)
		pthread_cond_wait(&w->more, &w->lock);
	fw->seen = w->published;
	ok = !w->abort && taken < fw->seen;
	pthread_mutex_unlock(&w->lock);
	return ok;
}

/*
 * The copies the event handler kept, in time order (ties: the lower
 * CPU), each given to one_record() with its entry.
 */
static int read_copies(struct follow *fw)
{
	struct kmem_ks_ctx *ks = fw->ks;
	int n = ks->n_cpus, cpu, best;
	struct tep_record *head = calloc((size_t)n, sizeof(*head));
	struct kshark_entry **ent = calloc((size_t)n, sizeof(*ent));
	struct kmem_ks_cursor *cur = calloc((size_t)n, sizeof(*cur));
	size_t *taken = calloc((size_t)n, sizeof(*taken));
	int ret = -1;

	if (!head || !ent || !cur || !taken)
		goto out;
	for (cpu = 0; cpu < n; cpu++)
		if (available(fw, cpu, 0)) {
			ent[cpu] = kmem_ks_copy_read(
				&cur[cpu], &ks->cpu_raw[cpu], &head[cpu]);
			taken[cpu] = 1;
		}
	for (;;) {
		best = -1;
		for (cpu = 0; cpu < n; cpu++)
			if (ent[cpu] &&
			    (best < 0 || head[cpu].ts < head[best].ts))
				best = cpu;
		if (best < 0)
			break;
		head[best].cpu = best;
		head[best].offset = (unsigned long long)ent[best]->offset;
		one_record(fw, &head[best], best, ent[best]);
		ent[best] = NULL;
		if (available(fw, best, taken[best])) {
			ent[best] = kmem_ks_copy_read(
				&cur[best], &ks->cpu_raw[best], &head[best]);
			taken[best]++;
		}
	}
	ret = ks->worker && ks->worker->abort ? -1 : 0;
out:
	free(head);
	free(ent);
	free(cur);
	free(taken);
	return ret;
}

/*
 * Each CPU's list keeps its links, in place and in order; its leaks move
 * to their own list; allocations whose free was missed go.
 */
static int split(struct follow *fw)
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
	struct kmem_ks_pair *p = alloc_of(fw, a, obj);

	if (!p || p->fate != KMEM_KS_LIVE) {
		fw->unmatched++;
		return;
	}
	p->fate = KMEM_KS_LEAK;
	p->bytes = bytes;
	p->call_site = site_address(fw, a, site);
	fw->ks->counts.leaks[a]++;
	fw->ks->counts.leak_bytes[a] += bytes;
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
	int page;

	fw->tep = kshark_get_tep(ks->stream);
	if (!fw->tep)
		return -1;
	page = tep_get_sub_buffer_size(fw->tep);
	fw->max_size = page > 0 ? page : 1 << 20;
	if (kmem_feed_init(&fw->feed, fw->tep, &fw->agg, KMEM_FEED_MAP_IDS))
		return -1;
	fw->next = calloc((size_t)ks->n_cpus, sizeof(*fw->next));
	if (!fw->next)
		return -1;
	kmem_tep_symbolizer(&fw->sym, fw->tep);
	kmem_agg_init(&fw->agg);
	kmem_agg_configure(&fw->agg, &fw->sym, NULL, NULL, 0);
	kmem_feed_page_geometry(&fw->agg, fw->tep);
	kmem_agg_follow(&fw->agg, &fw->m);
	fw->site_row = U64_INDEX_NONE;
	return 0;
}

static void teardown(struct follow *fw)
{
	int a;

	kmem_agg_release(&fw->agg);
	kmem_feed_release(&fw->feed);
	for (a = 0; a < KMEM_KS_NR; a++)
		free(fw->obj_alloc[a]);
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

	kmem_ks_follow_stop(ks);
	for (a = 0; a < ks->n_cpus; a++) {
		if (ks->links)
			free(ks->links[a].p);
		if (ks->leaks)
			free(ks->leaks[a].p);
	}
	free(ks->links);
	free(ks->leaks);
	ks->links = ks->leaks = NULL;
	for (a = 0; a < KMEM_KS_NR; a++)
		free(ks->live[a].p);
	free(ks->site_live.p);
	free(ks->sites);
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

/* A pass's state, the lists made for it; NULL: said why. */
static struct follow *begin(struct kmem_ks_ctx *ks)
{
	struct follow *fw;

	kmem_ks_unfollow(ks);
	if (ks->oom) {
		fail(ks, "out of memory while loading");
		return NULL;
	}
	fw = calloc(1, sizeof(*fw));
	ks->links = calloc((size_t)ks->n_cpus, sizeof(*ks->links));
	ks->leaks = calloc((size_t)ks->n_cpus, sizeof(*ks->leaks));
	if (!fw || !ks->links || !ks->leaks) {
		free(fw);
		fail(ks, "out of memory");
		return NULL;
	}
	fw->ks = ks;
	if (setup(fw)) {
		teardown(fw);
		fail(ks, "out of memory");
		return NULL;
	}
	return fw;
}

/* What the pass found (@ret: how it read), as links, leaks, curves. */
static int finish(struct kmem_ks_ctx *ks, struct follow *fw, int ret)
{
	int a;

	kmem_ks_drop_copies(ks);
	kmem_feed_finish(&fw->agg, &fw->sym, fw->tep);
	if (!ret)
		find_leaks(fw);
	ks->counts.undecodable = fw->agg.undecodable;
	for (a = 0; a < KMEM_KS_NR; a++)
		ks->counts.live_bytes[a] =
			ks->live[a].n ? ks->live[a].p[ks->live[a].n - 1].bytes
				      : 0;
	if (!ret)
		list_sites(fw);
	if (!ret && (fw->oom || fw->agg.slab.oom || fw->agg.page.oom ||
		     fw->agg.percpu.oom))
		ret = -2;
	if (!ret && fw->unmatched) {
		teardown(fw);
		return fail(ks, "records and KernelShark's entries differ");
	}
	if (!ret && split(fw))
		ret = -2;
	teardown(fw);
	if (ret == -3)
		return fail(ks, "cannot read the trace's records again");
	if (ret)
		return fail(ks, "out of memory");
	ks->followed = true;
	return 0;
}

/**
 * kmem_ks_follow - (re)make the links, leaks and curves of a stream
 * @ks: the stream's context, its entries loaded
 *
 * From the copies the event handler kept, if they are there; else the
 * records are read from the file again.
 *
 * Return: 0, or -1 after one line on stderr saying why (the plugin
 * then draws nothing on this stream).
 */
int kmem_ks_follow(struct kmem_ks_ctx *ks)
{
	struct tracecmd_input *in = kshark_get_tep_input(ks->stream);
	struct follow *fw = begin(ks);
	int ret;

	if (!fw)
		return -1;
	if (ks->cpu_raw) {
		ret = read_copies(fw);
	} else if (!in) {
		ret = -3;
	} else {
		pthread_mutex_lock(&ks->stream->input_mutex);
		ret = read_all(fw, in);
		pthread_mutex_unlock(&ks->stream->input_mutex);
	}
	return finish(ks, fw, ret);
}

static void *worker_main(void *arg)
{
	struct kmem_ks_worker *w = arg;

	w->ret = read_copies(w->fw);
	return NULL;
}

/**
 * kmem_ks_follow_start - start the pass beside KernelShark's loading
 * @ks: the stream's context, the last CPU's first copy just kept (all
 *	the other CPUs' are there)
 *
 * Without a thread, or memory for it, the pass is made when the graph
 * is first drawn instead.
 */
void kmem_ks_follow_start(struct kmem_ks_ctx *ks)
{
	struct kmem_ks_worker *w;
	struct follow *fw;

	if (ks->worker || ks->followed || !ks->cpu_raw)
		return;
	w = calloc(1, sizeof(*w));
	if (!w)
		return;
	fw = begin(ks);
	if (!fw) {
		free(w);
		return;
	}
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->more, NULL);
	w->fw = fw;
	w->published = ks->cpu_raw[ks->n_cpus - 1].count;
	ks->worker = w;
	if (pthread_create(&w->thread, NULL, worker_main, w)) {
		ks->worker = NULL;
		pthread_mutex_destroy(&w->lock);
		pthread_cond_destroy(&w->more);
		teardown(fw);
		free(w);
		kmem_ks_unfollow(ks);
	}
}

/* Let the pass read the last CPU's copies so far; @closed: all of them. */
static void publish(struct kmem_ks_ctx *ks, bool closed, bool abort)
{
	struct kmem_ks_worker *w = ks->worker;

	pthread_mutex_lock(&w->lock);
	w->published =
		ks->cpu_raw ? ks->cpu_raw[ks->n_cpus - 1].count : w->published;
	w->closed = closed;
	w->abort = abort;
	pthread_cond_signal(&w->more);
	pthread_mutex_unlock(&w->lock);
}

/**
 * kmem_ks_follow_publish - hand the pass the last CPU's copies so far
 * @ks: the stream's context, its pass running
 */
void kmem_ks_follow_publish(struct kmem_ks_ctx *ks)
{
	publish(ks, false, false);
}

/* Wait for the pass; it is no longer running. */
static struct kmem_ks_worker *join(struct kmem_ks_ctx *ks, bool abort)
{
	struct kmem_ks_worker *w = ks->worker;

	publish(ks, true, abort);
	pthread_join(w->thread, NULL);
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->more);
	ks->worker = NULL;
	return w;
}

/**
 * kmem_ks_follow_stop - stop the pass beside the loading, its work lost
 * @ks: the stream's context (nothing happens without such a pass)
 */
void kmem_ks_follow_stop(struct kmem_ks_ctx *ks)
{
	struct kmem_ks_worker *w;

	if (!ks->worker)
		return;
	w = join(ks, true);
	teardown(w->fw);
	free(w);
	kmem_ks_unfollow(ks);
}

/**
 * kmem_ks_ready - have the links, leaks and curves made
 * @ks: the stream's context, its entries loaded
 *
 * Waits for the pass beside the loading, or makes it now.
 *
 * Return: true if they are there to draw.
 */
bool kmem_ks_ready(struct kmem_ks_ctx *ks)
{
	struct kmem_ks_worker *w;

	if (ks->worker) {
		w = join(ks, false);
		finish(ks, w->fw, w->ret);
		free(w);
	} else if (!ks->followed) {
		kmem_ks_follow(ks);
	}
	return !ks->failed;
}
