// SPDX-License-Identifier: LGPL-2.1
/*
 * A file's damage, found before libtracecmd reads it (see tdat.h).
 *
 * libtracecmd drops a compressed chunk that does not inflate without a
 * word, and hands over what it finds in a damaged page: records of
 * impossible sizes, and records made of whatever bytes follow.  The
 * native reader's checks, run over every buffer first, count the
 * damage per buffer and note the record offsets it skips, so that a
 * reader of libtracecmd's records skips the same ones and reports the
 * same damage.  It also counts the records of every CPU that it reads,
 * so that the reader can tell when libtracecmd gave up on a CPU at its
 * damage and left the rest unread.  Record offsets are libtracecmd's
 * (iter.c), unique across the CPUs and buffers of a file.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Records at offsets [from, end) were skipped. */
struct range {
	uint64_t from;
	uint64_t end;
};

struct tdat_scan {
	struct range *r;
	size_t n;
	size_t cap;
	int nr_buffers;
	char **names;		   /* the buffers' names, "" the top one */
	struct tdat_damage *dmg;   /* per buffer */
	struct tdat_damage all;	   /* of every buffer */
	int max_cpus;		   /* the most CPU ids of a buffer */
	int *nr_cpus;		   /* per buffer */
	uint64_t **records;	   /* per buffer, per CPU id: read */
	bool oom;		   /* a stretch could not be noted */
	uint8_t *format_ids;	   /* the file's (tdat_format_ids()) */
};

/**
 * tdat_scan_note - note a damaged stretch of record offsets
 * @scan: the scan
 * @from: the first offset skipped
 * @end: the offset past the last one
 *
 * Without memory for it the scan fails (tdat_scan() returns NULL): the
 * records libtracecmd makes of the stretch would not be recognised.
 */
void tdat_scan_note(struct tdat_scan *scan, uint64_t from, uint64_t end)
{
	if (end <= from)
		return;
	if (scan->n == scan->cap) {
		size_t cap = scan->cap ? 2 * scan->cap : 64;
		struct range *r = realloc(scan->r, cap * sizeof(*r));

		if (!r) {
			scan->oom = true;
			return;
		}
		scan->r = r;
		scan->cap = cap;
	}
	scan->r[scan->n].from = from;
	scan->r[scan->n].end = end;
	scan->n++;
}

static int by_from(const void *a, const void *b)
{
	const struct range *x = a, *y = b;

	return x->from < y->from ? -1 : x->from > y->from;
}

static void add_damage(struct tdat_damage *to, const struct tdat_damage *d)
{
	if (!to->pages && !to->chunks) {
		to->first_cpu = d->first_cpu;
		to->first_offset = d->first_offset;
	}
	to->pages += d->pages;
	to->chunks += d->chunks;
}

/**
 * tdat_scan - read every buffer of a file for its damage
 * @f: the file (tdat_open())
 * @counted: which records to count per CPU (NULL: all)
 * @priv: passed to @counted
 *
 * Return: the scan (tdat_scan_free() it), or NULL when memory ran out.
 */
struct tdat_scan *tdat_scan(struct tdat_file *f, tdat_count_fn counted,
			    void *priv)
{
	struct tdat_scan *sc = calloc(1, sizeof(*sc));
	int b;

	if (!sc)
		return NULL;
	sc->nr_buffers = f->nr_buffers;
	sc->names = calloc((size_t)f->nr_buffers, sizeof(*sc->names));
	sc->dmg = calloc((size_t)f->nr_buffers, sizeof(*sc->dmg));
	sc->nr_cpus = calloc((size_t)f->nr_buffers, sizeof(*sc->nr_cpus));
	sc->records = calloc((size_t)f->nr_buffers, sizeof(*sc->records));
	if (!sc->names || !sc->dmg || !sc->nr_cpus || !sc->records)
		goto oom;
	if (f->format_ids) {
		sc->format_ids = malloc(TDAT_FORMAT_IDS / 8);
		if (!sc->format_ids)
			goto oom;
		memcpy(sc->format_ids, f->format_ids, TDAT_FORMAT_IDS / 8);
	}
	for (b = 0; b < f->nr_buffers; b++) {
		int n = f->buffers[b].nr_cpus;

		sc->names[b] = strdup(f->buffers[b].name);
		sc->records[b] = calloc((size_t)n + 1, sizeof(uint64_t));
		if (!sc->names[b] || !sc->records[b])
			goto oom;
		sc->nr_cpus[b] = n;
		if (tdat_scan_buffer(f, b, sc, &sc->dmg[b], counted, priv,
				     sc->records[b]))
			goto oom;
		add_damage(&sc->all, &sc->dmg[b]);
		if (n > sc->max_cpus)
			sc->max_cpus = n;
	}
	if (sc->oom)
		goto oom;
	if (sc->n) /* no damage: sc->r is NULL, which qsort() must not get */
		qsort(sc->r, sc->n, sizeof(*sc->r), by_from);
	return sc;
oom:
	tdat_scan_free(sc);
	return NULL;
}

/**
 * tdat_scan_damage - the damage found in one buffer
 * @sc: the scan
 * @buffer: the buffer's name ("" for the top buffer), or NULL for all
 *
 * Return: its damage, or NULL if the file has no such buffer.
 */
const struct tdat_damage *tdat_scan_damage(const struct tdat_scan *sc,
					   const char *buffer)
{
	int b;

	if (!buffer)
		return &sc->all;
	for (b = 0; b < sc->nr_buffers; b++)
		if (!strcmp(sc->names[b], buffer))
			return &sc->dmg[b];
	return NULL;
}

/**
 * tdat_scan_records - how many records of a CPU the scan counted
 * @sc: the scan
 * @buffer: the buffer's name ("" for the top buffer), or NULL for all
 * @cpu: the CPU id
 *
 * Return: the count, 0 for a buffer or CPU the file does not have.
 */
uint64_t tdat_scan_records(const struct tdat_scan *sc, const char *buffer,
			   int cpu)
{
	uint64_t n = 0;
	int b;

	for (b = 0; b < sc->nr_buffers; b++)
		if ((!buffer || !strcmp(sc->names[b], buffer)) && cpu >= 0 &&
		    cpu < sc->nr_cpus[b])
			n += sc->records[b][cpu];
	return n;
}

/**
 * tdat_scan_cpus - how many CPU ids the scan counts records for
 * @sc: the scan
 *
 * Return: one more than the highest CPU id of any buffer.
 */
int tdat_scan_cpus(const struct tdat_scan *sc)
{
	return sc->max_cpus;
}

/**
 * tdat_scan_skips - does a record lie in data the native reader skips?
 * @sc: the scan
 * @offset: the record's offset (tep_record.offset from libtracecmd)
 *
 * O(log damage); false at once for a file without damage.
 *
 * Return: true when the record is part of damaged data.
 */
bool tdat_scan_skips(const struct tdat_scan *sc, uint64_t offset)
{
	size_t lo = 0, hi = sc->n;

	/* the last range starting at or before @offset */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sc->r[mid].from <= offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && offset < sc->r[lo - 1].end;
}

/**
 * tdat_scan_free - release a scan
 * @sc: the scan, or NULL
 */
void tdat_scan_free(struct tdat_scan *sc)
{
	int b;

	if (!sc)
		return;
	for (b = 0; b < sc->nr_buffers; b++) {
		if (sc->names)
			free(sc->names[b]);
		if (sc->records)
			free(sc->records[b]);
	}
	free(sc->names);
	free(sc->records);
	free(sc->nr_cpus);
	free(sc->dmg);
	free(sc->r);
	free(sc->format_ids);
	free(sc);
}

/**
 * tdat_scan_format_ids - the event ids the scanned file's formats name
 * @sc: the scan
 *
 * Return: tdat_format_ids() of the file the scan read, kept with the
 * scan; NULL when that was NULL (its formats not read).
 */
const uint8_t *tdat_scan_format_ids(const struct tdat_scan *sc)
{
	return sc->format_ids;
}
