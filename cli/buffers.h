/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Which buffer of a trace.dat a one-buffer command reads (plot, diff):
 * the same choice for each, said the same way (see buffers.c).
 */
#ifndef TRACE_KMEM_BUFFERS_H
#define TRACE_KMEM_BUFFERS_H

#include <stdbool.h>

#include "inputs.h"

int tk_buffer_count(const struct tk_input *in);
const char *tk_buffer_name(const struct tk_input *in, int buffer);
struct tep_handle *tk_buffer_tep(const struct tk_input *in, int buffer);
int tk_buffer_pick(const struct tk_input *in, const char *path,
		   const char *instance, bool *reopen);

#endif
