// SPDX-License-Identifier: LGPL-2.1
/*
 * One input's report: title, stream warnings, the allocator sections,
 * and where each goes (tables to stdout or output=, JSON to json=).
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/numfmt.h"
#include "base/utf8.h"
#include "report.h"
#include "report_traces.h"
#include "views.h"

static void print_lost(const struct kmem_report_ctx *r, FILE *out)
{
	const struct kmem_agg *a = r->agg;
	char buf[NUMFMT_LEN];

	if (!a->events_lost && !a->lost_unknown)
		return;
	fprintf(out, " WARNING: the ring buffer lost ");
	if (a->events_lost)
		fprintf(out, "%s events", fmt_count(buf, a->events_lost));
	if (a->events_lost && a->lost_unknown)	/* on its own line to fit */
		fprintf(out, r->cfg->fit && r->cfg->width && r->cfg->width < 100
				     ? "\n          and "
				     : " and ");
	if (a->lost_unknown)
		fprintf(out, "an unknown number of events at %s place%s",
			fmt_count(buf, a->lost_unknown),
			a->lost_unknown > 1 ? "s" : "");
	fprintf(out, ".\n          Counts and bytes are lower bounds; "
		     "numbers that match allocations\n          with frees "
		     "(freed-only, live, ping-pong, lifetimes) are skewed.\n\n");
}

/* Damaged trace data that was skipped: what, and that counts are low. */
static void print_skipped(const struct kmem_agg *a, FILE *out)
{
	char b1[NUMFMT_LEN], b2[NUMFMT_LEN], b3[NUMFMT_LEN];

	if (!kmem_agg_damaged(a))
		return;
	fprintf(out, " WARNING: damaged trace data was skipped (records of "
		     "impossible sizes: %s,\n          ring-buffer pages: %s, "
		     "compressed chunks: %s).  Counts and bytes\n          are "
		     "lower bounds.\n",
		fmt_count(b1, a->skipped_records),
		fmt_count(b2, a->damaged_pages),
		fmt_count(b3, a->damaged_chunks));
	if (a->unread_records)
		fprintf(out, "          libtracecmd stopped reading a CPU at its "
			     "damage: %s records\n          after it were not "
			     "read (the native reader reads them).\n",
			fmt_count(b1, a->unread_records));
	fputc('\n', out);
}

/* The allocator @v's records another plugin took, if it may. */
static void print_elsewhere(const struct kmem_report_ctx *r,
			    const struct kmem_alloc_view *v, FILE *out)
{
	int i;

	if (!v->unavailable || !r->in->nr_elsewhere)
		return;
	fprintf(out, " NOTE: ");
	for (i = 0; i < r->in->nr_elsewhere; i++)
		fprintf(out, "%skmem:%s", i ? ", " : "", r->in->elsewhere[i]);
	fprintf(out,
		" %s printed by another plugin loaded after this one\n"
		"       (e.g. a second plugin_kmem.so); those events "
		"were not counted and\n       the %s numbers below "
		"are incomplete.\n\n",
		r->in->nr_elsewhere > 1 ? "were" : "was", v->none_name);
}

/* Events whose format does not parse: trace-cmd handed none over. */
static void print_unparsed(const struct kmem_input *in, FILE *out)
{
	int i;

	if (!in->nr_unparsed)
		return;
	fprintf(out, "\n WARNING: the format%s of",
		in->nr_unparsed > 1 ? "s" : "");
	for (i = 0; i < in->nr_unparsed; i++)
		fprintf(out, "%s%s:%s",
			!i			  ? " "
			: i + 1 < in->nr_unparsed ? ", "
						  : " and ",
			kmem_slot_system(in->unparsed[i]),
			kmem_slot_event_name(in->unparsed[i]));
	fprintf(out,
		" %s not parse\n          (libtraceevent cannot read it), so "
		"trace-cmd handed over none of\n          %s records; "
		"they are not counted.\n",
		in->nr_unparsed > 1 ? "do" : "does",
		in->nr_unparsed > 1 ? "their" : "its");
}

/* Another plugin took all of allocator @v's records. */
static bool all_elsewhere(const struct kmem_report_ctx *r,
			  const struct kmem_alloc_view *v,
			  enum kmem_alloc_id id)
{
	return v->unavailable && r->in->nr_elsewhere && !r->agg->events[id];
}

/* Did the format of one of the allocator's events not parse? */
static bool has_unparsed(const struct kmem_input *in, enum kmem_alloc_id id)
{
	int i;

	for (i = 0; i < in->nr_unparsed; i++)
		if (kmem_event_defs[in->unparsed[i]].alloc == id)
			return true;
	return false;
}

/**
 * report_unsure - are the allocator's counts the input's, unsure?
 * @r: the report
 * @id: the allocator
 *
 * Return: true when libtraceevent could not parse the format of one of
 * its events (kmem_input.unparsed), or the file's damage went unchecked
 * (kmem_input.unchecked): its counts may be incomplete.
 */
bool report_unsure(const struct kmem_report_ctx *r, enum kmem_alloc_id id)
{
	return r->in->unchecked || has_unparsed(r->in, id);
}

/**
 * report_wanted - is there an allocator's analysis to show?
 * @r: the report
 * @id: the allocator
 *
 * Return: the allocator selected, or no allocator selected and the
 * trace holds its records (or another plugin took them, or the format
 * of one of its events did not parse: the section says it has none).
 */
bool report_wanted(const struct kmem_report_ctx *r, enum kmem_alloc_id id)
{
	if (r->cfg->alloc[id])
		return true;
	return r->cfg->any_allocator &&
	       (r->agg->events[id] || has_unparsed(r->in, id) ||
		(kmem_alloc_views[id].unavailable && r->in->nr_elsewhere));
}

/* The allocator's section, after its title. */
static void print_alloc(const struct kmem_report_ctx *r, enum kmem_alloc_id id,
			FILE *out)
{
	const struct kmem_alloc_view *v = &kmem_alloc_views[id];

	print_elsewhere(r, v, out);
	if (all_elsewhere(r, v, id)) {
		fprintf(out, " %s\n\n", v->unavailable);
		return;
	}
	v->print(r, out);
}

/*
 * The title line of an allocator's section, underlined: the same
 * layout for every section, so that each shows where it begins.  Its
 * events are left out where the tables fit a width it passes.
 */
static void print_section(const struct kmem_report_ctx *r, FILE *out,
			  const char *name, const char *events)
{
	const struct kmem_render_cfg *c = r->cfg;
	int n;

	if (c->fit && c->width &&
	    strlen(name) + strlen(events) + 4 > c->width)
		n = fprintf(out, " %s\n", name) - 2;
	else
		n = fprintf(out, " %s (%s)\n", name, events) - 2;

	fputc(' ', out);
	while (n-- > 0)
		fputc('=', out);
	fputs("\n\n", out);
}

/* " (A, B, C)." with a break after a comma before column 78. */
static void print_list(FILE *out, const char *list)
{
	size_t col = 2, n;
	const char *p = list;

	fputs(" (", out);
	while (*p) {
		n = strcspn(p, ",");
		if (col + n + 2 > 78 && col > 3) {
			fputs("\n  ", out);
			col = 2;
			p += *p == ' ';
			n = strcspn(p, ",");
		}
		fprintf(out, "%.*s%s", (int)n, p, p[n] ? "," : "");
		col += n + 1;
		p += n + (p[n] != '\0');
	}
	fputs(").\n", out);
}

/*
 * An allocator with nothing to show (@what: "slab", "page", "per-CPU",
 * or all of them): say whether the front end's filters or the trace are
 * why; @more: another section may follow (a blank line after).
 */
static void print_none(const struct kmem_report_ctx *r, FILE *out,
		       const char *what, const char *events, bool more)
{
	char buf[NUMFMT_LEN];

	if (r->in->filters && r->in->filtered)
		fprintf(out, " No %s allocator records matched the filters "
			     "(%s): all %s kmem records were left out.\n",
			what, r->in->filters, fmt_count(buf, r->in->filtered));
	else if (r->in->filters)	/* whole CPUs left unread */
		fprintf(out, " No %s allocator records matched the filters "
			     "(%s).\n", what, r->in->filters);
	else if (strlen(" No  allocator events () in this trace.") +
			 strlen(what) + strlen(events) >
		 80) {
		fprintf(out, " No %s allocator events in this trace\n", what);
		print_list(out, events);
	} else
		fprintf(out, " No %s allocator events (%s) in this trace.\n",
			what, events);
	if (more)
		fputc('\n', out);	/* another section may follow */
}

/*
 * No allocator to show: print_none() of them all, "slab, page or
 * per-CPU", and of each one's first event.
 */
static void print_none_at_all(const struct kmem_report_ctx *r, FILE *out)
{
	char what[128] = "", events[256] = "";
	unsigned int id;

	for (id = 0; id < KMEM_NR_ALLOC; id++) {
		const struct kmem_alloc_view *v = &kmem_alloc_views[id];
		size_t n = strcspn(v->none_events, ",");

		if (id)
			strcat(what, id + 1 < KMEM_NR_ALLOC ? ", " : " or ");
		strcat(what, v->none_name);
		snprintf(events + strlen(events),
			 sizeof(events) - strlen(events), "%.*s, ", (int)n,
			 v->none_events);
	}
	strcpy(events + strlen(events) - 2, " ...");
	print_none(r, out, what, events, false);
}

/*
 * The records left out of every table: undecodable, of an event whose
 * format does not parse, of an id two formats claim.  After the tables,
 * or after the line saying there are none.
 */
static void print_left_out(const struct kmem_report_ctx *r, FILE *out)
{
	char buf[NUMFMT_LEN];

	if (r->agg->undecodable)
		fprintf(out,
			"\n WARNING: %s record%s could not be decoded "
			"(a field this tool needs is\n          missing "
			"from their event format, of a size it cannot "
			"read,\n          placed where no kernel puts it, or "
			"cut off, or they hold a\n          CPU or size no "
			"kernel records); they are not counted.\n",
			fmt_count(buf, r->agg->undecodable),
			r->agg->undecodable == 1 ? "" : "s");
	print_unparsed(r->in, out);
	if (r->agg->unknown_records)
		fprintf(out,
			"\n WARNING: %s record%s of event ID %lld%s %s not "
			"read: no event\n          format in the file has that "
			"ID (if a format's ID is damaged,\n          they may "
			"be an allocator's); they are not counted.\n",
			fmt_count(buf, r->agg->unknown_records),
			r->agg->unknown_records == 1 ? "" : "s",
			r->agg->unknown_id,
			r->agg->unknown_ids_more ? " and others" : "",
			r->agg->unknown_records == 1 ? "was" : "were");
	if (r->agg->id_clash[0]) {
		char clash[KMEM_ID_CLASH_LEN];

		memcpy(clash, r->agg->id_clash, sizeof(clash));
		utf8_plain_line(clash);
		fprintf(out,
			"\n WARNING: the event formats are damaged:\n"
			"          %s;\n          the records of that "
			"id are not counted.\n",
			clash);
	}
}

/**
 * kmem_report_tables - print the statistics tables of one input
 * @r: what to print
 * @out: where to
 */
void kmem_report_tables(const struct kmem_report_ctx *r, FILE *out)
{
	unsigned int id, shown = 0;

	if (r->in->merged)
		fprintf(out, "\n kmem statistics: merged summary of %d inputs"
			     "\n\n", r->in->merged);
	else if (r->in->nr_parts) {
		fprintf(out, "\n kmem statistics: %d traces merged\n\n",
			r->in->nr_parts);
		kmem_report_traces_text(r, out);
	} else
		fprintf(out, "\n kmem statistics: %s\n\n", r->in->label);
	print_lost(r, out);
	print_skipped(r->agg, out);
	if (r->in->unchecked)
		fprintf(out,
			" WARNING: the file is damaged (%s);\n          these "
			"numbers are libtracecmd's reading of it, unchecked.\n\n",
			r->in->unchecked);
	for (id = 0; id < KMEM_NR_ALLOC && !report_wanted(r, id); id++)
		;
	if (id == KMEM_NR_ALLOC) {
		print_none_at_all(r, out);
		print_left_out(r, out);
		return;
	}
	for (id = 0; id < KMEM_NR_ALLOC; id++) {
		const struct kmem_alloc_view *v = &kmem_alloc_views[id];

		if (!report_wanted(r, id))
			continue;
		if (shown++)
			fputc('\n', out); /* after the last summary's line */
		print_section(r, out, v->section, v->section_events);
		if (!r->in->merged && !r->agg->events[id] &&
		    !(v->unavailable && r->in->nr_elsewhere))
			print_none(r, out, v->none_name, v->none_events, true);
		else
			print_alloc(r, id, out);
	}
	print_left_out(r, out);
}

/**
 * kmem_agg_damaged - was trace data skipped as damaged?
 * @a: the statistics
 *
 * Return: true when records, pages or chunks were skipped.
 */
bool kmem_agg_damaged(const struct kmem_agg *a)
{
	return a->skipped_records || a->damaged_pages || a->damaged_chunks ||
	       a->unread_records;
}

/**
 * kmem_agg_left_out - were records left out of every table?
 * @a: the statistics
 *
 * Return: true when records could not be decoded, or were of an event
 * id no format has (either may be an allocator's).
 */
bool kmem_agg_left_out(const struct kmem_agg *a)
{
	return a->undecodable || a->unknown_records;
}

static void json_inputs(struct json *j, const struct kmem_input *in)
{
	int i;

	json_open(j, "inputs", '[');
	for (i = 0; i < in->merged; i++)
		json_str(j, NULL, in->inputs[i]);
	json_close(j, ']');
}

#define STREAM_COUNT(name)                                                     \
	{                                                                      \
#name, offsetof(struct kmem_agg, name)                         \
	}
const struct kmem_stream_count kmem_stream_counts[KMEM_NR_STREAM_COUNTS] = {
	STREAM_COUNT(events_lost),    STREAM_COUNT(lost_unknown),
	STREAM_COUNT(undecodable),    STREAM_COUNT(skipped_records),
	STREAM_COUNT(damaged_pages),  STREAM_COUNT(damaged_chunks),
	STREAM_COUNT(unread_records), STREAM_COUNT(unknown_records),
};

/* One report's members, in its object (open) */
static void report_members(const struct kmem_report_ctx *r, struct json *j)
{
	unsigned int id;
	int i;

	json_str(j, "file", r->in->label);
	if (r->in->merged)
		json_inputs(j, r->in);
	if (r->in->nr_parts)
		kmem_report_traces_json(r, j);
	for (i = 0; i < KMEM_NR_STREAM_COUNTS; i++) {
		if (i == KMEM_STREAM_TOP)
			json_open(j, "input", '{');
		json_u64(j, kmem_stream_counts[i].key,
			 kmem_stream_count(r->agg, i));
	}
	json_close(j, '}');
	for (id = 0; id < KMEM_NR_ALLOC; id++)
		if (report_wanted(r, id))
			kmem_alloc_views[id].json(r, j);
	if (r->timeline)
		kmem_timeline_json(r->timeline, r->sym, r->cfg->raw_ip, j);
}

/**
 * kmem_report_json - write the JSON document of one report
 * @r: what to write
 * @out: where to
 *
 * The document's first member is "schema_version" (KMEM_JSON_SCHEMA).
 *
 * Return: 0, or -1 when memory ran out for a table (left out).
 */
int kmem_report_json(const struct kmem_report_ctx *r, FILE *out)
{
	struct json j;

	json_init(&j, out);
	json_open(&j, NULL, '{');
	json_u64(&j, "schema_version", KMEM_JSON_SCHEMA);
	report_members(r, &j);
	json_close(&j, '}');
	return j.oom ? -1 : 0;
}

/**
 * kmem_report_json_to - write one report as an object to a writer
 * @r: what to write
 * @j: the writer, before anything was written (json_init(), or
 *	json_init_tree() to keep the document in memory)
 *
 * The object is kmem_report_json()'s without "schema_version".
 */
void kmem_report_json_to(const struct kmem_report_ctx *r, struct json *j)
{
	json_open(j, NULL, '{');
	report_members(r, j);
	json_close(j, '}');
}

/* A document of several reports, up to its "inputs" array opened */
static void json_head(FILE *out)
{
	struct json j;

	json_init(&j, out);
	json_open(&j, NULL, '{');
	json_u64(&j, "schema_version", KMEM_JSON_SCHEMA);
	json_open(&j, "inputs", '[');
}

/**
 * kmem_report_json_part - write one report into a document of several
 * @r: what to write; a merged summary (r->in->merged) ends the document
 * @out: where to
 * @index: how many reports this document holds already
 * @last: end the document after this report (no merged summary comes)
 *
 * The document is {"schema_version", "inputs": [a report per element],
 * "merged": the merged summary}, written a report at a time: the first
 * writes the head, the merged summary (or @last) the end.
 *
 * Return: 0, or -1 when memory ran out for a table (left out).
 */
int kmem_report_json_part(const struct kmem_report_ctx *r, FILE *out, int index,
			  bool last)
{
	struct json j;

	if (!index)
		json_head(out);
	json_init_inside(&j, out, 2, index > 0);
	if (r->in->merged) {
		json_close(&j, ']');
		json_open(&j, "merged", '{');
		report_members(r, &j);
		json_close(&j, '}');
		json_close(&j, '}');
		return j.oom ? -1 : 0;
	}
	kmem_report_json_to(r, &j);
	if (last)
		kmem_report_json_end(out, index + 1);
	return j.oom ? -1 : 0;
}

/**
 * kmem_report_json_end - end a document of several reports without a
 *	merged summary
 * @out: where it is written
 * @index: how many reports it holds (0: the head is written first)
 */
void kmem_report_json_end(FILE *out, int index)
{
	struct json j;

	if (!index)
		json_head(out);
	json_init_inside(&j, out, 2, index > 0);
	json_close(&j, ']');
	json_close(&j, '}');
}
