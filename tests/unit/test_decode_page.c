// SPDX-License-Identifier: LGPL-2.1
/*
 * Decoding the page allocator events and kernel_stack of old and new
 * kernels from their format text (tests/formats/page-*.txt), and what
 * the formats themselves tell: pageblock order, GFP names, migration
 * type numbering.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "alloc/page.h"
#include "event/decode.h"
#include "event/fmtprobe.h"
#include "event/tep_names.h"
#include "unit.h"

#ifndef FORMATS
#define FORMATS "tests/formats"
#endif

/* Parse every "name:" block of a format file into a new handle. */
static struct tep_handle *load(const char *file)
{
	char path[256], *buf, *p, *next;
	struct tep_handle *tep = tep_alloc();
	FILE *f;
	long n;

	snprintf(path, sizeof(path), FORMATS "/%s", file);
	f = fopen(path, "r");
	if (!f || !tep)
		return tep;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) == (size_t)n) {
		tep_set_long_size(tep, 8);
		tep_set_page_size(tep, 4096);
		for (p = buf; p && *p; p = next) {
			const char *sys;

			next = strstr(p + 1, "\nname: ");
			if (next)
				*next++ = '\0';
			sys = strstr(p, "name: kernel_stack") ? "ftrace" : "kmem";
			tep_parse_event(tep, p, strlen(p), sys);
		}
	}
	free(buf);
	fclose(f);
	return tep;
}

static struct tep_event *event(struct tep_handle *tep, const char *name)
{
	const char *sys = strcmp(name, "kernel_stack") ? "kmem" : "ftrace";

	return tep_find_event_by_name(tep, sys, name);
}

static void put(unsigned char *rec, int off, int size, uint64_t v)
{
	int i;

	for (i = 0; i < size; i++)	/* little-endian, as the host */
		rec[off + i] = (unsigned char)(v >> (8 * i));
}

static int decode(struct tep_event *ev, enum kmem_slot slot,
		  unsigned char *data, int size, struct kmem_event *out)
{
	struct tep_record rec = { .data = data, .size = size, .cpu = 1 };
	struct kmem_fields f;

	kmem_fields_init(&f, ev, slot);
	return kmem_decode(&f, &rec, out);
}

static void test_2_6_32(void)
{
	struct tep_handle *tep = load("page-linux-2.6.32-x86_64.txt");
	struct tep_event *alloc = event(tep, "mm_page_alloc");
	struct tep_event *vec = event(tep, "mm_pagevec_free");
	struct tep_event *stack = event(tep, "kernel_stack");
	unsigned char rec[96] = { 0 };
	struct kmem_symbolizer sym;
	struct kmem_event ev;
	char buf[128];

	CHECK(alloc && vec && stack && event(tep, "mm_page_free_direct"));
	if (!alloc || !vec || !stack)
		goto out;
	put(rec, 16, 8, 0xffffea0001234000ULL);	/* struct page * */
	put(rec, 24, 4, 2);			/* order */
	put(rec, 28, 4, 0xd0);			/* GFP_KERNEL */
	put(rec, 32, 4, 2);			/* MOVABLE before 4.4 */
	CHECK(decode(alloc, KMEM_SLOT_PAGE_ALLOC, rec, 36, &ev) == 0);
	CHECK(ev.kind == KMEM_EV_PAGE_ALLOC);
	CHECK(ev.page_ptr && ev.page_valid);
	CHECK_U64(ev.pfn, 0xffffea0001234000ULL);
	CHECK_U64(ev.order, 2);
	CHECK_U64(ev.gfp_flags, 0xd0);
	CHECK_U64(ev.migratetype, 2);
	put(rec, 16, 8, 0);			/* failed: page NULL */
	CHECK(decode(alloc, KMEM_SLOT_PAGE_ALLOC, rec, 36, &ev) == 0);
	CHECK(!ev.page_valid);

	put(rec, 16, 8, 0xffffea0001234000ULL);
	CHECK(decode(vec, KMEM_SLOT_PAGEVEC_FREE, rec, 28, &ev) == 0);
	CHECK(ev.kind == KMEM_EV_PAGE_FREE && ev.batched && ev.order == 0);

	/* 8 entries, ULONG_MAX-terminated */
	memset(rec, 0, sizeof(rec));
	put(rec, 16, 8, 0xffffffff81100010ULL);
	put(rec, 24, 8, 0xffffffff81200020ULL);
	put(rec, 32, 8, ~0ULL);
	CHECK(decode(stack, KMEM_SLOT_KERNEL_STACK, rec, 80, &ev) == 0);
	CHECK(ev.kind == KMEM_EV_STACK);
	CHECK_U64(ev.nr_frames, 2);
	CHECK_U64(ev.frames[1], 0xffffffff81200020ULL);

	/*
	 * page_to_pfn() in the print fmt: libtraceevent cannot parse it and
	 * prints raw fields, so the format tells nothing: the pageblock
	 * order is unknown, GFP flags stay hex, and the migration type
	 * numbering comes from the events (page_old_migratetypes()).
	 */
	CHECK(fmt_pageblock_order(event(tep, "mm_page_alloc_extfrag")) == -1);
	CHECK(kmem_tep_old_migratetypes(tep) == -1);
	kmem_tep_symbolizer(&sym, tep);
	CHECK_STR(fmt_gfp(buf, sizeof(buf), &sym, 0xd0), "0xd0");
out:
	tep_free(tep);
}

static void test_6_18(void)
{
	struct tep_handle *tep = load("page-linux-6.18-x86_64.txt");
	struct tep_event *alloc = event(tep, "mm_page_alloc");
	struct tep_event *stack = event(tep, "kernel_stack");
	unsigned char rec[96] = { 0 };
	struct kmem_event ev;
	char buf[128];

	CHECK(alloc && stack);
	if (!alloc || !stack)
		goto out;
	put(rec, 8, 8, 0x130c78);		/* pfn */
	put(rec, 16, 4, 0);
	put(rec, 24, 8, 0x140cca);	/* GFP_HIGHUSER_MOVABLE|__GFP_COMP */
	put(rec, 32, 4, 1);			/* MOVABLE since 4.4 */
	CHECK(decode(alloc, KMEM_SLOT_PAGE_ALLOC, rec, 36, &ev) == 0);
	CHECK(!ev.page_ptr && ev.page_valid);
	CHECK_U64(ev.pfn, 0x130c78);
	CHECK_U64(ev.migratetype, 1);
	put(rec, 8, 8, ~0ULL);			/* failed: pfn -1 */
	CHECK(decode(alloc, KMEM_SLOT_PAGE_ALLOC, rec, 36, &ev) == 0);
	CHECK(!ev.page_valid);
	CHECK(decode(alloc, KMEM_SLOT_PAGE_ALLOC, rec, 12, &ev) == -1);

	/* a variable-length stack: size entries after the fixed part */
	memset(rec, 0, sizeof(rec));
	put(rec, 8, 4, 3);
	put(rec, 16, 8, 0xffffffff815df397ULL);
	put(rec, 24, 8, 0xffffffff816396fbULL);
	put(rec, 32, 8, 0xffffffff81602a1fULL);
	CHECK(decode(stack, KMEM_SLOT_KERNEL_STACK, rec, 40, &ev) == 0);
	CHECK_U64(ev.nr_frames, 3);
	CHECK_U64(ev.frames[2], 0xffffffff81602a1fULL);

	CHECK_U64(fmt_pageblock_order(event(tep, "mm_page_alloc_extfrag")),
		  9);				/* min(21 - 12, 10) */
	CHECK(kmem_tep_old_migratetypes(tep) == 0);	/* 0x10 RECLAIMABLE */
	CHECK(fmt_probe(alloc, "gfp_flags", 0x140cca, "gfp_flags", buf,
			sizeof(buf)) == 0);
	CHECK_STR(buf, "GFP_HIGHUSER_MOVABLE|__GFP_COMP");
out:
	tep_free(tep);
}

/*
 * The straight path (64-bit layouts in our byte order) against the
 * checked one, on every page allocator event of a format file: records
 * of pseudo-random bytes, with the page field also all ones and zero
 * (a failed allocation), decode the same, to the byte.  @straight: the
 * events the straight path takes (every one but extfrag).
 */
static int straight_vs_checked(const char *file, bool straight)
{
	struct tep_handle *tep = load(file);
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	int slot, n, i, seen = 0;

	for (slot = KMEM_SLOT_PAGE_ALLOC; tep && slot <= KMEM_SLOT_PAGE_EXTFRAG;
	     slot++) {
		struct tep_event *e = event(tep, kmem_slot_event_name(slot));
		struct kmem_fields f, checked;
		unsigned char rec[128];

		if (!e)
			continue;
		seen++;
		kmem_fields_init(&f, e, (enum kmem_slot)slot);
		CHECK(f.pages.on ==
		      (straight && slot != KMEM_SLOT_PAGE_EXTFRAG));
		checked = f;
		checked.pages.on = false;
		CHECK(f.fit_end > 0 && f.fit_end <= (long long)sizeof(rec));
		for (n = 0; n < 12 && f.fit_end <= (long long)sizeof(rec);
		     n++) {
			struct tep_record tr = { .data = rec,
						 .size = (int)f.fit_end,
						 .cpu = n % 3,
						 .ts = 1000 + n };
			struct kmem_event a, b;
			int ra, rb;

			for (i = 0; i < (int)sizeof(rec); i++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				rec[i] = (unsigned char)x;
			}
			if (n % 4 == 1)
				memset(rec + f.page->offset, 0xff,
				       (size_t)f.page->size);
			if (n % 4 == 2)
				memset(rec + f.page->offset, 0,
				       (size_t)f.page->size);
			memset(&a, 0x5a, sizeof(a));
			memset(&b, 0xa5, sizeof(b));
			ra = kmem_decode(&f, &tr, &a);
			rb = kmem_decode(&checked, &tr, &b);
			CHECK(ra == rb);
			CHECK(!memcmp(&a, &b,
				      offsetof(struct kmem_event, frames)));
		}
	}
	tep_free(tep);
	return seen;
}

static void test_straight_path(void)
{
	bool le = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;

	/* alloc, extfrag; free, free_batched, zone_locked, pcpu_drain */
	CHECK(straight_vs_checked("page-linux-6.18-x86_64.txt", le) +
		      straight_vs_checked("../tdat/formats/"
					  "page-free-linux-6.18-x86_64.txt",
					  le) ==
	      6);
	/* alloc, free_direct, pagevec_free, extfrag */
	CHECK(straight_vs_checked("page-linux-2.6.32-x86_64.txt", le) == 4);
}

/* Without a flag table, the events tell the numbering. */
static void test_numbering_from_events(void)
{
	struct page_summary s = { 0 };

	s.movable_as[2] = 5;	/* __GFP_MOVABLE asked, migratetype 2 */
	CHECK(page_old_migratetypes(&s) == 1);
	s.movable_as[1] = 9;
	CHECK(page_old_migratetypes(&s) == 0);
}

int main(void)
{
	RUN(test_2_6_32);
	RUN(test_6_18);
	RUN(test_straight_path);
	RUN(test_numbering_from_events);
	UNIT_EXIT();
}
