/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * What the report says of each allocator, besides what its descriptor
 * (alloc/registry.h) holds: its section's title and the sentences of an
 * allocator without events, and the functions that print its section.
 * report.c loops over these instead of naming each allocator.
 */
#ifndef KMEM_VIEWS_H
#define KMEM_VIEWS_H

#include <stdio.h>

#include "alloc/registry.h"
#include "base/json.h"
#include "report.h"
#include "cols.h"

struct kmem_alloc_view {
	const char *section;	    /* its section's title: "Slab allocator" */
	const char *section_events; /* ... in parentheses after it */
	/* "No %s allocator events": "per-CPU"; the KernelShark plugin's
	 * name of it too */
	const char *none_name;
	const char *none_events; /* "(%s) in this trace": "kmem:kfree ..." */
	/*
	 * Another plugin may print its records (struct kmem_input's
	 * elsewhere): the sentence when none reached this one, else NULL.
	 */
	const char *unavailable;
	/* its call sites with frees (kmem:lifetimes), if it counts them */
	const struct cols_def *freed_sites;
	/* @c: the call-site rows of @def's table over @r's statistics */
	void (*sites)(const struct kmem_report_ctx *r, struct cols_ctx *c,
		      const struct cols_def *def);
	/* the plot (KMEM_CAP_TIMELINE): its total's line, its call sites' */
	const char *plot_colour;
	const char *plot_dash;	    /* the total's; NULL: solid */
	const char *site_dash;	    /* a call site's, in the first colours */
	const char *site_dash_more; /* ... once the colours come round */
	const char *site_legend;    /* "slab call site" */
	/* its live bytes' curve in the KernelShark plugin, 0xRRGGBB */
	unsigned int ks_rgb;
	void (*print)(const struct kmem_report_ctx *r, FILE *out);
	void (*json)(const struct kmem_report_ctx *r, struct json *j);
};

extern const struct kmem_alloc_view kmem_alloc_views[KMEM_NR_ALLOC];

#endif
