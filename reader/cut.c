// SPDX-License-Identifier: LGPL-2.1
/*
 * A version 7 file cut short: what is left of it is read, what the cut
 * took is said (tdat_cut_note()).
 *
 * trace-cmd writes a version 7 file's metadata sections and a first
 * options section, then for each buffer its data section followed by an
 * options section holding the BUFFER option (the CPUs' offsets and
 * sizes), then a section of strings; each options section names the
 * next.  A file cut near its end has lost the last of these: an options
 * section that the chain names lies past the end of the file (layout.c
 * then calls tdat_cut_at()).
 *
 * The data section before the lost options section (an "orphan") is
 * still read when that is sound: the buffer sections after the last
 * whole options section must end exactly where the lost one starts
 * (or run past the end of the file), and it must be the first buffer
 * section of the file, no BUFFER option read before it (trace-cmd
 * writes each buffer's options after its data, the top buffer first;
 * an instance's name was in the lost part, and its data is not read).
 * Its data must be compressed, so that each CPU's is a chunk table found
 * at the next page boundary, with as many tables as the file has CPUs
 * (trace-cmd writes nothing for a CPU without data: with fewer tables,
 * which CPU each is cannot be told).  Uncompressed pages carry no CPU
 * boundary: only a one-CPU file's are read.  (trace-cmd convert skips a
 * top buffer without data: such a file, cut in its first instance's
 * data, is read as if that were the top buffer.)
 *
 * A CPU's data that the cut ends is read up to its last whole
 * compressed chunk or ring-buffer page; the rest is counted as lost.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define SEC_BUFFER 3 /* a buffer section's id, as its option's */
#define SEC_FL_COMPRESS 1

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/**
 * tdat_cut_at - the file ends before something its offsets point to
 * @f: the file
 * @wanted: where that something ends (or at least reaches)
 */
void tdat_cut_at(struct tdat_file *f, uint64_t wanted)
{
	f->cut.cut = true;
	if (wanted > f->cut.wanted)
		f->cut.wanted = wanted;
}

static void gone(struct tdat_file *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A buffer section left unread: say what it was and why. */
static void gone(struct tdat_file *f, const char *fmt, ...)
{
	struct tdat_cutinfo *c = &f->cut;
	va_list ap;

	if (c->nr_gone < TDAT_GONE_MAX) {
		va_start(ap, fmt);
		vsnprintf(c->gone[c->nr_gone], sizeof(c->gone[0]), fmt, ap);
		va_end(ap);
	}
	c->nr_gone++;
}

/*
 * The chunk table at @off, read up to @limit: its chunk count in *@n
 * (0 if the count itself is cut), the whole chunks in *@whole and where
 * the last of them ends in *@end.
 *
 * Return: false when the count itself does not fit.
 */
static bool whole_chunks(const struct tdat_file *f, uint64_t off,
			 uint64_t limit, uint64_t *n, uint64_t *whole,
			 uint64_t *end)
{
	struct tcur t;

	*n = 0;
	*whole = 0;
	*end = off;
	if (off >= limit)
		return false;
	tc_init(&t, f->map + off, (size_t)(limit - off), f->big);
	*n = tc_num(&t, 4);
	if (t.bad)
		return false;
	*end = off + t.pos;
	while (*whole < *n) {
		uint64_t z = tc_num(&t, 4);

		tc_num(&t, 4);
		tc_take(&t, z);
		if (t.bad)
			break;
		(*whole)++;
		*end = off + t.pos;
	}
	return true;
}

/* Cut CPU data: keep its whole chunks, count the rest as lost. */
static void cut_compressed(struct tdat_file *f, struct tdat_cpu *c,
			   uint64_t data_end)
{
	uint64_t n, whole, end;

	c->cut = true;
	if (!whole_chunks(f, c->offset, f->size, &n, &whole, &end) ||
	    n == whole) {
		/* the count is cut, or lies: one chunk lost at least */
		n = whole + 1;
		c->count_cut = true;
	}
	c->nchunks = whole;
	c->lost_chunks = n - whole;
	c->size = whole ? end - c->offset - 4 : 0;
	c->lost_bytes = data_end - (whole ? end : c->offset);
}

/* Cut CPU data: keep its whole pages, count the rest as lost. */
static void cut_pages(struct tdat_file *f, struct tdat_cpu *c, unsigned int ps,
		      uint64_t data_end)
{
	uint64_t left = 0;

	c->cut = true;
	if (c->offset < f->size)
		left = (f->size - c->offset) / ps * ps;
	if (left > c->size)
		left = c->size;
	c->lost_bytes = data_end - (c->offset + left);
	c->lost_pages = (c->size - left + ps - 1) / ps;
	c->size = left;
}

/*
 * The top buffer's compressed data section at @at, its BUFFER option
 * lost: one chunk table per CPU at page boundaries, up to @end.
 */
static int orphan_chunks(struct tdat_file *f, struct tdat_buffer *b,
			 uint64_t at, uint64_t end)
{
	uint64_t ps = b->page_size, pos = at + 16;
	struct tdat_cpu *tab;
	int k = 0;
	bool cut = false;

	tab = calloc((size_t)f->cpus, sizeof(*tab));
	if (!tab)
		return tdat_fail(f, TDAT_BAD, "out of memory");
	while (k < f->cpus && !cut) {
		uint64_t n, whole, e;

		pos = (pos + ps - 1) / ps * ps;
		if (pos >= end)
			break;
		tab[k].cpu = k;
		tab[k].offset = pos;
		if (!whole_chunks(f, pos, end < f->size ? end : f->size, &n,
				  &whole, &e) ||
		    whole < n) {
			if (end <= f->size)
				break; /* a table that its section cuts */
			/* the end of the file cuts this CPU's data */
			cut_compressed(f, &tab[k], end);
			cut = true;
		} else {
			tab[k].size = e - pos - 4;
			pos = e;
		}
		k++;
	}
	if (k != f->cpus || (!cut && pos != end)) {
		free(tab);
		gone(f,
		     "the top buffer's %llu bytes (its CPU table was cut off, "
		     "and %d chunk table%s for %d CPUs cannot say which CPU "
		     "each is)",
		     (unsigned long long)((end < f->size ? end : f->size) - at),
		     k, k == 1 ? "" : "s", f->cpus);
		return TDAT_OK;
	}
	b->cpus = tab;
	b->nr_cpus = k;
	return TDAT_OK;
}

/*
 * The buffer section at @at, @end, whose BUFFER option was cut off;
 * @tiled: the sections from the last options section tile the file up
 * to the lost one (or to the end of the file).
 */
static int orphan(struct tdat_file *f, uint64_t at, uint64_t end, bool tiled,
		  bool top)
{
	uint64_t in_file = (end < f->size ? end : f->size) - at;
	unsigned int flags = (unsigned int)tdat_num(f->map + at + 2, 2, f->big);
	struct tdat_buffer *b = &f->buffers[0];

	if (!top) {
		gone(f,
		     "a buffer instance's data section of %llu bytes (%llu "
		     "in the file; its name and CPU table were in the lost "
		     "part)",
		     (unsigned long long)(end - at),
		     (unsigned long long)in_file);
		return TDAT_OK;
	}
	if (!tiled) {
		gone(f,
		     "the top buffer's %llu bytes (its section does not end "
		     "where the lost options start)",
		     (unsigned long long)in_file);
		return TDAT_OK;
	}
	if (!(flags & SEC_FL_COMPRESS) && f->cpus != 1) {
		gone(f,
		     "the top buffer's %llu bytes (its CPU table was in the "
		     "lost part, and uncompressed pages do not show their "
		     "CPU)",
		     (unsigned long long)in_file);
		return TDAT_OK;
	}
	if ((flags & SEC_FL_COMPRESS) && f->compress == TDAT_Z_NONE)
		return tdat_fail(f, TDAT_BAD,
				 "section %d is compressed in a file without "
				 "compression",
				 SEC_BUFFER);
	b->offset = at;
	b->page_size = f->page_size;
	b->compressed = flags & SEC_FL_COMPRESS;
	if (b->compressed)
		return orphan_chunks(f, b, at, end);
	b->cpus = calloc(1, sizeof(*b->cpus));
	if (!b->cpus)
		return tdat_fail(f, TDAT_BAD, "out of memory");
	b->nr_cpus = 1;
	b->cpus[0].offset =
		(at + 16 + f->page_size - 1) / f->page_size * f->page_size;
	if (b->cpus[0].offset < end)
		b->cpus[0].size = end - b->cpus[0].offset;
	return TDAT_OK;
}

/* Has a BUFFER option described the section at @off? */
static bool described(const struct tdat_file *f, uint64_t off)
{
	int i;

	for (i = 0; i < f->nr_buffers; i++)
		if (f->buffers[i].offset == off)
			return true;
	return false;
}

/**
 * tdat_cut_orphans - the buffer sections before a lost options section
 * @f: the file, cut (tdat_cut_at())
 * @from: where the last whole options section ends
 * @to: where the lost one starts
 *
 * Return: TDAT_OK, or TDAT_BAD when memory ran out.
 */
int tdat_cut_orphans(struct tdat_file *f, uint64_t from, uint64_t to)
{
	uint64_t pos = from;
	bool none = f->nr_buffers == 1 && !f->buffers[0].offset;
	bool tiled = false;
	int ret = TDAT_OK;

	/* buffer sections, one after the other, up to @to or the end */
	if (f->size < 16)
		return TDAT_OK;
	while (pos < to && pos <= f->size - 16 &&
	       tdat_num(f->map + pos, 2, f->big) == SEC_BUFFER)
		pos = sat_add(pos + 16, tdat_num(f->map + pos + 8, 8, f->big));
	tiled = pos == to || (pos < to && pos > f->size - 16);
	pos = from;
	while (pos < to && pos < f->size && !ret) {
		const uint8_t *h = f->map + pos;
		uint64_t end;

		if (f->size - pos < 16) {
			gone(f, "a section of %llu bytes (its header is cut)",
			     (unsigned long long)(f->size - pos));
			break;
		}
		if (tdat_num(h, 2, f->big) != SEC_BUFFER)
			break;
		end = sat_add(pos + 16, tdat_num(h + 8, 8, f->big));
		if (end > f->size)
			tdat_cut_at(f, end);
		if (!described(f, pos))
			ret = orphan(f, pos, end, tiled, none && pos == from);
		pos = end;
	}
	return ret;
}

/**
 * tdat_cut_buffers - cut CPU data: keep what is whole, count the rest
 * @f: the file; nothing is done unless it was found cut
 *
 * Every CPU whose data runs past the end of the file keeps its whole
 * compressed chunks or ring-buffer pages.
 */
void tdat_cut_buffers(struct tdat_file *f)
{
	int i, j;

	if (!f->cut.cut)
		return;
	for (i = 0; i < f->nr_buffers; i++) {
		struct tdat_buffer *b = &f->buffers[i];

		for (j = 0; j < b->nr_cpus; j++) {
			struct tdat_cpu *c = &b->cpus[j];
			uint64_t end = sat_add(
				c->offset,
				sat_add(c->size, b->compressed ? 4 : 0));

			if (c->cut || !c->size || end <= f->size)
				continue;
			tdat_cut_at(f, end);
			if (b->compressed)
				cut_compressed(f, c, end);
			else
				cut_pages(f, c, b->page_size, end);
		}
	}
}

static const char *buffer_label(const struct tdat_buffer *b, char *buf,
				size_t len)
{
	if (!*b->name)
		return "the top buffer";
	snprintf(buf, len, "instance %.64s", b->name);
	return buf;
}

/**
 * tdat_cut_note - was the file cut short, and what did that lose?
 * @f: the handle
 * @note: for one sentence saying where and what
 * @len: its size (TDAT_WHY_LEN or more)
 *
 * Return: 0 (the file is whole), 1 (cut after its last options
 * section: only the names of its sections were lost) or 2 (options or
 * trace data lost).
 */
int tdat_cut_note(const struct tdat_file *f, char *note, size_t len)
{
	size_t n;
	int i, j, items = 0, more = 0;

	if (!f->cut.cut)
		return 0;
	snprintf(note, len,
		 "file cut at %llu bytes, where its offsets reach at least "
		 "%llu: ",
		 (unsigned long long)f->size,
		 (unsigned long long)f->cut.wanted);
	for (i = 0; i < f->nr_buffers; i++) {
		const struct tdat_buffer *b = &f->buffers[i];
		char name[80];

		for (j = 0; j < b->nr_cpus; j++) {
			const struct tdat_cpu *c = &b->cpus[j];
			uint64_t lost =
				b->compressed ? c->lost_chunks : c->lost_pages;

			if (!c->cut)
				continue;
			if (items++ >= 3) {
				more++;
				continue;
			}
			n = strlen(note);
			snprintf(note + n, len - n,
				 "%s%llu bytes of CPU %d of %s (%s%llu %s%s)",
				 items > 1 ? "; " : "lost ",
				 (unsigned long long)c->lost_bytes, c->cpu,
				 buffer_label(b, name, sizeof(name)),
				 c->count_cut ? "at least " : "",
				 (unsigned long long)lost,
				 b->compressed ? "compressed chunk"
					       : "ring-buffer page",
				 lost == 1 ? "" : "s");
		}
	}
	for (i = 0; i < f->cut.nr_gone; i++) {
		if (i >= TDAT_GONE_MAX || items++ >= 3) {
			more++;
			continue;
		}
		n = strlen(note);
		snprintf(note + n, len - n, "%s%s", items > 1 ? "; " : "lost ",
			 f->cut.gone[i]);
	}
	n = strlen(note);
	if (more)
		snprintf(note + n, len - n, "; and %d more", more);
	else if (!items && f->cut.options)
		snprintf(note + n, len - n,
			 "lost the options from offset %llu on, but no trace "
			 "data before them",
			 (unsigned long long)f->cut.options);
	else if (!items)
		snprintf(note + n, len - n,
			 "no options or trace data lost, only the section "
			 "names after them");
	return items || f->cut.options ? 2 : 1;
}
