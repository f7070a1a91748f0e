// SPDX-License-Identifier: LGPL-2.1
/*
 * trace-kmem stat --merge A.dat B.dat ...: one report over many traces,
 * and diff --merge's groups (see merge.h).  Each file's buffer is chosen
 * as diff chooses (the top-level one, the one instance with kmem
 * records, or --instance), read as stat reads it, and added to one
 * merged report (lib/analysis/merge.c); a file whose kernel or kmem
 * event formats differ from the first's says so in one line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/path_label.h"
#include "buffers.h"
#include "event/events.h"
#include "event/fmtlater.h"
#include "fault.h"
#include "feed/feed.h"
#include "memlimit.h"
#include "merge.h"
#include "options/config.h"
#include "options/output.h"
#include "options/render_cfg.h"
#include "progress.h"
#include "render/report_traces.h"
#include "session.h"
#include "tracecmd_read.h"

/* FNV-1a over a string, NUL included. */
static uint64_t hash_str(uint64_t h, const char *s)
{
	do
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	while (*s++);
	return h;
}

/*
 * The first of the allocator events whose format differs between two
 * handles (fields, their places and print fmt), or -1.
 */
static int format_differs(struct tep_handle *a, struct tep_handle *b)
{
	int slot;

	for (slot = 0; slot < KMEM_NR_SLOTS; slot++) {
		const char *sys = kmem_slot_system(slot);
		const char *name = kmem_slot_event_name(slot);
		struct tep_event *ev[2] = {
			tep_find_event_by_name(a, sys, name),
			tep_find_event_by_name(b, sys, name),
		};
		uint64_t h[2] = { 0, 0 };
		int i, k;

		for (i = 0; i < 2; i++) {
			struct tep_format_field **f;

			if (!ev[i])
				continue;
			kmem_fmt_need(ev[i]);
			h[i] = hash_str(0xcbf29ce484222325ULL,
					ev[i]->print_fmt.format
						? ev[i]->print_fmt.format
						: "");
			f = tep_event_fields(ev[i]);
			for (k = 0; f && f[k]; k++)
				h[i] = hash_str(h[i], f[k]->name) ^
				       ((uint64_t)f[k]->offset << 32 |
					(uint64_t)f[k]->size);
			free(f);
		}
		if (h[0] != h[1])
			return slot;
	}
	return -1;
}

/* One line for a file not like the first: its kernel, its formats. */
static void say_differences(struct tk_group *g, int i, struct tep_handle *tep,
			    struct tep_handle *first)
{
	const struct kmem_merge_part *p = &g->m.parts[i], *p0 = g->m.parts;
	bool kernel =
		p->release && p0->release && strcmp(p->release, p0->release);
	int slot = format_differs(first, tep);

	if (!kernel && slot < 0)
		return;
	fprintf(stderr, TK_NAME ": --merge: %s:", p->label);
	if (kernel)
		fprintf(stderr, " kernel %s, not %s's %s;", p->release,
			p0->label, p0->release);
	if (slot >= 0)
		fprintf(stderr,
			" its %s:%s format differs from %s's (GFP "
			"flags are named as there);",
			kmem_slot_system(slot), kmem_slot_event_name(slot),
			p0->label);
	fprintf(stderr, " call sites are matched by %s\n",
		g->args.by_function
			? "function (--by-function)"
			: "function+offset (--by-function matches functions)");
}

/* Read one file's buffer and add it to the group. */
static int read_one(struct tk_group *g, int i, int buffer)
{
	struct tk_input *in = &g->in[i];
	const char *path = g->args.inputs[i];
	struct tep_handle *tep = tk_buffer_tep(in, buffer);
	const struct tk_filter *f = &g->args.filter;
	struct tk_progress progress;
	struct tk_session s;
	char label[sizeof(s.label)];
	int ret;

	kmem_path_label(label, sizeof(label), path);
	if (buffer) {
		size_t n = strlen(label);

		snprintf(label + n, sizeof(label) - n, " (instance %s)",
			 tk_buffer_name(in, buffer));
	}
	if (tk_session_init(&s, tep, &g->args, NULL)) {
		fprintf(stderr, TK_NAME ": out of memory\n");
		tk_session_release(&s);
		return -1;
	}
	memcpy(s.label, label, sizeof(s.label));
	tk_progress_start(&progress, label);
	tk_input_guard(in, path);
	ret = in->f ? tk_native_run(in->f, buffer, &s, &progress)
		    : tk_tracecmd_run(in, buffer, &s, &progress);
	tk_fault_guard(NULL);
	tk_progress_done(&progress);
	if (ret == -1)
		fprintf(stderr, TK_NAME ": %s: error reading the records%s\n",
			label, in->h ? tk_memlimit_note() : "");
	if (ret < 0) {
		tk_session_release(&s);
		return -1;
	}
	kmem_feed_finish(&s.agg, &s.sym, tep);
	kmem_agg_oom_say(&s.agg, label, stderr); /* in the merged summary too */
	g->filtered += s.filtered;
	ret = kmem_merge_add(&g->m, &s.agg, &s.sym, label,
			     in->f ? tdat_host(in->f) : NULL,
			     in->f ? tdat_kernel_release(in->f) : NULL);
	if (ret)
		fprintf(stderr, TK_NAME ": out of memory\n");
	else if (tk_session_later_failed(&s, stderr))
		ret = -1;
	else if (i)
		say_differences(g, i, tep, tk_buffer_tep(&g->in[0], 0));
	tk_session_release(&s);
	snprintf(g->filters, sizeof(g->filters), "%s%s%s%s",
		 f->time ? ", --time" : "", f->pids ? ", --pid" : "",
		 f->comm ? ", --comm" : "", f->cpus ? ", --cpu" : "");
	return ret;
}

/**
 * tk_group_read - read files into one merged report
 * @g: the group (tk_group_release() it, also after an error)
 * @a: the command line: options and filters
 * @paths: the files
 * @n: how many
 *
 * Return: 0, or -1 after one line saying why (a file that cannot be
 * read, memory).
 */
int tk_group_read(struct tk_group *g, const struct tk_args *a,
		  const char **paths, int n)
{
	struct kmem_collect_cfg cc = kmem_opts_collect_cfg(&a->opts);
	int *buffer, i, ret = 0;
	bool reopen = false, r;

	memset(g, 0, sizeof(*g));
	g->args = *a;
	g->args.inputs = paths;
	g->args.nr_inputs = n;
	if (kmem_merge_init(&g->m, &cc, NULL, a->by_function)) {
		fprintf(stderr, TK_NAME ": out of memory\n");
		return -1;
	}
	g->in = tk_open_inputs(&g->args);
	buffer = calloc((size_t)n, sizeof(*buffer));
	if (!g->in || !buffer) {
		if (g->in) /* else said */
			fprintf(stderr, TK_NAME ": out of memory\n");
		free(buffer);
		return -1;
	}
	for (i = 0; i < n && !ret; i++) {
		tk_input_guard(&g->in[i], paths[i]);
		buffer[i] =
			tk_buffer_pick(&g->in[i], paths[i], a->instance, &r);
		tk_fault_guard(NULL);
		reopen |= r;
		ret = buffer[i] < 0;
	}
	if (!ret && reopen) { /* libtracecmd: read once */
		for (i = 0; i < n; i++)
			tk_close_input(&g->in[i]);
		free(g->in);
		g->in = tk_open_inputs(&g->args);
		ret = !g->in;
	}
	for (i = 0; i < n && !ret; i++)
		ret = read_one(g, i, buffer[i]);
	free(buffer);
	return ret ? -1 : 0;
}

/**
 * tk_group_report_ctx - what a report of the group is made of
 * @g: the group, read
 * @tables: where its tables go (for their width), or NULL
 * @rc: set to the options' render configuration, per-address tables
 *	left out and processes by command
 * @in: set to its description (the traces listed)
 * @r: set to the report
 */
void tk_group_report_ctx(struct tk_group *g, FILE *tables,
			 struct kmem_render_cfg *rc, struct kmem_input *in,
			 struct kmem_report_ctx *r)
{
	kmem_opts_render_cfg(&g->args.opts, tables, rc);
	kmem_merged_render_cfg(rc);
	*in = (struct kmem_input){ .label = "(merged)",
				   .nr_parts = g->m.nr_parts,
				   .parts = g->m.parts,
				   .filtered = g->filtered,
				   .filters = g->filters[0] ? g->filters + 2
							    : NULL };
	*r = (struct kmem_report_ctx){ &g->m.agg, rc, &g->m.sym, in, NULL };
}

/**
 * tk_group_release - close the group's files, free its report
 * @g: the group
 */
void tk_group_release(struct tk_group *g)
{
	int i;

	kmem_merge_release(&g->m);
	for (i = 0; g->in && i < g->args.nr_inputs; i++)
		tk_close_input(&g->in[i]);
	free(g->in);
	g->in = NULL;
}

/**
 * tk_stat_merged - trace-kmem stat --merge
 * @a: the command line
 *
 * Return: the exit status.
 */
int tk_stat_merged(struct tk_args *a)
{
	struct kmem_render_cfg rc;
	struct kmem_outputs outs;
	struct kmem_report_ctx r;
	struct kmem_input in;
	struct tk_group g;
	int ret;

	if (kmem_outputs_open(&outs, &a->opts, false, stderr))
		return TK_ENV;
	ret = tk_group_read(&g, a, a->inputs, a->nr_inputs);
	if (!ret) {
		tk_group_report_ctx(&g, outs.tables.f, &rc, &in, &r);
		ret = kmem_outputs_report(&r, &outs, stderr);
	}
	if (ret)
		kmem_outputs_discard(&outs);
	else if (kmem_outputs_finish(&outs, stderr))
		ret = -1;
	tk_group_release(&g);
	if (outs.broken_pipe)
		return TK_BROKEN_PIPE;
	return ret ? TK_ENV : TK_OK;
}
