/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Several trace.dat files read into one report (lib/analysis/merge.h):
 * stat --merge, and each side of diff --merge.
 */
#ifndef TRACE_KMEM_MERGE_H
#define TRACE_KMEM_MERGE_H

#include <stdio.h>

#include "analysis/merge.h"
#include "cli.h"
#include "inputs.h"
#include "render/report.h"

struct tk_group {
	struct tk_args args; /* the command line, with the group's files */
	struct tk_input *in; /* they, opened */
	struct kmem_merge m;
	uint64_t filtered; /* kmem records the filters left out */
	char filters[64];
};

int tk_group_read(struct tk_group *g, const struct tk_args *a,
		  const char **paths, int n);
void tk_group_report_ctx(struct tk_group *g, FILE *tables,
			 struct kmem_render_cfg *rc, struct kmem_input *in,
			 struct kmem_report_ctx *r);
void tk_group_release(struct tk_group *g);
int tk_stat_merged(struct tk_args *a);

#endif
