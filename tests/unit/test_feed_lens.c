// SPDX-License-Identifier: LGPL-2.1
/*
 * The feed's table of record lengths for the events not ours
 * (kmem_feed_lens(), kmem_feed_lens_tep()): it holds the ids up to the
 * highest a format gives, and a record of another event is held to its
 * format's lengths (kmem_feed_other()).  Lengths counted by hand: a
 * format of the four common fields (8 bytes) and one u32 at offset 8
 * gives 12 to 24 bytes (its end rounded up to 8, with 8 to spare).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "feed/loop.h"
#include "unit.h"

int unit_failed;

static struct tep_handle *handle(const int *ids, int n)
{
	struct tep_handle *tep = tep_alloc();
	char text[512];
	int i;

	for (i = 0; tep && i < n; i++) {
		int len = snprintf(
			text, sizeof(text),
			"name: ev%d\nID: %d\nformat:\n"
			"\tfield:unsigned short "
			"common_type;\toffset:0;\tsize:2;"
			"\tsigned:0;\n"
			"\tfield:unsigned char "
			"common_flags;\toffset:2;\tsize:1;"
			"\tsigned:0;\n"
			"\tfield:unsigned char common_preempt_count;\toffset:3;"
			"\tsize:1;\tsigned:0;\n"
			"\tfield:int "
			"common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
			"\tfield:u32 v;\toffset:8;\tsize:4;\tsigned:0;\n\n"
			"print fmt: \"v=%%u\", REC->v\n",
			i, ids[i]);

		if (tep_parse_event(tep, text, (size_t)len, "test")) {
			tep_free(tep);
			return NULL;
		}
	}
	return tep;
}

/* Is a record of id @id and @size bytes counted as a misfit? */
static bool misfit(struct kmem_feed *fd, int id, int size)
{
	uint8_t data[64] = { 0 };
	struct tep_record rec = { .data = data, .size = size, .cpu = 0 };
	uint64_t before = fd->misfits;
	uint16_t v = (uint16_t)id;

	memcpy(data, &v, 2);
	kmem_feed_other(fd, &rec);
	return fd->misfits != before;
}

/* A handle of events @ids and its feed, ids mapped; NULL: failed. */
static struct tep_handle *setup(const int *ids, int n, struct kmem_feed *fd)
{
	struct tep_handle *tep = handle(ids, n);

	CHECK(tep != NULL);
	if (tep && kmem_feed_init(fd, tep, NULL, KMEM_FEED_MAP_IDS)) {
		CHECK(!"kmem_feed_init");
		kmem_feed_release(fd);
		tep_free(tep);
		return NULL;
	}
	return tep;
}

static void finish(struct kmem_feed *fd, struct tep_handle *tep)
{
	kmem_feed_release(fd);
	tep_free(tep);
}

/* kmem_feed_lens_tep(): ids up to the handle's highest. */
static void test_tep(void)
{
	static const int ids[] = { 5, 300 };
	struct kmem_feed fd;
	struct tep_handle *tep = setup(ids, 2, &fd);

	if (!tep)
		return;
	CHECK(kmem_feed_lens_tep(&fd, tep) == 0);
	CHECK_U64(fd.nr_lens, 301);
	CHECK(!misfit(&fd, 300, 12));
	CHECK(!misfit(&fd, 300, 24));
	CHECK(misfit(&fd, 300, 11));
	CHECK(misfit(&fd, 300, 25));
	CHECK(misfit(&fd, 5, 32));
	CHECK(!misfit(&fd, 7, 40));    /* no format: any length */
	CHECK(!misfit(&fd, 4000, 40)); /* above them all: the same */
	CHECK_U64(fd.misfits, 3);
	finish(&fd, tep);
}

/* A damaged id up to INT_MAX: the table is every id of the map. */
static void test_tep_id_max(void)
{
	static const int ids[] = { 5, 2147483647 };
	struct kmem_feed fd;
	struct tep_handle *tep = setup(ids, 2, &fd);

	if (!tep)
		return;
	CHECK(kmem_feed_lens_tep(&fd, tep) == 0);
	CHECK_U64(fd.nr_lens, 65536);
	CHECK(misfit(&fd, 5, 25));
	finish(&fd, tep);
}

static int asked;

/* A len_of() that allows 16 to 20 bytes. */
static void len_16_20(void *arg, int id, uint32_t *lo, uint32_t *hi)
{
	(void)arg;
	(void)id;
	asked++;
	*lo = 16;
	*hi = 20;
}

/* kmem_feed_lens() after kmem_feed_known(): the highest id a format has. */
static void test_known(void)
{
	static const int ids[] = { 5, 300 };
	uint8_t known[65536 / 8] = { 0 };
	struct kmem_feed fd;
	struct tep_handle *tep = setup(ids, 2, &fd);

	if (!tep)
		return;
	known[5 / 8] |= 1u << (5 % 8);
	known[1000 / 8] |= 1u << (1000 % 8); /* the file's, not the handle's */
	kmem_feed_known(&fd, known);
	CHECK(kmem_feed_lens(&fd, len_16_20, NULL) == 0);
	CHECK_U64(fd.nr_lens, 1001);
	asked = 0;
	CHECK(misfit(&fd, 1000, 12));
	CHECK(!misfit(&fd, 1000, 20));
	CHECK(misfit(&fd, 5, 21));
	CHECK_U64(asked, 2); /* once an id */
	finish(&fd, tep);
}

/* Without kmem_feed_known(): every id of the map. */
static void test_unknown_unmarked(void)
{
	static const int ids[] = { 5 };
	struct kmem_feed fd;
	struct tep_handle *tep = setup(ids, 1, &fd);

	if (!tep)
		return;
	CHECK(kmem_feed_lens(&fd, len_16_20, NULL) == 0);
	CHECK_U64(fd.nr_lens, 65536);
	CHECK(misfit(&fd, 65535, 12));
	finish(&fd, tep);
}

int main(void)
{
	RUN(test_tep);
	RUN(test_tep_id_max);
	RUN(test_known);
	RUN(test_unknown_unmarked);
	UNIT_EXIT();
}
