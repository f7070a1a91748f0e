/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The plugin's per-tep state, shared by its files.
 */
#ifndef KMEM_PLUGIN_H
#define KMEM_PLUGIN_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include <event-parse.h>

#include "analysis/agg.h"
#include "base/numa.h"
#include "event/decode.h"
#include "event/symbols.h"
#include "feed/loop.h"
#include "options/options.h"
#include "options/output.h"
#include "tdat.h"

struct kmem_plugin;

/* The context of a slot's print handler. */
struct slot_ctx {
	struct kmem_plugin *kp;
	enum kmem_slot slot;
};

/* The print handler of ftrace:kernel_stack that ours wraps. */
struct stack_hook {
	struct tep_event *event;
	tep_event_handler_func prev;
	void *prev_ctx;
	bool tried; /* looked for the event once */
};

struct kmem_plugin {
	const void *owner; /* first: slab_handler of the copy that made it */
	struct tep_handle *tep;
	struct tep_plugin_option *options; /* this load's option copy */
	struct kmem_opts opts;
	struct kmem_symbolizer sym;
	struct kmem_agg agg;
	struct kmem_numa numa;
	struct kmem_feed feed; /* decode -> agg (lib/feed/loop.h) */
	struct slot_ctx slots[KMEM_NR_SLOTS];
	struct stack_hook stack;
	bool active; /* kmem:stat or kmem:json given: aggregate */
	bool page_size_set;
	char label[PATH_MAX];
	int ordinal; /* which input of the trace-cmd run */
	struct kmem_outputs outs;
	bool outs_ok; /* outs open */
	bool spare;   /* an output names the input: none written */
	/* the last record accounted, so a record printed twice counts once;
	 * last_offset starts at ~0, which no record has */
	unsigned long long last_ts;
	unsigned long long last_offset;
	int last_cpu;
	/* the file's damage, as the native reader sees it (damage.c) */
	char *scan_path;	/* the input, until it is scanned */
	struct tdat_scan *scan; /* or NULL: not scanned */
	/* why the native reader refused the file as damaged, or "" */
	char unchecked[TDAT_WHY_LEN];
	/* the scan read it whole: neither damaged nor cut */
	bool healthy;
	uint64_t *seen;		/* per CPU id: records accounted */
	int nr_cpus;		/* of @seen */
};

/* handlers.c */
int slab_handler(struct trace_seq *s, struct tep_record *rec,
		 struct tep_event *event, void *context);
void register_handlers(struct kmem_plugin *kp);
void unregister_handlers(struct kmem_plugin *kp);

/* damage.c */
void plugin_damage_defer(struct kmem_plugin *kp, const char *path);
void plugin_damage_scan(struct kmem_plugin *kp, bool borrow);
void plugin_damage_finish(struct kmem_plugin *kp, bool elsewhere);
void plugin_damage_release(struct kmem_plugin *kp);

/* plugin_options.c */
struct tep_plugin_option *plugin_options_new(void);
void plugin_options_read(struct kmem_plugin *kp);
void plugin_options_check_args(FILE *err);
bool plugin_args_filtered(void);
int plugin_args_spare(const struct kmem_opts *o, FILE *err);

#endif
