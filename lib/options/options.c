// SPDX-License-Identifier: LGPL-2.1
/*
 * Option table and parsing (see options.h).  A bad value gives one line
 * on @err naming the valid choices and leaves that option's default.
 */
#include <ctype.h>
#include <errno.h>
#include <regex.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "alloc/registry.h"
#include "base/msg.h"
#include "base/sortkey.h"
#include "event/stackskip.h"
#include "options.h"

#define SORT_KEYS "ptr, callsite, bytes, hit, pingpong, frag, live, peak, " \
		  "page, order, migtype, gfp"

const struct kmem_opt_def kmem_opt_defs[] = {
	{ "stat", NULL, NULL, "Print kmem statistics tables at end of stream" },
	{ "slab", NULL, NULL,
	  "Analyse the slab allocator (kmalloc, kmem_cache_*)" },
	{ "caller", NULL, NULL, "Show the per-callsite table" },
	{ "alloc", NULL, NULL, "Show the per-allocation (per-pointer) table" },
	{ "cache", NULL, NULL, "Show the per-cache table" },
	{ "anomalies", NULL, NULL,
	  "Show where freed-only, double and missed frees happen" },
	{ "leaks", "AGE", "0",
	  "Show what was not freed by the end, allocated AGE (ns, us, ms, s) "
	  "or more before it" },
	{ "lifetimes", NULL, NULL,
	  "Lifetime histograms (log2) of the top call sites' freed objects" },
	{ "all", NULL, NULL,
	  "Show every table but leaks (default: the summaries and the call "
	  "sites)" },
	{ "page", NULL, NULL, "Analyse the page allocator (mm_page_*)" },
	{ "percpu", NULL, NULL,
	  "Analyse the per-CPU allocator (percpu_alloc_percpu, ...)" },
	{ "vmalloc", NULL, NULL,
	  "Analyse the vmalloc allocator (alloc_vmap_area, ...)" },
	{ "live", NULL, NULL,
	  "Page tables: only pages still allocated at the end" },
	{ "per-process", NULL, NULL, "Page allocator activity per process" },
	{ "merge-pids", NULL, NULL, "Per-process table per command, not pid" },
	{ "skip", "REGEX", "",
	  "Stack frames that are not page or vmalloc call sites (replaces the "
	  "rules)" },
	{ "numa", "FILE", "",
	  "CPU and memory to node map, for cross-node figures" },
	{ "sort", "KEY[,KEY...]", "bytes,hit", "Sort keys: " SORT_KEYS },
	{ "lines", "N", "10", "Rows per table (0: all)" },
	{ "width", "N", "",
	  "Widest a table gets: GFP flags fold, then the least important "
	  "columns are left out, said under it (0: no limit; default: the "
	  "terminal's width; not a terminal: 160, GFP flags fold only)" },
	{ "raw-ip", NULL, NULL, "Print call sites as addresses, not symbols" },
	{ "json", "PATH", "",
	  "Write the statistics as JSON to PATH (- for stdout)" },
	{ "json-rows", "none|all", "none",
	  "Per-address rows (slab allocs, page pages) in the JSON and the "
	  "CSV: none, or all (kmem:alloc and kmem:all imply all)" },
	{ "csv", "PATH", "", "Write the tables as CSV to PATH (- for stdout)" },
	{ "folded", "PATH", "",
	  "Write allocations by stack, folded for flame graphs, to PATH (- for "
	  "stdout)" },
	{ "folded-weight", "bytes|hits", "bytes",
	  "Weigh the folded stacks by bytes or by allocations" },
	{ "pprof", "PATH", "",
	  "Write a gzip-compressed pprof profile of the call sites to PATH "
	  "(- for stdout)" },
	{ "pprof-label", "KEY=VALUE[,...]", "",
	  "Label every sample of the pprof profile and every row (repeatable; "
	  "host, cluster, kernel build)" },
	{ "rows", "PATH", "",
	  "Write the call-site, cache and order tables as newline-delimited "
	  "JSON rows for a warehouse to PATH (- for stdout)" },
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
 * 10 rows per table, symbols, tables on stdout, no JSON
 * @o: the options
 */
void kmem_opts_init(struct kmem_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->lines = KMEM_DEFAULT_LINES;
	o->sort.key[0] = SORT_BYTES;
	o->sort.key[1] = SORT_HIT;
	o->sort.n = 2;
}

/* The labels from @keep on freed. */
static void drop_labels(struct kmem_opts *o, size_t keep)
{
	while (o->nr_pprof_labels > keep) {
		struct kmem_label *l = &o->pprof_labels[--o->nr_pprof_labels];

		free(l->key);
		free(l->value);
	}
}

/**
 * kmem_opts_release - free the strings held by the options
 * @o: the options
 */
void kmem_opts_release(struct kmem_opts *o)
{
	free(o->json);
	free(o->csv);
	free(o->folded);
	free(o->pprof);
	free(o->rows);
	drop_labels(o, 0);
	free(o->output);
	free(o->skip);
	free(o->numa);
	o->json = o->csv = o->output = o->skip = o->numa = NULL;
	o->folded = o->pprof = o->rows = NULL;
}

/*
 * One line about a bad value: "kmem: bad sort=x ...; using bytes,hit"
 * in the plugin, "trace-kmem: bad --sort=x ..." in the front end.
 */
static int bad(const struct kmem_opts *o, FILE *err, const char *fallback,
	       const char *fmt, ...)
{
	va_list ap;

	fprintf(err, "%s: ", kmem_prog);
	va_start(ap, fmt);
	vfprintf(err, fmt, ap);
	va_end(ap);
	if (!o->strict && fallback)
		fprintf(err, "; using %s", fallback);
	fputc('\n', err);
	return -1;
}

static const char *dashes(const struct kmem_opts *o)
{
	return o->strict ? "--" : "";
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
		if (k < NR_SORT_KEYS && n == KMEM_MAX_SORT_KEYS)
			return bad(o, err, "bytes,hit",
				   "too many sort keys in %ssort=%s (at most "
				   "%d)",
				   dashes(o), v, KMEM_MAX_SORT_KEYS);
		if (k == NR_SORT_KEYS)
			return bad(o, err, "bytes,hit",
				   "bad sort key '%.*s' in %ssort=%s (valid: "
				   SORT_KEYS "; at most %d)", (int)len, p,
				   dashes(o), v, KMEM_MAX_SORT_KEYS);
		keys[n++] = k;
		p += len;
		if (*p == ',')
			p++;
	}
	if (!n)
		return bad(o, err, "bytes,hit",
			   "empty %ssort= (valid: " SORT_KEYS ")", dashes(o));
	memcpy(o->sort.key, keys, sizeof(keys[0]) * n);
	o->sort.n = n;
	o->sort.given = true;
	return 0;
}

static int parse_lines(struct kmem_opts *o, const char *v, FILE *err)
{
	unsigned long n;
	char *end;

	errno = 0;
	n = strtoul(v, &end, 10);
	if (!*v || *end || errno || n > 100000000UL || *v == '-')
		return bad(o, err, "10",
			   "bad %slines=%s (a number of rows, 0 for all)",
			   dashes(o), v);
	o->lines = (unsigned int)n;
	return 0;
}

static int parse_width(struct kmem_opts *o, const char *v, FILE *err)
{
	unsigned long n;
	char *end;

	errno = 0;
	n = strtoul(v, &end, 10);
	if (!*v || *end || errno || (n && n < 40) || n > 100000UL ||
	    *v == '-')
		return bad(o, err, "the terminal's, or 160",
			   "bad %swidth=%s (columns, 40 or more; 0 for no "
			   "limit)", dashes(o), v);
	o->width = (unsigned int)n;
	o->width_set = true;
	return 0;
}

/* An age: a number (decimals allowed) and its unit, or 0. */
static int parse_age(struct kmem_opts *o, const char *v, FILE *err)
{
	static const struct {
		const char *unit;
		double ns;
	} units[] = { { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 } };
	double n;
	char *end;
	size_t i;

	o->leaks = true;
	if (!v || !*v) {
		o->leak_age = 0;
		return 0;
	}
	errno = 0;
	n = strtod(v, &end);
	if (end != v && !errno && n >= 0 && n < 1e10 && *v != '-') {
		if (!*end && n == 0) {
			o->leak_age = 0;
			return 0;
		}
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (!strcmp(end, units[i].unit)) {
				o->leak_age = (uint64_t)(n * units[i].ns + 0.5);
				return 0;
			}
	}
	return bad(o, err, "0",
		   "bad %sleaks=%s (an age and its unit: 500ms, 2s, 100us, "
		   "1500ns; or 0)", dashes(o), v);
}

static int set_string(const struct kmem_opts *o, char **dst,
		      const char *name, const char *v, const char *arg,
		      FILE *err)
{
	char *s;

	if (!v || !*v)
		return bad(o, err, NULL, "%s needs a value (%s%s=%s)", name,
			   dashes(o), name, arg);
	s = strdup(v);
	if (!s)
		return bad(o, err, NULL, "out of memory");
	free(*dst);
	*dst = s;
	return 0;
}

/* The labels trace-kmem gives every sample itself. */
static bool own_label(const char *key, size_t len)
{
	static const char *const own[] = { "allocator", "trace", "cache",
					   "order",	"bytes", "migratetype",
					   "gfp" };
	size_t i;

	for (i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		if (strlen(own[i]) == len && !strncmp(own[i], key, len))
			return true;
	return false;
}

/* Is KEY=VALUE (@len bytes) a label: a name, '=', a value? */
static const char *label_problem(const struct kmem_opts *o, const char *kv,
				 size_t len)
{
	const char *eq = memchr(kv, '=', len);
	size_t k, i;

	if (!eq || eq == kv || eq + 1 == kv + len)
		return "not KEY=VALUE";
	k = (size_t)(eq - kv);
	if (len >= 128)
		return "longer than 127 bytes";
	for (i = 0; i < k; i++)
		if (!isalnum((unsigned char)kv[i]) && !strchr("_.-", kv[i]))
			return "a KEY is letters, digits, '_', '.' and '-'";
	if (own_label(kv, k))
		return "trace-kmem gives that label itself";
	for (i = 0; i < o->nr_pprof_labels; i++)
		if (strlen(o->pprof_labels[i].key) == k &&
		    !strncmp(o->pprof_labels[i].key, kv, k))
			return "a KEY given twice";
	return NULL;
}

/* pprof-label=KEY=VALUE[,KEY=VALUE...], added to those given before */
static int add_labels(struct kmem_opts *o, const char *v, FILE *err)
{
	size_t had = o->nr_pprof_labels;
	const char *why = NULL, *p = v ? v : "";

	do {
		size_t len = strcspn(p, ","), k;
		struct kmem_label *l;

		if (!(why = label_problem(o, p, len)) &&
		    o->nr_pprof_labels >= KMEM_MAX_PPROF_LABELS)
			why = "more than 32 labels";
		if (!why) {
			/* label_problem(): '=' is there, past a KEY */
			k = strcspn(p, "=");
			l = &o->pprof_labels[o->nr_pprof_labels];
			l->key = strndup(p, k);
			l->value = strndup(p + k + 1, len - k - 1);
			o->nr_pprof_labels++;
			if (!l->key || !l->value)
				why = "out of memory";
		}
		if (why)
			break;
		p += len + (p[len] == ',');
	} while (*p);
	if (!why)
		return 0;
	drop_labels(o, had);
	return bad(o, err, NULL, "bad %spprof-label=%s: %s", dashes(o),
		   v ? v : "", why);
}

/* A skip regex that does not compile is reported here, at parse time. */
static int set_skip(struct kmem_opts *o, const char *v, FILE *err)
{
	char msg[256];
	regex_t re;
	int rc;

	if (v && *v) {
		rc = regcomp(&re, v, KMEM_SKIP_REGFLAGS);
		if (rc) {
			regerror(rc, &re, msg, sizeof(msg));
			return bad(o, err, "the default rules",
				   "bad %sskip=%s: %s", dashes(o), v, msg);
		}
		regfree(&re);
	}
	return set_string(o, &o->skip, "skip", v, "REGEX", err);
}

static bool *flag_of(struct kmem_opts *o, const char *name)
{
	unsigned int id;

	for (id = 0; id < KMEM_NR_ALLOC; id++)
		if (!strcmp(name, kmem_allocs[id].name))
			return &o->allocator[id];
	if (!strcmp(name, "stat"))
		return &o->stat;
	if (!strcmp(name, "caller"))
		return &o->caller;
	if (!strcmp(name, "alloc"))
		return &o->alloc;
	if (!strcmp(name, "cache"))
		return &o->cache;
	if (!strcmp(name, "all"))
		return &o->all;
	if (!strcmp(name, "anomalies"))
		return &o->anomalies;
	if (!strcmp(name, "raw-ip"))
		return &o->raw_ip;
	if (!strcmp(name, "live"))
		return &o->live;
	if (!strcmp(name, "per-process"))
		return &o->per_process;
	if (!strcmp(name, "merge-pids"))
		return &o->merge_pids;
	if (!strcmp(name, "lifetimes"))
		return &o->lifetimes;
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
	if (!strcmp(name, "leaks"))
		return parse_age(o, value, err);
	if (!strcmp(name, "width"))
		return parse_width(o, value ? value : "", err);
	if (!strcmp(name, "json"))
		return set_string(o, &o->json, name, value, "PATH", err);
	if (!strcmp(name, "csv"))
		return set_string(o, &o->csv, name, value, "PATH", err);
	if (!strcmp(name, "folded"))
		return set_string(o, &o->folded, name, value, "PATH", err);
	if (!strcmp(name, "folded-weight")) {
		if (value && (!strcmp(value, "bytes") || !strcmp(value, "hits"))) {
			o->folded_hits = value[0] == 'h';
			return 0;
		}
		return bad(o, err, "bytes",
			   "bad %sfolded-weight=%s (bytes or hits)", dashes(o),
			   value ? value : "");
	}
	if (!strcmp(name, "json-rows")) {
		if (value &&
		    (!strcmp(value, "none") || !strcmp(value, "all"))) {
			o->json_rows = value[0] == 'a';
			return 0;
		}
		return bad(o, err, "none", "bad %sjson-rows=%s (none or all)",
			   dashes(o), value ? value : "");
	}
	if (!strcmp(name, "pprof"))
		return set_string(o, &o->pprof, name, value, "PATH", err);
	if (!strcmp(name, "pprof-label"))
		return add_labels(o, value, err);
	if (!strcmp(name, "rows"))
		return set_string(o, &o->rows, name, value, "PATH", err);
	if (!strcmp(name, "output"))
		return set_string(o, &o->output, name, value, "PATH", err);
	if (!strcmp(name, "numa"))
		return set_string(o, &o->numa, name, value, "FILE", err);
	if (!strcmp(name, "skip"))
		return set_skip(o, value, err);
	return bad(o, err, NULL, "unknown option '%s'", name);
}

/**
 * kmem_opts_text_table - is a table printed?
 * @o: the options
 * @t: the table
 *
 * By default the summaries and the call-site tables (of each allocator)
 * are printed; kmem:caller, alloc, cache, anomalies and leaks select the
 * tables printed, exactly those given; kmem:all prints every table but
 * the leaks (which take an age).
 *
 * Return: true if it is.
 */
bool kmem_opts_text_table(const struct kmem_opts *o, enum kmem_table_kind t)
{
	if (t == KMEM_T_LEAKS)
		return o->leaks;
	if (o->all)
		return true;
	switch (t) {
	case KMEM_T_CALLER:
		return o->caller || (!o->alloc && !o->cache && !o->anomalies &&
				     !o->leaks);
	case KMEM_T_ALLOC:
		return o->alloc;
	case KMEM_T_CACHE:
		return o->cache;
	case KMEM_T_ANOMALY:
		return o->anomalies;
	case KMEM_T_LEAKS:
		return o->leaks;
	}
	return false;
}

/**
 * kmem_opts_json_table - does the JSON hold a table's array?
 * @o: the options
 * @t: the table
 *
 * The JSON document holds every table unless tables are selected
 * (kmem:caller, alloc, cache, anomalies, leaks): then those printed.
 * The leak tables are there with kmem:leaks only, the per-address rows
 * (slab allocs, page pages) when printed or with kmem:json-rows=all.
 *
 * Return: true if it does.
 */
bool kmem_opts_json_table(const struct kmem_opts *o, enum kmem_table_kind t)
{
	if (t == KMEM_T_LEAKS)
		return o->leaks;
	if (t == KMEM_T_ALLOC)
		return o->json_rows || kmem_opts_text_table(o, t);
	if (!o->caller && !o->alloc && !o->cache && !o->anomalies &&
	    !o->leaks)
		return true;
	return kmem_opts_text_table(o, t);
}

/**
 * kmem_opts_keep_rows - are per-address rows needed?
 * @o: the options
 *
 * The per-pointer (slab) and per-page rows are kept only for the
 * per-allocation tables: printed (kmem:alloc, kmem:all), or in the JSON.
 * Without them an address costs what matching its free needs.
 *
 * Return: true if they are.
 */
bool kmem_opts_keep_rows(const struct kmem_opts *o)
{
	bool doc = o->json || o->csv;	/* the JSON's rows, or the CSV's */

	return kmem_opts_text_table(o, KMEM_T_ALLOC) ||
	       (doc && kmem_opts_json_table(o, KMEM_T_ALLOC));
}

/**
 * kmem_opts_reports - do the options ask for a report at the end?
 * @o: the options
 *
 * Return: true when the tables, the JSON, the CSV, the folded stacks,
 * the pprof profile or the rows are to be written.
 */
bool kmem_opts_reports(const struct kmem_opts *o)
{
	return o->stat || o->json || o->csv || o->folded || o->pprof || o->rows;
}

/**
 * kmem_opt_optional - may an option's argument be left out?
 * @d: an entry of kmem_opt_defs
 *
 * kmem:leaks is a flag and takes an age: -O kmem:leaks is
 * -O kmem:leaks=0, as --leaks is --leaks=0.
 *
 * Return: true for such options.
 */
bool kmem_opt_optional(const struct kmem_opt_def *d)
{
	return d->arg && !strcmp(d->name, "leaks");
}

/**
 * kmem_opts_allocator - may an allocator's analysis be shown?
 * @o: the options
 * @selected: its flag (o->allocator[id])
 *
 * The allocators' options (kmem:slab, kmem:page ..., each named as its
 * descriptor) select the analyses shown, exactly those given; with none
 * of them each allocator whose events are in the trace is shown.
 *
 * Return: true if it is selected, or none is.
 */
bool kmem_opts_allocator(const struct kmem_opts *o, bool selected)
{
	unsigned int id;

	for (id = 0; id < KMEM_NR_ALLOC; id++)
		if (o->allocator[id])
			return selected;
	return true;
}

/**
 * kmem_opts_check_sort - is every sort key in a table that is shown?
 * @o: the options
 * @err: where a key in none of them is said, in one line
 *
 * Each table sorts by the keys it has (then by bytes and hit); a key
 * that none of the tables selected (kmem:slab, kmem:page, caller, alloc,
 * cache) has cannot order anything: trace-kmem makes it a usage error,
 * the plugin says it and goes on.
 *
 * Return: 0, or -1 when a key is in no shown table.
 */
int kmem_opts_check_sort(const struct kmem_opts *o, FILE *err)
{
	const bool *sel = o->allocator;
	bool slab = kmem_opts_allocator(o, sel[KMEM_ALLOC_SLAB]);
	bool page = kmem_opts_allocator(o, sel[KMEM_ALLOC_PAGE]);
	bool percpu = kmem_opts_allocator(o, sel[KMEM_ALLOC_PERCPU]);
	bool vmalloc = kmem_opts_allocator(o, sel[KMEM_ALLOC_VMALLOC]);
	bool doc = o->json || o->csv;	/* the JSON's rows, or the CSV's */
	bool caller = kmem_opts_text_table(o, KMEM_T_CALLER) ||
		      (doc && kmem_opts_json_table(o, KMEM_T_CALLER));
	bool alloc = kmem_opts_text_table(o, KMEM_T_ALLOC) ||
		     (doc && kmem_opts_json_table(o, KMEM_T_ALLOC));
	bool cache = kmem_opts_text_table(o, KMEM_T_CACHE) ||
		     (doc && kmem_opts_json_table(o, KMEM_T_CACHE));
	bool anom = kmem_opts_text_table(o, KMEM_T_ANOMALY) ||
		    (doc && kmem_opts_json_table(o, KMEM_T_ANOMALY));
	const struct {
		bool on;
		unsigned int keys;
		const char *name;
	} t[] = {
		{ slab && caller, SORT_KEYS_SLAB_CALLER, "slab call sites" },
		{ slab && alloc, SORT_KEYS_SLAB_ALLOC, "slab allocations" },
		{ slab && cache, SORT_KEYS_SLAB_CACHE, "slab caches" },
		{ slab && anom, SORT_KEYS_SLAB_ANOMALY, "slab anomalies" },
		{ page && caller, SORT_KEYS_PAGE_CALLER, "page call sites" },
		{ page && alloc, SORT_KEYS_PAGE_PFN, "pages" },
		{ percpu && caller, SORT_KEYS_LC_SITE, "per-CPU call sites" },
		{ vmalloc && caller, SORT_KEYS_LC_SITE, "vmalloc call sites" },
		{ o->leaks, SORT_KEYS_LEAKS, "leaks" },
	};
	unsigned int shown = 0;
	char names[160] = "";
	size_t j;
	int i;

	for (j = 0; j < sizeof(t) / sizeof(t[0]); j++)
		if (t[j].on) {
			shown |= t[j].keys;
			snprintf(names + strlen(names),
				 sizeof(names) - strlen(names), "%s%s",
				 names[0] ? ", " : "", t[j].name);
		}
	for (i = 0; o->sort.given && i < o->sort.n; i++) {
		if (shown & SK(o->sort.key[i]))
			continue;
		fprintf(err, "%s: sort key '%s' is in none of the tables shown "
			     "(%s)%s\n", kmem_prog, sort_names[o->sort.key[i]], names,
			o->strict ? "" : "; ignored");
		return -1;
	}
	return 0;
}
