// SPDX-License-Identifier: LGPL-2.1
/*
 * Summaries declared once (render/summary.h): a small made-up summary
 * written as text and as JSON, counted by hand; its text lines in an
 * order of their own, a gap before no line, lines shown only when not
 * 0, an unknown value, notes, JSON-only and text-only fields, a nested
 * object and a callback's member.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/numfmt.h"
#include "render/recorded.h"
#include "render/summary.h"
#include "unit.h"

struct made {
	uint64_t allocs, bytes;
	uint64_t frees, freed;
	uint64_t fails, fail_bytes;
	uint64_t doubles, zeros;
};

static const struct made made = {
	.allocs = 1234,
	.bytes = 40960,
	.frees = 1000,
	.freed = 50000,
	.fails = 2,
	.fail_bytes = 8192,
	.doubles = 3,
};

static uint64_t net(const struct sum_ctx *c)
{
	const struct made *m = c->base;

	return m->bytes - m->freed;
}

static uint64_t seven(const struct sum_ctx *c)
{
	(void)c;
	return 7;
}

static bool never(const struct sum_ctx *c)
{
	(void)c;
	return false;
}

static const char *fails_note(const struct sum_ctx *c, char *buf)
{
	const struct made *m = c->base;
	char n[NUMFMT_LEN];

	if (!m->fails)
		return NULL;
	snprintf(buf, SUM_NOTE_LEN, "(%s bytes asked)",
		 fmt_count(n, m->fail_bytes));
	return buf;
}

static void requests(const struct sum_ctx *c, const struct sum_field *f,
		     struct json *j)
{
	(void)c;
	json_str(j, f->key, "none");
}

enum {
	L_FAILS = 1,
	L_FREED,
	L_ALLOCS,
	L_GAP1,
	L_NET,
	L_MAYBE,
	L_GAP2,
	L_DOUBLE,
	L_TEXT,
	L_GAP3,
	L_ZERO,
};

#define M(m) SUM_NUM64(struct made, m)

static const struct sum_field fields[] = {
	{ .key = "allocs",
	  .label = "Allocations",
	  .line = L_ALLOCS,
	  .kind = SF_PAIR,
	  .a = M(allocs),
	  .b = M(bytes),
	  .key_b = "alloc_bytes" },
	{ .key = "net_bytes",
	  .label = "Net bytes",
	  .line = L_NET,
	  .kind = SF_SIGNED,
	  .a = SUM_NUMFN(net) },
	{ .key = "failures", .kind = SF_OPEN },
	{ .key = "count",
	  .label = "Failures",
	  .line = L_FAILS,
	  .a = M(fails),
	  .note_fn = fails_note },
	{ .key = "requests", .kind = SF_JSON, .json = requests },
	{ .kind = SF_CLOSE },
	{ .key = "frees",
	  .label = "Freed",
	  .line = L_FREED,
	  .kind = SF_COUNT_BYTES,
	  .a = M(frees),
	  .b = M(freed) },
	{ .key = "maybe",
	  .label = "Maybe",
	  .line = L_MAYBE,
	  .a = M(zeros),
	  .known = never },
	{ .key = "double_frees",
	  .label = "Double frees",
	  .line = L_DOUBLE,
	  .a = M(doubles),
	  .note = SUM_NOTE_DOUBLE,
	  .show = sum_nonzero },
	{ .key = "zero",
	  .label = "Zero-size",
	  .line = L_ZERO,
	  .a = M(zeros),
	  .show = sum_nonzero },
	{ .line = L_GAP1, .kind = SF_GAP },
	{ .line = L_GAP2, .kind = SF_GAP },
	{ .line = L_GAP3, .kind = SF_GAP },
	{ .label = "Text only", .line = L_TEXT, .a = SUM_NUMFN(seven) },
};

static const struct sum_def def = {
	SUM_DEF(KMEM_ALLOC_SLAB, "made-up allocator", fields),
};

static const struct sum_ctx ctx = { .def = &def, .base = &made };

static void test_text(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	sum_print(&ctx, f);
	fclose(f);
	/*
	 * Labels 13 wide ("Double frees:"), values 6 ("-9,040"), bytes 6;
	 * the last gap has no line after it.
	 */
	CHECK_STR(buf,
		  " SUMMARY (made-up allocator)\n"
		  " ===========================\n"
		  "\n"
		  " Failures:           2   (8,192 bytes asked)\n"
		  " Freed:          1,000   [ 50,000 bytes ]\n"
		  " Allocations:    1,234   [ 40,960 bytes ]\n"
		  "\n"
		  " Net bytes:     -9,040\n"
		  " Maybe:              -\n"
		  "\n"
		  " Double frees:       3   (a kernel bug, or an allocation "
		  "that passed no tracepoint)\n"
		  " Text only:          7\n");
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
	sum_json(&ctx, "summary", &j);
	json_close(&j, '}');
	fclose(f);
	/* every member in table order, whatever show() says */
	CHECK_STR(buf, "{\n"
		       "  \"summary\": {\n"
		       "    \"allocs\": 1234,\n"
		       "    \"alloc_bytes\": 40960,\n"
		       "    \"net_bytes\": -9040,\n"
		       "    \"failures\": {\n"
		       "      \"count\": 2,\n"
		       "      \"requests\": \"none\"\n"
		       "    },\n"
		       "    \"frees\": {\n"
		       "      \"count\": 1000,\n"
		       "      \"bytes\": 50000\n"
		       "    },\n"
		       "    \"maybe\": null,\n"
		       "    \"double_frees\": 3,\n"
		       "    \"zero\": 0\n"
		       "  }\n"
		       "}\n");
	free(buf);
}

static void test_num(void)
{
	static const struct sum_num off = M(fail_bytes), fn = SUM_NUMFN(seven);

	CHECK_U64(sum_num(&ctx, &off), 8192);
	CHECK_U64(sum_num(&ctx, &fn), 7);
	CHECK(sum_nonzero(&ctx, &fields[0]));
	CHECK(!sum_nonzero(&ctx, &fields[9]));
}

/*
 * Fields of events the trace has no record of: "-" in text, null in
 * JSON, and one line naming the events after the block.  Drains need
 * mm_page_pcpu_drain (none), refills mm_page_alloc_zone_locked (none),
 * frees the allocator's free (kfree: 5 records), the last line nothing.
 * Labels 8 wide ("Refills:"), two spaces, values 5 wide ("1,000").
 */
static const struct sum_field needs_fields[] = {
	{ .key = "drains",
	  .label = "Drains",
	  .line = 1,
	  .a = M(zeros),
	  .needs = KMEM_EV_PAGE_PCPU_DRAIN },
	{ .key = "refills",
	  .label = "Refills",
	  .line = 2,
	  .a = M(zeros),
	  .needs = KMEM_EV_PAGE_ZONE_LOCKED },
	{ .key = "freed",
	  .label = "Freed",
	  .line = 3,
	  .kind = SF_PAIR,
	  .a = M(frees),
	  .b = M(freed),
	  .key_b = "freed_bytes",
	  .needs = SUM_NEEDS_FREE },
	{ .key = "again",
	  .label = "Again",
	  .line = 4,
	  .a = M(zeros),
	  .needs = KMEM_EV_PAGE_PCPU_DRAIN },
	{ .key = "fails", .label = "Fails", .line = 5, .a = M(fails) },
};

static void test_needs(void)
{
	static const struct sum_def d = {
		SUM_DEF(KMEM_ALLOC_SLAB, "needs", needs_fields),
	};
	static struct kmem_agg agg;
	static const struct kmem_input in = { .label = "t" };
	const struct kmem_report_ctx r = { .agg = &agg, .in = &in };
	const struct sum_ctx c = { .def = &d, .base = &made, .r = &r };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json j;

	agg.kinds[KMEM_EV_SLAB_FREE] = 5;
	CHECK(kmem_recorded(&r, KMEM_EV_SLAB_FREE));
	CHECK(!kmem_recorded(&r, KMEM_EV_PAGE_PCPU_DRAIN));
	CHECK(kmem_recorded(&r, KMEM_EV_NONE));
	CHECK(kmem_recorded(NULL, KMEM_EV_PAGE_PCPU_DRAIN));
	sum_print(&c, f);
	json_init(&j, f);
	json_open(&j, NULL, '{');
	sum_json(&c, "s", &j);
	json_close(&j, '}');
	fclose(f);
	CHECK_STR(buf, " SUMMARY (needs)\n"
		       " ===============\n"
		       "\n"
		       " Drains:       -\n"
		       " Refills:      -\n"
		       " Freed:    1,000   [ 50,000 bytes ]\n"
		       " Again:        -\n"
		       " Fails:        2\n"
		       "\n"
		       " -: not recorded; enable kmem:mm_page_pcpu_drain and\n"
		       "   kmem:mm_page_alloc_zone_locked to count these.\n"
		       "{\n"
		       "  \"s\": {\n"
		       "    \"drains\": null,\n"
		       "    \"refills\": null,\n"
		       "    \"freed\": 1000,\n"
		       "    \"freed_bytes\": 50000,\n"
		       "    \"again\": null,\n"
		       "    \"fails\": 2\n"
		       "  }\n"
		       "}\n");
	free(buf);
	/* no free recorded: the pair is unknown, both its members null */
	agg.kinds[KMEM_EV_SLAB_FREE] = 0;
	buf = NULL;
	f = open_memstream(&buf, &len);
	json_init(&j, f);
	json_open(&j, NULL, '{');
	sum_json(&c, "s", &j);
	json_close(&j, '}');
	fclose(f);
	CHECK(strstr(buf, "\"freed\": null,\n    \"freed_bytes\": null,"));
	free(buf);
}

/* Why repeated frees may not be double frees: the pid 0 rule's words. */
static void test_doubt(void)
{
	static struct kmem_agg agg;
	struct kmem_input in = { .label = "t" };
	const struct kmem_report_ctx r = { .agg = &agg, .in = &in };
	char why[KMEM_DOUBT_LEN];

	agg.kinds[KMEM_EV_SLAB_ALLOC] = 2;
	agg.kinds[KMEM_EV_SLAB_FREE] = 3;
	CHECK_STR(kmem_free_doubt(&r, KMEM_ALLOC_SLAB, why, sizeof(why)),
		  "no pid 0 record: likely only chosen tasks were traced");
	in.all_tasks = true;	/* live of every task, CPUs never idle */
	CHECK_STR(kmem_free_doubt(&r, KMEM_ALLOC_SLAB, why, sizeof(why)),
		  "allocations that pass no tracepoint (bulk ones) may lie "
		  "between");
	agg.idle_records = 1;	/* the whole system: double frees */
	CHECK(kmem_free_doubt(&r, KMEM_ALLOC_SLAB, why, sizeof(why)) == NULL);
	agg.events_lost = 1;
	CHECK_STR(kmem_free_doubt(&r, KMEM_ALLOC_SLAB, why, sizeof(why)),
		  "the ring buffer lost events");
}

int main(void)
{
	RUN(test_text);
	RUN(test_json);
	RUN(test_num);
	RUN(test_needs);
	RUN(test_doubt);
	UNIT_EXIT();
}
