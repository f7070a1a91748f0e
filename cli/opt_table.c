// SPDX-License-Identifier: LGPL-2.1
/*
 * The options of trace-kmem: lib/'s option table as --NAME options and
 * the front end's own, which subcommands take each, getopt_long's table
 * of them, and the help text that lists them.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc/registry.h"
#include "cli.h"
#include "opt_table.h"

/* Which subcommands take an option (bit per enum tk_command). */
#define IN_STAT (1 << TK_STAT)
#define IN_LIVE (1 << TK_LIVE)
#define IN_TOPO (1 << TK_TOPOLOGY)
#define IN_PLOT (1 << TK_PLOT)
#define IN_DIFF (1 << TK_DIFF)
#define IN_READ (IN_STAT | IN_PLOT | IN_DIFF)	/* those reading trace.dat */
#define IN_ALL (IN_STAT | IN_LIVE | IN_TOPO | IN_PLOT | IN_DIFF)

struct tk_opt {
	struct option lo;
	int where;
	const char *arg;
	const char *desc;
};

static const struct tk_opt own_opts[] = {
	{ { "input", required_argument, NULL, 'i' },
	  IN_READ,
	  "FILE",
	  "Input file (repeatable; also as plain arguments)" },
	{ { "time", required_argument, NULL, OPT_TIME },
	  IN_READ,
	  "START,END",
	  "Only records in this time window (seconds)" },
	{ { "pid", required_argument, NULL, OPT_PID },
	  IN_READ | IN_LIVE,
	  "PID[,PID...]",
	  "Only records of these tasks" },
	{ { "comm", required_argument, NULL, OPT_COMM },
	  IN_READ | IN_LIVE,
	  "NAME",
	  "Only records of tasks with this command name" },
	{ { "cpu", required_argument, NULL, OPT_CPU },
	  IN_READ | IN_LIVE,
	  "LIST",
	  "Only records of these CPUs (e.g. 0-3,6)" },
	{ { "reader", required_argument, NULL, OPT_READER },
	  IN_READ,
	  "native|libtracecmd",
	  "How trace.dat is read (default native)" },
	{ { "instance", required_argument, NULL, OPT_INSTANCE },
	  IN_READ,
	  "NAME",
	  "Read this buffer instance only (default: stat every buffer; plot, "
	  "diff the top-level one, or the one instance with kmem records)" },
	{ { "merge", no_argument, NULL, OPT_MERGE },
	  IN_STAT | IN_DIFF,
	  NULL,
	  "One report over all the files (diff: each side a comma-separated "
	  "group)" },
	{ { "by-function", no_argument, NULL, OPT_BY_FUNCTION },
	  IN_DIFF | IN_STAT,
	  NULL,
	  "Match call sites by function, not function+0xoff (other kernels)" },
	{ { "per-second", no_argument, NULL, OPT_PER_SECOND },
	  IN_DIFF,
	  NULL,
	  "Compare counts and bytes per second of each trace" },
	{ { "per-event", no_argument, NULL, OPT_PER_EVENT },
	  IN_DIFF,
	  NULL,
	  "Compare counts and bytes per allocator event of each trace" },
	{ { "duration", required_argument, NULL, 'd' },
	  IN_LIVE,
	  "SECONDS",
	  "Stop after SECONDS" },
	{ { "interval", required_argument, NULL, OPT_INTERVAL },
	  IN_LIVE,
	  "SECONDS",
	  "Reprint the tables every SECONDS" },
	{ { "stacks", no_argument, NULL, 'T' },
	  IN_LIVE,
	  NULL,
	  "Record kernel stacks of page allocations (call sites)" },
	{ { "buffer-size", required_argument, NULL, OPT_BUFFER },
	  IN_LIVE,
	  "KB",
	  "Ring buffer per CPU (default 8192)" },
	{ { "help", no_argument, NULL, 'h' }, IN_ALL, NULL, "This help" },
	{ { "version", no_argument, NULL, 'V' },
	  IN_ALL,
	  NULL,
	  "Print the version" },
};

#define NR_OWN (sizeof(own_opts) / sizeof(own_opts[0]))

/* lib/ options spelled with a short letter too */
static int short_of(const char *name)
{
	if (!strcmp(name, "sort"))
		return 's';
	if (!strcmp(name, "lines"))
		return 'l';
	if (!strcmp(name, "output"))
		return 'o';
	return 0;
}

/*
 * lib/ options plot takes: the allocators the timeline draws
 * (KMEM_CAP_TIMELINE), and where and how much it draws
 */
static const char *const plot_opts[] = { "skip", "lines",  "raw-ip",
					 "json", "output", NULL };

static bool in_plot(const char *name)
{
	const char *const *p;
	unsigned int id;

	for (id = 0; id < KMEM_NR_ALLOC; id++)
		if (!strcmp(kmem_allocs[id].name, name))
			return kmem_allocs[id].caps & KMEM_CAP_TIMELINE;
	for (p = plot_opts; *p; p++)
		if (!strcmp(*p, name))
			return true;
	return false;
}

/* "stat" is the subcommand; -o applies to topology too */
static int lib_where(const char *name)
{
	int plot = in_plot(name) ? IN_PLOT : 0;

	if (!strcmp(name, "stat"))
		return 0;
	if (!strcmp(name, "output"))
		return IN_STAT | IN_LIVE | IN_TOPO | plot | IN_DIFF;
	if (!strcmp(name, "folded") || !strcmp(name, "folded-weight") ||
	    !strcmp(name, "csv") || !strcmp(name, "json-rows"))
		return IN_STAT | IN_LIVE | plot;
	if (!strcmp(name, "pprof") || !strcmp(name, "pprof-label") ||
	    !strcmp(name, "rows"))
		return IN_STAT | IN_LIVE;
	return IN_STAT | IN_LIVE | plot | IN_DIFF;
}

static size_t nr_lib_opts(void)
{
	size_t n = 0;

	while (kmem_opt_defs[n].name)
		n++;
	return n;
}

/**
 * tk_long_options - getopt_long's table: lib/'s options (val = 0x1000 +
 * index), ours
 *
 * Return: the table, to free(), or NULL when out of memory.
 */
struct option *tk_long_options(void)
{
	size_t nl = nr_lib_opts(), i, n = 0;
	struct option *lo = calloc(nl + NR_OWN + 1, sizeof(*lo));

	if (!lo)
		return NULL;
	for (i = 0; i < nl; i++) {
		const struct kmem_opt_def *d = &kmem_opt_defs[i];

		if (!lib_where(d->name))
			continue;
		lo[n].name = d->name;
		lo[n].has_arg = !d->arg ? no_argument :
				!strcmp(d->name, "json") ||
				!strcmp(d->name, "folded") ||
				kmem_opt_optional(d) ? optional_argument :
							   required_argument;
		lo[n].val = 0x1000 + (int)i;
		n++;
	}
	for (i = 0; i < NR_OWN; i++)
		lo[n++] = own_opts[i].lo;
	return lo;
}

/* The subcommands' names, indexed by enum tk_command. */
const char *const tk_cmd_names[] = { "stat", "live", "topology",
					 "plot", "diff" };

/* Column of the descriptions in --help, and the width they wrap at. */
#define DESC_COL 33
#define HELP_WIDTH 79

/* @desc from column DESC_COL, its words wrapped at HELP_WIDTH. */
static void print_desc(FILE *f, const char *desc)
{
	size_t col = DESC_COL - 1, n;
	const char *p = desc;

	while (*p) {
		while (*p == ' ')
			p++;
		n = strcspn(p, " ");
		if (!n)
			break;
		if (col > DESC_COL - 1 && col + 1 + n > HELP_WIDTH) {
			fprintf(f, "\n%*s", DESC_COL - 1, "");
			col = DESC_COL - 1;
		}
		fprintf(f, " %.*s", (int)n, p);
		col += 1 + n;
		p += n;
	}
	fputc('\n', f);
}

static void print_opt(FILE *f, char sh, const char *name, const char *arg,
		      bool optional, const char *desc)
{
	char spec[64], lead[8] = "    ";

	if (sh)
		snprintf(lead, sizeof(lead), "-%c, ", sh);
	snprintf(spec, sizeof(spec), "%s--%s%s%s%s", lead, name,
		 arg ? (optional ? "[=" : " ") : "", arg ? arg : "",
		 arg && optional ? "]" : "");
	fprintf(f, "  %-30s", spec);
	if (strlen(spec) > 30) /* its description on the next line */
		fprintf(f, "\n  %30s", "");
	print_desc(f, desc);
}

/* What an option means to plot, where that differs from stat. */
static const char *plot_desc(const char *name)
{
	if (!strcmp(name, "lines"))
		return "Call sites drawn per allocator, by peak live bytes "
		       "(0: up to 32)";
	if (!strcmp(name, "output"))
		return "Write the SVG to FILE (default: stdout)";
	if (!strcmp(name, "json"))
		return "Write the JSON document with its \"timeline\" to FILE "
		       "(default: stdout, instead of the SVG)";
	return NULL;
}

static void print_opts(FILE *f, int where)
{
	const struct kmem_opt_def *d;
	size_t i;

	for (d = kmem_opt_defs; d->name; d++) {
		bool json = !strcmp(d->name, "json");
		bool folded = !strcmp(d->name, "folded");
		char desc[256];

		if (!(lib_where(d->name) & where))
			continue;
		/* the default of an option with a value, when it has one */
		snprintf(desc, sizeof(desc), "%s%s%s%s", d->desc,
			 d->def && *d->def ? " (default " : "",
			 d->def && *d->def ? d->def : "",
			 d->def && *d->def ? ")" : "");
		print_opt(f, (char)short_of(d->name), d->name,
			  json || folded || !strcmp(d->name, "output") ? "FILE" :
								     d->arg,
			  json || folded || kmem_opt_optional(d),
			  where == IN_PLOT && plot_desc(d->name) ?
				  plot_desc(d->name) :
			  json ? "Write JSON to FILE (default: stdout, "
				 "instead of the tables)" :
			  folded ? "Write allocations by stack, folded for "
				   "flame graphs, to FILE (default: stdout, "
				   "instead of the tables)" :
				 !strcmp(d->name, "output") ?
				 "Write the tables (topology: the map) to FILE" :
				 desc);
	}
	for (i = 0; i < NR_OWN; i++) {
		const struct tk_opt *o = &own_opts[i];
		int v = o->lo.val;

		if (!(o->where & where))
			continue;
		print_opt(f, v < 0x100 ? (char)v : 0, o->lo.name, o->arg,
			  false, o->desc);
	}
}

/* What --help says of each command: its synopsis and what it does. */
static const struct {
	const char *name;
	const char *synopsis;	/* after "trace-kmem " */
	const char *summary;	/* one line, in the list of commands */
	const char *what;	/* the paragraph of CMD --help */
	unsigned int in;	/* IN_*: its options */
	const char *title;	/* "STAT OPTIONS" */
} cmds[] = {
	{ "stat", "stat [OPTIONS] [FILE...]",
	  "the tables of trace-cmd report -O kmem:stat, without the listing",
	  "  stat reads trace.dat files (default: trace.dat) and prints the tables\n"
	  "  of trace-cmd report -O kmem:stat, byte for byte, without the listing;\n"
	  "  each buffer instance of a file separately, then a merged summary when\n"
	  "  there is more than one input.\n",
	  IN_STAT, "STAT OPTIONS" },
	{ "live", "live [OPTIONS] [-d SECONDS] [-- COMMAND [ARGS...]]",
	  "trace this machine (root), then print the same tables",
	  "  live traces this machine in its own tracefs instance (root needed):\n"
	  "  COMMAND and its children only when given, else every task.  The\n"
	  "  tables are printed when COMMAND exits, after -d, or at the first ^C.\n",
	  IN_LIVE, "LIVE OPTIONS" },
	{ "topology", "topology [-o FILE]",
	  "this machine's CPU and memory to node map, for --numa",
	  "  topology writes this machine's CPU and memory to node map, for\n"
	  "  --numa (kmem-numa(5)).\n",
	  IN_TOPO, "TOPOLOGY OPTIONS" },
	{ "plot", "plot [OPTIONS] [-o FILE.svg] [FILE]",
	  "live memory over the trace's time, as an SVG file",
	  "  plot draws live slab and page-allocator memory over the trace's time,\n"
	  "  with the call sites of the highest peaks, as one SVG file.\n",
	  IN_PLOT, "PLOT OPTIONS" },
	{ "diff", "diff [OPTIONS] BEFORE.dat AFTER.dat",
	  "two recordings' summaries and call sites compared",
	  "  diff compares two files (their top-level buffers): the summaries side\n"
	  "  by side with their differences, and the call sites and caches that\n"
	  "  changed most.\n",
	  IN_DIFF, "DIFF OPTIONS" },
};

/**
 * tk_usage - the help text, or a pointer to it
 * @cmd: the command asked about, or NULL
 * @full: the text on stdout; else one line on stderr
 *
 * Without @cmd: the synopsis of every command, a line on each, and where
 * their options are (trace-kmem CMD --help, trace-kmem(1)).  With one:
 * its synopsis, what it does and its options.
 */
void tk_usage(const char *cmd, bool full)
{
	size_t i, n = sizeof(cmds) / sizeof(cmds[0]);
	int k = -1;

	if (!full) {
		fprintf(stderr, "Try '" TK_NAME " --help' or 'man " TK_NAME
				"' for more information.\n");
		return;
	}
	for (i = 0; cmd && i < n; i++)
		if (!strcmp(cmd, cmds[i].name))
			k = (int)i;
	printf("NAME\n"
	       "  " TK_NAME " - kernel memory allocation statistics from kmem "
	       "trace events\n\n"
	       "SYNOPSIS\n");
	for (i = 0; i < n; i++)
		if (k < 0 || (size_t)k == i)
			printf("  " TK_NAME " %s\n", cmds[i].synopsis);
	putchar('\n');
	if (k < 0) {
		printf("COMMANDS\n");
		for (i = 0; i < n; i++)
			printf("  %-9s %s\n", cmds[i].name, cmds[i].summary);
		printf("\n  The options of a command: " TK_NAME
		       " COMMAND --help, and man " TK_NAME ".\n\n");
	} else {
		printf("DESCRIPTION\n%s\n%s\n", cmds[k].what, cmds[k].title);
		print_opts(stdout, cmds[k].in);
		putchar('\n');
	}
	printf("EXIT STATUS\n"
	       "  0 success, 1 usage error, 2 bad input or environment "
	       "(no tracefs, not\n"
	       "  root, events missing, unreadable file).\n\n"
	       "SEE ALSO\n"
	       "  trace-kmem(1), kmem-plugin(7), kmem-stat-definitions(7), "
	       "kmem-json(5),\n"
	       "  kmem-numa(5), kmem-kernelshark(7); trace-cmd-report(1), "
	       "perf-kmem(1).\n");
}

static int own_where(int c)
{
	size_t i;

	for (i = 0; i < NR_OWN; i++)
		if (own_opts[i].lo.val == c)
			return own_opts[i].where;
	return 0;
}

/**
 * tk_where_of - the subcommands that take an option
 * @c: the option, as getopt_long returns it
 *
 * Return: a bit (1 << enum tk_command) per subcommand taking it.
 */
int tk_where_of(int c)
{
	if (c >= 0x1000)
		return lib_where(kmem_opt_defs[c - 0x1000].name);
	if (c == 's')
		return IN_STAT | IN_LIVE | IN_DIFF;
	if (c == 'l')
		return IN_STAT | IN_LIVE | IN_PLOT | IN_DIFF;
	if (c == 'o')
		return IN_STAT | IN_LIVE | IN_TOPO | IN_PLOT | IN_DIFF;
	return own_where(c);
}

/**
 * tk_command_of - a subcommand by its name
 * @s: the name
 *
 * Return: its enum tk_command, or -1.
 */
int tk_command_of(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof(tk_cmd_names) / sizeof(tk_cmd_names[0]); i++)
		if (!strcmp(s, tk_cmd_names[i]))
			return (int)i;
	return -1;
}
