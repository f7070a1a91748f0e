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
#include "analysis/leaks.h"
#include "analysis/timeline.h"
#include "base/json.h"
#include "base/sortkey.h"
#include "base/table.h"
#include "event/decode.h"
#include "event/symbols.h"
#include "sort.h"

/* What the front end knows about the input besides its events. */
struct kmem_input {
	const char *label;		/* file name shown in the title */
	/* slab events whose records another print handler consumed */
	const char *elsewhere[KMEM_NR_SLOTS];
	int nr_elsewhere;
	/* > 0: the merged summary of this many inputs (summaries only) */
	int merged;
	const char *const *inputs;	/* ... their labels */
	/* kmem records the front end's filters left out, and which */
	uint64_t filtered;
	const char *filters;		/* "--time, --cpu", NULL: none */
};

/*
 * What to write, as plain values: the options' (kmem_opts_render_cfg()
 * in options/render_cfg.h), or any front end's own.
 */
struct kmem_render_cfg {
	unsigned int lines;	/* rows per table, 0: all */
	size_t width;		/* widest a table gets, 0: no limit */
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
	 * The allocators selected (slab, page, percpu): exactly those are
	 * shown; with none selected (any_allocator), each whose events are
	 * in the trace.
	 */
	bool slab, page, percpu;
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

/* Everything the renderers need. */
struct kmem_report_ctx {
	const struct kmem_agg *agg;
	const struct kmem_render_cfg *cfg;
	const struct kmem_symbolizer *sym;
	const struct kmem_input *in;
	const struct kmem_timeline *timeline;	/* plot's, or NULL */
};

/* Fill the cells of the row for entry @idx (KMEM_SYM_LEN bytes each). */
typedef void (*kmem_cells_fn)(const struct kmem_report_ctx *r, uint32_t idx,
			      char cells[][KMEM_SYM_LEN]);
/* Offer a table's rows, with their sort keys, to @s (sort_add()). */
typedef void (*kmem_rows_fn)(const struct kmem_report_ctx *r,
			     struct sort_set *s);

bool kmem_agg_damaged(const struct kmem_agg *a);
/* A table of rows: its columns, rows, cells and sort keys. */
struct kmem_table {
	const struct table_col *cols;
	int ncols;
	kmem_rows_fn rows;
	kmem_cells_fn cells;
	unsigned int keys;	/* SORT_KEYS_* */
};

void report_table(const struct kmem_report_ctx *r, FILE *out,
		  const struct kmem_table *t);
int report_sorted(const struct kmem_report_ctx *r, const struct kmem_table *t,
		  struct sort_set *s);
bool report_slab_wanted(const struct kmem_report_ctx *r);
bool report_page_wanted(const struct kmem_report_ctx *r);
bool report_percpu_wanted(const struct kmem_report_ctx *r);
void kmem_report_tables(const struct kmem_report_ctx *r, FILE *out);
void kmem_report_json(const struct kmem_report_ctx *r, FILE *out);
void kmem_report_json_to(const struct kmem_report_ctx *r, struct json *j);

/* report_slab.c */
void slab_print(const struct kmem_report_ctx *r, FILE *out);
void slab_json(const struct kmem_report_ctx *r, struct json *j);
void slab_site_sort_keys(struct sort_set *set, const struct slab_site *s,
			 uint32_t idx);

/* report_page.c */
void page_print(const struct kmem_report_ctx *r, FILE *out);
void page_json(const struct kmem_report_ctx *r, struct json *j);

/* report_leaks.c */
void leaks_print(const struct kmem_report_ctx *r, FILE *out,
		 enum kmem_allocator which);
void leaks_json(const struct kmem_report_ctx *r, struct json *j,
		enum kmem_allocator which);

/* report_lifetimes.c */
void lifetimes_print(const struct kmem_report_ctx *r, FILE *out,
		     enum kmem_allocator which);
void lifetimes_json_site(struct json *j, const struct kmem_lifetimes *l,
			 uint32_t site);

/* report_percpu.c */
void percpu_print(const struct kmem_report_ctx *r, FILE *out);
void percpu_json(const struct kmem_report_ctx *r, struct json *j);
void percpu_site_sort_keys(struct sort_set *set, const struct percpu_site *s,
			   uint32_t idx);

#endif
