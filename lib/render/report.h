/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Printing one input's statistics: the tables and the JSON document.
 */
#ifndef KMEM_REPORT_H
#define KMEM_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/agg.h"
#include "analysis/merge.h"
#include "analysis/timeline.h"
#include "base/json.h"
#include "base/sortkey.h"
#include "event/decode.h"
#include "event/symbols.h"

/* What the front end knows about the input besides its events. */
/*
 * The stream's own counts (lost events, damage), as the JSON document
 * names them: the first KMEM_STREAM_TOP at its top level, the others in
 * its "input" object.  The profile and the rows say the same ones.
 */
struct kmem_stream_count {
	const char *key;
	size_t off; /* of its uint64_t in struct kmem_agg */
};

#define KMEM_NR_STREAM_COUNTS 8
#define KMEM_STREAM_TOP 3
extern const struct kmem_stream_count kmem_stream_counts[KMEM_NR_STREAM_COUNTS];

/**
 * kmem_stream_count - one of the stream's counts
 * @a: the aggregate
 * @i: below KMEM_NR_STREAM_COUNTS
 *
 * Return: kmem_stream_counts[@i]'s value in @a.
 */
static inline uint64_t kmem_stream_count(const struct kmem_agg *a, int i)
{
	return *(const uint64_t *)((const char *)a + kmem_stream_counts[i].off);
}

/* A label the user gives every pprof sample and every row (pprof-label=). */
struct kmem_label {
	char *key;
	char *value;
};

struct kmem_input {
	const char *label;		/* file name shown in the title */
	/* slab events whose records another print handler consumed */
	const char *elsewhere[KMEM_NR_SLOTS];
	int nr_elsewhere;
	/* events whose format libtraceevent could not parse: none of
	 * their records reached the plugin (enum kmem_slot) */
	int unparsed[KMEM_NR_SLOTS];
	int nr_unparsed;
	/* the plugin: why the native reader refused the file as damaged
	 * (libtracecmd read it unchecked), or NULL */
	const char *unchecked;
	/* trace-kmem live of every task: none was left out */
	bool all_tasks;
	/* > 0: the merged summary of this many inputs (summaries only) */
	int merged;
	const char *const *inputs;	/* ... their labels */
	/* kmem records the front end's filters left out, and which */
	uint64_t filtered;
	const char *filters;		/* "--time, --cpu", NULL: none */
	/* the machine the trace was recorded on, where it says: */
	const char *host;    /* its host name, or NULL */
	const char *release; /* its kernel release, or NULL */
	/* > 0: one report over this many inputs (stat --merge), every
	 * table merged but those of addresses; each listed */
	int nr_parts;
	const struct kmem_merge_part *parts;
};

/*
 * What to write, as plain values: the options' (kmem_opts_render_cfg()
 * in options/render_cfg.h), or any front end's own.
 */
struct kmem_render_cfg {
	unsigned int lines;	/* rows per table, 0: all */
	size_t width;		/* widest a table gets, 0: no limit */
	bool fit;		/* ... leaving out columns (else folding GFP
				 * flags only): width= given, or a terminal */
	bool raw_ip;		/* call sites as addresses, not symbols */
	bool live;		/* page tables: only pages live at the end */
	bool per_process;	/* the page allocator's per-process table */
	bool merge_pids;	/* ... one row per command, not per pid */
	bool lifetimes;		/* the lifetime histograms */
	bool folded_hits;	/* folded stacks weighed by allocations */
	uint64_t leak_age;	/* leak tables: objects this old or more (ns) */
	struct kmem_sort_cfg sort;	/* sort= */
	unsigned int text_tables;	/* printed: bit 1 << kmem_table_kind */
	unsigned int json_tables;	/* in the JSON: the same bits */
	/*
	 * The allocators selected, by enum kmem_alloc_id: exactly those are
	 * shown; with none selected (any_allocator), each whose events are
	 * in the trace.
	 */
	bool alloc[KMEM_NR_ALLOC];
	bool any_allocator;
};

/**
 * kmem_render_text - is a table printed?
 * @c: the configuration
 * @t: the table
 *
 * Return: true if it is.
 */
static inline bool kmem_render_text(const struct kmem_render_cfg *c,
				    enum kmem_table_kind t)
{
	return c->text_tables & (1U << t);
}

/**
 * kmem_render_json - does the JSON hold a table's array?
 * @c: the configuration
 * @t: the table
 *
 * Return: true if it does.
 */
static inline bool kmem_render_json(const struct kmem_render_cfg *c,
				    enum kmem_table_kind t)
{
	return c->json_tables & (1U << t);
}

/* The JSON document's "schema_version": kmem-json(5) says what each is */
#define KMEM_JSON_SCHEMA 1

/* Everything the renderers need. */
struct kmem_report_ctx {
	const struct kmem_agg *agg;
	const struct kmem_render_cfg *cfg;
	const struct kmem_symbolizer *sym;
	const struct kmem_input *in;
	const struct kmem_timeline *timeline;	/* plot's, or NULL */
};

bool kmem_agg_damaged(const struct kmem_agg *a);
bool kmem_agg_left_out(const struct kmem_agg *a);
bool report_wanted(const struct kmem_report_ctx *r, enum kmem_alloc_id id);
bool report_unsure(const struct kmem_report_ctx *r, enum kmem_alloc_id id);
void kmem_report_tables(const struct kmem_report_ctx *r, FILE *out);
int kmem_report_json(const struct kmem_report_ctx *r, FILE *out);
void kmem_report_json_to(const struct kmem_report_ctx *r, struct json *j);
int kmem_report_json_part(const struct kmem_report_ctx *r, FILE *out, int index,
			  bool last);
void kmem_report_json_end(FILE *out, int index);

#endif
