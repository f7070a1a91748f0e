/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Where the tables, the JSON, the CSV, the folded stacks, the pprof
 * profile and the rows go, as the options say: each an output file of
 * base/outfile.h.
 */
#ifndef KMEM_OUTPUT_H
#define KMEM_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "base/outfile.h"
#include "options.h"
#include "pprof/pprof.h"

/* The tables' and the JSON's destinations for one report or more. */
struct kmem_outputs {
	struct kmem_out tables;
	struct kmem_out json;
	struct kmem_out csv;
	struct kmem_out folded;
	struct kmem_out pprof;
	struct kmem_out rows;
	/* the profile the reports are added to, written at the end, and
	 * the labels of its samples and of the rows (the options') */
	struct kmem_pprof *profile;
	const struct kmem_label *pprof_labels;
	size_t nr_pprof_labels;
	bool broken_pipe;	/* kept after finish or discard */
	/*
	 * Set by the caller after opening: the JSON document holds several
	 * reports (kmem_report_json_part()), json_docs of them written so
	 * far; json_last ends it after the next (else a merged summary).
	 */
	bool json_several;
	bool json_last;
	int json_docs;
};

int kmem_outputs_spare(const struct kmem_opts *o, const char *const *inputs,
		       int n, FILE *err);
int kmem_outputs_open(struct kmem_outputs *outs, const struct kmem_opts *o,
		      bool append, FILE *err);
int kmem_outputs_finish(struct kmem_outputs *outs, FILE *err);
int kmem_outputs_hold(struct kmem_outputs *outs);
void kmem_outputs_discard(struct kmem_outputs *outs);
void kmem_outputs_note(struct kmem_outputs *outs);

#endif
