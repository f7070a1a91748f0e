// SPDX-License-Identifier: LGPL-2.1
/*
 * One input's report: title, stream warnings, the allocator sections,
 * and where each goes (tables to stdout or output=, JSON to json=).
 */
#include <errno.h>
#include <string.h>

#include "numfmt.h"
#include "report.h"

static void print_lost(const struct kmem_report_ctx *r, FILE *out)
{
	const struct kmem_agg *a = r->agg;
	char buf[NUMFMT_LEN];

	if (!a->events_lost && !a->lost_unknown)
		return;
	fprintf(out, " WARNING: the ring buffer lost ");
	if (a->events_lost)
		fprintf(out, "%s events", fmt_count(buf, a->events_lost));
	if (a->events_lost && a->lost_unknown)
		fprintf(out, " and ");
	if (a->lost_unknown)
		fprintf(out, "an unknown number of events at %s place%s",
			fmt_count(buf, a->lost_unknown),
			a->lost_unknown > 1 ? "s" : "");
	fprintf(out, ".\n          Counts and bytes are lower bounds; "
		     "numbers that match allocations\n          with frees "
		     "(freed-only, live, ping-pong, lifetimes) are skewed.\n\n");
}

static void print_elsewhere(const struct kmem_report_ctx *r, FILE *out)
{
	int i;

	if (!r->in->nr_elsewhere)
		return;
	fprintf(out, " NOTE: ");
	for (i = 0; i < r->in->nr_elsewhere; i++)
		fprintf(out, "%skmem:%s", i ? ", " : "", r->in->elsewhere[i]);
	fprintf(out, " %s printed by another plugin loaded after this one\n"
		     "       (e.g. a second plugin_kmem.so); those events "
		     "were not counted and\n       the slab numbers below "
		     "are incomplete.\n\n",
		r->in->nr_elsewhere > 1 ? "were" : "was");
}

static bool slab_wanted(const struct kmem_report_ctx *r)
{
	return r->o->slab || r->in->slab_defined || r->agg->slab_events;
}

/**
 * kmem_report_tables - print the statistics tables of one input
 * @r: what to print
 * @out: where to
 */
void kmem_report_tables(const struct kmem_report_ctx *r, FILE *out)
{
	char buf[NUMFMT_LEN];

	fprintf(out, "\n kmem statistics: %s\n\n", r->in->label);
	print_lost(r, out);
	if (!slab_wanted(r)) {
		fprintf(out, " No slab allocator events (kmem:kmalloc, "
			     "kmem:kfree, kmem:kmem_cache_*) in this trace.\n");
		return;
	}
	print_elsewhere(r, out);
	if (r->in->nr_elsewhere && !r->agg->slab_events) {
		fprintf(out, " Slab statistics unavailable: no slab event "
			     "reached this plugin.\n");
		return;
	}
	slab_print(r, out);
	if (r->agg->undecodable)
		fprintf(out, "\n WARNING: %s records could not be decoded "
			     "(a field this tool needs is\n          missing "
			     "from their event format or cut off); they are "
			     "not counted.\n",
			fmt_count(buf, r->agg->undecodable));
}

/**
 * kmem_report_json - write the JSON document of one input
 * @r: what to write
 * @out: where to
 */
void kmem_report_json(const struct kmem_report_ctx *r, FILE *out)
{
	struct json j;

	json_init(&j, out);
	json_open(&j, NULL, '{');
	json_str(&j, "file", r->in->label);
	json_u64(&j, "events_lost", r->agg->events_lost);
	json_u64(&j, "lost_unknown", r->agg->lost_unknown);
	json_u64(&j, "undecodable", r->agg->undecodable);
	if (slab_wanted(r))
		slab_json(r, &j);
	json_close(&j, '}');
}

static FILE *open_out(const char *path, const char *what, bool append,
		      FILE *err)
{
	FILE *f;

	if (!strcmp(path, "-"))
		return stdout;
	f = fopen(path, append ? "a" : "w");
	if (!f)
		fprintf(err, "kmem: cannot write %s '%s': %s\n", what, path,
			strerror(errno));
	return f;
}

static int close_out(FILE *f, const char *path, FILE *err)
{
	if (f == stdout)
		return fflush(f);
	if (fclose(f)) {
		fprintf(err, "kmem: error writing '%s': %s\n", path,
			strerror(errno));
		return -1;
	}
	return 0;
}

/**
 * kmem_report - print the tables and write the JSON as the options say
 * @r: what to report
 * @err: where problems are reported, one line each
 *
 * With stat, tables go to stdout, or to output=PATH; json=- replaces
 * the tables on stdout.  json=PATH writes the JSON, with or without
 * stat.  The second and later inputs append to the same files.
 *
 * Return: 0 on success, -1 when a file could not be written.
 */
int kmem_report(const struct kmem_report_ctx *r, FILE *err)
{
	const struct kmem_opts *o = r->o;
	bool append = r->in->ordinal > 1;
	int ret = 0;
	FILE *f;

	if (o->stat && (o->output || !o->json || strcmp(o->json, "-"))) {
		f = o->output ? open_out(o->output, "output", append, err) :
				stdout;
		if (f) {
			kmem_report_tables(r, f);
			ret |= close_out(f, o->output, err);
		} else {
			ret = -1;
		}
	}
	if (o->json) {
		f = open_out(o->json, "JSON", append, err);
		if (f) {
			kmem_report_json(r, f);
			ret |= close_out(f, o->json, err);
		} else {
			ret = -1;
		}
	}
	return ret;
}
