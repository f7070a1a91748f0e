/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * What args.c (parsing the command line) and opt_table.c (which options
 * there are, where they apply, and the help text) share.
 */
#ifndef TRACE_KMEM_OPT_TABLE_H
#define TRACE_KMEM_OPT_TABLE_H

#include <getopt.h>

/* Options of the front end itself; lib/'s table comes first. */
enum {
	OPT_TIME = 0x100,
	OPT_PID,
	OPT_COMM,
	OPT_CPU,
	OPT_INTERVAL,
	OPT_BUFFER,
	OPT_READER,
	OPT_INSTANCE,
	OPT_BY_FUNCTION,
	OPT_MERGE,
	OPT_PER_SECOND,
	OPT_PER_EVENT,
};

extern const char *const tk_cmd_names[];

struct option *tk_long_options(void);
int tk_where_of(int c);
int tk_command_of(const char *s);

#endif
