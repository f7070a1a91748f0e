/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * trace-kmem stat through libtracecmd (--reader=libtracecmd, and files
 * the native reader leaves to it): the reading side of the pipeline.
 */
#ifndef TRACE_KMEM_TRACECMD_READ_H
#define TRACE_KMEM_TRACECMD_READ_H

#include <trace-cmd.h>

#include "inputs.h"
#include "pipeline.h"

int tk_tracecmd_run(const struct tk_input *in, int buffer,
		    struct tk_session *s, struct tk_progress *progress);

#endif
