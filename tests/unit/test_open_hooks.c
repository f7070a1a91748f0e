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
 *  - lazy_print_fmt: each wanted event has its fields and an empty print
 *    format until tdat_print_fmt() parses it; then the print format, its
 *    flags and what it prints of a record are those of a full open
 *    (tdat_print_fmt_bound(): the text's length before, SIZE_MAX after);
 *  - lazy_cmdlines: no task has a name until tdat_comms() registers the
 *    saved comms; then every task of the records has the name a full
 *    open gives it;
 *  - no_formats: no event is parsed, and the records are the same (the
 *    sample, and a big-endian version 6 file); a copy whose compressed
 *    ftrace or event formats section is garbage opens with it (neither
 *    section decompressed), and not without it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <trace-seq.h>

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

/*
 * SAMPLE opened twice: whole in *@all, with @hooks (named @what) in
 * *@hooked.  Return: 0, or -1 (counted as a failure, nothing open).
 */
static int open_pair(const struct tdat_hooks *hooks, const char *what,
		     struct tdat_file **all, struct tdat_file **hooked)
{
	char why[TDAT_WHY_LEN];

	if (tdat_open(SAMPLE, NULL, all, why, sizeof(why)) != TDAT_OK) {
		printf("  %s: %s\n", SAMPLE, why);
		unit_failed++;
		return -1;
	}
	if (tdat_open(SAMPLE, hooks, hooked, why, sizeof(why)) != TDAT_OK) {
		printf("  %s, %s: %s\n", SAMPLE, what, why);
		unit_failed++;
		tdat_close(*all);
		return -1;
	}
	return 0;
}

/* The fields, and no print format, of every kmem event; no other. */
static void test_fields_only(void)
{
	struct tdat_file *all, *scan;
	struct tep_event **evs;
	int i, kmem = 0;

	if (open_pair(&scan_hooks, "scan hooks", &all, &scan))
		return;
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

/* print_first()'s: the event, where its text goes, whether found */
struct first {
	struct tep_event *ev;
	char *out;
	size_t len;
	int found;
};

static int print_first(void *priv, const struct tep_record *rec)
{
	struct first *p = priv;
	struct trace_seq s;

	if (tep_data_type(p->ev->tep, (struct tep_record *)rec) != p->ev->id)
		return 0;
	trace_seq_init(&s);
	tep_print_event(p->ev->tep, &s, (struct tep_record *)rec, "%s",
			TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	snprintf(p->out, p->len, "%s", s.buffer ? s.buffer : "");
	trace_seq_destroy(&s);
	p->found = 1;
	return 1;
}

/* @ev's print format applied to its first record in @f, in @out. */
static int first_printed(struct tdat_file *f, struct tep_event *ev, char *out,
			 size_t len)
{
	struct first p = { ev, out, len, 0 };
	struct tdat_damage d;
	char why[TDAT_WHY_LEN];

	out[0] = '\0';
	tdat_iterate(f, 0, NULL, 0, print_first, &p, &d, why, sizeof(why));
	return p.found;
}

/* Print formats parsed when asked for: as a full open's, then. */
static void test_lazy_print_fmt(void)
{
	static const char *const names[] = { "kmalloc", "kfree",
					     "mm_page_alloc",
					     "kmem_cache_alloc" };
	const struct tdat_hooks lazy = { .want = kmem_only,
					 .lazy_print_fmt = true };
	char a[512], b[512];
	struct tdat_file *all, *later;
	size_t i;
	int printed = 0;

	if (open_pair(&lazy, "lazy_print_fmt", &all, &later))
		return;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct tep_event *e =
			tep_find_event_by_name(tdat_tep(all), "kmem", names[i]);
		struct tep_event *l = tep_find_event_by_name(tdat_tep(later),
							     "kmem", names[i]);

		CHECK(e && l);
		if (!e || !l)
			continue;
		CHECK_U64(nr_fields(l), nr_fields(e));
		CHECK(l->print_fmt.format && !l->print_fmt.format[0]);
		CHECK(l->print_fmt.args == NULL);
		CHECK(tdat_print_fmt_bound(later, l) >
		      strlen(e->print_fmt.format));
		CHECK(tdat_print_fmt_bound(later, l) < SIZE_MAX);
		CHECK_U64(tdat_print_fmt_bound(all, e), SIZE_MAX);
		CHECK(!tdat_print_fmt(later, l));
		CHECK(!tdat_print_fmt(later, l)); /* again: nothing to do */
		CHECK_U64(tdat_print_fmt_bound(later, l), SIZE_MAX);
		CHECK(l->print_fmt.format &&
		      !strcmp(l->print_fmt.format, e->print_fmt.format));
		CHECK(l->print_fmt.args != NULL);
		CHECK_U64(l->flags, e->flags);
		if (first_printed(all, e, a, sizeof(a))) {
			CHECK(first_printed(later, l, b, sizeof(b)));
			CHECK(a[0] && !strcmp(a, b));
			if (strcmp(a, b))
				printf("  %s: \"%s\" / \"%s\"\n", names[i], a,
				       b);
			printed++;
		}
	}
	CHECK(printed >= 2);
	/* an event of another file's handle: not one of this one's */
	CHECK(!tdat_print_fmt(
		later, tep_find_event_by_name(tdat_tep(all), "kmem", "kfree")));
	tdat_close(later);
	tdat_close(all);
}

/* add_pid()'s: the distinct pids of a file's records */
struct pids {
	struct tep_handle *tep;
	int v[4096];
	int n;
};

static int add_pid(void *priv, const struct tep_record *rec)
{
	struct pids *p = priv;
	int pid = tep_data_pid(p->tep, (struct tep_record *)rec), i;

	for (i = 0; i < p->n; i++)
		if (p->v[i] == pid)
			return 0;
	if (p->n < (int)(sizeof(p->v) / sizeof(p->v[0])))
		p->v[p->n++] = pid;
	return 0;
}

/* Saved comms registered when asked for: as a full open's, then. */
static void test_lazy_cmdlines(void)
{
	const struct tdat_hooks lazy = { .want = kmem_only,
					 .lazy_cmdlines = true };
	static struct pids p;
	char why[TDAT_WHY_LEN];
	struct tdat_file *all, *later;
	struct tdat_damage d;
	int i, named = 0;

	if (open_pair(&lazy, "lazy_cmdlines", &all, &later))
		return;
	p.tep = tdat_tep(all);
	p.n = 0;
	CHECK(!tdat_iterate(all, 0, NULL, 0, add_pid, &p, &d, why,
			    sizeof(why)));
	CHECK(p.n > 10);
	for (i = 0; i < p.n; i++) {
		const char *c = tep_data_comm_from_pid(tdat_tep(all), p.v[i]);

		named += strcmp(c, "<...>") != 0;
		/* not yet registered */
		CHECK(!strcmp(tep_data_comm_from_pid(tdat_tep(later), p.v[i]),
			      "<...>"));
	}
	CHECK(named > 10);
	CHECK(!tdat_comms(later));
	CHECK(!tdat_comms(later)); /* again: nothing to do */
	CHECK(!tdat_comms(all));   /* registered at the opening */
	for (i = 0; i < p.n; i++) {
		const char *a = tep_data_comm_from_pid(tdat_tep(all), p.v[i]);
		const char *b = tep_data_comm_from_pid(tdat_tep(later), p.v[i]);

		CHECK(!strcmp(a, b));
		if (strcmp(a, b))
			printf("  pid %d: \"%s\" / \"%s\"\n", p.v[i], a, b);
	}
	tdat_close(later);
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
	RUN(test_lazy_print_fmt);
	RUN(test_lazy_cmdlines);
	RUN(test_no_formats);
	RUN(test_no_formats_damaged);
	UNIT_EXIT();
}
