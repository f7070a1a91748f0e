// SPDX-License-Identifier: LGPL-2.1
/*
 * Decoding single kmem records written out byte by byte: of real
 * kernels, of formats lacking fields, and with cache names of every
 * kind, sane or corrupt.  Each is decoded with its last byte just
 * before an unreadable page (decode_records.c), so a read past the
 * record is a failure.
 */
#include <stdio.h>
#include <string.h>

#include <event-parse.h>

#include "analysis/agg.h"
#include "agg_util.h"
#include "decode_util.h"
#include "unit.h"

/* ------------------------------------------------------------------ */
/* Records written out byte by byte                                    */

static struct kmem_fields fields_of(struct tep_handle *tep, const char *name)
{
	struct kmem_fields f;
	struct tep_event *event = tep_find_event_by_name(tep, "kmem", name);

	memset(&f, 0, sizeof(f));
	CHECK(event != NULL);
	if (event)
		kmem_fields_init(&f, event, kmem_slot_by_name("kmem", name));
	return f;
}

/* A kmem_cache_alloc record of this 6.18 x86_64 machine. */
static void test_bytes_6_18_kmem_cache_alloc(void)
{
	static const unsigned char rec[] = {
		0x93, 0x02, 0x00, 0x00,	/* common_type 659, flags, preempt */
		0xd2, 0x04, 0x00, 0x00,	/* common_pid 1234 */
		0xc4, 0xb3, 0xa2, 0x81, 0xff, 0xff, 0xff, 0xff, /* call_site */
		0x00, 0x70, 0x5e, 0x04, 0x81, 0x88, 0xff, 0xff, /* ptr */
		0x40, 0x00, 0x07, 0x00,	/* name: 7 bytes at 64 */
		0x00, 0x00, 0x00, 0x00,	/* hole */
		0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* req 192 */
		0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* alloc 256 */
		0xc0, 0x0c, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, /* gfp */
		0x01, 0x00, 0x00, 0x00,	/* node 1 */
		0x01, 0x00, 0x00, 0x00,	/* accounted, hole */
		'd', 'e', 'n', 't', 'r', 'y', '\0',
	};
	struct tep_handle *tep = load_formats("linux-6.18-x86_64.txt", 8,
					      false);
	struct kmem_fields f;
	struct kmem_event ev;

	if (!tep)
		return;
	f = fields_of(tep, "kmem_cache_alloc");
	CHECK(f.usable);
	CHECK(decode_bytes(&f, rec, (int)sizeof(rec), &ev) == 0);
	CHECK(ev.kind == KMEM_EV_SLAB_ALLOC);
	CHECK(ev.is_cache);
	CHECK(ev.cpu == 3);
	CHECK(ev.pid == 1234);
	CHECK_U64(ev.ts, 123456789);
	CHECK_U64(ev.call_site, 0xffffffff81a2b3c4ULL);
	CHECK_U64(ev.ptr, 0xffff8881045e7000ULL);
	CHECK_U64(ev.bytes_req, 192);
	CHECK_U64(ev.bytes_alloc, 256);
	CHECK_U64(ev.gfp_flags, 0x400cc0);	/* GFP_KERNEL_ACCOUNT */
	CHECK(ev.node == 1);
	CHECK_U64(kmem_event_name_len(&ev), 6);
	CHECK(ev.name && !memcmp(ev.name, "dentry", 6));
	tep_free(tep);
}

/* kmalloc and kmem_cache_free records of a 32-bit big-endian machine. */
static void test_bytes_ppc32(void)
{
	static const unsigned char km[] = {
		0x01, 0x99, 0x00, 0x00,	/* common_type 409 */
		0x00, 0x00, 0x00, 0x4d,	/* common_pid 77 */
		0xc0, 0x1a, 0x2b, 0x3c,	/* call_site */
		0xdf, 0x5e, 0x71, 0x00,	/* ptr */
		0x00, 0x00, 0x00, 0x64,	/* bytes_req 100 */
		0x00, 0x00, 0x00, 0x80,	/* bytes_alloc 128 */
		0x00, 0x00, 0x0c, 0xc0,	/* gfp_flags GFP_KERNEL */
		0xff, 0xff, 0xff, 0xff,	/* node NUMA_NO_NODE */
	};
	static const unsigned char kcf[] = {
		0x01, 0x96, 0x00, 0x00,	/* common_type 406 */
		0x00, 0x00, 0x00, 0x4d,	/* common_pid 77 */
		0xc0, 0x1a, 0x2b, 0x40,	/* call_site */
		0xdf, 0x5e, 0x70, 0x00,	/* ptr */
		0x00, 0x0c, 0x00, 0x14,	/* name: 12 bytes at 20 */
		't', 'a', 's', 'k', '_', 's', 't', 'r', 'u', 'c', 't', '\0',
	};
	struct tep_handle *tep = load_formats("linux-6.1-ppc32.txt", 4, true);
	struct kmem_fields f;
	struct kmem_event ev;

	if (!tep)
		return;
	f = fields_of(tep, "kmalloc");
	CHECK(decode_bytes(&f, km, (int)sizeof(km), &ev) == 0);
	CHECK(ev.kind == KMEM_EV_SLAB_ALLOC);
	CHECK(!ev.is_cache);
	CHECK(ev.pid == 77);
	CHECK_U64(ev.call_site, 0xc01a2b3cULL);	/* not sign-extended */
	CHECK_U64(ev.ptr, 0xdf5e7100ULL);
	CHECK_U64(ev.bytes_req, 100);
	CHECK_U64(ev.bytes_alloc, 128);
	CHECK_U64(ev.gfp_flags, 0xcc0);
	CHECK(ev.node == KMEM_NO_NODE);
	CHECK(ev.name == NULL);

	f = fields_of(tep, "kmem_cache_free");
	CHECK(decode_bytes(&f, kcf, (int)sizeof(kcf), &ev) == 0);
	CHECK(ev.kind == KMEM_EV_SLAB_FREE);
	CHECK(ev.is_cache);
	CHECK(ev.pid == 77);
	CHECK_U64(ev.call_site, 0xc01a2b40ULL);
	CHECK_U64(ev.ptr, 0xdf5e7000ULL);
	CHECK_U64(ev.bytes_req, 0);
	CHECK(ev.node == KMEM_NO_NODE);
	CHECK_U64(kmem_event_name_len(&ev), 11);
	CHECK(ev.name && !memcmp(ev.name, "task_struct", 11));
	tep_free(tep);
}

/* ------------------------------------------------------------------ */
/* Formats lacking fields                                              */

#define COMMON_FIELDS                                                    \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;"   \
	"\tsigned:0;\n"                                                     \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
#define FLD(decl, off, size)                                             \
	"\tfield:" decl ";\toffset:" #off ";\tsize:" #size ";\tsigned:0;\n"
#define CALL_SITE FLD("unsigned long call_site", 8, 8)
#define PTR FLD("const void * ptr", 16, 8)

/* kmalloc without bytes_alloc */
static const char fmt_no_bytes_alloc[] =
	"name: kmalloc\nID: 11\nformat:\n" COMMON_FIELDS CALL_SITE PTR
	FLD("size_t bytes_req", 24, 8) FLD("unsigned long gfp_flags", 32, 8)
	"\nprint fmt: \"call_site=%pS ptr=%p bytes_req=%zu\", "
	"(void *)REC->call_site, REC->ptr, REC->bytes_req\n";

/* kmem_cache_alloc without bytes_req */
static const char fmt_no_bytes_req[] =
	"name: kmem_cache_alloc\nID: 12\nformat:\n" COMMON_FIELDS CALL_SITE PTR
	FLD("size_t bytes_alloc", 24, 8)
	"\nprint fmt: \"call_site=%pS ptr=%p bytes_alloc=%zu\", "
	"(void *)REC->call_site, REC->ptr, REC->bytes_alloc\n";

/* kfree without ptr */
static const char fmt_no_ptr[] =
	"name: kfree\nID: 13\nformat:\n" COMMON_FIELDS CALL_SITE
	"\nprint fmt: \"call_site=%pS\", (void *)REC->call_site\n";

/* kmem_cache_free without call_site */
static const char fmt_no_call_site[] =
	"name: kmem_cache_free\nID: 14\nformat:\n" COMMON_FIELDS
	FLD("const void * ptr", 8, 8)
	"\nprint fmt: \"ptr=%p\", REC->ptr\n";

/* kmalloc_node without gfp_flags and node: both optional */
static const char fmt_no_optional[] =
	"name: kmalloc_node\nID: 15\nformat:\n" COMMON_FIELDS CALL_SITE PTR
	FLD("size_t bytes_req", 24, 8) FLD("size_t bytes_alloc", 32, 8)
	"\nprint fmt: \"call_site=%pS ptr=%p bytes_req=%zu bytes_alloc=%zu\", "
	"(void *)REC->call_site, REC->ptr, REC->bytes_req, REC->bytes_alloc\n";

static void expect_unusable(const char *fmt, const char *name)
{
	struct tep_handle *tep = new_tep(8, false);
	unsigned char rec[48];
	struct kmem_fields f;
	struct kmem_event ev;
	struct kmem_agg a;
	int i;

	if (!tep)
		return;
	parse_one(tep, fmt, strlen(fmt));
	f = fields_of(tep, name);
	CHECK(f.event != NULL);
	CHECK(!f.usable);
	for (i = 0; i < (int)sizeof(rec); i++)
		rec[i] = (unsigned char)(0x41 + i);
	memset(&ev, 0x5a, sizeof(ev));
	CHECK(decode_bytes(&f, rec, (int)sizeof(rec), &ev) == -1);
	CHECK(ev.kind == KMEM_EV_NONE);
	kmem_agg_init(&a);
	kmem_agg_event(&a, &ev);	/* a KMEM_EV_NONE is ignored */
	CHECK_U64(a.events[KMEM_ALLOC_SLAB], 0);
	CHECK_U64(agg_slab(&a)->sum.allocs + agg_slab(&a)->sum.frees, 0);
	kmem_agg_release(&a);
	tep_free(tep);
}

static void test_missing_required_fields(void)
{
	expect_unusable(fmt_no_bytes_alloc, "kmalloc");
	expect_unusable(fmt_no_bytes_req, "kmem_cache_alloc");
	expect_unusable(fmt_no_ptr, "kfree");
	expect_unusable(fmt_no_call_site, "kmem_cache_free");
}

static void test_missing_optional_fields(void)
{
	static const unsigned char rec[] = {
		15, 0, 0, 0, 7, 0, 0, 0,
		0x10, 0x20, 0x30, 0x81, 0xff, 0xff, 0xff, 0xff,
		0x00, 0x10, 0x00, 0x00, 0x81, 0x88, 0xff, 0xff,
		8, 0, 0, 0, 0, 0, 0, 0,
		16, 0, 0, 0, 0, 0, 0, 0,
	};
	struct tep_handle *tep = new_tep(8, false);
	struct kmem_fields f;
	struct kmem_event ev;

	if (!tep)
		return;
	parse_one(tep, fmt_no_optional, strlen(fmt_no_optional));
	f = fields_of(tep, "kmalloc_node");
	CHECK(f.usable);
	CHECK(decode_bytes(&f, rec, (int)sizeof(rec), &ev) == 0);
	CHECK(ev.kind == KMEM_EV_SLAB_ALLOC);
	CHECK(!ev.is_cache);
	CHECK(ev.pid == 7);
	CHECK_U64(ev.call_site, 0xffffffff81302010ULL);
	CHECK_U64(ev.ptr, 0xffff888100001000ULL);
	CHECK_U64(ev.bytes_req, 8);
	CHECK_U64(ev.bytes_alloc, 16);
	CHECK_U64(ev.gfp_flags, 0);
	CHECK(ev.node == KMEM_NO_NODE);
	tep_free(tep);
}

/* ------------------------------------------------------------------ */
/* Name fields: variants and corrupt locations                         */

static const char fmt_static_name[] =
	"name: kmem_cache_free\nID: 16\nformat:\n" COMMON_FIELDS CALL_SITE PTR
	FLD("char name[16]", 24, 16)
	"\nprint fmt: \"call_site=%pS ptr=%p name=%s\", "
	"(void *)REC->call_site, REC->ptr, REC->name\n";

static const char fmt_int_name[] =
	"name: kmem_cache_free\nID: 17\nformat:\n" COMMON_FIELDS CALL_SITE PTR
	FLD("int name", 24, 4)
	"\nprint fmt: \"call_site=%pS ptr=%p name=%d\", "
	"(void *)REC->call_site, REC->ptr, REC->name\n";

static void test_name_static_and_numeric(void)
{
	unsigned char rec[40];
	struct tep_handle *tep = new_tep(8, false);
	struct kmem_fields f;
	struct kmem_event ev;

	if (!tep)
		return;
	parse_one(tep, fmt_static_name, strlen(fmt_static_name));
	memset(rec, 0, sizeof(rec));
	rec[0] = 16;
	rec[8] = 0x42;
	rec[16] = 0x80;
	memcpy(rec + 24, "kmalloc-rcl-64", 15);
	f = fields_of(tep, "kmem_cache_free");
	CHECK(f.usable);
	CHECK(f.name != NULL);
	CHECK(decode_bytes(&f, rec, (int)sizeof(rec), &ev) == 0);
	CHECK_U64(kmem_event_name_len(&ev), 14);
	CHECK(ev.name && !memcmp(ev.name, "kmalloc-rcl-64", 14));
	/* all 16 bytes used, no NUL: the name stops at the field's end */
	memcpy(rec + 24, "0123456789abcdefXYZ", 16);
	CHECK(decode_bytes(&f, rec, (int)sizeof(rec), &ev) == 0);
	CHECK_U64(kmem_event_name_len(&ev), 16);
	tep_free(tep);

	tep = new_tep(8, false);
	if (!tep)
		return;
	parse_one(tep, fmt_int_name, strlen(fmt_int_name));
	f = fields_of(tep, "kmem_cache_free");
	CHECK(f.usable);
	CHECK(f.name == NULL);	/* not a string: ignored */
	memset(rec, 0, sizeof(rec));
	rec[0] = 17;
	rec[16] = 0x80;
	rec[24] = 5;
	CHECK(decode_bytes(&f, rec, 28, &ev) == 0);
	CHECK(ev.name == NULL);
	CHECK_U64(ev.ptr, 0x80);
	tep_free(tep);
}

/*
 * 6.18 kmem_cache_free (name loc at 24, fixed part 32 bytes) and the
 * __rel_loc variant (offset counted from 28) with bad locations.
 */
static void test_name_bad_locations(void)
{
	static const struct {
		bool rel;
		uint32_t loc;
		const char *tail;	/* bytes from 32 on */
		int tail_len;
		int want_len;		/* -1: no name */
	} cases[] = {
		{ false, 7 << 16 | 32, "dentry", 7, 6 },	/* good */
		{ false, 9 << 16 | 32, "dentry\0xy", 9, 6 },	/* stops at NUL */
		{ false, 6 << 16 | 32, "dentry", 6, 6 },	/* no NUL */
		{ false, 0 << 16 | 32, "dentry", 7, -1 },	/* empty */
		{ false, 8 << 16 | 32, "dentry", 7, -1 },	/* 1 past end */
		{ false, 7 << 16 | 200, "dentry", 7, -1 },	/* off past end */
		{ false, 0xffffffffu, "dentry", 7, -1 },	/* garbage */
		{ true, 7 << 16 | 4, "dentry", 7, 6 },		/* 28 + 4 */
		{ true, 7 << 16 | 5, "dentry", 7, -1 },	/* 1 past end */
		{ true, 7 << 16 | 0xfff0, "dentry", 7, -1 },
		{ true, 0xffffffffu, "dentry", 7, -1 },
	};
	struct tep_handle *tep_abs = load_formats("linux-6.18-x86_64.txt", 8,
						  false);
	struct tep_handle *tep_rel =
		load_formats("synthetic-rel_loc-x86_64.txt", 8, false);
	struct kmem_fields fa, fr;
	size_t i;

	if (!tep_abs || !tep_rel)
		goto out;
	fa = fields_of(tep_abs, "kmem_cache_free");
	fr = fields_of(tep_rel, "kmem_cache_free");
	CHECK(fa.name && !(fa.name->flags & TEP_FIELD_IS_RELATIVE));
	CHECK(fr.name && (fr.name->flags & TEP_FIELD_IS_RELATIVE));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned char rec[64];
		struct kmem_event ev;
		int before = unit_failed;
		int len = 32 + cases[i].tail_len;
		int ret;

		memset(rec, 0, sizeof(rec));
		rec[0] = 0x90;	/* 656 */
		rec[1] = 0x02;
		rec[16] = 0x40;
		rec[24] = (unsigned char)cases[i].loc;
		rec[25] = (unsigned char)(cases[i].loc >> 8);
		rec[26] = (unsigned char)(cases[i].loc >> 16);
		rec[27] = (unsigned char)(cases[i].loc >> 24);
		memcpy(rec + 32, cases[i].tail, (size_t)cases[i].tail_len);
		ret = decode_bytes(cases[i].rel ? &fr : &fa, rec, len, &ev);
		CHECK(ret != FAULTED);
		CHECK(ret == 0);
		if (ret == 0 && cases[i].want_len < 0) {
			CHECK(ev.name == NULL);
		} else if (ret == 0) {
			CHECK_U64(kmem_event_name_len(&ev), cases[i].want_len);
			/* the record's bytes for it, whole */
			CHECK_U64(ev.name_len, (cases[i].loc >> 16) & 0xffff);
			CHECK(ev.name && !memcmp(ev.name, "dentry", 6));
		}
		CHECK_U64(ev.ptr, 0x40);
		if (unit_failed != before)
			printf("  ... in case %zu\n", i);
	}
out:
	tep_free(tep_abs);
	tep_free(tep_rel);
}

int main(int argc, char **argv)
{
	(void)argc;
	find_formats_dir(argv[0]);
	if (guard_init()) {
		printf("FAIL guard_init: cannot map a guard page\n");
		return 1;
	}
	RUN(test_bytes_6_18_kmem_cache_alloc);
	RUN(test_bytes_ppc32);
	RUN(test_missing_required_fields);
	RUN(test_missing_optional_fields);
	RUN(test_name_static_and_numeric);
	RUN(test_name_bad_locations);
	UNIT_EXIT();
}
