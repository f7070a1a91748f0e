/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * trace-kmem, the standalone front end: what its files share.
 */
#ifndef TRACE_KMEM_CLI_H
#define TRACE_KMEM_CLI_H

#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "base/hashtab.h"
#include "options/options.h"

#define TK_NAME "trace-kmem"

/* Exit status */
#define TK_OK 0
#define TK_USAGE 1	/* bad command line */
#define TK_ENV 2	/* bad input, or the system cannot do it */
#define TK_BROKEN_PIPE (128 + 13)	/* stdout's reader went away: quiet,
					 * as a process killed by SIGPIPE */

/* What records to count (the filters trace-cmd report gives the plugin). */
struct tk_filter {
	bool time;			/* --time */
	uint64_t start, end;		/* ns, both inclusive */
	bool pids;			/* --pid */
	struct u64_index pid_ix;	/* the pids, as keys */
	const char *comm;		/* --comm */
	cpu_set_t *cpus;		/* --cpu, NULL for all */
	size_t cpus_size;
	int max_cpu;
};

enum tk_command { TK_STAT, TK_LIVE, TK_TOPOLOGY, TK_PLOT, TK_DIFF };

struct tk_args {
	enum tk_command cmd;
	struct kmem_opts opts;
	struct tk_filter filter;
	const char **inputs;		/* stat: the files */
	int nr_inputs;
	bool libtracecmd;		/* --reader=libtracecmd */
	const char *instance;		/* plot: --instance NAME */
	bool merge;			/* --merge: one report of all */
	bool by_function;		/* --by-function (diff, --merge) */
	/* diff */
	int norm;			/* --per-second 1, --per-event 2 */
	/* live */
	double duration;		/* -d, 0: until the command ends or ^C */
	double interval;		/* --interval, 0: none */
	bool stacks;			/* -T */
	bool oom;			/* memory ran out while parsing */
	unsigned int buffer_kb;		/* --buffer-size, per CPU */
	char **command;			/* after --, NULL-terminated */
};

/* args.c, opt_table.c */
int tk_parse_args(struct tk_args *a, int argc, char **argv);
void tk_args_release(struct tk_args *a);
void tk_usage(const char *cmd, bool full);

/* filter.c */
int tk_filter_time(struct tk_filter *f, const char *arg);
int tk_filter_pids(struct tk_filter *f, const char *arg);
int tk_filter_cpus(struct tk_filter *f, const char *arg);
void tk_filter_release(struct tk_filter *f);

/* stat.c, live.c, topology.c, plot.c */
int tk_stat(struct tk_args *a);
int tk_plot(struct tk_args *a);
int tk_diff(struct tk_args *a);
int tk_live(struct tk_args *a);
int tk_topology(struct tk_args *a);

/**
 * tk_catch_signals - call @fn on each of @sigs
 * @fn: the handler (async-signal-safe)
 * @sigs: the signals
 * @n: their number
 */
static inline void tk_catch_signals(void (*fn)(int), const int *sigs, size_t n)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < n; i++)
		sigaction(sigs[i], &sa, NULL);
}

#endif
