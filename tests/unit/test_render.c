// SPDX-License-Identifier: LGPL-2.1
/*
 * Rendering: number formats, tables, summary blocks, JSON, options and
 * sorting.  Expected strings were written out by hand.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "base/json.h"
#include "base/kvblock.h"
#include "base/numfmt.h"
#include "base/table.h"
#include "event/symbols.h"
#include "options/options.h"
#include "options/render_cfg.h"
#include "render/sort.h"
#include "unit.h"

static void test_numbers(void)
{
	char b[NUMFMT_LEN];

	CHECK_STR(fmt_count(b, 0), "0");
	CHECK_STR(fmt_count(b, 999), "999");
	CHECK_STR(fmt_count(b, 1000), "1,000");
	CHECK_STR(fmt_count(b, 51630080), "51,630,080");
	CHECK_STR(fmt_count(b, UINT64_MAX), "18,446,744,073,709,551,615");
	CHECK_STR(fmt_count_dot(b, 0), ".");
	CHECK_STR(fmt_count_dot(b, 12557), "12,557");
	CHECK_STR(fmt_signed(b, -4096), "-4,096");
	CHECK_STR(fmt_signed(b, INT64_MIN), "-9,223,372,036,854,775,808");
	CHECK_STR(fmt_pct(b, 0.0), ".");
	CHECK_STR(fmt_pct(b, 43.75), "43.75%");
	CHECK_STR(fmt_duration(b, 850), "850ns");
	CHECK_STR(fmt_duration(b, 12345), "12.3us");
	CHECK_STR(fmt_duration(b, 4560000), "4.56ms");
	CHECK_STR(fmt_duration(b, 2100000000), "2.10s");
}

static char *render_table(struct table *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	table_print(t, f);
	fclose(f);
	return buf;
}

static void test_table(void)
{
	static const struct table_col cols[] = {
		{ "Total alloc/Size", TBL_PAIR },
		{ "Hits", TBL_RIGHT },
		{ "Callsite", TBL_LEFT },
	};
	const char *r1[] = { "65,536/16,384", "4", "new_slab" };
	const char *r2[] = { "8,192/4,096", "12,536", "pte_alloc_one" };
	struct table t;
	char *out;

	table_init(&t, cols, 3, TBL_BOXED);
	table_add_row(&t, r1);
	table_add_row(&t, r2);
	table_mark_cut(&t);
	out = render_table(&t);
	/*
	 * Pair: left part right-aligned to "Total alloc" (11), right part
	 * left-aligned to "16,384" (6); numbers right-aligned; the text
	 * column last and unpadded.  Rule = 1 + 18 + 3 + 6 + 3 + 13 + 1.
	 */
	CHECK_STR(out,
		  "---------------------------------------------\n"
		  " Total alloc/Size   |   Hits | Callsite\n"
		  "---------------------------------------------\n"
		  "      65,536/16,384 |      4 | new_slab\n"
		  "       8,192/4,096  | 12,536 | pte_alloc_one\n"
		  " ...                | ...    | ...\n"
		  "---------------------------------------------\n");
	free(out);
	table_release(&t);
}

static void test_matrix(void)
{
	static const struct table_col cols[] = {
		{ "Order", TBL_RIGHT },
		{ "Unmovable", TBL_RIGHT },
		{ "Movable", TBL_RIGHT },
	};
	const char *r0[] = { "0", "32", "12,557" };
	const char *r1[] = { "1", ".", "." };
	struct table t;
	char *out;

	table_init(&t, cols, 3, TBL_MATRIX);
	table_add_row(&t, r0);
	table_add_row(&t, r1);
	out = render_table(&t);
	CHECK_STR(out,
		  " Order  Unmovable  Movable\n"
		  " -----  ---------  -------\n"
		  "     0         32   12,557\n"
		  "     1          .        .\n");
	free(out);
	table_release(&t);
}

static void test_kvblock(void)
{
	struct kvblock b;
	struct kv_line *l;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	kv_init(&b);
	l = kv_add(&b, "Pages allocated+freed", "12,593");
	snprintf(l->bytes, sizeof(l->bytes), "51,630,080");
	l = kv_add(&b, "Pages freed-only", "67");
	snprintf(l->bytes, sizeof(l->bytes), "135,311");
	kv_gap(&b);
	kv_add(&b, "Page allocation failures", "0");
	kv_print(&b, f);
	fclose(f);
	CHECK_STR(buf,
		  " Pages allocated+freed:     12,593   [ 51,630,080 bytes ]\n"
		  " Pages freed-only:              67   [    135,311 bytes ]\n"
		  "\n"
		  " Page allocation failures:       0\n");
	free(buf);
}

static void test_json(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json j;

	json_init(&j, f);
	json_open(&j, NULL, '{');
	json_str(&j, "name", "a\"b\\c\n");
	json_open(&j, "list", '[');
	json_u64(&j, NULL, 18446744073709551615ULL);
	json_i64(&j, NULL, -5);
	json_close(&j, ']');
	json_open(&j, "empty", '[');
	json_close(&j, ']');
	json_pct(&j, "pct", 12.5);
	json_str(&j, "none", NULL);
	json_bool(&j, "ok", true);
	json_close(&j, '}');
	fclose(f);
	CHECK_STR(buf, "{\n"
		       "  \"name\": \"a\\\"b\\\\c\\n\",\n"
		       "  \"list\": [\n"
		       "    18446744073709551615,\n"
		       "    -5\n"
		       "  ],\n"
		       "  \"empty\": [],\n"
		       "  \"pct\": 12.5000,\n"
		       "  \"none\": null,\n"
		       "  \"ok\": true\n"
		       "}\n");
	free(buf);
}

static int set_quiet(struct kmem_opts *o, const char *n, const char *v,
		     char **msg)
{
	size_t len = 0;
	FILE *f = open_memstream(msg, &len);
	int ret = kmem_opts_set(o, n, v, f);

	fclose(f);
	return ret;
}

static void test_options(void)
{
	struct kmem_opts o;
	char *msg = NULL;

	kmem_opts_init(&o);
	CHECK_U64(o.lines, 10);
	CHECK_U64(o.sort.n, 2);
	CHECK(o.sort.key[0] == SORT_BYTES && o.sort.key[1] == SORT_HIT);

	CHECK(set_quiet(&o, "sort", "frag,pingpong,ptr", &msg) == 0);
	CHECK_STR(msg, "");
	free(msg);
	CHECK_U64(o.sort.n, 3);
	CHECK(o.sort.key[2] == SORT_PTR);

	CHECK(set_quiet(&o, "sort", "bytes,bogus", &msg) == -1);
	CHECK_STR(msg, "kmem: bad sort key 'bogus' in sort=bytes,bogus "
		       "(valid: ptr, callsite, bytes, hit, pingpong, frag, "
		       "live, peak, page, order, migtype, gfp; at most 8); "
		       "using bytes,hit\n");
	free(msg);
	CHECK_U64(o.sort.n, 3);	/* previous value kept */

	CHECK(set_quiet(&o, "lines", "abc", &msg) == -1);
	CHECK_STR(msg, "kmem: bad lines=abc (a number of rows, 0 for all); "
		       "using 10\n");
	free(msg);
	CHECK(set_quiet(&o, "lines", "-3", &msg) == -1);
	free(msg);
	CHECK(set_quiet(&o, "lines", "0", &msg) == 0);
	free(msg);
	CHECK_U64(o.lines, 0);

	CHECK(set_quiet(&o, "json", "", &msg) == -1);
	free(msg);
	CHECK(o.json == NULL);
	CHECK(set_quiet(&o, "json", "-", &msg) == 0);
	free(msg);
	CHECK_STR(o.json, "-");
	CHECK(set_quiet(&o, "raw-ip", NULL, &msg) == 0);
	free(msg);
	CHECK(o.raw_ip);
	kmem_opts_release(&o);
}

/* The render configuration says what kmem_opts_*_table() say. */
static void test_render_cfg(void)
{
	static const char *const sets[][2] = {
		{ NULL, NULL },	   { "caller", NULL }, { "alloc", NULL },
		{ "all", NULL },   { "leaks", "1ms" }, { "anomalies", NULL },
		{ "cache", NULL }, { "page", NULL },   { "percpu", NULL },
	};
	struct kmem_render_cfg c;
	struct kmem_opts o;
	char *msg = NULL;
	size_t i;
	int t;

	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		kmem_opts_init(&o);
		if (sets[i][0])
			CHECK(set_quiet(&o, sets[i][0], sets[i][1], &msg) == 0);
		free(msg);
		msg = NULL;
		kmem_opts_render_cfg(&o, NULL, &c);
		for (t = KMEM_T_CALLER; t <= KMEM_T_LEAKS; t++) {
			CHECK(kmem_render_text(&c, t) ==
			      kmem_opts_text_table(&o, t));
			CHECK(kmem_render_json(&c, t) ==
			      kmem_opts_json_table(&o, t));
		}
		CHECK(c.any_allocator == kmem_opts_allocator(&o, false));
		CHECK(!memcmp(c.alloc, o.allocator, sizeof(c.alloc)));
		CHECK_U64(c.width, 160); /* no tables, no width= */
		CHECK_U64(c.lines, 10);
		kmem_opts_release(&o);
	}
	kmem_opts_init(&o);
	CHECK(set_quiet(&o, "width", "0", &msg) == 0);
	free(msg);
	CHECK(set_quiet(&o, "sort", "peak,ptr", &msg) == 0);
	free(msg);
	kmem_opts_render_cfg(&o, stdout, &c);
	CHECK_U64(c.width, 0); /* width=0: no limit, tty or not */
	CHECK_U64(c.sort.n, 2);
	CHECK(c.sort.key[0] == SORT_PEAK && c.sort.key[1] == SORT_PTR);
	CHECK(c.sort.given);
	kmem_opts_release(&o);
	CHECK_U64(kmem_term_width(NULL), 160);
}

/* Offer rows {bytes, hit, ptr} in entry order; the order they come out. */
static void sorted(const struct kmem_opts *o, size_t limit,
		   const uint64_t (*rows)[3], size_t n, uint32_t *out,
		   size_t *held, size_t *offered)
{
	struct sort_set s;
	size_t i;

	sort_set_init(&s, &o->sort, ~0U, limit);
	for (i = 0; i < n; i++) {
		sort_key(&s, SORT_BYTES, rows[i][0]);
		sort_key(&s, SORT_HIT, rows[i][1]);
		sort_key(&s, SORT_PTR, rows[i][2]);
		sort_add(&s, (uint32_t)i);
	}
	sort_finish(&s);
	for (i = 0; i < s.held; i++)
		out[i] = sort_idx(&s, i);
	*held = s.held;
	*offered = s.offered;
	CHECK(!s.oom);
	sort_set_release(&s);
}

static void test_sort(void)
{
	/* bytes, hit, ptr; entries 2 and 3 tie on bytes and hit */
	static const uint64_t rows[5][3] = {
		{ 100, 1, 40 }, { 300, 2, 30 }, { 100, 5, 20 },
		{ 100, 5, 10 }, { 50, 9, 50 },
	};
	uint32_t got[5];
	size_t held, offered;
	struct kmem_opts o;
	char *msg = NULL;

	kmem_opts_init(&o);
	/* bytes desc, hit desc, then entry order */
	sorted(&o, 0, rows, 5, got, &held, &offered);
	CHECK(held == 5 && offered == 5);
	CHECK(got[0] == 1 && got[1] == 2 && got[2] == 3 && got[3] == 0 &&
	      got[4] == 4);
	/* the first 2 only, kept in a heap: the same first 2 */
	sorted(&o, 2, rows, 5, got, &held, &offered);
	CHECK(held == 2 && offered == 5);
	CHECK(got[0] == 1 && got[1] == 2);
	/* a limit of 4: the tie 2, 3 stays in entry order */
	sorted(&o, 4, rows, 5, got, &held, &offered);
	CHECK(held == 4 && got[0] == 1 && got[1] == 2 && got[2] == 3 &&
	      got[3] == 0);
	set_quiet(&o, "sort", "ptr", &msg);
	free(msg);
	sorted(&o, 0, rows, 5, got, &held, &offered);	/* ascending */
	CHECK(got[0] == 3 && got[1] == 2 && got[2] == 1 && got[3] == 0 &&
	      got[4] == 4);
	sorted(&o, 1, rows, 5, got, &held, &offered);
	CHECK(held == 1 && got[0] == 3);
	/* a key named twice decides once */
	set_quiet(&o, "sort", "hit,hit,bytes", &msg);
	free(msg);
	sorted(&o, 0, rows, 5, got, &held, &offered);
	CHECK(got[0] == 4 && got[1] == 2 && got[2] == 3 && got[3] == 1 &&
	      got[4] == 0);
	CHECK_U64(sort_frag_key(75, 100), 250000000);
	CHECK_U64(sort_frag_key(100, 100), 0);
	kmem_opts_release(&o);
}

static const char *fake_resolve(void *priv, uint64_t addr, uint64_t *start)
{
	(void)priv;
	if (addr < 0x1000 || addr >= 0x2000)
		return NULL;
	*start = 0x1000;
	return "copy_process";
}

static void test_callsite(void)
{
	struct kmem_symbolizer sym = { .resolve = fake_resolve };
	char b[KMEM_SYM_LEN];

	CHECK_STR(fmt_callsite(b, &sym, 0x11a5, 0), "copy_process+0x1a5");
	CHECK_STR(fmt_callsite(b, &sym, 0x11a5, 1), "0x11a5");
	CHECK_STR(fmt_callsite(b, &sym, 0x3000, 0), "0x3000");
	CHECK_STR(fmt_callsite(b, NULL, 0xffffffff81000000ULL, 0),
		  "0xffffffff81000000");
}

int main(void)
{
	RUN(test_numbers);
	RUN(test_table);
	RUN(test_matrix);
	RUN(test_kvblock);
	RUN(test_json);
	RUN(test_options);
	RUN(test_render_cfg);
	RUN(test_sort);
	RUN(test_callsite);
	UNIT_EXIT();
}
