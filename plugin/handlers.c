// SPDX-License-Identifier: LGPL-2.1
/*
 * The print handlers: they leave the listing as it was and feed the
 * records trace-cmd prints to the statistics.
 *
 * Slab events print the "(func+0xoff) " prefix of libtraceevent's
 * plugin_kmem.  The other allocators' events print as without a plugin.
 * ftrace:kernel_stack belongs to plugin_function, whose printing
 * depends on its own options: its handler is wrapped, not replaced,
 * once the first allocation a stack may follow (KMEM_EVF_STACK) shows
 * that stacks are wanted.
 */
#include <trace-seq.h>

#include "alloc/registry.h"
#include "event/tep_names.h"
#include "feed/feed.h"
#include "plugin.h"

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

/*
 * @slot: the record's, its fields set up (kmem_feed_fields())
 * @counted: the record is one the scan counts (damage.c): every record
 * of the events we print, kernel_stack's aside
 */
static void account(struct kmem_plugin *kp, enum kmem_slot slot,
		    struct tep_record *rec, bool counted)
{
	struct kmem_event ev;

	if (kp->scan_path) /* the first: trace-cmd has read the formats */
		plugin_damage_scan(kp, true);
	if (seen_before(kp, rec))
		return;
	if (kp->scan) {
		if (tdat_scan_skips(kp->scan, rec->offset))
			return; /* damaged: counted with its page or chunk */
		if (counted && rec->cpu >= 0 && rec->cpu < kp->nr_cpus)
			kp->seen[rec->cpu]++;
	}
	if (rec->missed_events)
		kmem_feed_missed(&kp->feed, rec->missed_events);
	kmem_feed_step(&kp->feed, slot, rec, &ev);
}

/**
 * slab_handler - print handler of the slab events
 * @s: where trace-cmd builds the line
 * @rec: the record
 * @event: its event type
 * @context: its struct slot_ctx
 *
 * Return: 1: libtraceevent prints the event's own format after it.
 */
int slab_handler(struct trace_seq *s, struct tep_record *rec,
		 struct tep_event *event, void *context)
{
	struct slot_ctx *sc = context;
	struct kmem_fields *f =
		kmem_feed_fields(&sc->kp->feed, sc->slot, event);

	print_call_site(s, rec, event, f);
	if (sc->kp->active)
		account(sc->kp, sc->slot, rec, true);
	return 1;
}

static int stack_handler(struct trace_seq *s, struct tep_record *rec,
			 struct tep_event *event, void *context)
{
	struct kmem_plugin *kp = context;
	int ret = 1;

	if (kp->stack.prev)
		ret = kp->stack.prev(s, rec, event, kp->stack.prev_ctx);
	kmem_feed_fields(&kp->feed, KMEM_SLOT_KERNEL_STACK, event);
	account(kp, KMEM_SLOT_KERNEL_STACK, rec, false);
	return ret;
}

/* Wrap the kernel_stack handler in place (the event exists by now). */
static void hook_stacks(struct kmem_plugin *kp)
{
	struct tep_event *ev;

	if (kp->stack.tried)
		return;
	kp->stack.tried = true;
	ev = tep_find_event_by_name(kp->tep, "ftrace", "kernel_stack");
	if (!ev)
		return;
	kp->stack.event = ev;
	kp->stack.prev = ev->handler;
	kp->stack.prev_ctx = ev->context;
	tep_register_event_handler(kp->tep, ev->id, "ftrace", "kernel_stack",
				   stack_handler, kp);
}

/* The allocators whose call sites come from stacks (KMEM_CAP_STACKS). */
static int stacks_handler(struct trace_seq *s, struct tep_record *rec,
			  struct tep_event *event, void *context)
{
	struct slot_ctx *sc = context;
	struct kmem_plugin *kp = sc->kp;

	(void)s;
	if (!kp->active)
		return 1;
	if (!kp->page_size_set) {
		kmem_feed_page_geometry(&kp->agg, kp->tep);
		kp->page_size_set = true;
	}
	if (kmem_event_defs[sc->slot].flags & KMEM_EVF_STACK)
		hook_stacks(kp);
	kmem_feed_fields(&kp->feed, sc->slot, event);
	account(kp, sc->slot, rec, true);
	return 1;
}

/* The other allocators' (the per-CPU allocator's): counted only. */
static int plain_handler(struct trace_seq *s, struct tep_record *rec,
			 struct tep_event *event, void *context)
{
	struct slot_ctx *sc = context;

	(void)s;
	if (!sc->kp->active)
		return 1;
	kmem_feed_fields(&sc->kp->feed, sc->slot, event);
	account(sc->kp, sc->slot, rec, true);
	return 1;
}

/*
 * The print handler of a slot: the slab events' prints their call site
 * as plugin_kmem's did, those of an allocator with call sites from stacks
 * (KMEM_CAP_STACKS) read the page geometry and wait for stacks, the
 * others' only count; NULL for kernel_stack, which has none of its own
 * (see hook_stacks()).
 */
static tep_event_handler_func handler_of(enum kmem_slot slot)
{
	enum kmem_alloc_id a = kmem_event_defs[slot].alloc;

	if (a >= KMEM_NR_ALLOC)
		return NULL;
	if (a == KMEM_ALLOC_SLAB)
		return slab_handler;
	if (kmem_allocs[a].caps & KMEM_CAP_STACKS)
		return stacks_handler;
	return plain_handler;
}

/**
 * register_handlers - claim the events of every allocator
 * @kp: the plugin state
 *
 * The events are not parsed yet when a plugin loads: libtraceevent
 * keeps the registrations and applies them as it parses the formats.
 */
void register_handlers(struct kmem_plugin *kp)
{
	int i;

	kmem_feed_init(&kp->feed, kp->tep, &kp->agg, 0);
	for (i = 0; i < KMEM_NR_SLOTS; i++) {
		kp->slots[i].kp = kp;
		kp->slots[i].slot = i;
		if (!handler_of(i))
			continue; /* kernel_stack: see hook_stacks() */
		tep_register_event_handler(kp->tep, -1, kmem_slot_system(i),
					   kmem_slot_event_name(i),
					   handler_of(i), &kp->slots[i]);
	}
}

/**
 * unregister_handlers - give the events back, and kernel_stack its
 * own handler
 * @kp: the plugin state
 */
void unregister_handlers(struct kmem_plugin *kp)
{
	struct tep_event *ev = kp->stack.event;
	int i;

	for (i = 0; i < KMEM_NR_SLOTS; i++)
		if (handler_of(i))
			tep_unregister_event_handler(
				kp->tep, -1, kmem_slot_system(i),
				kmem_slot_event_name(i), handler_of(i),
				&kp->slots[i]);
	/*
	 * Not back to the wrapped handler: its plugin may be unloaded
	 * already (plugins in one directory unload in readdir order).
	 */
	if (ev && ev->handler == stack_handler && ev->context == kp) {
		ev->handler = NULL;
		ev->context = NULL;
	}
	kmem_feed_release(&kp->feed);
}
