// SPDX-License-Identifier: LGPL-2.1
/*
 * The column model (render/cols.h): a small table declared once and
 * written as text, JSON and CSV; the sort keys of the real tables'
 * declarations are those the options check names (SORT_KEYS_*); each
 * table's columns have distinct importance ranks from 1.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "render/cols.h"
#include "render/csv.h"
#include "render/report_page.h"
#include "render/report_percpu.h"
#include "render/report_slab.h"
#include "render/report_vmalloc.h"
#include "unit.h"

struct row {
	uint64_t bytes;
	uint32_t hits;
	int32_t order;
	uint64_t known; /* 0: its "maybe" is null */
	const char *name;
};

static bool maybe_known(const struct cols_ctx *c, const void *row)
{
	(void)c;
	return ((const struct row *)row)->known;
}

static const char *row_name(const struct cols_ctx *c, const void *row,
			    char *buf)
{
	(void)c;
	(void)buf;
	return ((const struct row *)row)->name;
}

enum { F_NAME, F_BYTES, F_HITS, F_ORDER, F_MAYBE };

static const struct col_field fields[] = {
	[F_NAME] = { .key = "name", .type = CF_STR, .str = row_name },
	[F_BYTES] = { .key = "bytes",
		      .type = CF_U64,
		      .a = COL_NUM64(struct row, bytes) },
	[F_HITS] = { .key = "hits",
		     .type = CF_U64,
		     .a = COL_NUM32(struct row, hits) },
	[F_ORDER] = { .key = "order",
		      .type = CF_I64,
		      .a = COL_NUMI32(struct row, order) },
	[F_MAYBE] = { .key = "maybe",
		      .type = CF_MEAN,
		      .a = COL_NUM64(struct row, bytes),
		      .b = COL_NUM32(struct row, hits),
		      .known = maybe_known },
};

static const struct col_text cols[] = {
	{ "Total/Size", TBL_PAIR, CT_TOTAL_SIZE, F_BYTES, F_HITS, NULL, 2 },
	{ "Hits", TBL_RIGHT, CT_DOT, F_HITS, COL_NOFIELD, NULL, 3 },
	{ "Order", TBL_RIGHT, CT_INT, F_ORDER, COL_NOFIELD, NULL, 4 },
	{ "Mean", TBL_RIGHT, CT_COUNT, F_MAYBE, COL_NOFIELD, NULL, 5 },
	{ "Name", TBL_LEFT, CT_STR, F_NAME, COL_NOFIELD, NULL, 1 },
};

static const struct col_sort sorts[] = {
	{ SORT_BYTES, COL_NUM64(struct row, bytes) },
	{ SORT_HIT, COL_NUM32(struct row, hits) },
};

static const struct cols_def def = {
	COLS_DEF(fields, cols, sorts, struct row),
};

static const struct row rows[] = {
	{ 4096, 2, 0, 1, "small" },
	{ 1000000, 0, -1, 0, "a,\"b\"" },
	{ 8192, 4, 3, 1, "big" },
};

static void setup(struct cols_ctx *c, struct sort_set *s, size_t limit)
{
	struct kmem_sort_cfg sort = { .n = 0 };

	memset(c, 0, sizeof(*c));
	c->def = &def;
	c->base = rows;
	c->nr = 3;
	sort_set_init(s, &sort, cols_keys(&def), limit);
	cols_offer(c, s);
	sort_finish(s);
}

static void test_text(void)
{
	struct cols_ctx c;
	struct sort_set s;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	setup(&c, &s, 2);
	c.hidden = 1U << 2; /* the order column left out */
	cols_print(&c, &s, 0, false, f);
	fclose(f);
	/* "Mean" shows its field's first number, "-" where it is unknown */
	CHECK_STR(buf, "----------------------------------------\n"
		       "     Total/Size  | Hits |  Mean | Name\n"
		       "----------------------------------------\n"
		       " 1,000,000/0     |    . |     - | a,\"b\"\n"
		       "     8,192/2,048 |    4 | 8,192 | big\n"
		       " ...             | ...  | ...   | ...\n"
		       "----------------------------------------\n");
	free(buf);
	sort_set_release(&s);
}

/*
 * Fitting a width: the least important columns go first (Mean, rank 5,
 * then Order 4, Hits 3), said under the table; Name (rank 1) never goes.
 * The whole table is 48 columns wide: test_text's 40 and Order's 5 and
 * " | ".  At 40 Mean goes (5 and " | ": 40, fits); at 30 Order goes too
 * (32) and Hits (4 and " | ": 25).
 */
static void test_fit(void)
{
	struct cols_ctx c;
	struct sort_set s;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	setup(&c, &s, 2);
	cols_print(&c, &s, 40, true, f);
	cols_print(&c, &s, 30, true, f);
	cols_print(&c, &s, 30, false, f);	/* folding only: as wide */
	fclose(f);
	CHECK_STR(buf, "----------------------------------------\n"
		       "     Total/Size  | Hits | Order | Name\n"
		       "----------------------------------------\n"
		       " 1,000,000/0     |    . |    -1 | a,\"b\"\n"
		       "     8,192/2,048 |    4 |     3 | big\n"
		       " ...             | ...  | ...   | ...\n"
		       "----------------------------------------\n"
		       " Left out to fit 40 columns: Mean\n"
		       "   (--width=0 shows them)\n"
		       "-------------------------\n"
		       "     Total/Size  | Name\n"
		       "-------------------------\n"
		       " 1,000,000/0     | a,\"b\"\n"
		       "     8,192/2,048 | big\n"
		       " ...             | ...\n"
		       "-------------------------\n"
		       " Left out to fit 30 columns:\n"
		       "   Mean, Order, Hits\n"
		       "   (--width=0 shows them)\n"
		       "------------------------------------------------\n"
		       "     Total/Size  | Hits | Order |  Mean | Name\n"
		       "------------------------------------------------\n"
		       " 1,000,000/0     |    . |    -1 |     - | a,\"b\"\n"
		       "     8,192/2,048 |    4 |     3 | 8,192 | big\n"
		       " ...             | ...  | ...   | ...   | ...\n"
		       "------------------------------------------------\n");
	free(buf);
	sort_set_release(&s);
}

static void test_json_csv(void)
{
	struct cols_ctx c;
	struct sort_set s;
	struct json j;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct csv w = { f, "t.dat" };

	setup(&c, &s, 0);
	json_init(&j, f);
	json_open(&j, NULL, '{');
	cols_json_table(&c, &s, "rows", &j);
	json_close(&j, '}');
	fclose(f);
	CHECK_STR(buf,
		  "{\n  \"rows\": [\n"
		  "    {\n      \"name\": \"a,\\\"b\\\"\",\n"
		  "      \"bytes\": 1000000,\n      \"hits\": 0,\n"
		  "      \"order\": -1,\n      \"maybe\": null\n    },\n"
		  "    {\n      \"name\": \"big\",\n      \"bytes\": 8192,\n"
		  "      \"hits\": 4,\n      \"order\": 3,\n"
		  "      \"maybe\": 2048\n    },\n"
		  "    {\n      \"name\": \"small\",\n      \"bytes\": 4096,\n"
		  "      \"hits\": 2,\n      \"order\": 0,\n"
		  "      \"maybe\": 2048\n    }\n  ]\n}\n");
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	w.out = f;
	json_init_tree(&j);
	j.table_sink = &w;
	json_open(&j, NULL, '{');
	json_open(&j, "slab", '{');
	cols_json_table(&c, &s, "rows", &j);
	json_close(&j, '}');
	json_close(&j, '}');
	fclose(f);
	CHECK_STR(buf, "table,file,name,bytes,hits,order,maybe\r\n"
		       "slab.rows,t.dat,\"a,\"\"b\"\"\",1000000,0,-1,\r\n"
		       "slab.rows,t.dat,big,8192,4,3,2048\r\n"
		       "slab.rows,t.dat,small,4096,2,0,2048\r\n");
	CHECK(j.root && j.root->n == 1); /* the rows went to the CSV */
	jt_free(j.root);
	free(buf);
	sort_set_release(&s);
}

static void check_ranks(const struct cols_def *d)
{
	unsigned int seen = 0;
	int i;

	for (i = 0; i < d->ncols; i++) {
		CHECK(d->cols[i].rank >= 1 && d->cols[i].rank <= d->ncols);
		CHECK(!(seen & (1U << d->cols[i].rank)));
		seen |= 1U << d->cols[i].rank;
	}
}

static void test_declarations(void)
{
	CHECK_U64(cols_keys(&slab_site_cols), SORT_KEYS_SLAB_CALLER);
	CHECK_U64(cols_keys(&slab_freed_site_cols), SORT_KEYS_SLAB_CALLER);
	CHECK_U64(cols_keys(&slab_ptr_cols), SORT_KEYS_SLAB_ALLOC);
	CHECK_U64(cols_keys(&slab_cache_cols), SORT_KEYS_SLAB_CACHE);
	CHECK_U64(cols_keys(&slab_anomaly_cols), SORT_KEYS_SLAB_ANOMALY);
	CHECK_U64(cols_keys(&page_site_cols), SORT_KEYS_PAGE_CALLER);
	CHECK_U64(cols_keys(&page_pfn_cols), SORT_KEYS_PAGE_PFN);
	CHECK_U64(cols_keys(&percpu_freed_sites), SORT_KEYS_LC_SITE);
	CHECK_U64(cols_keys(&vmalloc_freed_sites), SORT_KEYS_LC_SITE);
	check_ranks(&def);
	check_ranks(&slab_site_cols);
	check_ranks(&slab_ptr_cols);
	check_ranks(&slab_cache_cols);
	check_ranks(&slab_anomaly_cols);
	check_ranks(&page_site_cols);
	check_ranks(&page_pfn_cols);
	check_ranks(&percpu_freed_sites);
}

int main(void)
{
	RUN(test_text);
	RUN(test_fit);
	RUN(test_json_csv);
	RUN(test_declarations);
	UNIT_EXIT();
}
