// SPDX-License-Identifier: LGPL-2.1
/*
 * Option table and parsing (see options.h).  A bad value gives one line
 * on @err naming the valid choices and leaves that option's default.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

#define SORT_KEYS "ptr, callsite, bytes, hit, pingpong, frag, live, peak, " \
		  "page, order, migtype, gfp"

const struct kmem_opt_def kmem_opt_defs[] = {
	{ "stat", NULL, NULL, "Print kmem statistics tables at end of stream" },
	{ "slab", NULL, NULL, "Analyse the slab allocator (kmalloc, kmem_cache_*)" },
	{ "caller", NULL, NULL, "Show the per-callsite table" },
	{ "alloc", NULL, NULL, "Show the per-allocation (per-pointer) table" },
	{ "cache", NULL, NULL, "Show the per-cache table" },
	{ "page", NULL, NULL, "Analyse the page allocator (mm_page_*)" },
	{ "live", NULL, NULL, "Page tables: only pages still allocated at the end" },
	{ "per-process", NULL, NULL, "Page allocator activity per process" },
	{ "merge-pids", NULL, NULL, "Per-process table per command, not pid" },
	{ "skip", "REGEX", "",
	  "Stack frames that are not page call sites (replaces the rules)" },
	{ "numa", "FILE", "",
	  "CPU and memory to node map, for cross-node figures" },
	{ "sort", "KEY[,KEY...]", "bytes,hit",
	  "Sort keys: " SORT_KEYS },
	{ "lines", "N", "20", "Rows per table (0: all)" },
	{ "raw-ip", NULL, NULL, "Print call sites as addresses, not symbols" },
	{ "json", "PATH", "", "Write the statistics as JSON to PATH (- for stdout)" },
	{ "output", "PATH", "", "Write the tables to PATH instead of stdout" },
	{ NULL, NULL, NULL, NULL },
};

static const char *const sort_names[NR_SORT_KEYS] = {
	[SORT_PTR] = "ptr",
	[SORT_CALLSITE] = "callsite",
	[SORT_BYTES] = "bytes",
	[SORT_HIT] = "hit",
	[SORT_PINGPONG] = "pingpong",
	[SORT_FRAG] = "frag",
	[SORT_LIVE] = "live",
	[SORT_PEAK] = "peak",
	[SORT_PAGE] = "page",
	[SORT_ORDER] = "order",
	[SORT_MIGTYPE] = "migtype",
	[SORT_GFP] = "gfp",
};

/**
 * kmem_opts_init - the defaults: no tables, sort by bytes then hits,
 * 20 rows per table, symbols, tables on stdout, no JSON
 * @o: the options
 */
void kmem_opts_init(struct kmem_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->lines = KMEM_DEFAULT_LINES;
	o->sort[0] = SORT_BYTES;
	o->sort[1] = SORT_HIT;
	o->nr_sort = 2;
}

/**
 * kmem_opts_release - free the strings held by the options
 * @o: the options
 */
void kmem_opts_release(struct kmem_opts *o)
{
	free(o->json);
	free(o->output);
	free(o->skip);
	free(o->numa);
	o->json = o->output = o->skip = o->numa = NULL;
}

static int parse_sort(struct kmem_opts *o, const char *v, FILE *err)
{
	enum kmem_sort_key keys[KMEM_MAX_SORT_KEYS];
	const char *p = v;
	int n = 0, k;

	while (*p) {
		size_t len = strcspn(p, ",");

		for (k = 0; k < NR_SORT_KEYS; k++)
			if (strlen(sort_names[k]) == len &&
			    !strncmp(p, sort_names[k], len))
				break;
		if (k == NR_SORT_KEYS || n == KMEM_MAX_SORT_KEYS) {
			fprintf(err, "kmem: bad sort key '%.*s' in sort=%s "
				"(valid: " SORT_KEYS "; at most %d); "
				"using bytes,hit\n",
				(int)len, p, v, KMEM_MAX_SORT_KEYS);
			return -1;
		}
		keys[n++] = k;
		p += len;
		if (*p == ',')
			p++;
	}
	if (!n) {
		fprintf(err, "kmem: empty sort= (valid: " SORT_KEYS
			"); using bytes,hit\n");
		return -1;
	}
	memcpy(o->sort, keys, sizeof(keys[0]) * n);
	o->nr_sort = n;
	return 0;
}

static int parse_lines(struct kmem_opts *o, const char *v, FILE *err)
{
	unsigned long n;
	char *end;

	errno = 0;
	n = strtoul(v, &end, 10);
	if (!*v || *end || errno || n > 100000000UL || *v == '-') {
		fprintf(err, "kmem: bad lines=%s (a number of rows, 0 for all); "
			"using %d\n", v, KMEM_DEFAULT_LINES);
		return -1;
	}
	o->lines = (unsigned int)n;
	return 0;
}

static int set_string(char **dst, const char *name, const char *v,
		      const char *arg, FILE *err)
{
	char *s;

	if (!v || !*v) {
		fprintf(err, "kmem: %s needs a value (%s=%s)\n", name, name,
			arg);
		return -1;
	}
	s = strdup(v);
	if (!s)
		return -1;
	free(*dst);
	*dst = s;
	return 0;
}

static bool *flag_of(struct kmem_opts *o, const char *name)
{
	if (!strcmp(name, "stat"))
		return &o->stat;
	if (!strcmp(name, "slab"))
		return &o->slab;
	if (!strcmp(name, "caller"))
		return &o->caller;
	if (!strcmp(name, "alloc"))
		return &o->alloc;
	if (!strcmp(name, "cache"))
		return &o->cache;
	if (!strcmp(name, "raw-ip"))
		return &o->raw_ip;
	if (!strcmp(name, "page"))
		return &o->page;
	if (!strcmp(name, "live"))
		return &o->live;
	if (!strcmp(name, "per-process"))
		return &o->per_process;
	if (!strcmp(name, "merge-pids"))
		return &o->merge_pids;
	return NULL;
}

/**
 * kmem_opts_set - set one option by its table name
 * @o: the options
 * @name: e.g. "sort"
 * @value: the argument (for flags: NULL or empty means set)
 * @err: where a bad value is reported, in one line
 *
 * Return: 0 on success, -1 on a bad name or value (the option keeps its
 * previous value).
 */
int kmem_opts_set(struct kmem_opts *o, const char *name, const char *value,
		  FILE *err)
{
	bool *flag = flag_of(o, name);

	if (flag) {
		*flag = true;
		return 0;
	}
	if (!strcmp(name, "sort"))
		return parse_sort(o, value ? value : "", err);
	if (!strcmp(name, "lines"))
		return parse_lines(o, value ? value : "", err);
	if (!strcmp(name, "json"))
		return set_string(&o->json, name, value, "PATH", err);
	if (!strcmp(name, "output"))
		return set_string(&o->output, name, value, "PATH", err);
	if (!strcmp(name, "numa"))
		return set_string(&o->numa, name, value, "FILE", err);
	if (!strcmp(name, "skip"))
		return set_string(&o->skip, name, value, "REGEX", err);
	fprintf(err, "kmem: unknown option '%s'\n", name);
	return -1;
}
