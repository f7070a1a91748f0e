/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The one option table shared by the trace-cmd plugin (-O kmem:NAME)
 * and the standalone front end, and the parsed options.
 */
#ifndef KMEM_OPTIONS_H
#define KMEM_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/sortkey.h"
#include "event/events.h"
#include "render/report.h"

#define KMEM_DEFAULT_LINES 10
#define KMEM_MAX_PPROF_LABELS 32

struct kmem_opts {
	bool stat;		/* print the tables at end of stream */
	/* the allocators selected explicitly, by enum kmem_alloc_id (their
	 * options are named as alloc/registry.c names them) */
	bool allocator[KMEM_NR_ALLOC];
	bool caller;		/* per-callsite table */
	bool alloc;		/* per-allocation table */
	bool cache;		/* per-cache table */
	bool all;		/* every table */
	bool anomalies;		/* the anomaly table */
	bool raw_ip;		/* addresses instead of symbols */
	bool live;		/* page tables: only pages live at the end */
	bool per_process;	/* page allocator activity per process */
	bool merge_pids;	/* ... per command name */
	bool leaks;		/* the leak tables */
	bool lifetimes;		/* the lifetime histograms */
	uint64_t leak_age;	/* ... of objects at least this old (ns) */
	char *skip;		/* frames to skip for page call sites */
	char *numa;		/* topology file for cross-node figures */
	unsigned int lines;	/* rows per table, 0 = all */
	unsigned int width;	/* widest table, 0: no limit (if width_set) */
	bool width_set;
	struct kmem_sort_cfg sort;	/* sort= */
	char *json;		/* JSON path, "-" for stdout, NULL for none */
	bool json_rows;		/* per-address rows in the JSON and CSV */
	char *csv;		/* CSV path, "-" for stdout, NULL for none */
	char *folded;		/* folded stacks path, "-" for stdout */
	bool folded_hits;	/* ... weighed by allocations, not bytes */
	char *pprof;		/* pprof profile path, "-" for stdout */
	char *rows;		/* NDJSON rows path, "-" for stdout */
	/* labels of every sample of the profile and every row */
	struct kmem_label pprof_labels[KMEM_MAX_PPROF_LABELS];
	size_t nr_pprof_labels;
	char *output;		/* tables path, NULL for stdout */
	/* front end: messages name "--NAME=VALUE" after "trace-kmem:",
	 * and say nothing of defaults (a bad value is fatal there) */
	bool strict;
};

/* One option: plugin "-O kmem:NAME[=ARG]", front end "--NAME". */
struct kmem_opt_def {
	const char *name;
	const char *arg;	/* NULL: a flag; else the argument's name */
	const char *def;	/* default value of an option with argument */
	const char *desc;	/* one line */
};

extern const struct kmem_opt_def kmem_opt_defs[];

void kmem_opts_init(struct kmem_opts *o);
void kmem_opts_release(struct kmem_opts *o);
int kmem_opts_set(struct kmem_opts *o, const char *name, const char *value,
		  FILE *err);
bool kmem_opts_text_table(const struct kmem_opts *o,
			  enum kmem_table_kind t);
bool kmem_opts_json_table(const struct kmem_opts *o,
			  enum kmem_table_kind t);
bool kmem_opts_keep_rows(const struct kmem_opts *o);
bool kmem_opts_reports(const struct kmem_opts *o);
int kmem_opts_check_sort(const struct kmem_opts *o, FILE *err);
bool kmem_opts_allocator(const struct kmem_opts *o, bool selected);
bool kmem_opt_optional(const struct kmem_opt_def *d);

#endif
