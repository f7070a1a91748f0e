/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Reading and counting on two cores: a reading thread (libtracecmd, or
 * the native reader) copies each record into blocks; the calling thread
 * takes the blocks in order and hands the records to the session.  The
 * copy moves the reads of the trace's pages (page faults, cache misses)
 * to the reading thread.  Memory stays bounded: a few blocks of records
 * in flight, never the trace.  The native reader's compressed buffers
 * do without it: there the second core inflates chunks ahead
 * (tdat_set_prefetch()) and the records are counted where they lie
 * (native.c).
 */
#ifndef TRACE_KMEM_PIPELINE_H
#define TRACE_KMEM_PIPELINE_H

#include "progress.h"
#include "session.h"

struct tk_pipe;

typedef int (*tk_produce_fn)(struct tk_pipe *p, void *src);

int tk_pipe_push(struct tk_pipe *p, const struct tep_record *rec);

/* tk_pipeline_run(): memory ran out for the blocks of records */
#define TK_PIPE_NOMEM (-3)

int tk_pipeline_run(tk_produce_fn produce, void *src, struct tk_session *s,
		    struct tk_progress *progress);
bool tk_pipeline_one_thread(void);
bool tk_pipeline_small(uint64_t bytes, bool compressed);

#endif
