/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Printing one input's statistics: the tables and the JSON document.
 */
#ifndef KMEM_REPORT_H
#define KMEM_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/agg.h"
#include "analysis/leaks.h"
#include "analysis/timeline.h"
#include "base/json.h"
#include "base/table.h"
#include "event/decode.h"
#include "event/symbols.h"
#include "options/options.h"
#include "options/output.h"
#include "cols.h"
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

/* Everything the renderers need. */
struct kmem_report_ctx {
	const struct kmem_agg *agg;
	const struct kmem_opts *o;
	const struct kmem_symbolizer *sym;
	const struct kmem_input *in;
	const struct kmem_timeline *timeline;	/* plot's, or NULL */
};

bool kmem_agg_damaged(const struct kmem_agg *a);
int kmem_report(const struct kmem_report_ctx *r, struct kmem_outputs *outs,
		FILE *err);
size_t report_width(const struct kmem_opts *o, FILE *out);
void report_cols(const struct kmem_report_ctx *r, struct cols_ctx *c,
		 const struct cols_def *def, const void *base, uint32_t nr,
		 const void *priv);
int report_cols_sorted(const struct kmem_report_ctx *r,
		       const struct cols_ctx *c, struct sort_set *s);
void report_cols_table(const struct kmem_report_ctx *r, FILE *out,
		       const struct cols_ctx *c);
int report_cols_json(const struct kmem_report_ctx *r, struct json *j,
		     const char *key, const struct cols_ctx *c);
bool report_slab_wanted(const struct kmem_report_ctx *r);
bool report_page_wanted(const struct kmem_report_ctx *r);
bool report_percpu_wanted(const struct kmem_report_ctx *r);
void kmem_report_tables(const struct kmem_report_ctx *r, FILE *out);
void kmem_report_json(const struct kmem_report_ctx *r, FILE *out);
void kmem_report_json_to(const struct kmem_report_ctx *r, struct json *j);

/* report_slab.c */
void slab_print(const struct kmem_report_ctx *r, FILE *out);
void slab_json(const struct kmem_report_ctx *r, struct json *j);
void slab_sites(const struct kmem_report_ctx *r, struct cols_ctx *c,
		const struct cols_def *def);

/* report_slab_cols.c: the slab tables' columns */
extern const struct cols_def slab_site_cols, slab_freed_site_cols,
	slab_ptr_cols, slab_cache_cols, slab_anomaly_cols;

/* report_page.c */
void page_print(const struct kmem_report_ctx *r, FILE *out);
void page_json(const struct kmem_report_ctx *r, struct json *j);

/* report_page_procs.c */
void page_print_procs(const struct kmem_report_ctx *r, FILE *out);
void page_json_procs(const struct kmem_report_ctx *r, struct json *j);

/* report_page_cols.c: the page tables' columns */
#define PAGE_COLS_LIVE 1	/* cols_ctx.mode: live at the end only */
extern const struct cols_def page_site_cols, page_pfn_cols;

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
extern const struct cols_def percpu_freed_sites;
void percpu_sites(const struct kmem_report_ctx *r, struct cols_ctx *c,
		  const struct cols_def *def);

#endif
