// SPDX-License-Identifier: LGPL-2.1
/*
 * From the options to the renderers' configuration (see render_cfg.h).
 */
#include <inttypes.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "analysis/folded.h"
#include "base/msg.h"
#include "render/csv.h"
#include "render/report_pprof.h"
#include "render/report_rows.h"
#include "render_cfg.h"

/**
 * kmem_term_width - the width of the terminal a table goes to
 * @out: where the table goes, or NULL (none)
 *
 * Return: the terminal's width when @out is one at least 40 columns
 * wide, else 160 columns.
 */
size_t kmem_term_width(FILE *out)
{
	struct winsize ws;

	if (out && isatty(fileno(out)) &&
	    !ioctl(fileno(out), TIOCGWINSZ, &ws) && ws.ws_col >= 40)
		return ws.ws_col;
	return 160;
}

/**
 * kmem_opts_render_cfg - what the options say to write
 * @o: the options
 * @tables: where the tables go (their width), or NULL: none are printed
 * @c: filled in
 *
 * The width is width= if given (0: no limit), else kmem_term_width() of
 * @tables.
 */
void kmem_opts_render_cfg(const struct kmem_opts *o, FILE *tables,
			  struct kmem_render_cfg *c)
{
	int t;

	memset(c, 0, sizeof(*c));
	c->lines = o->lines;
	c->width = o->width_set ? o->width : kmem_term_width(tables);
	c->fit = o->width_set || (tables && isatty(fileno(tables)));
	c->raw_ip = o->raw_ip;
	c->live = o->live;
	c->per_process = o->per_process;
	c->merge_pids = o->merge_pids;
	c->lifetimes = o->lifetimes;
	c->folded_hits = o->folded_hits;
	c->leak_age = o->leak_age;
	c->sort = o->sort;
	for (t = KMEM_T_CALLER; t <= KMEM_T_LEAKS; t++) {
		if (kmem_opts_text_table(o, t))
			c->text_tables |= 1U << t;
		if (kmem_opts_json_table(o, t))
			c->json_tables |= 1U << t;
	}
	for (t = 0; t < KMEM_NR_ALLOC; t++)
		c->alloc[t] = o->allocator[t];
	c->any_allocator = kmem_opts_allocator(o, false);
}

/**
 * kmem_outputs_end - end a JSON document of several reports that has no
 *	merged summary
 * @outs: where (json_several set)
 * @err: where a write error is said
 *
 * Return: 0, or -1 on a write error.
 */
int kmem_outputs_end(struct kmem_outputs *outs, FILE *err)
{
	if (!outs->json.path || !outs->json_several)
		return 0;
	kmem_report_json_end(outs->json.f, outs->json_docs);
	return kmem_out_check(&outs->json, err);
}

/**
 * kmem_agg_oom_say - say the events an aggregate could not count
 * @a: the aggregate
 * @label: its input's label
 * @err: where, in one line
 *
 * Every front end says it so: a report's summary holds the count
 * ("Events not counted (out of memory)"), but a CSV, a diff or a plot
 * has none.
 *
 * Return: the events not counted for want of memory; 0: nothing said.
 */
uint64_t kmem_agg_oom_say(const struct kmem_agg *a, const char *label,
			  FILE *err)
{
	uint64_t n = kmem_agg_oom(a);

	if (n)
		fprintf(err,
			"%s: out of memory: %" PRIu64
			" events of %s not counted\n",
			kmem_prog, n, label);
	return n;
}

/**
 * kmem_outputs_report - print the tables and write the JSON, the CSV
 *	the folded stacks and the rows, to the destinations that are open,
 *	and add the report to the pprof profile
 * @r: what to report
 * @outs: where (kmem_outputs_open())
 * @err: where problems are reported, one line each: among them the
 *	events the allocators, and the allocations the stacks (--folded,
 *	--pprof, --leaks), could not count for want of memory
 *
 * Return: 0 on success, -1 when a destination reports a write error, or
 * memory ran out for the pprof profile, the JSON or the CSV (said on
 * @err).
 */
int kmem_outputs_report(const struct kmem_report_ctx *r,
			struct kmem_outputs *outs, FILE *err)
{
	int ret = 0;

	if (outs->tables.path) {
		kmem_report_tables(r, outs->tables.f);
		ret |= kmem_out_check(&outs->tables, err);
	}
	if (outs->json.path &&
	    (outs->json_several
		     ? kmem_report_json_part(r, outs->json.f, outs->json_docs++,
					     outs->json_last)
		     : kmem_report_json(r, outs->json.f))) {
		fprintf(err,
			"%s: out of memory: a table of %s left out of the "
			"JSON\n",
			kmem_prog, r->in->label);
		ret = -1;
	}
	if (outs->json.path)
		ret |= kmem_out_check(&outs->json, err);
	if (outs->csv.path) {
		if (kmem_report_csv(r, outs->csv.f)) {
			fprintf(err, "%s: out of memory for the CSV of %s\n",
				kmem_prog, r->in->label);
			ret = -1;
		}
		ret |= kmem_out_check(&outs->csv, err);
	}
	if (outs->folded.path && !r->in->merged) {
		kmem_folded_write(&r->agg->folded, r->sym, r->cfg->folded_hits,
				  r->cfg->live, outs->folded.f);
		ret |= kmem_out_check(&outs->folded, err);
	}
	if (outs->rows.path && !r->in->merged) {
		if (kmem_report_rows(r, outs->pprof_labels,
				     outs->nr_pprof_labels, outs->rows.f))
			fprintf(err, "%s: out of memory for the rows of %s\n",
				kmem_prog, r->in->label);
		ret |= kmem_out_check(&outs->rows, err);
	}
	kmem_agg_oom_say(r->agg, r->in->label, err);
	if (r->agg->folded.on && r->agg->folded.lost)
		fprintf(err,
			"%s: out of memory: %" PRIu64 " allocations (%" PRIu64
			" bytes) of %s left out of the stacks\n",
			kmem_prog, r->agg->folded.lost,
			r->agg->folded.lost_bytes, r->in->label);
	if (outs->profile && !r->in->merged &&
	    kmem_pprof_add_report(outs->profile, r, outs->json_several,
				  outs->pprof_labels, outs->nr_pprof_labels)) {
		fprintf(err, "%s: out of memory for the pprof profile\n",
			kmem_prog);
		ret = -1;
	}
	return ret;
}
