// SPDX-License-Identifier: LGPL-2.1
/*
 * The -O kmem:NAME options: a per-load copy of lib/'s option table in
 * libtraceevent's form, read back into struct kmem_opts.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

extern char **environ;

#include "plugin.h"

/**
 * plugin_options_new - this load's copy of the option table
 *
 * libtraceevent writes the user's -O values into the table it is given,
 * so each tep handle gets its own (a toggled flag would flip back on
 * the second file otherwise).
 *
 * Return: the table (free() it), or NULL.
 */
struct tep_plugin_option *plugin_options_new(void)
{
	const struct kmem_opt_def *d;
	struct tep_plugin_option *o;
	size_t n = 0, k;

	for (d = kmem_opt_defs; d->name; d++)
		n += kmem_opt_optional(d) ? 2 : 1;
	o = calloc(n + 1, sizeof(*o));
	if (!o)
		return NULL;
	for (n = 0, d = kmem_opt_defs; d->name; d++, n++) {
		o[n].file = "plugin_kmem";
		o[n].plugin_alias = "kmem";
		o[n].name = (char *)d->name;
		o[n].description = (char *)d->desc;
		o[n].value = d->arg ? d->def : NULL;
	}
	/*
	 * An option whose argument may be left out is a flag too: a second
	 * entry of that name, without a value, which libtraceevent sets for
	 * "-O kmem:NAME" (it ignores a bare name given to an option with a
	 * value, and a value given to a flag).
	 */
	for (k = n, d = kmem_opt_defs; d->name; d++) {
		if (!kmem_opt_optional(d))
			continue;
		o[k].file = "plugin_kmem";
		o[k].plugin_alias = "kmem";
		o[k].name = (char *)d->name;
		o[k].description = "The same without a value: an age of 0";
		k++;
	}
	return o;
}

/**
 * plugin_options_read - the options this load was given
 * @kp: the plugin state, with its option table filled in by
 *	libtraceevent
 *
 * A bad value is reported in one line and leaves that option's default.
 */
void plugin_options_read(struct kmem_plugin *kp)
{
	const struct kmem_opt_def *d;
	size_t i, k;

	kmem_opts_init(&kp->opts);
	for (i = 0, d = kmem_opt_defs; d->name; d++, i++) {
		const struct tep_plugin_option *op = &kp->options[i];

		/* libtraceevent replaces .value only when the user set it */
		if (!d->arg && op->set)
			kmem_opts_set(&kp->opts, d->name, NULL, stderr);
		else if (d->arg && op->value != d->def)
			kmem_opts_set(&kp->opts, d->name, op->value, stderr);
	}
	for (k = i, d = kmem_opt_defs; d->name; d++)
		if (kmem_opt_optional(d) && kp->options[k++].set &&
		    kp->options[d - kmem_opt_defs].value == d->def)
			kmem_opts_set(&kp->opts, d->name, NULL, stderr);
}

/* The option of lib/'s table named @name (NUL or '=' ends it), or NULL. */
static const struct kmem_opt_def *find_def(const char *name, size_t len)
{
	const struct kmem_opt_def *d;

	for (d = kmem_opt_defs; d->name; d++)
		if (strlen(d->name) == len && !strncmp(d->name, name, len))
			return d;
	return NULL;
}

static bool is_bool_word(const char *v)
{
	return !strcasecmp(v, "1") || !strcasecmp(v, "0") ||
	       !strcasecmp(v, "true") || !strcasecmp(v, "false");
}

/*
 * One "-O" argument, @name "kmem:NAME" and @val what followed its "="
 * (NULL: none): say what libtraceevent silently ignores in it.
 */
static void check_one(const char *name, const char *val, FILE *err)
{
	const struct kmem_opt_def *d = find_def(name + 5, strlen(name + 5));
	const char *eq = val ? "=" : "";

	if (!val)
		val = "";
	if (!d)
		fprintf(err, "kmem: -O %s%s%s: no such option (trace-cmd list "
			     "-O lists them)\n", name, eq, val);
	else if (!d->arg && *eq && !is_bool_word(val))
		fprintf(err, "kmem: -O %s=%s: %s takes no value (-O kmem:%s, "
			     "or =1 and =0)\n", name, val, d->name, d->name);
	else if (d->arg && !*eq && !kmem_opt_optional(d))
		fprintf(err, "kmem: -O %s: %s needs a value (-O kmem:%s=%s)\n",
			name, d->name, d->name, d->arg);
}

/*
 * The process's own argv, as the kernel laid it out: argc, the argv
 * pointers, NULL, then environ's pointers.  Found from environ (while
 * it is still that array: a setenv() may have moved it, and then the
 * word before it is not the NULL that ends argv).
 */
static char **initial_argv(int *argc)
{
	long k;

	if (!environ || environ[-1])
		return NULL;
	for (k = 0; k < 4096; k++) {
		char **argv = environ - k - 1;

		/* argv pointers are addresses, never a count this small */
		if (((long *)argv)[-1] == k) {
			*argc = (int)k;
			return k ? argv : NULL;
		}
	}
	return NULL;
}

/**
 * plugin_args_spare - refuse outputs that name a file of trace-cmd's
 *	command line
 * @o: the options (output=, json=, csv=, folded=, pprof=, rows=)
 * @err: where a refusal is said
 *
 * With several inputs (-i a.dat -i b.dat) the first input's outputs are
 * opened before the later inputs are: each word of trace-cmd's command
 * line that names a file is taken for an input (kmem_outputs_spare()).
 *
 * Return: 0, or -1 after one line on @err.
 */
int plugin_args_spare(const struct kmem_opts *o, FILE *err)
{
	char **argv;
	int argc = 0;

	argv = initial_argv(&argc);
	if (!argv || argc < 2)
		return 0;
	return kmem_outputs_spare(o, (const char *const *)argv + 1, argc - 1,
				  err);
}

/**
 * plugin_options_check_args - the -O kmem: options libtraceevent ignores
 * @err: where each is said, in one line
 *
 * libtraceevent gives a plugin the values of its own options only: an
 * unknown name (-O kmem:bogus), a value for a flag (-O kmem:stat=yes)
 * and no value for an option that takes one (-O kmem:json) it drops
 * without a word.  When the process is trace-cmd, its arguments are
 * looked at for them: trace-cmd has cut each "-O NAME=VALUE" at its "="
 * in place, so the argument pointers (just below environ) tell where
 * each argument really ends: the strings lie one after the other, the
 * environment's after the last.
 * Other hosts (KernelShark), and options without the "kmem:" prefix
 * (another plugin's, perhaps) are left alone.
 */
void plugin_options_check_args(FILE *err)
{
	bool next_is_opt = false;
	char **argv, *base;
	int argc = 0, i;

	argv = initial_argv(&argc);
	if (!argv)
		return;
	base = strrchr(argv[0], '/');
	if (strcmp(base ? base + 1 : argv[0], "trace-cmd"))
		return;
	for (i = 1; i < argc; i++) {
		char *a = argv[i], *opt = NULL, *val = NULL;
		const char *next = i + 1 < argc ? argv[i + 1] : environ[0];

		if (!strcmp(a, "--"))
			break;
		if (next_is_opt)
			opt = a;
		else if (!strncmp(a, "-O", 2) && a[2])
			opt = a + 2;
		next_is_opt = !strcmp(a, "-O");
		if (!opt || strncmp(opt, "kmem:", 5))
			continue;
		/* a NUL inside the argument was its "=" */
		if (next && opt + strlen(opt) + 1 < next &&
		    next - (opt + strlen(opt) + 1) < 65536)
			val = opt + strlen(opt) + 1;
		check_one(opt, val, err);
	}
}

/* trace-cmd report's short options that take a value (the rest of the
 * word, or the next word) */
static const char value_opts[] = "iOFrnH";
/* ... and those that leave records unprinted (so their handlers uncalled) */
static const char filter_opts[] = "FvISRrn";

static bool cluster_filters(const char *a, bool *value_next)
{
	for (a++; *a; a++) {
		if (strchr(filter_opts, *a))
			return true;
		if (strchr(value_opts, *a)) {
			*value_next = !a[1];
			return false;
		}
	}
	return false;
}

/**
 * plugin_args_filtered - may trace-cmd leave records of the file unprinted?
 *
 * Filters (-F, -v, -I, -S, --cpu), raw printing (-R, -r) and ignored
 * handlers (-n) keep records from our print handlers; so does a host
 * that is not trace-cmd, as far as anyone can tell.
 *
 * Return: false only when trace-cmd report prints every record with
 * its handler.
 */
bool plugin_args_filtered(void)
{
	bool value_next = false;
	char **argv, *base;
	int argc = 0, i;

	argv = initial_argv(&argc);
	if (!argv)
		return true;
	base = strrchr(argv[0], '/');
	if (strcmp(base ? base + 1 : argv[0], "trace-cmd"))
		return true;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (value_next) {
			value_next = false;
			continue;
		}
		if (!strcmp(a, "--"))
			break;
		if (!strncmp(a, "--cpu", 5) && (!a[5] || a[5] == '='))
			return true;
		if (a[0] == '-' && a[1] != '-' && cluster_filters(a, &value_next))
			return true;
	}
	return false;
}
