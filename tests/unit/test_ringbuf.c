// SPDX-License-Identifier: LGPL-2.1
/*
 * reader/ringbuf.c on hand-built ring-buffer pages: the records and
 * timestamps of each event type, both byte orders and long sizes, lost
 * events, and pages whose lengths lie (which must end the page as
 * damaged, never loop or read outside it).  The page with a padding
 * length of -4 is one on which libtraceevent 1.7's kbuffer loops forever
 * (kbuffer_load_subbuffer() never returns); the reader's own decoder is
 * there for pages like it.
 */
#include <stdlib.h>

#include "ringbuf.h"
#include "unit.h"

struct pagebuf {
	uint8_t b[4096];
	uint32_t len; /* bytes of events written */
	int long_size;
	bool big;
};

static void put(struct pagebuf *p, uint32_t at, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		p->b[at + i] = (uint8_t)(v >> (8 * (p->big ? n - 1 - i : i)));
}

static uint32_t hdr(const struct pagebuf *p)
{
	return 8 + (uint32_t)p->long_size;
}

static void start(struct pagebuf *p, int long_size, bool big, uint64_t ts)
{
	memset(p, 0, sizeof(*p));
	p->long_size = long_size;
	p->big = big;
	put(p, 0, ts, 8);
}

static void commit(struct pagebuf *p, uint64_t flags)
{
	put(p, 8, p->len | flags, p->long_size);
}

/* An event header word: type_len and time_delta in the file's layout. */
static void word(struct pagebuf *p, uint32_t type, uint32_t delta)
{
	uint32_t w = p->big ? type << 27 | delta : delta << 5 | type;

	put(p, hdr(p) + p->len, w, 4);
	p->len += 4;
}

static void u32(struct pagebuf *p, uint32_t v)
{
	put(p, hdr(p) + p->len, v, 4);
	p->len += 4;
}

/* A data event of @words 4-byte words, filled with @fill. */
static void data(struct pagebuf *p, uint32_t delta, uint32_t words,
		 uint8_t fill)
{
	if (words <= 28) {
		word(p, words, delta);
	} else {
		word(p, 0, delta);
		u32(p, words * 4 + 4);
	}
	memset(p->b + hdr(p) + p->len, fill, words * 4);
	p->len += words * 4;
}

static int load(struct rb_page *pg, struct pagebuf *p)
{
	return rb_page_load(pg, p->b, sizeof(p->b), p->long_size, p->big);
}

static void test_event_types(void)
{
	static const int longs[] = { 8, 4 };
	struct rb_record r = { 0 };
	struct rb_page pg;
	struct pagebuf p;
	int l, big;

	for (l = 0; l < 2; l++) {
		for (big = 0; big < 2; big++) {
			start(&p, longs[l], big, 1000);
			data(&p, 5, 2, 0xaa); /* ts 1005 */
			word(&p, 30, 3);      /* extend 1 << 27 + 3 */
			u32(&p, 1);
			data(&p, 7, 1, 0xbb); /* + 7 */
			/* padding: its length counts from the length
			 * word (the kernel's array[0]) */
			word(&p, 29, 0);
			u32(&p, 12);
			memset(p.b + hdr(&p) + p.len, 0, 8);
			p.len += 8;
			data(&p, 0, 40, 0xcc); /* length word */
			word(&p, 31, 5);       /* absolute: 2 << 27 | 5 */
			u32(&p, 2);
			data(&p, 1, 3, 0xdd);
			commit(&p, 0);
			CHECK(!load(&pg, &p));
			CHECK(rb_page_next(&pg, &r) == 1);
			CHECK_U64(r.ts, 1005);
			CHECK_U64(r.size, 8);
			CHECK_U64(r.offset, hdr(&p));
			CHECK(r.data[0] == 0xaa);
			CHECK(rb_page_next(&pg, &r) == 1);
			CHECK_U64(r.ts, 1005 + (1ULL << 27) + 3 + 7);
			CHECK_U64(r.size, 4);
			CHECK(r.data[0] == 0xbb);
			CHECK(rb_page_next(&pg, &r) == 1);
			CHECK_U64(r.size, 160);
			CHECK(r.data[0] == 0xcc && r.data[159] == 0xcc);
			CHECK(rb_page_next(&pg, &r) == 1);
			CHECK_U64(r.ts, (2ULL << 27) + 5 + 1);
			CHECK(r.data[0] == 0xdd);
			CHECK(rb_page_next(&pg, &r) == 0);
		}
	}
}

static void test_lost_events(void)
{
	struct rb_record r = { 0 };
	struct rb_page pg;
	struct pagebuf p;

	/* count stored after the data */
	start(&p, 8, false, 0);
	data(&p, 1, 1, 1);
	data(&p, 1, 1, 2);
	put(&p, hdr(&p) + p.len, 37, 8);
	commit(&p, 3ULL << 30);
	CHECK(!load(&pg, &p));
	CHECK(rb_page_next(&pg, &r) == 1);
	CHECK_U64(r.missed, 37);
	CHECK(rb_page_next(&pg, &r) == 1);
	CHECK_U64(r.missed, 0);
	/* lost, count unknown */
	start(&p, 4, true, 0);
	data(&p, 1, 1, 1);
	commit(&p, 1ULL << 31);
	CHECK(!load(&pg, &p));
	CHECK(rb_page_next(&pg, &r) == 1);
	CHECK(r.missed == -1);
	/* kbuffer reports losses on the page's first event only: a time
	 * extend first hides them */
	start(&p, 8, false, 0);
	word(&p, 30, 1);
	u32(&p, 0);
	data(&p, 1, 1, 1);
	commit(&p, 1ULL << 31);
	CHECK(!load(&pg, &p));
	CHECK(rb_page_next(&pg, &r) == 1);
	CHECK_U64(r.missed, 0);
}

static void test_lying_pages(void)
{
	struct rb_record r = { 0 };
	struct rb_page pg;
	struct pagebuf p;
	int n, steps;

	/* the commit is past the page */
	start(&p, 8, false, 0);
	p.len = 4096;
	commit(&p, 0);
	CHECK(load(&pg, &p) == -1);
	/* the stored count of lost events would lie past the page (trace-cmd
	 * split writes such pages): the records stay, the count is unknown */
	start(&p, 8, false, 0);
	data(&p, 1, 1, 7);
	p.len = 4096 - 16 - 4;
	commit(&p, 3ULL << 30);
	CHECK(!load(&pg, &p));
	CHECK(rb_page_next(&pg, &r) == 1);
	CHECK(r.missed == -1);
	/* too short for a page header */
	CHECK(rb_page_load(&pg, p.b, 10, 8, false) == -1);
	/* padding of length -4: kbuffer loops on it forever */
	start(&p, 8, false, 0);
	word(&p, 29, 0);
	u32(&p, (uint32_t)-4);
	data(&p, 1, 1, 1);
	commit(&p, 0);
	CHECK(!load(&pg, &p));
	for (steps = 0; steps < 10 && (n = rb_page_next(&pg, &r)) > 0; steps++)
		;
	CHECK(n == -1);
	/* a length word under 4: a negative record size */
	start(&p, 8, false, 0);
	word(&p, 0, 1);
	u32(&p, 0);
	commit(&p, 0);
	CHECK(!load(&pg, &p));
	CHECK(rb_page_next(&pg, &r) == -1);
	/* a record that runs past the commit */
	start(&p, 8, false, 0);
	data(&p, 1, 4, 1);
	p.len -= 8;
	commit(&p, 0);
	CHECK(!load(&pg, &p));
	CHECK(rb_page_next(&pg, &r) == -1);
	/* a header word cut by the commit */
	start(&p, 8, false, 0);
	data(&p, 1, 1, 1);
	word(&p, 0, 1);
	p.len -= 2;
	commit(&p, 0);
	CHECK(!load(&pg, &p));
	CHECK(rb_page_next(&pg, &r) == 1);
	CHECK(rb_page_next(&pg, &r) == -1);
	/* a partial last page: the commit must fit in what is there */
	start(&p, 8, false, 0);
	data(&p, 1, 20, 1);
	commit(&p, 0);
	CHECK(rb_page_load(&pg, p.b, 16 + 40, 8, false) == -1);
	CHECK(rb_page_load(&pg, p.b, 16 + 84, 8, false) == 0);
}

int main(void)
{
	RUN(test_event_types);
	RUN(test_lost_events);
	RUN(test_lying_pages);
	UNIT_EXIT();
}
