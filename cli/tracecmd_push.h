/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * One record from libtracecmd into the pipeline: its size and extent
 * checked (a damaged page gives sizes like -4 and records that run past
 * the buffer libtracecmd holds the page in), then copied with
 * tk_pipe_push().  Apart from tracecmd_read.c, so that the fuzz target
 * tests/fuzz/fuzz_copy.c runs this very code without libtracecmd.
 */
#ifndef TRACE_KMEM_TRACECMD_PUSH_H
#define TRACE_KMEM_TRACECMD_PUSH_H

#include <stdint.h>

#include "pageout.h"
#include "pipeline.h"

/*
 * A CPU's records come in file order: one that is not past the furthest
 * yet is damage (a length word that sent libtracecmd back), and this
 * many in a row are a loop libtracecmd will not leave (a length word
 * that sends it to the same record again and again).
 */
#define TK_TC_GOING_ROUND 1024

struct tk_tc_push {
	struct tk_pipe *pipe;
	struct tk_pageout pageout;
	int max_size;	   /* no record is larger than a page */
	unsigned int page; /* nor runs past its page: kmem_page_bound() */
	uint64_t skipped;  /* records of impossible sizes or extents */
	int first_cpu;	   /* where the first of them was */
	unsigned long long first_offset;
	int nr_cpus;
	unsigned long long *furthest; /* per CPU: the furthest offset */
	unsigned int *behind;	      /* per CPU: records since, in a row */
	int round_cpu;		      /* >= 0: libtracecmd went round */
	unsigned long long round_offset;
};

int tk_tc_push_init(struct tk_tc_push *tp, struct tep_handle *tep);
int tk_tc_moving(struct tk_tc_push *tp, const struct tep_record *rec, int cpu);
int tk_tc_push(struct tk_tc_push *tp, const struct tep_record *rec, int cpu);
void tk_tc_push_release(struct tk_tc_push *tp);

#endif
