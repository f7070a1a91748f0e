// SPDX-License-Identifier: LGPL-2.1
/*
 * plugin_kmem.so: kmem statistics for trace-cmd report.
 *
 * A superset of libtraceevent's plugin_kmem: the listing is the same,
 * "(func+0xoff) " before each slab event, and with -O kmem:stat the
 * slab events that trace-cmd prints are aggregated and the tables are
 * printed when trace-cmd closes the file.
 *
 * State: everything hangs off the tep handle, no mutable globals.  Each
 * load allocates a struct kmem_plugin, the context of our handlers, so
 * that several files opened at once keep separate statistics; the
 * option table is copied per load for the same reason.  The unloader
 * gets only the tep handle, and libtraceevent gives a plugin no private
 * pointer on it; the handle's pid -> comm map is the one store it owns
 * with a public getter, so the state's address is registered there as
 * the comm of a negative pid, which no record carries.  (An event
 * handler's context is no substitute: a tep handle may hold no event
 * at all, as in `trace-cmd list -O`.)  Two copies of this plugin may
 * load into one handle (say ~/.local and the system directory): each
 * uses its own pid, derived from where its code is mapped, and checks
 * that the state it finds is its own.  The copy loaded last has the
 * handlers and is unloaded first: it reports and leaves a mark (another
 * comm) that tells the earlier copies to stay silent.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input_label.h"
#include "plugin.h"
#include "report.h"
#include "tep_names.h"

#define EXPORT __attribute__((visibility("default")))

/* The comm of a negative pid, which no task has, holds the state. */
#define STATE_PID_BASE (-0x40000000)	/* down to -0x5fffffff */
#define STATE_TAG "kmem-stat-state:"
/* ... and this one says that a copy of this plugin has reported. */
#define REPORTED_PID (-0x3fffffff)
#define REPORTED_TAG "kmem-stat-reported"

EXPORT int TEP_PLUGIN_LOADER(struct tep_handle *tep);
EXPORT void TEP_PLUGIN_UNLOADER(struct tep_handle *tep);

/*
 * This copy's pid: each loaded copy of the plugin has its own code
 * address; 29 bits of a hash of it keep two copies apart.
 */
static int state_pid(void)
{
	uint64_t h = (uint64_t)(uintptr_t)slab_handler * 0x9E3779B97F4A7C15ULL;

	return STATE_PID_BASE - (int)(h >> 35);
}

static int hang_state(struct kmem_plugin *kp)
{
	char comm[64];

	snprintf(comm, sizeof(comm), STATE_TAG "%p", (void *)kp);
	return tep_register_comm(kp->tep, comm, state_pid());
}

EXPORT int TEP_PLUGIN_LOADER(struct tep_handle *tep)
{
	struct kmem_plugin *kp = calloc(1, sizeof(*kp));

	if (!kp)
		return -1;
	kp->owner = (const void *)slab_handler;
	kp->tep = tep;
	kp->last_offset = ~0ULL;
	kp->options = plugin_options_new();
	if (!kp->options || hang_state(kp)) {
		free(kp->options);
		free(kp);
		return -1;
	}
	tep_plugin_add_options("kmem", kp->options);
	plugin_options_read(kp);
	kmem_tep_symbolizer(&kp->sym, tep);
	kmem_agg_init(&kp->agg);
	kp->active = kp->opts.stat || kp->opts.json;
	if (kp->active) {
		kmem_agg_configure(&kp->agg, &kp->sym, kp->opts.skip, stderr);
		if (kp->opts.numa &&
		    !kmem_numa_load(&kp->numa, kp->opts.numa, stderr))
			kmem_agg_set_numa(&kp->agg, &kp->numa);
		kp->ordinal = input_label(kp->label, sizeof(kp->label));
	}
	register_handlers(kp);
	return 0;
}

static struct kmem_plugin *find_state(struct tep_handle *tep)
{
	const char *comm = tep_data_comm_from_pid(tep, state_pid());
	struct kmem_plugin *kp;
	void *p;

	if (strncmp(comm, STATE_TAG, strlen(STATE_TAG)) ||
	    sscanf(comm + strlen(STATE_TAG), "%p", &p) != 1)
		return NULL;
	kp = p;
	return kp->owner == (const void *)slab_handler ? kp : NULL;
}

/* Which slab events of the trace did another plugin's handler print? */
static void survey(struct kmem_plugin *kp, struct kmem_input *in)
{
	int i;

	for (i = 0; i < KMEM_NR_SLAB_SLOTS; i++) {
		struct tep_event *ev = tep_find_event_by_name(
			kp->tep, "kmem", kmem_slot_event_name(i));

		if (ev && ev->handler != slab_handler)
			in->elsewhere[in->nr_elsewhere++] =
				kmem_slot_event_name(i);
	}
}

/* Has a copy of this plugin loaded after this one reported already? */
static bool reported_by_later_copy(struct tep_handle *tep)
{
	return !strcmp(tep_data_comm_from_pid(tep, REPORTED_PID),
		       REPORTED_TAG);
}

static void print_stats(struct kmem_plugin *kp)
{
	struct kmem_input in = { .label = kp->label, .ordinal = kp->ordinal };
	struct kmem_report_ctx r = { &kp->agg, &kp->opts, &kp->sym, &in };

	if (reported_by_later_copy(kp->tep))
		return;
	kmem_tep_finish(&kp->agg, &kp->sym, kp->tep);
	survey(kp, &in);
	kmem_report(&r, stderr);
	tep_register_comm(kp->tep, REPORTED_TAG, REPORTED_PID);
}

EXPORT void TEP_PLUGIN_UNLOADER(struct tep_handle *tep)
{
	struct kmem_plugin *kp = find_state(tep);

	if (!kp)
		return;
	if (kp->active)
		print_stats(kp);
	unregister_handlers(kp);
	tep_plugin_remove_options(kp->options);
	free(kp->options);
	kmem_opts_release(&kp->opts);
	kmem_agg_release(&kp->agg);
	kmem_numa_release(&kp->numa);
	free(kp);
}
