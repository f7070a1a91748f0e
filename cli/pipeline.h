/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Reading and counting on two cores: a reader thread iterates a trace
 * with libtracecmd (the floor of anything built on it) and copies each
 * record into blocks; the calling thread takes the blocks in order and
 * hands the records to the session.  Memory stays bounded: a few blocks
 * of records in flight, never the trace.
 */
#ifndef TRACE_KMEM_PIPELINE_H
#define TRACE_KMEM_PIPELINE_H

#include <trace-cmd.h>

#include "progress.h"
#include "session.h"

int tk_pipeline_run(struct tracecmd_input *h, struct tk_session *s,
		    struct tk_progress *progress);

#endif
