// SPDX-License-Identifier: LGPL-2.1
/*
 * tdat_open()'s hooks for a scan that reads records and no symbol or
 * print format (the plugin's damage scan, plugin/damage.c), on a sample
 * recording (version 7, zstd):
 *
 *  - no_kallsyms: the compressed kallsyms section is neither held nor
 *    checked: a copy whose kallsyms bytes are garbage opens with it (and
 *    gives the records of the whole copy), and not without it;
 *  - no_print_fmt: each wanted event has its fields, as without it, and
 *    an empty print format;
 *  - want: the events not wanted are not parsed;
 *  - no_formats: no event is parsed, and the records are the same (the
 *    sample, and a big-endian version 6 file); a copy whose compressed
 *    ftrace or event formats section is garbage opens with it (neither
 *    section decompressed), and not without it.
 */
#include <stdlib.h>
#include <string.h>

#include "file_util.h"
#include "internal.h"
#include "ksyms.h"
#include "tdat.h"
#include "unit.h"

#define SAMPLE "sample-data/slab-fork-exec.dat"

static bool kmem_only(const char *system, const char *name)
{
	return !strcmp(system, "kmem");
}

static const struct tdat_hooks scan_hooks = { .want = kmem_only,
					      .no_kallsyms = true,
					      .no_print_fmt = true };

static int count(void *priv, const struct tep_record *rec)
{
	(*(uint64_t *)priv)++;
	return 0;
}

static uint64_t records(struct tdat_file *f)
{
	struct tdat_damage d;
	char why[TDAT_WHY_LEN];
	uint64_t n = 0;

	CHECK(!tdat_iterate(f, 0, NULL, 0, count, &n, &d, why, sizeof(why)));
	CHECK_U64(d.pages + d.chunks, 0);
	return n;
}

static int nr_fields(const struct tep_event *e)
{
	const struct tep_format_field *fl;
	int n = 0;

	for (fl = e->format.fields; fl; fl = fl->next)
		n++;
	return n;
}

/* The fields, and no print format, of every kmem event; no other. */
static void test_fields_only(void)
{
	char why[TDAT_WHY_LEN];
	struct tdat_file *all, *scan;
	struct tep_event **evs;
	int i, kmem = 0;

	if (tdat_open(SAMPLE, NULL, &all, why, sizeof(why)) != TDAT_OK) {
		printf("  %s: %s\n", SAMPLE, why);
		unit_failed++;
		return;
	}
	if (tdat_open(SAMPLE, &scan_hooks, &scan, why, sizeof(why)) !=
	    TDAT_OK) {
		printf("  %s, scan hooks: %s\n", SAMPLE, why);
		unit_failed++;
		tdat_close(all);
		return;
	}
	CHECK(all->ksyms != NULL);
	CHECK(scan->ksyms == NULL);
	evs = tep_list_events(tdat_tep(all), TEP_EVENT_SORT_ID);
	for (i = 0; evs && evs[i]; i++) {
		struct tep_event *e = tep_find_event_by_name(
			tdat_tep(scan), evs[i]->system, evs[i]->name);

		if (strcmp(evs[i]->system, "kmem")) {
			CHECK(e == NULL);
			continue;
		}
		kmem++;
		CHECK(e != NULL);
		if (!e)
			continue;
		CHECK_U64(e->id, evs[i]->id);
		CHECK_U64(nr_fields(e), nr_fields(evs[i]));
		CHECK(evs[i]->print_fmt.format && evs[i]->print_fmt.format[0]);
		CHECK(e->print_fmt.format && !e->print_fmt.format[0]);
		CHECK(e->print_fmt.args == NULL);
	}
	CHECK(kmem >= 4);
	CHECK_U64(records(scan), records(all));
	tdat_close(scan);
	tdat_close(all);
}

/* No event format read: a handle without events, the same records. */
static void test_no_formats(void)
{
	static const char *const paths[] = {
		SAMPLE, "tests/fuzz/corpus/reader/seed-w-v6-ppc32.dat"
	};
	const struct tdat_hooks hooks = { .no_kallsyms = true,
					  .no_print_fmt = true,
					  .no_formats = true };
	char why[TDAT_WHY_LEN];
	struct tdat_file *all, *scan;
	size_t i;

	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		if (tdat_open(paths[i], NULL, &all, why, sizeof(why)) !=
		    TDAT_OK) {
			printf("  %s: %s\n", paths[i], why);
			unit_failed++;
			continue;
		}
		if (tdat_open(paths[i], &hooks, &scan, why, sizeof(why)) !=
		    TDAT_OK) {
			printf("  %s, no_formats: %s\n", paths[i], why);
			unit_failed++;
			tdat_close(all);
			continue;
		}
		CHECK(tep_get_events_count(tdat_tep(all)) > 0);
		CHECK_U64(tep_get_events_count(tdat_tep(scan)), 0);
		CHECK(records(all) > 0);
		CHECK_U64(records(scan), records(all));
		tdat_close(scan);
		tdat_close(all);
	}
}

static uint64_t le_num(const uint8_t *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/*
 * Where the compressed block of section @id starts in a version 7 file
 * (little-endian), found without the reader: a section header (id,
 * flags with the compressed bit, string id, size) whose size is the
 * block's compressed size word plus the two size words, then the zstd
 * magic.  *@n: the block's compressed bytes.  Return: 0 when there is
 * not exactly one.
 */
static size_t zsection(const uint8_t *buf, size_t len, unsigned int id,
		       size_t *n)
{
	static const uint8_t magic[4] = { 0x28, 0xb5, 0x2f, 0xfd };
	size_t o, at = 0, found = 0;

	for (o = 0; o + 28 <= len; o++) {
		uint64_t size = le_num(buf + o + 8, 8),
			 zlen = le_num(buf + o + 16, 4);

		if (le_num(buf + o, 2) != id || !(buf[o + 2] & 1) ||
		    size != zlen + 8 || zlen > len - o - 24 ||
		    memcmp(buf + o + 24, magic, 4))
			continue;
		at = o + 24;
		*n = (size_t)zlen;
		found++;
	}
	return found == 1 ? at : 0;
}

/*
 * A copy whose compressed ftrace formats (section 17) or event formats
 * (18) are garbage: refused, and with no_formats read whole (neither
 * decompressed).
 */
static void test_no_formats_damaged(void)
{
	const struct tdat_hooks hooks = { .no_kallsyms = true,
					  .no_print_fmt = true,
					  .no_formats = true };
	char why[TDAT_WHY_LEN];
	struct tdat_file *f;
	uint64_t whole = 0;
	unsigned int id;
	size_t len, at, n = 0;
	uint8_t *buf = unit_slurp(SAMPLE, &len), *copy;

	if (!buf || tdat_open_mem(buf, len, NULL, &f, why, sizeof(why))) {
		printf("  cannot read %s\n", SAMPLE);
		unit_failed++;
		free(buf);
		return;
	}
	whole = records(f);
	tdat_close(f);
	CHECK(whole > 0);
	for (id = 17; id <= 18; id++) {
		at = zsection(buf, len, id, &n);
		CHECK(at > 0 && n > 64);
		if (!at || n <= 64)
			continue;
		copy = malloc(len);
		if (!copy) {
			unit_failed++;
			break;
		}
		memcpy(copy, buf, len);
		memset(copy + at + n / 2, 0xa5, 32);
		CHECK(tdat_open_mem(copy, len, NULL, &f, why, sizeof(why)) ==
		      TDAT_BAD);
		if (tdat_open_mem(copy, len, &hooks, &f, why, sizeof(why)) !=
		    TDAT_OK) {
			printf("  no_formats, section %u damaged: %s\n", id,
			       why);
			unit_failed++;
		} else {
			CHECK_U64(tep_get_events_count(tdat_tep(f)), 0);
			CHECK_U64(records(f), whole);
			tdat_close(f);
		}
		free(copy);
	}
	free(buf);
}

/* A copy whose compressed kallsyms is garbage: refused, or not read. */
static void test_damaged_kallsyms(void)
{
	char why[TDAT_WHY_LEN];
	struct tdat_file *f;
	size_t len, off = 0, n = 0;
	uint8_t *buf = unit_slurp(SAMPLE, &len);
	uint64_t whole = 0;

	if (!buf) {
		printf("  cannot read %s\n", SAMPLE);
		unit_failed++;
		return;
	}
	if (tdat_open_mem(buf, len, NULL, &f, why, sizeof(why)) == TDAT_OK) {
		if (f->ksyms && f->ksyms->zsrc) {
			off = (size_t)(f->ksyms->zsrc - buf);
			n = f->ksyms->zsrclen;
		}
		whole = records(f);
		tdat_close(f);
	}
	CHECK(n > 64 && off + n <= len);
	if (n > 64 && off + n <= len) {
		memset(buf + off + n / 2, 0xa5, 32);
		CHECK(tdat_open_mem(buf, len, NULL, &f, why, sizeof(why)) ==
		      TDAT_BAD);
		if (tdat_open_mem(buf, len, &scan_hooks, &f, why,
				  sizeof(why)) != TDAT_OK) {
			printf("  scan hooks, damaged kallsyms: %s\n", why);
			unit_failed++;
		} else {
			CHECK(whole > 0);
			CHECK_U64(records(f), whole);
			tdat_close(f);
		}
	}
	free(buf);
}

int main(void)
{
	RUN(test_fields_only);
	RUN(test_damaged_kallsyms);
	RUN(test_no_formats);
	RUN(test_no_formats_damaged);
	UNIT_EXIT();
}
