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
#include "follow.h"
#include "kmem_ks.h"
#include "libkshark-tepdata.h"

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

/* The allocator of a record that makes or ends an object, else -1. */
static int allocator_of(enum kmem_ev_kind kind)
{
	enum kmem_alloc_id id = kmem_alloc_of(kind);

	if (id == KMEM_NR_ALLOC || (kind != kmem_allocs[id].alloc_kind &&
				    kind != kmem_allocs[id].free_kind))
		return -1;
	return (int)id;
}

/**
 * kmem_ks_site_address - the address of an allocator's call site row
 * @fw: the pass
 * @a: the allocator (enum kmem_alloc_id)
 * @site: its call-site row
 *
 * Return: the call site's address, 0 for none.
 */
uint64_t kmem_ks_site_address(const struct follow *fw, int a, uint32_t site)
{
	const struct kmem_alloc_desc *d = &kmem_allocs[a];
	const void *st = kmem_agg_stats(&fw->agg, a);

	if (site == U64_INDEX_NONE || site >= kmem_alloc_nr_sites(d, st))
		return 0;
	return d->site_addr(st, site);
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
	p->order = kmem_allocs[a].caps & KMEM_CAP_ORDERS && ev->order > 0
			   ? (uint16_t)ev->order
			   : 0;
}

/**
 * kmem_ks_alloc_of - the allocation of object @obj, if it was made in this pass
 * @fw: the pass
 * @a: the allocator (enum kmem_alloc_id)
 * @obj: the object's index in lib/'s table
 *
 * Return: its link, or NULL.
 */
struct kmem_ks_pair *kmem_ks_alloc_of(struct follow *fw, int a, uint32_t obj)
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
	p = kmem_ks_alloc_of(fw, a, fw->m.obj);
	if (!p || !e || p->fate != KMEM_KS_LIVE) {
		fw->unmatched++;
		return;
	}
	p->free = e;
	p->fate = KMEM_KS_FREED;
	p->bytes = fw->m.bytes;
	p->call_site = kmem_ks_site_address(fw, a, fw->m.site);
	if (e->ts - p->alloc->ts > fw->ks->max_life)
		fw->ks->max_life = e->ts - p->alloc->ts;
	c->pairs[a]++;
	c->pingpong[a] += e->cpu != p->alloc->cpu;
}

/* The chosen call site's live bytes (its row found once it exists). */
static uint64_t chosen_live(struct follow *fw)
{
	const struct kmem_alloc_desc *d = &kmem_allocs[fw->ks->site_allocator];
	const void *st = kmem_agg_stats(&fw->agg, fw->ks->site_allocator);

	if (fw->site_row == U64_INDEX_NONE)
		fw->site_row =
			u64_index_find(kmem_alloc_site_ix(d, st), fw->ks->site);
	if (fw->site_row == U64_INDEX_NONE)
		return 0;
	return kmem_alloc_site_live(d, st, fw->site_row)->live_bytes;
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
	if (slot < 0) {
		if (slot != KMEM_FEED_NO_FORMAT)
			kmem_feed_other(&fw->feed, rec);
		return;
	}
	fw->ks->counts.records++;
	if (!e)
		e = entry_of(fw, cpu, rec->offset);
	fw->m.what = KMEM_MATCH_NONE;
	if (kmem_feed_step(&fw->feed, slot, rec, &ev))
		return;
	a = allocator_of(ev.kind);
	if (a < 0) {
		/* a kernel_stack record gives a waiting allocation its site */
		if (ev.kind == KMEM_EV_STACK && e && fw->ks->site &&
		    kmem_allocs[fw->ks->site_allocator].caps & KMEM_CAP_STACKS)
			series_add(fw, &fw->ks->site_live, e->ts,
				   chosen_live(fw));
		return;
	}
	note_match(fw, a, e, &ev);
	if (!e)
		return;
	if (e->ts > fw->ks->end_ts)
		fw->ks->end_ts = e->ts;
	/* an event changes its own allocator's live bytes only */
	series_add(
		fw, &live[a], e->ts,
		kmem_alloc_counts(&kmem_allocs[a], kmem_agg_stats(&fw->agg, a))
			->live_bytes);
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

/**
 * kmem_ks_read_copies - the copies the event handler kept, in time order
 * @fw: the pass
 *
 * Ties go to the lower CPU; each record is given to one_record() with its
 * entry.
 *
 * Return: 0, or -1 (out of memory, or the pass was stopped).
 */
int kmem_ks_read_copies(struct follow *fw)
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

static int setup(struct follow *fw)
{
	struct kmem_ks_ctx *ks = fw->ks;
	int page;

	fw->tep = kshark_get_tep(ks->stream);
	if (!fw->tep)
		return -1;
	page = tep_get_sub_buffer_size(fw->tep);
	fw->max_size = page > 0 ? page : 1 << 20;
	if (kmem_feed_init(&fw->feed, fw->tep, &fw->agg, KMEM_FEED_MAP_IDS) ||
	    kmem_feed_lens_tep(&fw->feed, fw->tep))
		return -1;
	fw->next = calloc((size_t)ks->n_cpus, sizeof(*fw->next));
	if (!fw->next)
		return -1;
	kmem_tep_symbolizer(&fw->sym, fw->tep);
	if (kmem_agg_init(&fw->agg))
		return -1;
	kmem_agg_configure(&fw->agg, &fw->sym, NULL, NULL, 0);
	kmem_feed_page_geometry(&fw->agg, fw->tep);
	kmem_agg_follow(&fw->agg, &fw->m);
	fw->site_row = U64_INDEX_NONE;
	return 0;
}

/**
 * kmem_ks_teardown - free a pass's state (not the lists it made)
 * @fw: the pass
 */
void kmem_ks_teardown(struct follow *fw)
{
	int a;

	kmem_agg_release(&fw->agg);
	kmem_feed_release(&fw->feed);
	for (a = 0; a < KMEM_NR_ALLOC; a++)
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
	for (a = 0; a < KMEM_NR_ALLOC; a++)
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

/**
 * kmem_ks_begin - a pass's state, and the lists made for it
 * @ks: the stream's context
 *
 * Return: the pass, or NULL after one line saying why.
 */
struct follow *kmem_ks_begin(struct kmem_ks_ctx *ks)
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
		kmem_ks_teardown(fw);
		fail(ks, "out of memory");
		return NULL;
	}
	return fw;
}

/* Say @n records left out, once a stream (@said): "N record(s) WHAT". */
static void say_left_out(struct kmem_ks_ctx *ks, bool *said, uint64_t n,
			 const char *what)
{
	if (!n || *said)
		return;
	*said = true;
	fprintf(stderr, "kmem plugin: %s: %llu record%s %s\n",
		ks->stream->file ? ks->stream->file : "stream",
		(unsigned long long)n, n == 1 ? "" : "s", what);
}

/**
 * kmem_ks_finish - what the pass found, as links, leaks and curves
 * @ks: the stream's context
 * @fw: the pass, freed here
 * @ret: how it read (0, -2 out of memory, -3 records not read again)
 *
 * Return: 0, or -1 after one line saying why.
 */
int kmem_ks_finish(struct kmem_ks_ctx *ks, struct follow *fw, int ret)
{
	int a;

	kmem_ks_drop_copies(ks);
	kmem_feed_finish(&fw->agg, &fw->sym, fw->tep);
	if (!ret)
		kmem_ks_find_leaks(fw);
	ks->counts.undecodable = fw->agg.undecodable;
	say_left_out(ks, &ks->said_undecodable, fw->agg.undecodable,
		     "could not be decoded (their event format lacks a field "
		     "or has one of a size this plugin cannot read); they are "
		     "not drawn");
	say_left_out(ks, &ks->said_skipped, fw->agg.skipped_records,
		     "skipped as damaged (a length no record of its event "
		     "has: the record or its event id is damaged); the "
		     "numbers drawn are lower bounds");
	for (a = 0; a < KMEM_NR_ALLOC; a++)
		ks->counts.live_bytes[a] =
			ks->live[a].n ? ks->live[a].p[ks->live[a].n - 1].bytes
				      : 0;
	if (!ret)
		kmem_ks_list_sites(fw);
	for (a = 0; a < KMEM_NR_ALLOC; a++)
		fw->oom |= kmem_alloc_lc(&kmem_allocs[a],
					 kmem_agg_stats(&fw->agg, a))
				   ->oom != 0;
	if (!ret && fw->oom)
		ret = -2;
	if (!ret && fw->unmatched) {
		kmem_ks_teardown(fw);
		return fail(ks, "records and KernelShark's entries differ");
	}
	if (!ret && kmem_ks_split_links(fw))
		ret = -2;
	kmem_ks_teardown(fw);
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
	struct follow *fw = kmem_ks_begin(ks);
	int ret;

	if (!fw)
		return -1;
	if (ks->cpu_raw) {
		ret = kmem_ks_read_copies(fw);
	} else if (!in) {
		ret = -3;
	} else {
		pthread_mutex_lock(&ks->stream->input_mutex);
		ret = read_all(fw, in);
		pthread_mutex_unlock(&ks->stream->input_mutex);
	}
	return kmem_ks_finish(ks, fw, ret);
}

