// SPDX-License-Identifier: LGPL-2.1
/*
 * An uncompressed CPU is read from the file a window at a time (pread(),
 * reader/iter.c); a file handed over in memory is read where it lies.
 * Both give the same records (CPU, time, offset, size and bytes, in the
 * same order) and the same damage: on version 6 files of both byte
 * orders, damaged ones among them, and of one CPU alone.  A file that
 * shrinks after it was opened gives the records before its new end, and
 * the rest is said as damage (read where it was mapped, it would have
 * faulted).
 */
#define _GNU_SOURCE /* CPU_SET() */
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file_util.h"
#include "internal.h"
#include "tdat.h"
#include "unit.h"

static const char *const files[] = {
	"tests/fuzz/corpus/reader/seed-w-v6-ppc32.dat",
	"tests/regress/corpus/cmdline-forged-marker.dat",
	"tests/regress/corpus/page-records-garbage.dat",
	"tests/regress/corpus/page-commit-huge.dat",
	"tests/regress/corpus/record-size-minus-4.dat",
};

/* What a reading gave: the records, in order, folded into a hash. */
struct seen {
	uint64_t n, hash;
};

static void fold(struct seen *s, const void *p, size_t len)
{
	const uint8_t *b = p;

	while (len--)
		s->hash = (s->hash ^ *b++) * 0x100000001b3ULL;
}

static int saw(void *priv, const struct tep_record *rec)
{
	struct seen *s = priv;
	uint64_t off = rec->offset, ts = rec->ts;
	int cpu = rec->cpu, size = rec->size;

	s->n++;
	fold(s, &cpu, sizeof(cpu));
	fold(s, &ts, sizeof(ts));
	fold(s, &off, sizeof(off));
	fold(s, &size, sizeof(size));
	if (size > 0)
		fold(s, rec->data, (size_t)size);
	return 0;
}

static int read_all(struct tdat_file *f, struct seen *s, struct tdat_damage *d)
{
	char why[TDAT_WHY_LEN];

	memset(s, 0, sizeof(*s));
	s->hash = 0xcbf29ce484222325ULL;
	return tdat_iterate(f, 0, NULL, 0, saw, s, d, why, sizeof(why));
}

/* The file read from its descriptor, and from memory: the same. */
static void test_same(void)
{
	char why[TDAT_WHY_LEN];
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct tdat_damage dm, df;
		struct tdat_file *m, *f;
		struct seen sm, sf;
		size_t len;
		uint8_t *buf = unit_slurp(files[i], &len);

		if (!buf || tdat_open_mem(buf, len, NULL, &m, why,
					  sizeof(why)) != TDAT_OK) {
			printf("  %s in memory: %s\n", files[i],
			       buf ? why : "cannot read");
			unit_failed++;
			free(buf);
			continue;
		}
		if (tdat_open(files[i], NULL, &f, why, sizeof(why)) !=
		    TDAT_OK) {
			printf("  %s: %s\n", files[i], why);
			unit_failed++;
			tdat_close(m);
			free(buf);
			continue;
		}
		CHECK(m->fd < 0 && f->fd >= 0);
		CHECK(!tdat_buffer_compressed(f, 0));
		CHECK_U64(read_all(m, &sm, &dm), 0);
		CHECK_U64(read_all(f, &sf, &df), 0);
		CHECK(sm.n > 0);
		CHECK_U64(sf.n, sm.n);
		CHECK_U64(sf.hash, sm.hash);
		CHECK_U64(df.pages, dm.pages);
		CHECK_U64(df.first_offset, dm.first_offset);
		CHECK_U64(df.time_back, dm.time_back);
		tdat_close(f);
		tdat_close(m);
		free(buf);
	}
}

/* CPU 1 of seed-w-v6-ppc32.dat alone: the same from the file as from
 * memory, and only its records (CPU 0's window never made: the
 * sanitizers' leak check would find it). */
static void test_one_cpu(void)
{
	char why[TDAT_WHY_LEN];
	struct tdat_damage dm, df;
	struct tdat_file *m, *f;
	struct seen sm, sf, all;
	cpu_set_t one;
	size_t len;
	uint8_t *buf = unit_slurp(files[0], &len);

	if (!buf ||
	    tdat_open_mem(buf, len, NULL, &m, why, sizeof(why)) != TDAT_OK) {
		unit_failed++;
		free(buf);
		return;
	}
	if (tdat_open(files[0], NULL, &f, why, sizeof(why)) != TDAT_OK) {
		unit_failed++;
		tdat_close(m);
		free(buf);
		return;
	}
	CPU_ZERO(&one);
	CPU_SET(1, &one);
	memset(&sm, 0, sizeof(sm));
	memset(&sf, 0, sizeof(sf));
	CHECK_U64(tdat_iterate(m, 0, &one, sizeof(one), saw, &sm, &dm, why,
			       sizeof(why)),
		  0);
	CHECK_U64(tdat_iterate(f, 0, &one, sizeof(one), saw, &sf, &df, why,
			       sizeof(why)),
		  0);
	CHECK_U64(read_all(f, &all, &df), 0);
	CHECK(sf.n > 0 && sf.n < all.n);
	CHECK_U64(sf.n, sm.n);
	CHECK_U64(sf.hash, sm.hash);
	tdat_close(f);
	tdat_close(m);
	free(buf);
}

/*
 * seed-w-v6-ppc32.dat: CPU 0 a page at 16384, CPU 1 two pages at 20480.
 * Cut after CPU 1's first page once open: CPU 0 whole, CPU 1's first
 * page, and its second said as one damaged page at its offset.
 */
static void test_shrunk(void)
{
	const char *src = files[0];
	char path[] = "/tmp/kmem-read-window.XXXXXX", why[TDAT_WHY_LEN];
	struct tdat_damage d0, d1;
	struct seen whole, cut;
	struct tdat_file *f;
	size_t len;
	uint8_t *buf = unit_slurp(src, &len);
	int fd = mkstemp(path);

	CHECK(buf && len == 28672 && fd >= 0);
	if (!buf || len != 28672 || fd < 0 ||
	    write(fd, buf, len) != (ssize_t)len) {
		unit_failed++;
		goto out;
	}
	if (tdat_open(path, NULL, &f, why, sizeof(why)) != TDAT_OK) {
		printf("  %s: %s\n", path, why);
		unit_failed++;
		goto out;
	}
	CHECK_U64(read_all(f, &whole, &d0), 0);
	CHECK_U64(d0.pages, 0);
	CHECK(!ftruncate(fd, 20480 + 4096));
	CHECK_U64(read_all(f, &cut, &d1), 0);
	CHECK(cut.n > 0 && cut.n < whole.n);
	CHECK_U64(d1.pages, 1);
	CHECK_U64(d1.first_cpu, 1);
	CHECK_U64(d1.first_offset, 20480 + 4096);
	tdat_close(f);
out:
	if (fd >= 0) {
		close(fd);
		unlink(path);
	}
	free(buf);
}

int main(void)
{
	RUN(test_same);
	RUN(test_one_cpu);
	RUN(test_shrunk);
	UNIT_EXIT();
}
