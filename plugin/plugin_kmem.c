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
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "agg.h"
#include "decode.h"
#include "input_label.h"
#include "options.h"
#include "report.h"

#define EXPORT __attribute__((visibility("default")))

/* The comm of a negative pid, which no task has, holds the state. */
#define STATE_PID_BASE (-0x40000000)	/* down to -0x5fffffff */
#define STATE_TAG "kmem-stat-state:"
/* ... and this one says that a copy of this plugin has reported. */
#define REPORTED_PID (-0x3fffffff)
#define REPORTED_TAG "kmem-stat-reported"

struct kmem_plugin;

EXPORT int TEP_PLUGIN_LOADER(struct tep_handle *tep);
EXPORT void TEP_PLUGIN_UNLOADER(struct tep_handle *tep);

struct slot_ctx {
	struct kmem_plugin *kp;
	enum kmem_slot slot;
	bool ready;
	struct kmem_fields f;
};

struct kmem_plugin {
	const void *owner;	/* first: slab_handler of the copy that made it */
	struct tep_handle *tep;
	struct tep_plugin_option *options;	/* this load's option copy */
	struct kmem_opts opts;
	struct kmem_agg agg;
	struct slot_ctx slots[KMEM_NR_SLOTS];
	bool active;		/* kmem:stat or kmem:json given: aggregate */
	char label[PATH_MAX];
	int ordinal;
	/* the last record accounted, so a record printed twice counts once;
	 * last_offset starts at ~0, which no record has */
	unsigned long long last_ts;
	unsigned long long last_offset;
	int last_cpu;
};

static int slab_handler(struct trace_seq *s, struct tep_record *rec,
			struct tep_event *event, void *context);

static struct kmem_fields *fields(struct slot_ctx *sc, struct tep_event *ev)
{
	if (!sc->ready || sc->f.event != ev) {
		kmem_fields_init(&sc->f, ev, sc->slot);
		sc->ready = true;
	}
	return &sc->f;
}

/* Exactly what libtraceevent's plugin_kmem prints before the event. */
static void print_call_site(struct trace_seq *s, struct tep_record *rec,
			    struct tep_event *event, struct kmem_fields *f)
{
	unsigned long long val, addr;
	const char *func;

	if (kmem_read_call_site(f, rec, &val))
		return;
	func = tep_find_function(event->tep, val);
	if (!func)
		return;
	addr = tep_find_function_address(event->tep, val);
	trace_seq_printf(s, "(%s+0x%x) ", func, (int)(val - addr));
}

static bool seen_before(struct kmem_plugin *kp, const struct tep_record *rec)
{
	if (rec->ts == kp->last_ts && rec->cpu == kp->last_cpu &&
	    rec->offset == kp->last_offset)
		return true;
	kp->last_ts = rec->ts;
	kp->last_cpu = rec->cpu;
	kp->last_offset = rec->offset;
	return false;
}

static void account(struct kmem_plugin *kp, struct kmem_fields *f,
		    struct tep_record *rec)
{
	struct kmem_event ev;

	if (seen_before(kp, rec))
		return;
	if (rec->missed_events)
		kmem_agg_missed(&kp->agg, rec->missed_events);
	if (kmem_decode(f, rec, &ev)) {
		kp->agg.undecodable++;
		return;
	}
	kmem_agg_event(&kp->agg, &ev);
}

static int slab_handler(struct trace_seq *s, struct tep_record *rec,
			struct tep_event *event, void *context)
{
	struct slot_ctx *sc = context;
	struct kmem_fields *f = fields(sc, event);

	print_call_site(s, rec, event, f);
	if (sc->kp->active)
		account(sc->kp, f, rec);
	return 1;
}

/* Per-load copy of the option table, for trace-cmd's -O and list -O. */
static struct tep_plugin_option *make_options(void)
{
	const struct kmem_opt_def *d;
	struct tep_plugin_option *o;
	size_t n = 0;

	for (d = kmem_opt_defs; d->name; d++)
		n++;
	o = calloc(n + 1, sizeof(*o));
	if (!o)
		return NULL;
	for (n = 0, d = kmem_opt_defs; d->name; d++, n++) {
		o[n].file = "plugin_kmem";
		o[n].plugin_alias = "kmem";
		o[n].name = (char *)d->name;
		o[n].description = (char *)d->desc;
		o[n].value = d->arg ? d->def : NULL;
	}
	return o;
}

static void read_options(struct kmem_plugin *kp)
{
	const struct kmem_opt_def *d;
	size_t i;

	kmem_opts_init(&kp->opts);
	for (i = 0, d = kmem_opt_defs; d->name; d++, i++) {
		const struct tep_plugin_option *op = &kp->options[i];

		/* libtraceevent replaces .value only when the user set it */
		if (!d->arg && op->set)
			kmem_opts_set(&kp->opts, d->name, NULL, stderr);
		else if (d->arg && op->value != d->def)
			kmem_opts_set(&kp->opts, d->name, op->value, stderr);
	}
}

static void register_handlers(struct kmem_plugin *kp)
{
	int i;

	for (i = 0; i < KMEM_NR_SLOTS; i++) {
		kp->slots[i].kp = kp;
		kp->slots[i].slot = i;
		tep_register_event_handler(kp->tep, -1, "kmem",
					   kmem_slot_event_name(i),
					   slab_handler, &kp->slots[i]);
	}
}

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
	kp->options = make_options();
	if (!kp->options || hang_state(kp)) {
		free(kp->options);
		free(kp);
		return -1;
	}
	tep_plugin_add_options("kmem", kp->options);
	read_options(kp);
	kmem_agg_init(&kp->agg);
	kp->active = kp->opts.stat || kp->opts.json;
	if (kp->active)
		kp->ordinal = input_label(kp->label, sizeof(kp->label));
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

/* Which slab events exist, and which did another handler print? */
static void survey(struct kmem_plugin *kp, struct kmem_input *in)
{
	int i;

	for (i = 0; i < KMEM_NR_SLOTS; i++) {
		struct tep_event *ev = tep_find_event_by_name(
			kp->tep, "kmem", kmem_slot_event_name(i));

		if (!ev)
			continue;
		in->slab_defined = true;
		if (ev->handler != slab_handler)
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

static const char *resolve(void *priv, uint64_t addr, uint64_t *start)
{
	struct tep_handle *tep = priv;
	const char *name = tep_find_function(tep, addr);

	if (name)
		*start = tep_find_function_address(tep, addr);
	return name;
}

static void print_stats(struct kmem_plugin *kp)
{
	struct kmem_symbolizer sym = { resolve, kp->tep };
	struct kmem_input in = { .label = kp->label, .ordinal = kp->ordinal };
	struct kmem_report_ctx r = { &kp->agg, &kp->opts, &sym, &in };

	if (reported_by_later_copy(kp->tep))
		return;
	survey(kp, &in);
	kmem_report(&r, stderr);
	tep_register_comm(kp->tep, REPORTED_TAG, REPORTED_PID);
}

static void unregister_handlers(struct kmem_plugin *kp)
{
	int i;

	for (i = 0; i < KMEM_NR_SLOTS; i++)
		tep_unregister_event_handler(kp->tep, -1, "kmem",
					     kmem_slot_event_name(i),
					     slab_handler, &kp->slots[i]);
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
	free(kp);
}
