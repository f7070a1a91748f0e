// SPDX-License-Identifier: LGPL-2.1
/*
 * Print formats parsed when they are first asked for
 * (&tdat_hooks.lazy_print_fmt).
 *
 * libtraceevent takes most of an event format's time over its print
 * format: 260 to 300 us each for the four kmem events with a GFP flag
 * table (kmalloc, kmem_cache_alloc, mm_page_alloc, percpu_alloc_percpu),
 * 20 us for their fields alone.  A report asks for one or two of them
 * (fmtprobe.c's probes: the first parsable flag table names every GFP
 * value), so each wanted event gets its fields in the handle at once,
 * and a copy of its text here.
 *
 * tdat_print_fmt() parses the whole text, with the same checks as when
 * it is parsed at once (tdat_parse_format()), into a scratch handle of
 * its own, prepared as the file's (byte order, long size, the caller's
 * prepare hook), and swaps the print formats of the two events: the
 * file's event then prints as if it had been parsed whole.  Its print
 * arguments name the fields and functions of the scratch event, which
 * are the same as the file's (one text) and are kept until tdat_close().
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* One event whose print format is still to be parsed. */
struct later_fmt {
	struct tep_event *ev; /* in the file's handle */
	uint8_t *text;	      /* its format text */
	size_t size;
	struct tep_handle *tep; /* the scratch handle, once parsed */
};

struct tdat_later {
	struct later_fmt *fmts;
	size_t n, cap;
};

/*
 * The text of @e->ev parsed whole, into a scratch handle prepared as the
 * file's, and the two events' print formats (and flags) swapped.
 */
static int load(struct tdat_file *f, struct later_fmt *e)
{
	struct tep_print_fmt swap;
	struct tep_event *full;
	bool oom = false;

	e->tep = tdat_new_tep(f);
	if (!e->tep)
		return -1;
	if (f->prepare)
		f->prepare(e->tep);
	full = tdat_parse_format(e->tep, e->text, e->size, e->ev->system, false,
				 &oom);
	free(e->text);
	e->text = NULL;
	if (oom)
		return -1;
	if (!full)
		return 0; /* left out: as the fields-only parse would be */
	swap = e->ev->print_fmt;
	e->ev->print_fmt = full->print_fmt;
	full->print_fmt = swap;
	e->ev->flags = full->flags;
	return 0;
}

/**
 * tdat_later_keep - keep an event's format text for tdat_print_fmt()
 * @f: the file
 * @ev: the event, just added to the file's handle with its fields alone
 * @p: its format text
 * @size: its length
 *
 * Return: 0, or TDAT_BAD after saying why (out of memory).
 */
int tdat_later_keep(struct tdat_file *f, struct tep_event *ev, const uint8_t *p,
		    uint64_t size)
{
	struct tdat_later *l = f->later;
	struct later_fmt *e;

	if (!l) {
		l = calloc(1, sizeof(*l));
		if (!l)
			return tdat_fail(f, TDAT_BAD, "out of memory");
		f->later = l;
	}
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 32;
		struct later_fmt *v = realloc(l->fmts, cap * sizeof(*v));

		if (!v)
			return tdat_fail(f, TDAT_BAD, "out of memory");
		l->fmts = v;
		l->cap = cap;
	}
	e = &l->fmts[l->n];
	memset(e, 0, sizeof(*e));
	e->ev = ev;
	e->size = (size_t)size;
	e->text = malloc(e->size ? e->size : 1);
	if (!e->text)
		return tdat_fail(f, TDAT_BAD, "out of memory");
	memcpy(e->text, p, e->size);
	l->n++;
	return 0;
}

/**
 * tdat_later_free - release the texts and scratch handles
 * @f: the file, its own handle already freed
 */
void tdat_later_free(struct tdat_file *f)
{
	struct tdat_later *l = f->later;
	size_t i;

	if (!l)
		return;
	for (i = 0; i < l->n; i++) {
		free(l->fmts[i].text);
		if (l->fmts[i].tep)
			tep_free(l->fmts[i].tep);
	}
	free(l->fmts);
	free(l);
	f->later = NULL;
}

/**
 * tdat_print_fmt - parse an event's print format, if it was left for later
 * @f: the file
 * @ev: an event of tdat_tep(@f)
 *
 * With &tdat_hooks.lazy_print_fmt, the events of tdat_tep(@f) have their
 * fields and an empty print format until this is called for them; after,
 * @ev prints as it would had its text been parsed whole at once (an
 * empty print format where that parse would have left it out).  Without
 * the hook, or called again: nothing to do.  Not for the per-record path
 * (a search among the events left for later); one thread at a time.
 *
 * Return: 0, or -1 when memory ran out (@ev keeps its empty print
 * format).
 */
int tdat_print_fmt(struct tdat_file *f, struct tep_event *ev)
{
	struct tdat_later *l = f ? f->later : NULL;
	size_t i;

	for (i = 0; l && ev && i < l->n; i++)
		if (l->fmts[i].ev == ev)
			return l->fmts[i].tep ? 0 : load(f, &l->fmts[i]);
	return 0;
}

/**
 * tdat_print_fmt_bound - a bound on an event's print format, unparsed
 * @f: the file
 * @ev: an event of tdat_tep(@f)
 *
 * Return: the length of @ev's format text while its print format is left
 * for later (&tdat_hooks.lazy_print_fmt; the print format, once parsed,
 * is no longer); else SIZE_MAX.
 */
size_t tdat_print_fmt_bound(const struct tdat_file *f,
			    const struct tep_event *ev)
{
	const struct tdat_later *l = f ? f->later : NULL;
	size_t i;

	for (i = 0; l && ev && i < l->n; i++)
		if (l->fmts[i].ev == ev)
			return l->fmts[i].tep ? SIZE_MAX : l->fmts[i].size;
	return SIZE_MAX;
}
