// SPDX-License-Identifier: LGPL-2.1
/*
 * trace-kmem plot: live memory over a trace's time, as an SVG picture
 * (lib/plot_svg.c) and as the JSON document's "timeline" (--json).
 *
 * One buffer of one file, read twice: the first pass finds the time
 * range and each call site's peak, the second samples the lines chosen
 * (lib/timeline.h).  Memory stays that of trace-kmem stat.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/path_label.h"
#include "event/tep_names.h"
#include "fault.h"
#include "feed/feed.h"
#include "inputs.h"
#include "buffers.h"
#include "memlimit.h"
#include "progress.h"
#include "render/plot_svg.h"
#include "session.h"
#include "tracecmd_read.h"

struct plot_run {
	struct tk_args *a;
	struct tk_input *in;
	int buffer;			/* 0: top level, then the instances */
	struct tracecmd_input *h;	/* libtracecmd: the buffer's handle */
	char label[PATH_MAX + 64];
	struct kmem_timeline tl;
	struct kmem_outputs outs;	/* tables: the SVG */
};

static struct tep_handle *tep_of(const struct plot_run *p)
{
	return p->in->f ? tdat_tep(p->in->f) : tracecmd_get_tep(p->h);
}

/* libtracecmd's handles anew (p->in NULL when that fails, said). */
static void reopen_input(struct plot_run *p)
{
	tk_close_input(p->in);
	free(p->in);
	p->in = tk_open_inputs(p->a);
}

/* One pass over the buffer; the session is left for the caller. */
static int pass(struct plot_run *p, struct tk_session *s, int nth)
{
	struct tep_handle *tep = tep_of(p);
	struct tk_progress progress;
	char what[PATH_MAX + 96];
	int ret;

	if (tk_session_init(s, tep, p->a, NULL)) {
		fprintf(stderr, TK_NAME ": out of memory\n");
		return -1;
	}
	snprintf(s->label, sizeof(s->label), "%s", p->label);
	s->timeline = &p->tl;
	s->quiet = nth == 1;	/* damage is said once: by the 2nd */
	if (nth == 1 && kmem_timeline_init(&p->tl, &s->agg)) {
		fprintf(stderr, TK_NAME ": out of memory\n");
		return -1;
	}
	if (nth == 2)
		kmem_timeline_restart(&p->tl, &s->agg);
	snprintf(what, sizeof(what), "%s, pass %d of 2", p->label, nth);
	tk_progress_start(&progress, what);
	ret = p->in->f ? tk_native_run(p->in->f, p->buffer, s, &progress) :
			 tk_tracecmd_run(p->in, p->buffer, s, &progress);
	tk_progress_done(&progress);
	if (ret < 0) {
		if (ret == -1)
			fprintf(stderr,
				TK_NAME ": %s: error reading the records%s\n",
				p->label, p->h ? tk_memlimit_note() : "");
		return -1;
	}
	kmem_feed_finish(&s->agg, &s->sym, tep);
	kmem_timeline_end(&p->tl, &s->agg);
	/* rows not followed, or events not counted: the curves would lie */
	if (p->tl.oom || kmem_agg_oom(&s->agg)) {
		fprintf(stderr, TK_NAME ": %s: out of memory\n", p->label);
		return -1;
	}
	return 0;
}

/*
 * The allocators the options select, by enum kmem_alloc_id: as the
 * tables choose them (kmem_render_cfg.alloc[]).
 */
static void selected(const struct kmem_opts *o, bool *sel)
{
	struct kmem_render_cfg rc;

	kmem_opts_render_cfg(o, NULL, &rc);
	memcpy(sel, rc.alloc, sizeof(rc.alloc));
}

/* Drawn by the timeline, and selected: how many. */
static unsigned int nr_selected(const struct kmem_opts *o)
{
	bool sel[KMEM_NR_ALLOC];
	unsigned int id, n = 0;

	selected(o, sel);
	for (id = 0; id < KMEM_NR_ALLOC; id++)
		n += sel[id] && (kmem_allocs[id].caps & KMEM_CAP_TIMELINE);
	return n;
}

/*
 * Which allocators the picture shows (@show, by enum kmem_alloc_id): as
 * the tables choose them, among those the timeline draws.
 */
static void shown(const struct kmem_opts *o, const struct kmem_agg *agg,
		  bool *show)
{
	bool sel[KMEM_NR_ALLOC], any = nr_selected(o);
	unsigned int id;

	selected(o, sel);
	for (id = 0; id < KMEM_NR_ALLOC; id++)
		show[id] = (kmem_allocs[id].caps & KMEM_CAP_TIMELINE) &&
			   (sel[id] || (!any && agg->events[id]));
}

/* The records of the allocators the timeline draws. */
static uint64_t drawn_events(const struct kmem_agg *agg)
{
	unsigned int id;
	uint64_t n = 0;

	for (id = 0; id < KMEM_NR_ALLOC; id++)
		if (kmem_allocs[id].caps & KMEM_CAP_TIMELINE)
			n += agg->events[id];
	return n;
}

/*
 * What no_events() found none of: the one allocator selected ("slab
 * allocator"), or those drawn ("slab, page or vmalloc allocator").
 */
static const char *what_drawn(const struct kmem_opts *o, char *buf, size_t len)
{
	bool sel[KMEM_NR_ALLOC], one = nr_selected(o) == 1;
	unsigned int id, n = 0, i = 0;
	size_t k = 0;

	selected(o, sel);
	buf[0] = '\0';
	for (id = 0; id < KMEM_NR_ALLOC; id++)
		n += !!(kmem_allocs[id].caps & KMEM_CAP_TIMELINE);
	for (id = 0; id < KMEM_NR_ALLOC; id++) {
		if (!(kmem_allocs[id].caps & KMEM_CAP_TIMELINE))
			continue;
		if (one && sel[id])
			return kmem_allocs[id].title;
		i++;
		if (!one && k < len)
			k += (size_t)snprintf(buf + k, len - k, "%s%s",
					      i == 1   ? ""
					      : i == n ? " or "
						       : ", ",
					      kmem_allocs[id].name);
	}
	if (k < len)
		snprintf(buf + k, len - k, " allocator");
	return buf;
}

static int no_events(const struct plot_run *p, const struct tk_session *s)
{
	const struct tk_filter *f = &p->a->filter;
	bool filters = f->time || f->pids || f->comm || f->cpus;

	bool damaged = kmem_agg_damaged(&s->agg);
	char what[64];

	/* one line: the damage pass 1 kept quiet is said here */
	fprintf(stderr, TK_NAME ": %s: no %s events to plot%s%s\n", p->label,
		what_drawn(&p->a->opts, what, sizeof(what)),
		filters && s->filtered ? " (the filters left them all out)"
				       : "",
		damaged ? " (damaged trace data was skipped)" : "");
	return -1;
}

static int write_out(struct plot_run *p, struct tk_session *s)
{
	struct kmem_plot_info info = { .label = p->label,
				       .events = drawn_events(&s->agg),
				       .lost = s->agg.events_lost,
				       .lost_unknown = s->agg.lost_unknown,
				       .raw_ip = p->a->opts.raw_ip };
	struct kmem_input in = { .label = p->label, .filtered = s->filtered };
	struct kmem_render_cfg rc;
	struct kmem_report_ctx r = { &s->agg, &rc, &s->sym, &in, &p->tl };
	int ret = 0;

	kmem_opts_render_cfg(&p->a->opts, NULL, &rc);	/* no tables */

	if (p->outs.tables.f) {
		kmem_plot_svg(p->outs.tables.f, &p->tl, &s->sym, &info);
		ret |= kmem_out_check(&p->outs.tables, stderr);
	}
	if (p->outs.json.f) {
		if (kmem_report_json(&r, p->outs.json.f)) {
			fprintf(stderr,
				TK_NAME ": out of memory: a table of "
					"%s left out of the JSON\n",
				s->label);
			ret = -1;
		}
		ret |= kmem_out_check(&p->outs.json, stderr);
	}
	/* the names drawn: the symbols' index, the print formats */
	if (!ret && tk_session_later_failed(s, stderr))
		ret = -1;
	return ret;
}

static int plot(struct plot_run *p)
{
	bool show[KMEM_NR_ALLOC];
	struct tk_session s;
	unsigned int id;
	uint64_t n = 0;
	int ret;

	ret = pass(p, &s, 1);
	if (!ret) {
		shown(&p->a->opts, &s.agg, show);
		for (id = 0; id < KMEM_NR_ALLOC; id++)
			n += show[id] ? s.agg.events[id] : 0;
		if (!n)
			ret = no_events(p, &s);
	}
	if (!ret) {
		if (kmem_timeline_select(&p->tl, p->a->opts.lines, show)) {
			fprintf(stderr, TK_NAME ": out of memory\n");
			ret = -1;
		}
	}
	tk_session_release(&s);
	if (ret)
		return ret;
	/* libtracecmd reads a handle once: the second pass opens it anew */
	if (!p->in->f) {
		reopen_input(p);
		if (!p->in)
			return -1;
		p->h = p->buffer ? p->in->inst[p->buffer - 1] : p->in->h;
	}
	ret = pass(p, &s, 2);
	if (!ret)
		ret = write_out(p, &s);
	tk_session_release(&s);
	return ret;
}

/* The SVG goes to -o FILE, else to stdout unless the JSON goes there. */
static int open_outputs(struct plot_run *p)
{
	const struct kmem_opts *o = &p->a->opts;
	bool json_out = o->json && !strcmp(o->json, "-");

	if ((o->output || !json_out) && !o->output && isatty(STDOUT_FILENO)) {
		fprintf(stderr, TK_NAME ": plot writes SVG; give -o FILE.svg "
				"(or redirect stdout)\n");
		return -1;
	}
	if ((o->output || !json_out) &&
	    kmem_out_open(&p->outs.tables, o->output ? o->output : "-", "SVG", false,
			  stderr))
		return -1;
	if (o->json &&
	    kmem_out_open(&p->outs.json, o->json, "JSON", false, stderr)) {
		kmem_out_discard(&p->outs.tables);
		return -1;
	}
	return 0;
}

/**
 * tk_plot - trace-kmem plot
 * @a: the command line
 *
 * Return: the exit status.
 */
int tk_plot(struct tk_args *a)
{
	struct plot_run p = { .a = a };
	bool reopen;
	int ret;

	if (a->nr_inputs != 1) {
		fprintf(stderr, TK_NAME ": plot draws one file (%d given)\n",
			a->nr_inputs);
		return TK_USAGE;
	}
	if (open_outputs(&p))
		return TK_ENV;
	p.in = tk_open_inputs(a);
	if (!p.in) {
		kmem_outputs_discard(&p.outs);
		return TK_ENV;
	}
	kmem_path_label(p.label, sizeof(p.label), a->inputs[0]);
	tk_input_guard(p.in, a->inputs[0]);
	p.buffer = tk_buffer_pick(p.in, a->inputs[0], a->instance, &reopen);
	if (p.buffer >= 0 && reopen)
		reopen_input(&p);
	if (p.in)
		p.h = p.buffer > 0 && !p.in->f ? p.in->inst[p.buffer - 1]
					       : p.in->h;
	else
		p.buffer = -1;
	if (p.buffer > 0) {
		size_t n = strlen(p.label);

		snprintf(p.label + n, sizeof(p.label) - n, " (instance %s)",
			 tk_buffer_name(p.in, p.buffer));
	}
	ret = p.buffer < 0 ? -1 : plot(&p);
	tk_fault_guard(NULL);
	if (ret)
		kmem_outputs_discard(&p.outs);
	else
		ret = kmem_outputs_finish(&p.outs, stderr);
	kmem_timeline_release(&p.tl);
	if (p.in)
		tk_close_input(p.in);
	free(p.in);
	if (p.outs.broken_pipe)
		return TK_BROKEN_PIPE;
	return ret ? TK_ENV : TK_OK;
}
