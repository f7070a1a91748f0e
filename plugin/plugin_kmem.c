// SPDX-License-Identifier: LGPL-2.1
/*
 * plugin_kmem.so: kmem statistics for trace-cmd report.
 *
 * A superset of libtraceevent's plugin_kmem: the listing is the same,
 * "(func+0xoff) " before each slab event, and with -O kmem:stat the
 * slab events that trace-cmd prints are aggregated and the tables are
 * printed when trace-cmd closes the file.
 *
 * State: one struct kmem_plugin per load, the context of our handlers,
 * so that several files opened at once keep separate statistics (the
 * option table is copied per load for the same reason).  The unloader
 * gets only the tep handle: it finds the state in a per-process
 * registry keyed by the handle (registry.h), which nothing in a trace
 * can reach or forge.  Two copies of this plugin may load into one
 * handle (say ~/.local and the system directory): the copy loaded last
 * has the handlers, is unloaded first and reports; the others stay
 * silent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "event/tep_names.h"
#include "feed/feed.h"
#include "input_label.h"
#include "options/config.h"
#include "plugin.h"
#include "options/render_cfg.h"
#include "registry.h"

#define EXPORT __attribute__((visibility("default")))

EXPORT int TEP_PLUGIN_LOADER(struct tep_handle *tep);
EXPORT void TEP_PLUGIN_UNLOADER(struct tep_handle *tep);

/*
 * Does an output name an input (this one, or a file of trace-cmd's
 * command line)?  Said by the first input only: a later one finds the
 * same (its file is on the command line too) and keeps quiet.
 */
static bool spare_inputs(const struct kmem_plugin *kp, const char *path)
{
	FILE *err = kp->ordinal == 1 ? stderr : fopen("/dev/null", "we");
	bool ret;

	if (!err)
		err = stderr;
	ret = (*path &&
	       kmem_outputs_spare(&kp->opts, (const char *const[]){ path }, 1,
				  err)) ||
	      plugin_args_spare(&kp->opts, err);
	if (err != stderr)
		fclose(err);
	return ret;
}

/*
 * The outputs the options name.  When one cannot be written (said in one
 * line), the tables at least, where output= or stdout takes them: a bad
 * path costs its own output, not the statistics (trace-cmd goes on).
 */
static bool open_outputs(struct kmem_plugin *kp, bool append)
{
	struct kmem_opts tables = kp->opts;
	bool ok;
	FILE *quiet;

	if (kp->spare)
		return false;
	if (!kmem_outputs_open(&kp->outs, &kp->opts, append, stderr))
		return true;
	if (!tables.stat)
		return false;
	tables.json = tables.csv = tables.folded = tables.pprof = NULL;
	tables.rows = NULL;
	/* output= itself unwritable was said already */
	quiet = fopen("/dev/null", "we");
	ok = !kmem_outputs_open(&kp->outs, &tables, append,
				quiet ? quiet : stderr);
	if (quiet)
		fclose(quiet);
	return ok;
}

/*
 * At exit (or when this copy is unloaded from the process): the loads
 * trace-cmd never unloaded.  trace-cmd 3.1 stops on some damaged files
 * (a cut compressed section, truncated event formats) and exits 0
 * without closing the input: no statistics are printed, and that is
 * said in one line, unless the scan found the file whole (then it was
 * a mode that reads no record: --events, -f, -E ...); the outputs'
 * temporary files are removed, the old files left as they were.  The
 * state itself is left to the exit.
 */
static void at_exit(void)
{
	struct kmem_plugin *kp;
	bool report;

	while ((kp = kmem_registry_take_any((const void *)slab_handler,
					    &report))) {
		if (kp->active && report)
			plugin_damage_scan(kp, false); /* no record came */
		if (kp->active && report && !kp->healthy)
			fprintf(stderr,
				"%s: %s: trace-cmd ended without closing the "
				"file (it stopped reading it): no statistics\n",
				kmem_prog, kp->label);
		if (kp->outs_ok)
			kmem_outputs_discard(&kp->outs);
		kp->outs_ok = false;
	}
}

/* No memory for the plugin's state: one line (the listing goes on). */
static int nomem(void)
{
	fprintf(stderr, "%s: out of memory: no kmem statistics\n", kmem_prog);
	return -1;
}

EXPORT int TEP_PLUGIN_LOADER(struct tep_handle *tep)
{
	static bool at_exit_set;
	struct kmem_plugin *kp = calloc(1, sizeof(*kp));
	struct kmem_collect_cfg cc;
	char path[PATH_MAX], msg[256];

	if (!kp)
		return nomem();
	kp->owner = (const void *)slab_handler;
	kp->tep = tep;
	kp->last_offset = ~0ULL;
	kp->options = plugin_options_new();
	if (!kp->options || kmem_agg_init(&kp->agg) ||
	    kmem_registry_add(tep, kp->owner, kp)) {
		kmem_agg_release(&kp->agg);
		free(kp->options);
		free(kp);
		return nomem();
	}
	if (!at_exit_set)
		at_exit_set = !atexit(at_exit);
	tep_plugin_add_options("kmem", kp->options);
	plugin_options_read(kp);
	kp->ordinal = input_label(kp->label, sizeof(kp->label), path,
				  sizeof(path));
	if (kp->ordinal == 1) {	/* once a run: the first input's load */
		plugin_options_check_args(stderr);
		if (kmem_opts_reports(&kp->opts))
			kmem_opts_check_sort(&kp->opts, stderr);
	}
	kmem_tep_symbolizer(&kp->sym, tep);
	cc = kmem_opts_collect_cfg(&kp->opts);
	kmem_agg_keep_rows(&kp->agg, &cc);
	kp->active = kmem_opts_reports(&kp->opts);
	if (kp->active) {
		if (kmem_agg_configure(&kp->agg, &kp->sym, kp->opts.skip, msg,
				       sizeof(msg)))
			fprintf(stderr, KMEM_BAD_SKIP_FMT, kmem_prog,
				kp->opts.skip, msg);
		if (kp->opts.numa &&
		    !kmem_numa_load(&kp->numa, kp->opts.numa, stderr))
			kmem_agg_set_numa(&kp->agg, &kp->numa);
		/*
		 * The first input's files are opened now, before trace-cmd
		 * reads a record, and put in place at its end; a later
		 * input (trace-cmd closes them in order) appends to them
		 * when it reports.
		 */
		/* no output over the input: the trace would be lost */
		kp->spare = spare_inputs(kp, path);
		if (kp->ordinal == 1)
			kp->outs_ok = open_outputs(kp, false);
		plugin_damage_defer(kp, path);
	}
	register_handlers(kp);
	return 0;
}

/*
 * Which of our events did libtraceevent fail to parse (none of their
 * records reached us), and which slab events did another plugin's
 * handler print?
 */
static void survey(struct kmem_plugin *kp, struct kmem_input *in)
{
	int i;

	for (i = 0; i < KMEM_NR_SLOTS; i++) {
		struct tep_event *ev = tep_find_event_by_name(
			kp->tep, kmem_slot_system(i), kmem_slot_event_name(i));

		if (!ev)
			continue;
		if (ev->flags & TEP_EVENT_FL_FAILED)
			in->unparsed[in->nr_unparsed++] = i;
		else if (i < KMEM_NR_SLAB_SLOTS && ev->handler != slab_handler)
			in->elsewhere[in->nr_elsewhere++] =
				kmem_slot_event_name(i);
	}
}

static void print_stats(struct kmem_plugin *kp)
{
	struct kmem_input in = { .label = kp->label };
	struct kmem_render_cfg rc;
	struct kmem_report_ctx r = { &kp->agg, &rc, &kp->sym, &in, NULL };

	kmem_feed_finish(&kp->agg, &kp->sym, kp->tep);
	survey(kp, &in);
	plugin_damage_scan(kp, false); /* when no record of ours came */
	if (kp->unchecked[0])
		in.unchecked = kp->unchecked;
	plugin_damage_finish(kp, in.nr_elsewhere > 0 || in.nr_unparsed > 0);
	if (kp->ordinal > 1)
		kp->outs_ok = open_outputs(kp, true);
	if (!kp->outs_ok)
		return;
	/* several inputs: one JSON document, ended by the last input's */
	kp->outs.json_last = !kmem_registry_others(kp->tep);
	kp->outs.json_several = kp->ordinal > 1 || !kp->outs.json_last;
	kp->outs.json_docs = kp->ordinal > 1;
	kmem_opts_render_cfg(&kp->opts, kp->outs.tables.f, &rc);
	if (kmem_outputs_report(&r, &kp->outs, stderr))
		kmem_outputs_discard(&kp->outs);
	else
		kmem_outputs_finish(&kp->outs, stderr);
	kp->outs_ok = false;
}

EXPORT void TEP_PLUGIN_UNLOADER(struct tep_handle *tep)
{
	bool report;
	struct kmem_plugin *kp = kmem_registry_take(
		tep, (const void *)slab_handler, &report);

	if (!kp)
		return;
	if (kp->active && report)
		print_stats(kp);
	if (kp->outs_ok)
		kmem_outputs_discard(&kp->outs);	/* another copy reported */
	unregister_handlers(kp);
	tep_plugin_remove_options(kp->options);
	free(kp->options);
	kmem_opts_release(&kp->opts);
	kmem_agg_release(&kp->agg);
	kmem_numa_release(&kp->numa);
	plugin_damage_release(kp);
	free(kp);
}
