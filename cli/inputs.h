/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The trace.dat files of a command line, opened (see inputs.c).
 */
#ifndef TRACE_KMEM_INPUTS_H
#define TRACE_KMEM_INPUTS_H

#include <trace-cmd.h>

#include "cli.h"
#include "native.h"

/* One file, opened by one of the readers. */
struct tk_input {
	struct tracecmd_input *h;	/* libtracecmd */
	struct tracecmd_input **inst;	/* ... its buffer instances */
	int ninst;
	char **names; /* ... their names, made plain */
	int nnames;
	struct tdat_file *f;		/* native */
	struct tdat_scan *scan;		/* libtracecmd: the damage, or NULL */
	/* a file the native reader left to libtracecmd: the line saying
	 * why, once it is read (tk_close_input()), and the one saying
	 * both if libtracecmd then fails on it (tk_input_guard()) */
	char *left_note, *left_fault;
};

struct tk_input *tk_open_inputs(const struct tk_args *a);
void tk_input_guard(const struct tk_input *in, const char *path);
void tk_close_input(struct tk_input *in);

#endif
