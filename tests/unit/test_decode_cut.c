// SPDX-License-Identifier: LGPL-2.1
/*
 * Decoding kmem records that end early.  Records of the stream
 * (decode_records.c) are cut at every length and decoded with their
 * last byte just before an unreadable page, so any read past the record
 * faults; the fault is caught and reported as a failure instead of
 * killing the program.
 */
#include <stdio.h>

#include <event-parse.h>

#include "decode_util.h"
#include "unit.h"

/* ------------------------------------------------------------------ */
/* Truncated records                                                   */

/* Reads past the record, by record length. */
struct overruns {
	int count;
	int first, last;	/* record lengths */
};

static void note_overrun(struct overruns *o, int len)
{
	if (!o->count++)
		o->first = len;
	o->last = len;
}

static void report_overruns(const char *what, const struct overruns *o,
			    const struct layout *L, enum kmem_slot slot,
			    int full)
{
	if (!o->count)
		return;
	printf("  %s read past the end of %d of the cut %s records (%s, "
	       "%d bytes in full), lengths %d..%d\n",
	       what, o->count, kmem_slot_event_name(slot), L->label, full,
	       o->first, o->last);
	unit_failed++;
}

/*
 * Decode the prefixes of @r of lengths @from..@to, each ending at the
 * dead page: no read may go past them; a record too short for any number
 * field of its format, or for its name's word, is refused (-1, counted
 * as undecodable: every record of an event holds its struct), one
 * holding them all is read in full, its name only if all its bytes are
 * there.
 */
static void decode_prefixes(const struct layout *L, enum kmem_slot slot,
			    const struct op *o, const struct rec *r,
			    const struct kmem_fields *f, int from, int to)
{
	const struct ev_layout *e = &L->ev[slot];
	struct overruns over = { 0 };
	struct kmem_event full, ev;
	int len;

	CHECK(decode_bytes(f, r->d, r->len, &full) == 0);
	for (len = from; len <= to; len++) {
		int before = unit_failed;
		int ret = decode_bytes(f, r->d, len, &ev);

		if (ret == FAULTED) {
			note_overrun(&over, len);
			continue;
		}
#define WHOLE(p) ((p).off + (p).size <= len)
		if (!WHOLE(e->call_site) || !WHOLE(e->ptr) ||
		    (e->bytes_req.size && !WHOLE(e->bytes_req)) ||
		    (e->bytes_alloc.size && !WHOLE(e->bytes_alloc)) ||
		    (e->gfp.size && !WHOLE(e->gfp)) ||
		    (e->node.size && !WHOLE(e->node)) ||
		    (e->accounted.size && !WHOLE(e->accounted)) ||
		    (e->name.size && !WHOLE(e->name))) {
			CHECK(ret == -1);
			goto next;
		}
		CHECK(ret == 0);
		CHECK_U64(ev.call_site, full.call_site);
		CHECK_U64(ev.ptr, full.ptr);
		CHECK_U64(ev.bytes_req, full.bytes_req);
		CHECK_U64(ev.bytes_alloc, full.bytes_alloc);
		CHECK_U64(ev.gfp_flags, WHOLE(e->gfp) ? full.gfp_flags : 0);
#undef WHOLE
		if (len >= 8)
			CHECK(ev.pid == o->pid);
		/* the name only if all its bytes are there */
		CHECK((ev.name != NULL) == (e->name.size && len == r->len));
next:
		if (unit_failed != before)
			printf("  ... %s, %s cut to %d of %d bytes\n", L->label,
			       kmem_slot_event_name(slot), len, r->len);
	}
	report_overruns("kmem_decode", &over, L, slot, r->len);
}

static void call_site_prefixes(const struct layout *L, enum kmem_slot slot,
			       const struct rec *r,
			       const struct kmem_fields *f)
{
	struct overruns over = { 0 };
	int len;

	for (len = 0; len <= r->len; len++) {
		unsigned long long cs = 0;

		if (guarded_call_site(f, r->d, len, &cs) == FAULTED)
			note_overrun(&over, len);
	}
	report_overruns("kmem_read_call_site", &over, L, slot, r->len);
}

enum cut { CUT_DECODE, CUT_DECODE_HEADER, CUT_CALL_SITE };

static void cut_one(const struct layout *L, enum kmem_slot slot,
		    const struct op *o, enum cut how)
{
	struct kmem_fields fields[KMEM_NR_SLOTS];
	struct tep_handle *tep;
	struct rec r;

	tep = load_formats(L->file, L->long_size, L->big_endian);
	if (!tep)
		return;
	check_fields(L, tep, fields);
	build(L, slot, o, &r);
	switch (how) {
	case CUT_DECODE:	/* the common header is there */
		decode_prefixes(L, slot, o, &r, &fields[slot], 8, r.len);
		break;
	case CUT_DECODE_HEADER:	/* not even that */
		decode_prefixes(L, slot, o, &r, &fields[slot], 0, 7);
		break;
	case CUT_CALL_SITE:
		call_site_prefixes(L, slot, &r, &fields[slot]);
		break;
	}
	tep_free(tep);
}

static void cut_all(enum cut how)
{
	/* #12: kmem_cache_alloc with node and name */
	cut_one(&linux_6_18, KMEM_SLOT_CACHE_ALLOC, &stream[11], how);
	cut_one(&synthetic_rel_loc, KMEM_SLOT_CACHE_ALLOC, &stream[11], how);
	/* #5: kmem_cache_free with name, 32-bit big-endian */
	cut_one(&linux_6_1_ppc32, KMEM_SLOT_CACHE_FREE, &stream[4], how);
	/* #2: kmalloc_node of 2.6.32 */
	cut_one(&linux_2_6_32, KMEM_SLOT_KMALLOC_NODE, &stream[1], how);
}

/* Records cut anywhere after the common header (8 bytes). */
static void test_truncated_records(void)
{
	cut_all(CUT_DECODE);
}

/*
 * Records shorter than the common header: common_pid is not there, and
 * kmem_decode() must not read it anyway (as of this writing it does,
 * through tep_data_pid(), which does not check the record size).
 */
static void test_truncated_below_common_header(void)
{
	cut_all(CUT_DECODE_HEADER);
}

/*
 * kmem_read_call_site() on records cut anywhere: it must not read a
 * call_site that is not all there (as of this writing it reads it
 * without looking at the record size, unlike kmem_decode()).
 */
static void test_truncated_call_site(void)
{
	cut_all(CUT_CALL_SITE);
}

int main(int argc, char **argv)
{
	(void)argc;
	find_formats_dir(argv[0]);
	if (guard_init()) {
		printf("FAIL guard_init: cannot map a guard page\n");
		return 1;
	}
	RUN(test_truncated_records);
	RUN(test_truncated_below_common_header);
	RUN(test_truncated_call_site);
	UNIT_EXIT();
}
