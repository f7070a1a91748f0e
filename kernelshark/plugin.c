// SPDX-License-Identifier: LGPL-2.1
/*
 * plugin-kmem.so, KernelShark's side: loading and unloading on a data
 * stream, and the event handler that keeps the allocator entries and a
 * copy of their records while KernelShark loads them, and starts the
 * follow pass beside the loading (follow.c).  The context of each
 * stream is its own, reached by the stream id KernelShark gives every
 * call.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "alloc/registry.h"
#include "base/hashtab.h"
#include "event/decode.h"
#include "event/extent.h"
#include "kmem_ks.h"
#include "libkshark-tepdata.h"

#define EXPORT __attribute__((visibility("default")))

EXPORT int KSHARK_PLOT_PLUGIN_INITIALIZER(struct kshark_data_stream *stream);
EXPORT int KSHARK_PLOT_PLUGIN_DEINITIALIZER(struct kshark_data_stream *stream);
EXPORT void *KSHARK_MENU_PLUGIN_INITIALIZER(void *gui);

static struct kmem_ks_ctx *streams[KS_DEFAULT_NUM_STREAMS];

/**
 * kmem_ks_of - the plugin's context of a data stream
 * @sd: the stream id
 *
 * Return: the context, or NULL if the plugin is not loaded on it.
 */
struct kmem_ks_ctx *kmem_ks_of(int sd)
{
	return sd >= 0 && sd < KS_DEFAULT_NUM_STREAMS ? streams[sd] : NULL;
}

static bool keep(struct kmem_ks_ctx *ks, int cpu, struct kshark_entry *e,
		 const struct tep_record *rec)
{
	if (kmem_grow_array((void **)&ks->cpu_ents[cpu], &ks->cpu_cap[cpu],
			    ks->cpu_len[cpu], sizeof(*ks->cpu_ents[cpu])))
		return false;
	if (ks->cpu_raw &&
	    kmem_ks_copy(&ks->cpu_raw[cpu], rec, e, ks->max_size, ks->page))
		kmem_ks_drop_copies(ks); /* the pass reads the file */
	ks->cpu_ents[cpu][ks->cpu_len[cpu]++] = e;
	return true;
}

/**
 * kmem_ks_drop_copies - free the records kept while KernelShark loaded
 * @ks: the stream's context
 */
void kmem_ks_drop_copies(struct kmem_ks_ctx *ks)
{
	int cpu;

	kmem_ks_follow_stop(ks);
	if (!ks->cpu_raw)
		return;
	for (cpu = 0; cpu < ks->n_cpus; cpu++)
		kmem_ks_copies_free(&ks->cpu_raw[cpu]);
	free(ks->cpu_raw);
	ks->cpu_raw = NULL;
}

/*
 * KernelShark loads the entries again (and has freed the earlier ones):
 * what was kept and made of them goes.
 */
static void forget(struct kmem_ks_ctx *ks)
{
	int cpu;

	kmem_ks_unfollow(ks);
	for (cpu = 0; cpu < ks->n_cpus; cpu++) {
		ks->cpu_len[cpu] = 0;
		ks->cpu_last[cpu] = -1;
	}
	kmem_ks_drop_copies(ks);
	ks->cpu_raw = calloc((size_t)ks->n_cpus, sizeof(*ks->cpu_raw));
	ks->oom = false;
}

/*
 * Called for each entry of our events, CPU by CPU in file order: an
 * entry at or before the last one kept for its CPU starts a new load.
 * KernelShark 2.2 reads the CPUs one after the other: once the last
 * CPU's entries come, the others' are all there, and the follow pass
 * starts beside the loading (follow.c); should an entry of another CPU
 * come then, the pass is stopped, and made from the file when needed.
 */
static void on_entry(struct kshark_data_stream *stream, void *rec,
		     struct kshark_entry *e)
{
	struct kmem_ks_ctx *ks = kmem_ks_of(stream->stream_id);
	int last;

	if (!ks || e->cpu < 0 || e->cpu >= ks->n_cpus)
		return;
	last = ks->n_cpus - 1;
	if (e->offset <= ks->cpu_last[e->cpu] || ks->followed)
		forget(ks);
	if (ks->worker && e->cpu != last)
		kmem_ks_drop_copies(ks);
	ks->cpu_last[e->cpu] = e->offset;
	if (ks->oom || !keep(ks, e->cpu, e, rec)) {
		ks->oom = true; /* said by the follow pass */
		return;
	}
	if (e->cpu != last || !ks->cpu_raw)
		return;
	if (!ks->worker)
		kmem_ks_follow_start(ks);
	else if (!(ks->cpu_raw[last].count & 255))
		kmem_ks_follow_publish(ks);
}

static void free_ctx(struct kmem_ks_ctx *ks)
{
	int cpu;

	kmem_ks_unfollow(ks);
	for (cpu = 0; ks->cpu_ents && cpu < ks->n_cpus; cpu++)
		free(ks->cpu_ents[cpu]);
	free(ks->cpu_ents);
	free(ks->cpu_len);
	free(ks->cpu_cap);
	free(ks->cpu_last);
	kmem_ks_drop_copies(ks);
	free(ks);
}

/* The event ids of lib's slots that the trace has. */
static void find_events(struct kmem_ks_ctx *ks, struct tep_handle *tep)
{
	int slot;

	for (slot = 0; slot < KMEM_NR_SLOTS; slot++) {
		struct tep_event *ev =
			tep_find_event_by_name(tep, kmem_slot_system(slot),
					       kmem_slot_event_name(slot));

		if (ev && ks->nr_ids < KMEM_KS_MAX_EVENTS)
			ks->ids[ks->nr_ids++] = ev->id;
	}
}

/* No memory for the plugin's state on @stream: one line.  Return: 0. */
static int nomem(const struct kshark_data_stream *stream)
{
	fprintf(stderr,
		"kmem plugin: %s: out of memory; the plugin is off "
		"for this file\n",
		stream->file ? stream->file : "stream");
	return 0;
}

/**
 * kshark_data_plugin_initializer - load the plugin on a data stream
 * @stream: a stream of trace.dat data (others are left alone)
 *
 * Return: 1 if the plugin handles the stream, 0 if not.
 */
int KSHARK_PLOT_PLUGIN_INITIALIZER(struct kshark_data_stream *stream)
{
	struct tep_handle *tep;
	struct kmem_ks_ctx *ks;
	int sd = stream->stream_id, i;

	if (sd < 0 || sd >= KS_DEFAULT_NUM_STREAMS || streams[sd] ||
	    !kshark_is_tep(stream) || stream->n_cpus <= 0)
		return 0;
	tep = kshark_get_tep(stream);
	if (!tep || !kmem_ks_check_file(stream->file, tep))
		return 0;
	ks = calloc(1, sizeof(*ks));
	if (!ks)
		return nomem(stream);
	ks->sd = sd;
	ks->stream = stream;
	ks->show = KMEM_KS_SHOW_LINKS | KMEM_KS_SHOW_LEAKS | KMEM_KS_SHOW_LIVE;
	ks->n_cpus = stream->n_cpus;
	i = tep_get_sub_buffer_size(tep);
	ks->max_size = i > 0 ? i : 1 << 20;
	ks->page = kmem_page_bound(tep);
	ks->cpu_ents = calloc((size_t)ks->n_cpus, sizeof(*ks->cpu_ents));
	ks->cpu_len = calloc((size_t)ks->n_cpus, sizeof(*ks->cpu_len));
	ks->cpu_cap = calloc((size_t)ks->n_cpus, sizeof(*ks->cpu_cap));
	ks->cpu_last = calloc((size_t)ks->n_cpus, sizeof(*ks->cpu_last));
	if (!ks->cpu_ents || !ks->cpu_len || !ks->cpu_cap || !ks->cpu_last) {
		free_ctx(ks);
		return nomem(stream);
	}
	forget(ks);
	find_events(ks, tep);
	if (!ks->nr_ids) { /* no allocator events: nothing to show */
		free_ctx(ks);
		return 0;
	}
	streams[sd] = ks;
	for (i = 0; i < ks->nr_ids; i++)
		kshark_register_event_handler(stream, ks->ids[i], on_entry);
	kshark_register_draw_handler(stream, kmem_ks_draw);
	return 1;
}

/**
 * kshark_data_plugin_deinitializer - unload the plugin from a stream
 * @stream: the stream
 *
 * Return: 1 if the plugin was loaded on it, else 0.
 */
int KSHARK_PLOT_PLUGIN_DEINITIALIZER(struct kshark_data_stream *stream)
{
	struct kmem_ks_ctx *ks = kmem_ks_of(stream->stream_id);
	int i;

	if (!ks)
		return 0;
	for (i = 0; i < ks->nr_ids; i++)
		kshark_unregister_event_handler(stream, ks->ids[i], on_entry);
	kshark_unregister_draw_handler(stream, kmem_ks_draw);
	streams[ks->sd] = NULL;
	free_ctx(ks);
	return 1;
}

/**
 * kshark_plugin_menu_initializer - add the plugin's dialog to the menus
 * @gui: KernelShark's main window
 *
 * Return: the dialog.
 */
void *KSHARK_MENU_PLUGIN_INITIALIZER(void *gui)
{
	return kmem_ks_add_menu(gui);
}

/**
 * kmem_ks_stream - the plugin's state of a stream, followed
 * @sd: the stream id
 *
 * For tools that read a trace through libkshark without the GUI
 * (tests/kshark/kshark_kmem.c): runs the follow pass if no drawing did.
 *
 * Return: the state, or NULL if the plugin is not loaded on the stream
 * or could not follow it.
 */
const struct kmem_ks_ctx *kmem_ks_stream(int sd)
{
	struct kmem_ks_ctx *ks = kmem_ks_of(sd);

	return ks && kmem_ks_ready(ks) ? ks : NULL;
}

/**
 * kmem_ks_choose_site - draw the live bytes of one call site too
 * @sd: the stream id
 * @call_site: the call site's address, 0 for none
 * @allocator: an allocator whose call sites are rows of their own
 *	(kmem_alloc_site_ix()), any with no @call_site
 *
 * What the dialog's Apply does: the stream is followed again, its
 * site_live curve made for @call_site.
 *
 * Return: 0, or -1 if the plugin is not loaded on the stream, the
 * allocator has no call sites, or following failed.
 */
int kmem_ks_choose_site(int sd, uint64_t call_site, uint32_t allocator)
{
	struct kmem_ks_ctx *ks = kmem_ks_of(sd);

	if (!ks || allocator >= KMEM_NR_ALLOC ||
	    (call_site && !kmem_allocs[allocator].site_ix_off))
		return -1;
	if (ks->followed && ks->site == call_site &&
	    ks->site_allocator == allocator)
		return ks->failed ? -1 : 0;
	ks->site = call_site;
	ks->site_allocator = allocator;
	return kmem_ks_follow(ks);
}
