// SPDX-License-Identifier: LGPL-2.1
/*
 * Version 7: every byte of the file is in a part the reader was led to.
 *
 * trace-cmd writes a version 7 file as its header and then sections one
 * after the other, each named by an option (a section option holds its
 * offset, 8 bytes, and has the section's id; a BUFFER option starts with
 * its data section's offset), the options sections chained from the
 * header, and the strings section after the last of them.  A damaged
 * option id or size hides its section: a buffer's data, the ftrace
 * formats or the comms were left unread without a word.  So the parts
 * met while reading are noted here, and an uncut file with bytes in
 * none of them is refused (tdat_check_spans()).  An option of 8 bytes
 * that the reader does not know, naming a section of its own id (one a
 * newer trace-cmd writes: the modules, BTF), covers that section; so
 * does a strings section wherever it lies (one sent ahead of the data
 * over the network, tracecmd_write_meta_strings(), is named by nothing).
 */
#include <stdlib.h>

#include "internal.h"
#include "layout.h"

/**
 * tdat_span_add - note a part of the file the reader was led to
 * @f: the file
 * @start: its first byte
 * @end: past its last (cut to the end of the file)
 */
void tdat_span_add(struct tdat_file *f, uint64_t start, uint64_t end)
{
	struct tdat_span *p;

	if (f->spans_failed || start >= f->size)
		return;
	if (end > f->size)
		end = f->size;
	if (f->nr_spans == f->cap_spans) {
		int cap = f->cap_spans ? 2 * f->cap_spans : 32;

		p = cap < 65536 ? realloc(f->spans, (size_t)cap * sizeof(*p))
				: NULL;
		if (!p) {
			f->spans_failed = true; /* not checked then */
			return;
		}
		f->spans = p;
		f->cap_spans = cap;
	}
	f->spans[f->nr_spans++] = (struct tdat_span){ start, end };
}

/**
 * tdat_span_section - note the section an option names
 * @f: the file
 * @off: the section's offset, as the option gives it
 * @id: the id its header must have, or -1: any
 *
 * A header that is not there, or of another id, notes nothing (the
 * section's reader, if any, says why).
 */
void tdat_span_section(struct tdat_file *f, uint64_t off, int id)
{
	uint64_t size;

	if (off > f->size || f->size - off < 16)
		return;
	if (id >= 0 && tdat_num(f->map + off, 2, f->big) != (uint64_t)id)
		return;
	size = tdat_num(f->map + off + 8, 8, f->big);
	tdat_span_add(f, off,
		      size > f->size - off - 16 ? f->size : off + 16 + size);
}

/* Past the strings sections that lie whole in @pos to @end. */
static uint64_t past_strings(const struct tdat_file *f, uint64_t pos,
			     uint64_t end)
{
	while (end - pos >= 16 &&
	       tdat_num(f->map + pos, 2, f->big) == OPT_STRINGS) {
		uint64_t size = tdat_num(f->map + pos + 8, 8, f->big);

		if (size > end - pos - 16)
			break;
		pos += 16 + size;
	}
	return pos;
}

static int span_cmp(const void *a, const void *b)
{
	const struct tdat_span *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/**
 * tdat_check_spans - is every byte of the file in a part met?
 * @f: the file, version 7, read whole (not cut)
 *
 * Return: TDAT_OK, or TDAT_BAD after saying where the first bytes in no
 * part are.
 */
int tdat_check_spans(struct tdat_file *f)
{
	uint64_t pos = 0;
	int i;

	if (f->spans_failed)
		return TDAT_OK;
	qsort(f->spans, (size_t)f->nr_spans, sizeof(*f->spans), span_cmp);
	for (i = 0; i <= f->nr_spans; i++) {
		uint64_t start = i < f->nr_spans ? f->spans[i].start : f->size;

		if (start > pos)
			pos = past_strings(f, pos, start);
		if (start > pos)
			return tdat_fail(f, TDAT_BAD,
					 "%llu bytes at offset %llu are in no "
					 "section the options name (an "
					 "option's id or size damaged?)",
					 (unsigned long long)(start - pos),
					 (unsigned long long)pos);
		if (i < f->nr_spans && f->spans[i].end > pos)
			pos = f->spans[i].end;
	}
	return TDAT_OK;
}
