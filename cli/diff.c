// SPDX-License-Identifier: LGPL-2.1
/*
 * trace-kmem diff BEFORE AFTER: two traces compared, for "what did my
 * patch change".  Each file's top-level buffer is read as stat reads it,
 * its JSON document built in memory (lib/base/jtree.h), the two
 * compared by lib/analysis/diff.c and written by lib/render/diff_*.c:
 * the text report, and with --json the document { "before", "after",
 * "delta" }.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/path_label.h"
#include "buffers.h"
#include "event/tep_names.h"
#include "fault.h"
#include "feed/feed.h"
#include "input_check.h"
#include "inputs.h"
#include "memlimit.h"
#include "merge.h"
#include "options/render_cfg.h"
#include "progress.h"
#include "render/diff_report.h"
#include "render/report.h"
#include "session.h"
#include "tracecmd_read.h"

/* One input: its top-level buffer read, its document in memory. */
struct side {
	char label[sizeof(((struct tk_session *)0)->label)];
	struct jt_node *doc;
	uint64_t span_ns;
	uint64_t events;
};

static int read_side(struct tk_args *a, struct tk_input *in, const char *path,
		     int buffer, struct side *sd)
{
	struct tep_handle *tep = tk_buffer_tep(in, buffer);
	struct kmem_input ki = { .label = sd->label };
	struct kmem_render_cfg rc;
	struct kmem_report_ctx r;
	unsigned int id;
	struct tk_progress progress;
	struct tk_session s;
	struct json j;
	int ret;

	kmem_path_label(sd->label, sizeof(sd->label), path);
	if (buffer) {
		size_t n = strlen(sd->label);

		snprintf(sd->label + n, sizeof(sd->label) - n,
			 " (instance %s)", tk_buffer_name(in, buffer));
	}
	if (tk_session_init(&s, tep, a, NULL)) {
		fprintf(stderr, TK_NAME ": out of memory\n");
		tk_session_release(&s);
		return -1;
	}
	memcpy(s.label, sd->label, sizeof(s.label));	/* the same size */
	tk_progress_start(&progress, sd->label);
	tk_input_guard(in, path);
	ret = in->f ? tk_native_run(in->f, buffer, &s, &progress) :
		      tk_tracecmd_run(in, buffer, &s, &progress);
	tk_fault_guard(NULL);
	tk_progress_done(&progress);
	if (ret < 0) {
		if (ret == -1)
			fprintf(stderr,
				TK_NAME ": %s: error reading the records%s\n",
				sd->label, in->h ? tk_memlimit_note() : "");
		tk_session_release(&s);
		return -1;
	}
	kmem_feed_finish(&s.agg, &s.sym, tep);
	ki.filtered = s.filtered;
	kmem_opts_render_cfg(&a->opts, NULL, &rc);	/* no tables */
	r = (struct kmem_report_ctx){ &s.agg, &rc, &s.sym, &ki, NULL };
	json_init_tree(&j);
	kmem_report_json_to(&r, &j);
	sd->doc = j.root;
	sd->span_ns = s.agg.last_ts - s.agg.first_ts;
	sd->events = 0;
	for (id = 0; id < KMEM_NR_ALLOC; id++)
		sd->events += s.agg.events[id];
	/* a side counted in part would make every difference wrong */
	ret = 0;
	if (kmem_agg_oom_say(&s.agg, sd->label, stderr) ||
	    tk_session_later_failed(&s, stderr)) {
		ret = -1;
	} else if (!sd->doc || j.oom) {
		fprintf(stderr, TK_NAME ": out of memory\n");
		ret = -1;
	}
	tk_session_release(&s);
	return ret;
}

/* --per-second and --per-event need something to divide by. */
static int check_norm(const struct tk_args *a, const struct side *sd)
{
	int i;

	for (i = 0; i < 2; i++) {
		uint64_t v = a->norm == 1 ? sd[i].span_ns : sd[i].events;

		if (a->norm && !v) {
			fprintf(stderr, TK_NAME ": %s: %s\n", sd[i].label,
				a->norm == 1 ? "no time passed between its "
					       "first and last allocator "
					       "record; --per-second cannot "
					       "divide by it" :
					       "no allocator event; --per-event "
					       "cannot divide by it");
			return -1;
		}
	}
	return 0;
}

static int write_out(struct tk_args *a, const struct side *sd)
{
	struct kmem_diff d = {
		.before = sd[0].doc,
		.after = sd[1].doc,
		.before_label = sd[0].label,
		.after_label = sd[1].label,
		.by_function = a->by_function,
		.norm = a->norm == 1   ? KMEM_NORM_SECOND
			: a->norm == 2 ? KMEM_NORM_EVENT
				       : KMEM_NORM_NONE,
		.before_per = a->norm == 1 ? (double)sd[0].span_ns / 1e9
					   : (double)sd[0].events,
		.after_per = a->norm == 1 ? (double)sd[1].span_ns / 1e9
					  : (double)sd[1].events,
		.span_ns = { sd[0].span_ns, sd[1].span_ns },
		.events = { sd[0].events, sd[1].events },
		.lines = a->opts.lines,
		.filtered = a->filter.time || a->filter.pids ||
			    a->filter.comm || a->filter.cpus,
	};
	struct kmem_outputs outs;
	struct json j;
	int ret = 0;

	if (kmem_outputs_open(&outs, &a->opts, false, stderr))
		return -1;
	if (outs.tables.path) {
		kmem_diff_text(&d, outs.tables.f);
		ret |= kmem_out_check(&outs.tables, stderr);
	}
	if (outs.json.path) {
		json_init(&j, outs.json.f);
		kmem_diff_json(&d, &j);
		if (j.oom) {
			fprintf(stderr, TK_NAME ": out of memory: a table left "
						"out of the JSON\n");
			ret = -1;
		}
		ret |= kmem_out_check(&outs.json, stderr);
	}
	if (ret) {
		kmem_outputs_discard(&outs);
		return -1;
	}
	return kmem_outputs_finish(&outs, stderr);
}

/*
 * GROUP's files (separated by commas) into *@paths, which point into
 * *@copy (free() both).  Return: how many, or -1 out of memory (said).
 */
static int split_group(const char *group, char **copy, const char ***paths)
{
	char *tok, *save = NULL;
	int n = 0;

	*copy = strdup(group);
	*paths = calloc(strlen(group) / 2 + 1, sizeof(**paths));
	if (!*copy || !*paths) {
		free(*copy);
		free(*paths);
		*copy = NULL;
		*paths = NULL;
		fprintf(stderr, TK_NAME ": out of memory\n");
		return -1;
	}
	for (tok = strtok_r(*copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		(*paths)[n++] = tok;
	return n;
}

/*
 * Both --merge sides, before either is read: each names a file, and
 * each file once.  Return: 0, or -1 after one line (a usage error).
 */
static int check_groups(const struct tk_args *a)
{
	const char **paths;
	char *copy;
	int i, n, ret = 0;

	for (i = 0; i < 2 && !ret; i++) {
		n = split_group(a->inputs[i], &copy, &paths);
		if (!n)
			fprintf(stderr,
				TK_NAME ": diff --merge: '%s' names no file\n",
				a->inputs[i]);
		ret = n <= 0 || tk_check_distinct(paths, n) ? -1 : 0;
		free(paths);
		free(copy);
	}
	return ret;
}

/*
 * A --merge side: GROUP, files separated by commas (check_groups()),
 * read into one merged report and its document.  Its span and events
 * are its traces' summed (the traces ran side by side, on different
 * machines).  Return: 0, or -1 (said).
 */
static int read_group(struct tk_args *a, const char *group, struct side *sd)
{
	const char **paths;
	struct kmem_render_cfg rc;
	struct kmem_report_ctx r;
	struct kmem_input ki;
	struct tk_group g;
	struct json j;
	int n, i, ret;
	char *copy;

	n = split_group(group, &copy, &paths);
	if (n <= 0)
		return -1;
	snprintf(sd->label, sizeof(sd->label), "%s", group);
	ret = tk_group_read(&g, a, paths, n);
	if (!ret) {
		tk_group_report_ctx(&g, NULL, &rc, &ki, &r);
		json_init_tree(&j);
		kmem_report_json_to(&r, &j);
		sd->doc = j.root;
		for (i = 0; i < g.m.nr_parts; i++) {
			const struct kmem_agg *h = &g.m.parts[i].head;

			sd->span_ns += h->last_ts - h->first_ts;
			sd->events += g.m.parts[i].events;
		}
		if (!sd->doc || j.oom) {
			fprintf(stderr, TK_NAME ": out of memory\n");
			ret = -1;
		}
	}
	tk_group_release(&g);
	free(paths);
	free(copy);
	return ret;
}

/* diff --merge BEFORE,... AFTER,...: two groups compared */
static int diff_groups(struct tk_args *a)
{
	struct side sd[2] = { 0 };
	int ret = 0, i;

	if (check_groups(a))
		return TK_USAGE;
	for (i = 0; i < 2 && !ret; i++)
		ret = read_group(a, a->inputs[i], &sd[i]);
	if (!ret)
		ret = check_norm(a, sd);
	if (!ret)
		ret = write_out(a, sd);
	for (i = 0; i < 2; i++)
		jt_free(sd[i].doc);
	return ret ? TK_ENV : TK_OK;
}

/**
 * tk_diff - trace-kmem diff
 * @a: the command line
 *
 * Return: the exit status.
 */
int tk_diff(struct tk_args *a)
{
	struct side sd[2] = { 0 };
	struct tk_input *in;
	bool reopen[2] = { false, false };
	int ret = 0, i, buffer[2] = { 0, 0 };

	if (a->nr_inputs != 2) {
		fprintf(stderr, TK_NAME ": diff compares two files, BEFORE "
				"and AFTER (%d given)\n", a->nr_inputs);
		return TK_USAGE;
	}
	if (a->opts.folded) {
		fprintf(stderr, TK_NAME ": --folded does not apply to 'diff'\n");
		return TK_USAGE;
	}
	if (a->merge)
		return diff_groups(a);
	in = tk_open_inputs(a);
	if (!in)
		return TK_ENV;
	/* each file's buffer, chosen as plot chooses (buffers.c) */
	for (i = 0; i < 2 && !ret; i++) {
		tk_input_guard(&in[i], a->inputs[i]);
		buffer[i] = tk_buffer_pick(&in[i], a->inputs[i], a->instance,
					   &reopen[i]);
		tk_fault_guard(NULL);
		ret = buffer[i] < 0;
	}
	if (!ret && (reopen[0] || reopen[1])) {	/* libtracecmd: read once */
		for (i = 0; i < 2; i++)
			tk_close_input(&in[i]);
		free(in);
		in = tk_open_inputs(a);
		if (!in)
			return TK_ENV;
	}
	for (i = 0; i < 2 && !ret; i++)
		ret = read_side(a, &in[i], a->inputs[i], buffer[i], &sd[i]);
	if (!ret)
		ret = check_norm(a, sd);
	if (!ret)
		ret = write_out(a, sd);
	for (i = 0; i < 2; i++) {
		jt_free(sd[i].doc);
		tk_close_input(&in[i]);
	}
	free(in);
	return ret ? TK_ENV : TK_OK;
}
