// SPDX-License-Identifier: LGPL-2.1
/*
 * The command line: subcommand, lib/'s option table as --NAME options,
 * the filters, and live mode's options.  Usage errors exit 1.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

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
	OPT_PER_SECOND,
	OPT_PER_EVENT,
};

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
	{ { "input", required_argument, NULL, 'i' }, IN_READ, "FILE",
	  "Input file (repeatable; also as plain arguments)" },
	{ { "time", required_argument, NULL, OPT_TIME }, IN_READ,
	  "START,END", "Only records in this time window (seconds)" },
	{ { "pid", required_argument, NULL, OPT_PID }, IN_READ | IN_LIVE,
	  "PID[,PID...]", "Only records of these tasks" },
	{ { "comm", required_argument, NULL, OPT_COMM }, IN_READ | IN_LIVE,
	  "NAME", "Only records of tasks with this command name" },
	{ { "cpu", required_argument, NULL, OPT_CPU }, IN_READ | IN_LIVE,
	  "LIST", "Only records of these CPUs (e.g. 0-3,6)" },
	{ { "reader", required_argument, NULL, OPT_READER }, IN_READ,
	  "native|libtracecmd", "How trace.dat is read (default native)" },
	{ { "instance", required_argument, NULL, OPT_INSTANCE }, IN_PLOT,
	  "NAME", "Draw this buffer instance (default: the top-level buffer)" },
	{ { "by-function", no_argument, NULL, OPT_BY_FUNCTION }, IN_DIFF, NULL,
	  "Match call sites by function, not function+0xoff (other kernels)" },
	{ { "per-second", no_argument, NULL, OPT_PER_SECOND }, IN_DIFF, NULL,
	  "Compare counts and bytes per second of each trace" },
	{ { "per-event", no_argument, NULL, OPT_PER_EVENT }, IN_DIFF, NULL,
	  "Compare counts and bytes per allocator event of each trace" },
	{ { "duration", required_argument, NULL, 'd' }, IN_LIVE, "SECONDS",
	  "Stop after SECONDS" },
	{ { "interval", required_argument, NULL, OPT_INTERVAL }, IN_LIVE,
	  "SECONDS", "Reprint the tables every SECONDS" },
	{ { "stacks", no_argument, NULL, 'T' }, IN_LIVE, NULL,
	  "Record kernel stacks of page allocations (call sites)" },
	{ { "buffer-size", required_argument, NULL, OPT_BUFFER }, IN_LIVE,
	  "KB", "Ring buffer per CPU (default 8192)" },
	{ { "help", no_argument, NULL, 'h' }, IN_ALL, NULL, "This help" },
	{ { "version", no_argument, NULL, 'V' }, IN_ALL, NULL,
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

/* lib/ options plot takes: what is drawn and where it goes */
static const char *const plot_opts[] = { "slab", "page", "skip", "lines",
					 "raw-ip", "json", "output", NULL };

static bool in_plot(const char *name)
{
	const char *const *p;

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
	    !strcmp(name, "csv"))
		return IN_STAT | IN_LIVE | plot;
	return IN_STAT | IN_LIVE | plot | IN_DIFF;
}

static size_t nr_lib_opts(void)
{
	size_t n = 0;

	while (kmem_opt_defs[n].name)
		n++;
	return n;
}

/* getopt_long's table: lib/'s options (val = 0x1000 + index), ours. */
static struct option *long_options(void)
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

static const char *const cmd_names[] = { "stat", "live", "topology",
					 "plot", "diff" };

static void print_opt(FILE *f, char sh, const char *name, const char *arg,
		      bool optional, const char *desc)
{
	char spec[64], lead[8] = "    ";

	if (sh)
		snprintf(lead, sizeof(lead), "-%c, ", sh);
	snprintf(spec, sizeof(spec), "%s--%s%s%s%s", lead, name,
		 arg ? (optional ? "[=" : " ") : "", arg ? arg : "",
		 arg && optional ? "]" : "");
	fprintf(f, "  %-30s %s\n", spec, desc);
}

/* What an option means to plot, where that differs from stat. */
static const char *plot_desc(const char *name)
{
	if (!strcmp(name, "lines"))
		return "Call sites drawn, by peak live bytes (0: up to 32)";
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

/**
 * tk_usage - the manual, or a pointer to it
 * @cmd: the subcommand asked about, or NULL
 * @full: the whole text on stdout; else one line on stderr
 */
void tk_usage(const char *cmd, bool full)
{
	if (!full) {
		fprintf(stderr, "Try '" TK_NAME " --help' or 'man " TK_NAME
				"' for more information.\n");
		return;
	}
	printf("NAME\n"
	       "  " TK_NAME " - kernel memory allocation statistics from kmem "
	       "trace events\n\n"
	       "SYNOPSIS\n"
	       "  " TK_NAME " stat [OPTIONS] [FILE...]\n"
	       "  " TK_NAME " live [OPTIONS] [-d SECONDS] [-- COMMAND "
	       "[ARGS...]]\n"
	       "  " TK_NAME " topology [-o FILE]\n"
	       "  " TK_NAME " plot [OPTIONS] [-o FILE.svg] [FILE]\n"
	       "  " TK_NAME " diff [OPTIONS] BEFORE.dat AFTER.dat\n\n"
	       "DESCRIPTION\n"
	       "  stat reads trace.dat files (default: trace.dat) and prints "
	       "the tables\n"
	       "  of trace-cmd report -O kmem:stat, byte for byte, without "
	       "the listing;\n"
	       "  each buffer instance of a file separately, then a merged "
	       "summary when\n"
	       "  there is more than one input.\n\n"
	       "  live traces this machine in its own tracefs instance "
	       "(root needed):\n"
	       "  COMMAND and its children only when given, else every "
	       "task.  The\n"
	       "  tables are printed when COMMAND exits, after -d, or at "
	       "the first ^C.\n\n"
	       "  topology writes this machine's CPU and memory to node "
	       "map, for --numa.\n\n"
	       "  plot draws live slab and page-allocator memory over the "
	       "trace's time,\n"
	       "  with the call sites of the highest peaks, as one SVG "
	       "file.\n\n"
	       "  diff compares two files (their top-level buffers): the "
	       "summaries side\n"
	       "  by side with their differences, and the call sites and "
	       "caches that\n"
	       "  changed most.\n\n");
	if (!cmd || !strcmp(cmd, "stat")) {
		printf("STAT OPTIONS\n");
		print_opts(stdout, IN_STAT);
		putchar('\n');
	}
	if (!cmd || !strcmp(cmd, "live")) {
		printf("LIVE OPTIONS\n");
		print_opts(stdout, IN_LIVE);
		putchar('\n');
	}
	if (!cmd || !strcmp(cmd, "plot")) {
		printf("PLOT OPTIONS\n");
		print_opts(stdout, IN_PLOT);
		putchar('\n');
	}
	if (!cmd || !strcmp(cmd, "diff")) {
		printf("DIFF OPTIONS\n");
		print_opts(stdout, IN_DIFF);
		putchar('\n');
	}
	printf("EXIT STATUS\n"
	       "  0 success, 1 usage error, 2 bad input or environment "
	       "(no tracefs, not\n"
	       "  root, events missing, unreadable file).\n\n"
	       "SEE ALSO\n"
	       "  The manual: man trace-kmem (Documentation/trace-kmem.txt); "
	       "kmem-plugin(7),\n"
	       "  kmem-stat-definitions(7), kmem-json(5), kmem-numa(5); "
	       "trace-cmd-report(1),\n"
	       "  perf-kmem(1).\n");
}

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, TK_NAME ": ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	tk_usage(NULL, false);
	return -1;
}

static int parse_seconds(const char *arg, const char *name, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (!*arg || *end || errno || !(v > 0) || v > 1e9) {
		fprintf(stderr, TK_NAME ": bad --%s '%s' (seconds, above 0)\n",
			name, arg);
		return -1;
	}
	*out = v;
	return 0;
}

static int parse_kb(const char *arg, unsigned int *out)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (!*arg || *end || errno || v < 4 || v > 4UL << 20) {
		fprintf(stderr, TK_NAME ": bad --buffer-size '%s' (KB per CPU, "
				"4 to 4194304)\n", arg);
		return -1;
	}
	*out = (unsigned int)v;
	return 0;
}

static int add_input(struct tk_args *a, const char *path)
{
	const char **p = realloc(a->inputs, (a->nr_inputs + 1) * sizeof(*p));

	if (!p)
		return -1;
	a->inputs = p;
	a->inputs[a->nr_inputs++] = path;
	return 0;
}

static const char *opt_name(const struct option *lo, int c)
{
	for (; lo->name; lo++)
		if (lo->val == c)
			return lo->name;
	return "?";
}

/* The long name of option @c, however it was spelled. */
static const char *spell(int c, const struct option *lo)
{
	if (c == 's')
		return "sort";
	if (c == 'l')
		return "lines";
	if (c == 'o')
		return "output";
	return opt_name(lo, c);
}

static int own_where(int c)
{
	size_t i;

	for (i = 0; i < NR_OWN; i++)
		if (own_opts[i].lo.val == c)
			return own_opts[i].where;
	return 0;
}

static int where_of(int c)
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

static int set_lib(struct tk_args *a, const char *name, const char *arg)
{
	if ((!strcmp(name, "json") || !strcmp(name, "folded")) && !arg)
		arg = "-";
	return kmem_opts_set(&a->opts, name, arg, stderr);
}

static int parse_reader(const char *arg, bool *libtracecmd)
{
	if (!strcmp(arg, "native") || !strcmp(arg, "libtracecmd")) {
		*libtracecmd = arg[0] == 'l';
		return 0;
	}
	fprintf(stderr, TK_NAME ": --reader: \"%s\" is neither native nor "
		"libtracecmd\n", arg);
	return -1;
}

static int one_option(struct tk_args *a, int c, const struct option *lo)
{
	struct tk_filter *f = &a->filter;

	if (c >= 0x1000)
		return set_lib(a, kmem_opt_defs[c - 0x1000].name, optarg);
	switch (c) {
	case 's':
		return set_lib(a, "sort", optarg);
	case 'l':
		return set_lib(a, "lines", optarg);
	case 'o':
		return set_lib(a, "output", optarg);
	case 'i':
		return add_input(a, optarg);
	case OPT_TIME:
		return tk_filter_time(f, optarg);
	case OPT_PID:
		return tk_filter_pids(f, optarg);
	case OPT_COMM:
		f->comm = optarg;
		return 0;
	case OPT_CPU:
		return tk_filter_cpus(f, optarg);
	case 'd':
		return parse_seconds(optarg, opt_name(lo, c), &a->duration);
	case OPT_INTERVAL:
		return parse_seconds(optarg, opt_name(lo, c), &a->interval);
	case 'T':
		a->stacks = true;
		return 0;
	case OPT_BUFFER:
		return parse_kb(optarg, &a->buffer_kb);
	case OPT_READER:
		return parse_reader(optarg, &a->libtracecmd);
	case OPT_INSTANCE:
		a->instance = optarg;
		return 0;
	case OPT_BY_FUNCTION:
		a->by_function = true;
		return 0;
	case OPT_PER_SECOND:
	case OPT_PER_EVENT:
		if (a->norm && a->norm != (c == OPT_PER_SECOND ? 1 : 2))
			return usage_error("%s", "--per-second and --per-event "
				"exclude each other");
		a->norm = c == OPT_PER_SECOND ? 1 : 2;
		return 0;
	}
	return -1;
}

static int command_of(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof(cmd_names) / sizeof(cmd_names[0]); i++)
		if (!strcmp(s, cmd_names[i]))
			return (int)i;
	return -1;
}

static int parse_options(struct tk_args *a, int argc, char **argv,
			 const struct option *lo)
{
	char shortopt[3] = "-?";
	int c;

	/* getopt's own messages would start with the subcommand's name */
	opterr = 0;
	/* live stops at its COMMAND; stat takes files anywhere */
	while ((c = getopt_long(argc, argv,
				a->cmd == TK_LIVE ? "+:s:l:o:i:d:ThV" :
						    ":s:l:o:i:d:ThV",
				lo, NULL)) != -1) {
		if (c == ':')
			return usage_error("option '%s' needs an argument",
					   argv[optind - 1]);
		if (c == '?' && optopt) {
			shortopt[1] = (char)optopt;
			return usage_error("unknown option '%s'", shortopt);
		}
		if (c == '?')
			return usage_error("unknown option '%s'",
					   argv[optind - 1]);
		if (c == 'h') {
			tk_usage(cmd_names[a->cmd], true);
			exit(TK_OK);
		}
		if (c == 'V') {
			printf(TK_NAME " " KMEM_VERSION "\n");
			exit(TK_OK);
		}
		if (!(where_of(c) & (1 << a->cmd))) {
			fprintf(stderr, TK_NAME ": --%s does not apply to "
					"'%s'\n", spell(c, lo), cmd_names[a->cmd]);
			tk_usage(NULL, false);
			return -1;
		}
		if (one_option(a, c, lo))
			return -1;
	}
	return 0;
}

static int rest_of_line(struct tk_args *a, int argc, char **argv)
{
	int i;

	if (a->cmd == TK_LIVE) {
		if (optind < argc)
			a->command = argv + optind;
		return 0;
	}
	if (a->cmd == TK_TOPOLOGY && optind < argc)
		return usage_error("topology takes no argument ('%s')",
				   argv[optind]);
	for (i = optind; i < argc; i++)
		if (add_input(a, argv[i]))
			return -1;
	if (!a->nr_inputs)
		return add_input(a, "trace.dat");
	return 0;
}

/**
 * tk_parse_args - the command line
 * @a: filled in (tk_args_release() it)
 * @argc: from main()
 * @argv: from main()
 *
 * --help and --version print and exit 0 here.
 *
 * Return: 0, or -1 after one line on stderr (a usage error).
 */
int tk_parse_args(struct tk_args *a, int argc, char **argv)
{
	struct option *lo;
	int cmd, ret;

	memset(a, 0, sizeof(*a));
	kmem_opts_init(&a->opts);
	a->opts.strict = true;
	a->opts.stat = true;
	a->buffer_kb = 8192;
	if (argc < 2)
		return usage_error("no command given (stat, live, topology, "
				   "plot or diff)", "");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		tk_usage(argc > 2 ? argv[2] : NULL, true);
		exit(TK_OK);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf(TK_NAME " " KMEM_VERSION "\n");
		exit(TK_OK);
	}
	cmd = command_of(argv[1]);
	if (cmd < 0)
		return usage_error("unknown command '%s' (stat, live, topology, "
				   "plot or diff)", argv[1]);
	a->cmd = cmd;
	lo = long_options();
	if (!lo)
		return -1;
	optind = 1;
	ret = parse_options(a, argc - 1, argv + 1, lo);
	free(lo);
	if (ret)
		return -1;
	if (cmd != TK_TOPOLOGY && kmem_opts_check_sort(&a->opts, stderr)) {
		tk_usage(NULL, false);
		return -1;
	}
	optind++;	/* back to argv's numbering */
	return rest_of_line(a, argc, argv);
}

/**
 * tk_args_release - free what parsing allocated
 * @a: the arguments
 */
void tk_args_release(struct tk_args *a)
{
	kmem_opts_release(&a->opts);
	tk_filter_release(&a->filter);
	free(a->inputs);
}
