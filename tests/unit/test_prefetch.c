// SPDX-License-Identifier: LGPL-2.1
/*
 * reader/prefetch.c through tdat_iterate(): a sample recording (version 7,
 * zstd, chunks of 10 pages) read with its chunks inflated ahead on a
 * thread gives the records, in order, and the damage of reading it in
 * line: whole, with one CPU, stopped early, and with a chunk whose data
 * does not inflate.  The thread must be made for it (the tests that
 * compare one thread with two would pass without it).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "file_util.h"
#include "internal.h"
#include "tdat.h"
#include "unit.h"

#define SAMPLE "sample-data/slab-fork-exec.dat"

struct pass {
	uint64_t records;
	uint64_t digest;
	uint64_t stop_at; /* 0: never */
};

static int one_record(void *priv, const struct tep_record *rec)
{
	struct pass *p = priv;
	const uint8_t *d = rec->data;
	int i;

	p->digest = p->digest * 31 + rec->ts + (uint64_t)rec->offset +
		    (uint64_t)rec->cpu * 7 + (uint64_t)rec->size;
	for (i = 0; i < rec->size; i++)
		p->digest = p->digest * 3 + d[i];
	return ++p->records == p->stop_at;
}

/* Both readings of buffer 0 of @f, with @cpus (NULL: all), compared. */
static void same(struct tdat_file *f, const cpu_set_t *cpus, uint64_t stop_at,
		 bool want_damage)
{
	struct pass a = { .stop_at = stop_at }, b = { .stop_at = stop_at };
	struct tdat_damage da, db;
	char why[TDAT_WHY_LEN];
	int ra, rb;

	tdat_set_prefetch(f, false);
	ra = tdat_iterate(f, 0, cpus, cpus ? sizeof(*cpus) : 0, one_record, &a,
			  &da, why, sizeof(why));
	tdat_set_prefetch(f, true);
	rb = tdat_iterate(f, 0, cpus, cpus ? sizeof(*cpus) : 0, one_record, &b,
			  &db, why, sizeof(why));
	tdat_set_prefetch(f, false);
	CHECK(rb != TDAT_NO_PREFETCH);
	CHECK_U64(rb, ra);
	CHECK(a.records > 0);
	CHECK_U64(b.records, a.records);
	CHECK_U64(b.digest, a.digest);
	CHECK_U64(db.chunks, da.chunks);
	CHECK_U64(db.pages, da.pages);
	CHECK(want_damage ? da.chunks > 0 : da.chunks == 0);
	if (da.chunks) {
		CHECK_U64(db.first_cpu, da.first_cpu);
		CHECK_U64(db.first_offset, da.first_offset);
	}
}

static void test_sample(void)
{
	char why[TDAT_WHY_LEN];
	struct tdat_file *f;
	cpu_set_t one;

	if (tdat_open(SAMPLE, NULL, &f, why, sizeof(why)) != TDAT_OK) {
		printf("  %s: %s\n", SAMPLE, why);
		unit_failed++;
		return;
	}
	CHECK(tdat_buffer_compressed(f, 0));
	same(f, NULL, 0, false);
	CPU_ZERO(&one);
	CPU_SET(1, &one);
	same(f, &one, 0, false);
	same(f, NULL, 5000, false); /* the callback stops it */
	tdat_close(f);
}

/* The second chunk of CPU 0: its compressed bytes made garbage. */
static void test_damaged_chunk(void)
{
	char why[TDAT_WHY_LEN];
	struct tdat_file *f;
	size_t len;
	uint8_t *buf = unit_slurp(SAMPLE, &len);
	const struct tdat_cpu *c;
	struct tcur t;
	uint64_t z;

	if (!buf) {
		printf("  cannot read %s\n", SAMPLE);
		unit_failed++;
		return;
	}
	/* where CPU 0's chunks lie, from a first opening */
	if (tdat_open_mem(buf, len, NULL, &f, why, sizeof(why)) != TDAT_OK) {
		printf("  %s: %s\n", SAMPLE, why);
		unit_failed++;
		free(buf);
		return;
	}
	c = &f->buffers[0].cpus[0];
	tc_init(&t, buf + c->offset, (size_t)c->size + 4, f->big);
	CHECK(tc_num(&t, 4) >= 2);
	z = tc_num(&t, 4);
	tc_num(&t, 4);
	tc_take(&t, z);
	z = tc_num(&t, 4);
	tc_num(&t, 4);
	CHECK(!t.bad && z > 32);
	if (!t.bad && z > 32)
		memset(buf + c->offset + t.pos + z / 2, 0xff, 16);
	tdat_close(f);
	if (tdat_open_mem(buf, len, NULL, &f, why, sizeof(why)) != TDAT_OK) {
		printf("  damaged copy: %s\n", why);
		unit_failed++;
	} else {
		same(f, NULL, 0, true);
		tdat_close(f);
	}
	free(buf);
}

int main(void)
{
	RUN(test_sample);
	RUN(test_damaged_chunk);
	UNIT_EXIT();
}
