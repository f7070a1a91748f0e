// SPDX-License-Identifier: LGPL-2.1
/*
 * The inputs of a merged report (see report_traces.h).
 */
#include "base/numfmt.h"
#include "report_traces.h"

/* From the first allocator record to the last. */
static uint64_t span_of(const struct kmem_agg *a)
{
	return a->last_ts > a->first_ts ? a->last_ts - a->first_ts : 0;
}

/**
 * kmem_merged_render_cfg - what a merged report shows of the options'
 * @rc: the options' render configuration, adjusted
 *
 * The per-address tables are left out (no object is in two traces) and
 * processes are shown by command (pids of different machines).
 */
void kmem_merged_render_cfg(struct kmem_render_cfg *rc)
{
	rc->text_tables &= ~(1U << KMEM_T_ALLOC);
	rc->json_tables &= ~(1U << KMEM_T_ALLOC);
	rc->merge_pids = true;
}

/**
 * kmem_report_traces_text - list a merged report's inputs
 * @r: the report (r->in->nr_parts > 0)
 * @out: where to
 *
 * One line each: its name, host and kernel where the trace says, its
 * span from the first allocator record to the last, its allocator
 * records, and what the ring buffer lost or the reader skipped.
 */
void kmem_report_traces_text(const struct kmem_report_ctx *r, FILE *out)
{
	char b1[NUMFMT_LEN], b2[NUMFMT_LEN], b3[NUMFMT_LEN];
	int i;

	for (i = 0; i < r->in->nr_parts; i++) {
		const struct kmem_merge_part *p = &r->in->parts[i];
		const struct kmem_agg *h = &p->head;

		fprintf(out, " %s:", p->label);
		if (p->host)
			fprintf(out, " %s,", p->host);
		if (p->release)
			fprintf(out, " Linux %s,", p->release);
		fprintf(out, " %s, %s allocator records",
			fmt_duration(b1, span_of(h)), fmt_count(b2, p->events));
		if (h->events_lost || h->lost_unknown)
			fprintf(out, ", lost %s events%s",
				fmt_count(b3, h->events_lost),
				h->lost_unknown ? " and more" : "");
		if (kmem_agg_damaged(h))
			fprintf(out, ", damaged (skipped)");
		fputc('\n', out);
	}
	fputc('\n', out);
}

/**
 * kmem_report_traces_json - a merged report's "traces" array
 * @r: the report (r->in->nr_parts > 0)
 * @j: the writer, inside the report's object
 *
 * One object per input: "file", "host", "kernel_release" (null where
 * the trace does not say), "start_ns", "end_ns", "events", and the
 * stream's counts as a single report has them.
 */
void kmem_report_traces_json(const struct kmem_report_ctx *r, struct json *j)
{
	int i, k;

	json_open(j, "traces", '[');
	for (i = 0; i < r->in->nr_parts; i++) {
		const struct kmem_merge_part *p = &r->in->parts[i];

		json_open(j, NULL, '{');
		json_str(j, "file", p->label);
		json_str(j, "host", p->host);
		json_str(j, "kernel_release", p->release);
		json_u64(j, "start_ns", p->head.first_ts);
		json_u64(j, "end_ns", p->head.last_ts);
		json_u64(j, "events", p->events);
		for (k = 0; k < KMEM_NR_STREAM_COUNTS; k++)
			json_u64(j, kmem_stream_counts[k].key,
				 kmem_stream_count(&p->head, k));
		json_close(j, '}');
	}
	json_close(j, ']');
}
