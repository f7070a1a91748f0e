// SPDX-License-Identifier: LGPL-2.1
/*
 * Parsing the filters: --time START,END, --pid LIST, --cpu LIST.
 * (--comm is a name; sessions turn it into pids per input.)
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_CPUS 8192

/* Seconds ("12345.678901", up to nine decimals) into ns, exactly. */
static int parse_ts(const char *s, size_t len, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0, scale = 1000000000ULL;
	size_t i = 0;

	if (!len)
		return -1;
	for (; i < len && isdigit((unsigned char)s[i]); i++) {
		if (sec > 18000000000ULL)
			return -1;
		sec = sec * 10 + (uint64_t)(s[i] - '0');
	}
	if (i < len && s[i] == '.') {
		if (++i == len)
			return -1;
		for (; i < len && isdigit((unsigned char)s[i]); i++) {
			if (scale == 1)
				return -1;	/* finer than ns */
			scale /= 10;
			frac += (uint64_t)(s[i] - '0') * scale;
		}
	}
	if (i != len || !isdigit((unsigned char)s[0]))
		return -1;
	/* in nanoseconds, a u64: up to 18446744073.709551615 s */
	if (sec > UINT64_MAX / 1000000000ULL ||
	    sec * 1000000000ULL > UINT64_MAX - frac)
		return -1;
	*ns = sec * 1000000000ULL + frac;
	return 0;
}

/**
 * tk_filter_time - --time START,END (either may be empty)
 * @f: the filters
 * @arg: the argument: seconds, both ends inclusive, taken as given
 *	(175,176 is 175.000000000 to 176.000000000)
 *
 * Return: 0, or -1 after a line on stderr.
 */
int tk_filter_time(struct tk_filter *f, const char *arg)
{
	const char *comma = strchr(arg, ',');
	size_t n;

	if (!comma || (comma == arg && !comma[1]))
		goto bad;
	f->start = 0;
	f->end = UINT64_MAX;
	n = (size_t)(comma - arg);
	if (n && parse_ts(arg, n, &f->start))
		goto bad;
	if (comma[1] && parse_ts(comma + 1, strlen(comma + 1), &f->end))
		goto bad;
	if (f->end < f->start)
		goto bad;
	f->time = true;
	return 0;
bad:
	fprintf(stderr, TK_NAME ": bad --time '%s' (START,END in seconds as "
			"trace-cmd prints them, e.g. 100.5,101; START, or ,END "
			"for open ends)\n", arg);
	return -1;
}

/* The next number of a list, or -1; *@p moves past it. */
static long next_number(const char **p, long max)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)**p))
		return -1;
	errno = 0;
	v = strtol(*p, &end, 10);
	if (errno || v > max)
		return -1;
	*p = end;
	return v;
}

/**
 * tk_filter_pids - --pid PID[,PID...]
 * @f: the filters (repeated options add pids)
 * @arg: the argument
 *
 * Return: 0, or -1 after a line on stderr.
 */
int tk_filter_pids(struct tk_filter *f, const char *arg)
{
	const char *p = arg;
	long pid;

	if (!f->pids && u64_index_init(&f->pid_ix, 16))
		return -1;
	f->pids = true;
	do {
		pid = next_number(&p, 0x7fffffff);
		if (pid < 0 || (*p && *p != ','))
			goto bad;
		if (u64_index_find(&f->pid_ix, (uint64_t)pid) ==
			    U64_INDEX_NONE &&
		    u64_index_insert(&f->pid_ix, (uint64_t)pid, 1))
			return -1;
	} while (*p && *++p);
	if (p > arg && p[-1] == ',')
		goto bad;
	return 0;
bad:
	fprintf(stderr, TK_NAME ": bad --pid '%s' (a list of process ids, "
			"e.g. 42,1234)\n", arg);
	return -1;
}

/**
 * tk_filter_cpus - --cpu LIST, e.g. 0-3,6
 * @f: the filters (repeated options add CPUs)
 * @arg: the argument
 *
 * Return: 0, or -1 after a line on stderr.
 */
int tk_filter_cpus(struct tk_filter *f, const char *arg)
{
	const char *p = arg;
	long lo, hi, c;

	if (!f->cpus) {
		f->cpus = CPU_ALLOC(MAX_CPUS);
		if (!f->cpus)
			return -1;
		f->cpus_size = CPU_ALLOC_SIZE(MAX_CPUS);
		CPU_ZERO_S(f->cpus_size, f->cpus);
		f->max_cpu = -1;
	}
	do {
		lo = hi = next_number(&p, MAX_CPUS - 1);
		if (lo >= 0 && *p == '-') {
			p++;
			hi = next_number(&p, MAX_CPUS - 1);
		}
		if (lo < 0 || hi < lo || (*p && *p != ','))
			goto bad;
		for (c = lo; c <= hi; c++)
			CPU_SET_S((size_t)c, f->cpus_size, f->cpus);
		if (hi > f->max_cpu)
			f->max_cpu = (int)hi;
	} while (*p && *++p);
	if (p > arg && p[-1] == ',')
		goto bad;
	return 0;
bad:
	fprintf(stderr, TK_NAME ": bad --cpu '%s' (CPU numbers and ranges, "
			"e.g. 0-3,6)\n", arg);
	return -1;
}

/**
 * tk_filter_release - free the filters' sets
 * @f: the filters
 */
void tk_filter_release(struct tk_filter *f)
{
	if (f->pids)
		u64_index_free(&f->pid_ix);
	if (f->cpus)
		CPU_FREE(f->cpus);
	memset(f, 0, sizeof(*f));
}
