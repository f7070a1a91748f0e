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
#include "input_check.h"
#include "opt_table.h"

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

/* Memory ran out: one line, and the exit status of TK_ENV.  Return: -1. */
static int nomem(struct tk_args *a)
{
	fprintf(stderr, TK_NAME ": out of memory\n");
	a->oom = true;
	return -1;
}

static int add_input(struct tk_args *a, const char *path)
{
	const char **p = realloc(a->inputs, (a->nr_inputs + 1) * sizeof(*p));

	if (!p)
		return nomem(a);
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

/*
 * An option whose value is optional (--json, --folded, --leaks), given
 * without "=": the next word is a trace to read, or a value meant for
 * it (--json out.json), which is refused rather than opened as a
 * trace.  live's next word is its COMMAND.
 *
 * Return: 0, or -1 after one line.
 */
static int optional_value(const struct tk_args *a, int c,
			  const struct option *lo, int argc, char **argv)
{
	const char *name = opt_name(lo, c), *next;

	if (optarg || a->cmd == TK_LIVE || optind >= argc)
		return 0;
	for (; lo->name && lo->val != c; lo++)
		;
	if (!lo->name || lo->has_arg != optional_argument)
		return 0;
	next = argv[optind];
	if (next[0] == '-' || tk_is_trace(next))
		return 0;
	fprintf(stderr,
		TK_NAME ": --%s %s: not a trace; write --%s=%s for the value, "
			"or --%s alone for %s\n",
		name, next, name, next, name,
		strcmp(name, "leaks") ? "standard output" : "any age");
	tk_usage(NULL, false);
	return -1;
}

static int set_lib(struct tk_args *a, const char *name, const char *arg)
{
	int ret;

	if ((!strcmp(name, "json") || !strcmp(name, "folded")) && !arg)
		arg = "-";
	errno = 0;
	ret = kmem_opts_set(&a->opts, name, arg, stderr);
	if (ret && errno == ENOMEM) /* said, as memory ran out */
		a->oom = true;
	return ret;
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
	case OPT_MERGE:
		a->merge = true;
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

/*
 * getopt_long's '?': an unknown short option (optopt), an unknown long
 * one (optopt 0, @arg), or a flag given a value (--page=3: optopt its
 * code, which is no letter for a long-only option).  @arg, the last
 * word getopt took, is only the option's own in the last two cases.
 */
static int unknown_option(const struct option *lo, const char *arg)
{
	char name[64], shortopt[3] = "-?";
	size_t n = strcspn(arg, "=");
	int i;

	snprintf(name, sizeof(name), "%.*s", (int)(n < 63 ? n : 63), arg);
	if (optopt && !strncmp(arg, "--", 2) && arg[n])
		for (i = 0; lo[i].name; i++)
			if (lo[i].val == optopt &&
			    lo[i].has_arg == no_argument &&
			    !strcmp(lo[i].name, name + 2))
				return usage_error("option '%s' takes no value",
						   name);
	if (optopt) {
		shortopt[1] = (char)optopt;
		return usage_error("unknown option '%s'", shortopt);
	}
	return usage_error("unknown option '%s'", name);
}

/* 0, 1 when --help or --version printed (exit 0), -1 on a usage error */
static int parse_options(struct tk_args *a, int argc, char **argv,
			 const struct option *lo)
{
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
		if (c == '?')
			return unknown_option(lo, argv[optind - 1]);
		if (c == 'h') {
			tk_usage(tk_cmd_names[a->cmd], true);
			return 1;
		}
		if (c == 'V') {
			printf(TK_NAME " " KMEM_VERSION "\n");
			return 1;
		}
		if (!(tk_where_of(c) & (1 << a->cmd))) {
			fprintf(stderr, TK_NAME ": --%s does not apply to "
					"'%s'\n", spell(c, lo), tk_cmd_names[a->cmd]);
			tk_usage(NULL, false);
			return -1;
		}
		if (optional_value(a, c, lo, argc, argv) ||
		    one_option(a, c, lo))
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

/*
 * --merge: what a report over many traces cannot hold (the objects,
 * stacks and addresses of one trace), and --by-function without it.
 */
static int check_merge(const struct tk_args *a)
{
	const struct kmem_opts *o = &a->opts;
	const char *per_trace = o->alloc       ? "--alloc"
				: o->json_rows ? "--json-rows=all"
				: o->leaks     ? "--leaks"
				: o->folded    ? "--folded"
				: o->raw_ip    ? "--raw-ip"
					       : NULL;

	if (a->cmd == TK_STAT && a->by_function && !a->merge)
		return usage_error("%s", "--by-function applies to diff and "
					 "stat --merge");
	if (a->merge && per_trace)
		return usage_error("%s: the objects, stacks and addresses of "
				   "one trace; not with --merge",
				   per_trace);
	return 0;
}

/**
 * tk_parse_args - the command line
 * @a: filled in (tk_args_release() it)
 * @argc: from main()
 * @argv: from main()
 *
 * --help and --version print here; the caller then exits 0.
 *
 * Return: 0, 1 when --help or --version was printed, or -1 after one
 * line on stderr (a usage error; or @a->oom, memory ran out).
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
		return 1;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf(TK_NAME " " KMEM_VERSION "\n");
		return 1;
	}
	cmd = tk_command_of(argv[1]);
	if (cmd < 0)
		return usage_error("unknown command '%s' (stat, live, topology, "
				   "plot or diff)", argv[1]);
	a->cmd = cmd;
	lo = tk_long_options();
	if (!lo)
		return nomem(a);
	optind = 1;
	ret = parse_options(a, argc - 1, argv + 1, lo);
	free(lo);
	if (ret)
		return ret;
	if (cmd != TK_TOPOLOGY && kmem_opts_check_sort(&a->opts, stderr)) {
		tk_usage(NULL, false);
		return -1;
	}
	optind++;	/* back to argv's numbering */
	ret = rest_of_line(a, argc, argv);
	return ret ? ret : check_merge(a);
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
