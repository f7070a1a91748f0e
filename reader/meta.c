// SPDX-License-Identifier: LGPL-2.1
/*
 * The metadata parts of a trace.dat into the tep handle: the ring-buffer
 * page header, the event formats the caller wants (the rest are skipped
 * unparsed: a few of the thousands a trace carries; with lazy_print_fmt
 * their fields alone, fmtlater.c keeping their texts), the saved command
 * lines.  The same parts in version 6 (in sequence) and 7 (as sections).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const uint8_t *sized(struct tcur *c, int width, uint64_t *size)
{
	*size = tc_num(c, width);
	return tc_take(c, *size);
}

/*
 * The ring-buffer page the header page format describes (its data
 * field's offset and size, as the kernel prints them) is the file
 * header's page size: trace-cmd writes the one from the other (since
 * 3.0; before, both were the machine's page size).  Apart, one of them
 * is damaged, and pages read in the wrong size lose records without a
 * sign, so the file is not read.  A format without the data field
 * gives 0, and is not checked.
 */
static int check_page_size(struct tdat_file *f)
{
	int sub = tep_get_sub_buffer_size(f->tep);

	if (sub <= 0 || (unsigned int)sub == f->page_size)
		return TDAT_OK;
	return tdat_fail(f, TDAT_BAD,
			 "page size %u in the file header, but %d in its "
			 "header page format",
			 f->page_size, sub);
}

/**
 * tdat_header_info - "header_page" and "header_event"
 * @f: the file
 * @c: the cursor at "header_page"
 *
 * Return: TDAT_OK, or the failure.
 */
int tdat_header_info(struct tdat_file *f, struct tcur *c)
{
	const uint8_t *tag = tc_take(c, 12), *p;
	uint64_t size;
	char *copy;
	int ret;

	if (!tag || memcmp(tag, "header_page", 12))
		return tdat_fail(f, TDAT_BAD,
				 "no \"header_page\" where the "
				 "header page format should be");
	p = sized(c, 8, &size);
	if (!p)
		return tdat_fail(f, TDAT_BAD, "header page format truncated");
	copy = malloc((size_t)size + 1);
	if (!copy)
		return tdat_fail(f, TDAT_BAD, "out of memory");
	memcpy(copy, p, (size_t)size);
	copy[size] = '\0';
	ret = tep_parse_header_page(f->tep, copy, (unsigned long)size,
				    f->long_size);
	free(copy);
	if (ret)
		return tdat_fail(f, TDAT_BAD,
				 "cannot parse the header page "
				 "format");
	tag = tc_take(c, 13);
	if (!tag || memcmp(tag, "header_event", 13) || !sized(c, 8, &size))
		return tdat_fail(f, TDAT_BAD,
				 "no \"header_event\" after the "
				 "header page format");
	f->kbuf_long = tep_get_header_page_size(f->tep) == 8 ? 8 : 4;
	if (tep_is_old_format(f->tep)) {
		f->unsupported = "the ring buffer of Linux 2.6.30 and older";
		return TDAT_OK;
	}
	if (tep_get_header_timestamp_size(f->tep) != 8)
		return tdat_fail(f, TDAT_BAD,
				 "the header page's timestamp is "
				 "not 8 bytes");
	return check_page_size(f);
}

/* The name in a format text's first line, "name: NAME". */
static bool format_name(const uint8_t *p, uint64_t size, char *name, size_t len)
{
	size_t i = 5, n = 0;

	if (size < 6 || memcmp(p, "name:", 5))
		return false;
	while (i < size && (p[i] == ' ' || p[i] == '\t'))
		i++;
	while (i < size && !isspace(p[i]) && n + 1 < len)
		name[n++] = (char)p[i++];
	name[n] = '\0';
	return n > 0;
}

/* The number in a format text's "ID: N" line (its second), or -1. */
static long format_id(const uint8_t *p, uint64_t size)
{
	const uint8_t *end = p + (size < 512 ? size : 512), *q;
	long id = 0;

	q = memchr(p, '\n', (size_t)(end - p));
	if (!q || end - q < 6 || memcmp(q + 1, "ID:", 3))
		return -1;
	for (q += 4; q < end && *q == ' '; q++)
		;
	if (q == end || !isdigit(*q))
		return -1;
	for (; q < end && isdigit(*q) && id < 1L << 40; q++)
		id = id * 10 + (*q - '0');
	return id;
}

/*
 * The ids of the events the caller wants (of the formats read so far,
 * and of the section about to be read): a format the caller does not
 * want is parsed all the same when it gives one of them, so that the
 * handle holds both events of a shared id and the clash is said
 * (kmem_event_id_clash()), not its records taken for ours.
 */
struct wanted_ids {
	long id[256];
	int n;
};

static bool is_wanted_id(const struct wanted_ids *w, long id)
{
	int i;

	for (i = 0; w && id >= 0 && i < w->n; i++)
		if (w->id[i] == id)
			return true;
	return false;
}

/*
 * A format text left out (damaged: its name line, or what libtraceevent
 * cannot parse safely): noted when it may be one the caller wants, its
 * records then unread (tdat_formats_note()).  One whose name cannot be
 * read may be anyone's.
 */
static void note_left_out(struct tdat_file *f, const char *system,
			  const uint8_t *p, uint64_t size)
{
	char name[64];
	bool named = format_name(p, size, name, sizeof(name));
	long id;

	if (named && f->want && !f->want(system, name))
		return;
	if (f->formats_left++)
		return;
	id = format_id(p, size);
	if (named)
		snprintf(f->format_left, sizeof(f->format_left), "%.40s:%.40s",
			 system, name);
	else if (id >= 0)
		snprintf(f->format_left, sizeof(f->format_left),
			 "a %.40s event (ID %ld)", system, id);
	else
		snprintf(f->format_left, sizeof(f->format_left),
			 "a %.40s event", system);
}

/**
 * tdat_formats_note - were event formats left out as damaged?
 * @f: the handle
 * @note: for one sentence saying which
 * @len: its size
 *
 * A format the caller wants (or one whose name cannot be read) that is
 * damaged is left out, as libtracecmd leaves it out: the records of its
 * event are then not read, which the report must say.
 *
 * Return: the number of such formats (the first one named in @note).
 */
unsigned int tdat_formats_note(const struct tdat_file *f, char *note,
			       size_t len)
{
	if (f->formats_left == 1)
		snprintf(note, len,
			 "the event format of %s is damaged: left out, its "
			 "records are not read",
			 f->format_left);
	else if (f->formats_left)
		snprintf(note, len,
			 "%u event formats are damaged, the first %s: left "
			 "out, their records are not read",
			 f->formats_left, f->format_left);
	return f->formats_left;
}

/**
 * tdat_format_ids - the event ids the file has a format for
 * @f: the handle, its formats read
 *
 * Every format text's "ID:" counts, whether the caller wanted the event
 * or not, and whether it parses or not (tdat_formats_note() says those
 * left out): a record whose id is not among them is of an event no one
 * can decode (a format's id damaged, or the event's format not saved).
 *
 * Return: a bit for each id below TDAT_FORMAT_IDS (id / 8, bit id % 8),
 * owned by @f; NULL when no format text was read: the file has none, or
 * the caller asked for none (no_formats: a version 7 file's sections of
 * formats are then not read at all).
 */
const uint8_t *tdat_format_ids(const struct tdat_file *f)
{
	return f->format_ids;
}

/* Note the id of a format text in tdat_format_ids()'s bits. */
static int note_format_id(struct tdat_file *f, long id)
{
	if (!f->format_ids) {
		f->format_ids = calloc(TDAT_FORMAT_IDS / 8, 1);
		if (!f->format_ids)
			return tdat_fail(f, TDAT_BAD, "out of memory");
	}
	if (id >= 0 && id < TDAT_FORMAT_IDS)
		f->format_ids[id / 8] |= (uint8_t)(1u << (id % 8));
	return 0;
}

/**
 * tdat_format_len - how long the records of an event id can be
 * @f: the handle, its formats read
 * @id: the event id
 * @lo: set to the shortest length its format allows
 * @hi: set to the longest, UINT32_MAX when there is no bound
 *
 * Read from the id's format text (tdat_text_len()) when asked, whether
 * the caller wanted the event or not: a record of another length is
 * damaged, or of another event (its id damaged).  An id two texts give,
 * or one whose text says nothing, allows every length (1, UINT32_MAX).
 *
 * Return: 0, or -1 when no format text has @id (@lo and @hi as for
 * every length).
 */
int tdat_format_len(const struct tdat_file *f, int id, uint32_t *lo,
		    uint32_t *hi)
{
	const struct tdat_ftext *t;

	*lo = 1;
	*hi = UINT32_MAX;
	if (!f->format_text || id < 0 || id >= TDAT_FORMAT_IDS)
		return -1;
	t = &f->format_text[id];
	if (t->p)
		tdat_text_len((const char *)t->p, (const char *)t->p + t->size,
			      t->open, lo, hi);
	return t->p || t->twice ? 0 : -1;
}

/**
 * tdat_format_len_of - tdat_format_len() as a callback
 * @f: the handle (a struct tdat_file *), its formats read
 * @id: the event id
 * @lo: as for tdat_format_len()
 * @hi: as for tdat_format_len()
 *
 * For a caller that asks through a function of this shape (the feed's
 * lengths table, kmem_feed_lens()): the same lengths, the result left
 * out (an id without a format allows every length).
 */
void tdat_format_len_of(void *f, int id, uint32_t *lo, uint32_t *hi)
{
	tdat_format_len(f, id, lo, hi);
}

/* Note where the format text [@p, @p + @size) of id @id lies. */
static int note_format_text(struct tdat_file *f, const char *system, long id,
			    const uint8_t *p, uint64_t size)
{
	struct tdat_ftext *t;

	if (id < 0 || id >= TDAT_FORMAT_IDS)
		return 0;
	if (!f->format_text) {
		f->format_text = calloc(TDAT_FORMAT_IDS, sizeof(*t));
		if (!f->format_text)
			return tdat_fail(f, TDAT_BAD, "out of memory");
	}
	t = &f->format_text[id];
	if (t->p || t->twice) { /* a second text of the id */
		t->p = NULL;
		t->twice = true;
		return 0;
	}
	t->p = p;
	t->size = size < UINT32_MAX ? (uint32_t)size : UINT32_MAX;
	t->open = !strcmp(system, "ftrace") ||
		  !strncmp(system, "user_events", 11);
	return 0;
}

/*
 * One event format: parsed, when the caller wants it and it is safe.
 * Return: 0, or TDAT_BAD after saying why (out of memory).
 */
static int event_format(struct tdat_file *f, const char *system,
			const uint8_t *p, uint64_t size,
			const struct wanted_ids *w)
{
	long id = format_id(p, size);
	struct tep_event *ev;
	bool oom = false;
	char name[128];

	if (note_format_id(f, id) || note_format_text(f, system, id, p, size))
		return TDAT_BAD;
	if (f->no_formats)
		return 0;
	if (f->want && format_name(p, size, name, sizeof(name)) &&
	    !f->want(system, name) && !is_wanted_id(w, id))
		return 0;
	if (!f->lazy_print_fmt || f->no_print_fmt) {
		ev = tdat_parse_format(f->tep, p, size, system, f->no_print_fmt,
				       &oom);
	} else {
		/* the fields now, the print format when it is asked for */
		ev = tdat_parse_format(f->tep, p, size, system, true, &oom);
		if (ev && !oom)
			return tdat_later_keep(f, ev, p, size);
	}
	/* a format left out for want of memory is a failure, not damage */
	if (oom)
		return tdat_fail(f, TDAT_BAD, "out of memory");
	if (!ev)
		note_left_out(f, system, p, size);
	return 0;
}

/* Note the ids of @system's formats the caller wants, in @w. */
static void note_wanted(struct tdat_file *f, struct tcur *c, const char *system,
			struct wanted_ids *w)
{
	uint64_t count = tc_num(c, 4), i, size;
	const uint8_t *p;
	char name[128];
	long id;

	for (i = 0; i < count && !c->bad; i++) {
		p = sized(c, 8, &size);
		if (!p || !format_name(p, size, name, sizeof(name)) ||
		    !f->want(system, name))
			continue;
		id = format_id(p, size);
		if (id >= 0 && w->n < (int)(sizeof(w->id) / sizeof(w->id[0])))
			w->id[w->n++] = id;
	}
}

static int formats(struct tdat_file *f, struct tcur *c, const char *system,
		   const char *what, const struct wanted_ids *w)
{
	uint64_t count = tc_num(c, 4), i, size;
	const uint8_t *p;

	if (c->bad || count > (c->len - c->pos) / 8)
		return tdat_fail(f, TDAT_BAD, "%s: count past the end", what);
	for (i = 0; i < count; i++) {
		p = sized(c, 8, &size);
		if (!p)
			return tdat_fail(f, TDAT_BAD, "%s truncated", what);
		if (event_format(f, system, p, size, w))
			return TDAT_BAD;
	}
	return TDAT_OK;
}

/**
 * tdat_ftrace_formats - the formats of the ftrace system's events
 * @f: the file
 * @c: the cursor at their count
 *
 * Return: TDAT_OK, or the failure.
 */
int tdat_ftrace_formats(struct tdat_file *f, struct tcur *c)
{
	struct wanted_ids w = { .n = 0 };
	struct tcur scan = *c;

	if (f->want && !f->no_formats)
		note_wanted(f, &scan, "ftrace", &w);
	return formats(f, c, "ftrace", "ftrace event formats", &w);
}

/**
 * tdat_event_formats - the formats of the other systems' events
 * @f: the file
 * @c: the cursor at the count of systems
 *
 * Return: TDAT_OK, or the failure.
 */
int tdat_event_formats(struct tdat_file *f, struct tcur *c)
{
	uint64_t systems = tc_num(c, 4), i;
	struct wanted_ids w = { .n = 0 };
	struct tcur scan = *c;
	int ret = TDAT_OK, k;

	if (c->bad || systems > c->len - c->pos)
		return tdat_fail(f, TDAT_BAD,
				 "event systems: count past the "
				 "end");
	if (f->want && !f->no_formats) {
		/* the wanted events parsed already (ftrace's), then these */
		for (k = 0; k < tep_get_events_count(f->tep) && w.n < 64; k++)
			w.id[w.n++] = tep_get_event(f->tep, k)->id;
		for (i = 0; i < systems && !scan.bad; i++) {
			const char *system = tc_string(&scan);

			if (!system)
				break;
			note_wanted(f, &scan, system, &w);
		}
	}
	for (i = 0; i < systems && !ret; i++) {
		const char *system = tc_string(c);

		if (!system)
			return tdat_fail(f, TDAT_BAD,
					 "event formats truncated");
		ret = formats(f, c, system, "event formats", &w);
	}
	return ret;
}

/* Note a NUL in the saved command lines [@p, @p + @size) that has
 * something after it other than NULs and blanks: comms lost. */
static void note_cmdlines_nul(struct tdat_file *f, const uint8_t *p,
			      uint64_t size)
{
	const uint8_t *nul = memchr(p, '\0', (size_t)size), *q;

	if (!nul || f->cmdlines_cut)
		return;
	for (q = nul; q < p + size; q++)
		if (*q && *q != ' ' && *q != '\t' && *q != '\n')
			break;
	if (q == p + size)
		return;
	f->cmdlines_cut = true;
	f->cmdlines_nul = (uint64_t)(nul - p);
	f->cmdlines_size = size;
}

/**
 * tdat_cmdlines - the saved pid to command name table
 * @f: the file
 * @c: the cursor at its 8-byte size
 *
 * Registered in the handle now, or with &tdat_hooks.lazy_cmdlines kept
 * for tdat_comms().
 *
 * Return: TDAT_OK, or the failure.
 */
int tdat_cmdlines(struct tdat_file *f, struct tcur *c)
{
	uint64_t size;
	const uint8_t *p = sized(c, 8, &size);
	char *copy;

	if (!p)
		return tdat_fail(f, TDAT_BAD, "saved command lines truncated");
	copy = malloc((size_t)size + 1);
	if (!copy)
		return tdat_fail(f, TDAT_BAD, "out of memory");
	memcpy(copy, p, (size_t)size);
	copy[size] = '\0';
	note_cmdlines_nul(f, p, size);
	if (f->lazy_cmdlines) { /* registered by tdat_comms() */
		tdat_comms(f);	/* an earlier text, as it would have been */
		f->cmdlines = copy;
		return TDAT_OK;
	}
	tdat_parse_cmdlines(f->tep, copy);
	free(copy);
	return TDAT_OK;
}

/**
 * tdat_cmdlines_note - were saved command lines cut by a NUL?
 * @f: the handle
 * @note: for one sentence saying where
 * @len: its size
 *
 * The text ends at a NUL for libtraceevent, and for this reader as for
 * it: the comms after one are not read (tasks named "<...>").  The
 * kernel's saved_cmdlines file, which trace-cmd copies, has none.
 *
 * Return: true when a NUL has comms after it (said in @note).
 */
bool tdat_cmdlines_note(const struct tdat_file *f, char *note, size_t len)
{
	if (!f->cmdlines_cut)
		return false;
	snprintf(note, len,
		 "the saved command lines hold a NUL at byte %llu of %llu: the "
		 "comms after it are not read (damaged)",
		 (unsigned long long)f->cmdlines_nul,
		 (unsigned long long)f->cmdlines_size);
	return true;
}

/**
 * tdat_printk - the trace_printk formats, skipped (no kmem event uses
 *	them)
 * @f: the file
 * @c: the cursor at their 4-byte size
 *
 * Return: TDAT_OK, or the failure.
 */
int tdat_printk(struct tdat_file *f, struct tcur *c)
{
	uint64_t size;

	if (!sized(c, 4, &size))
		return tdat_fail(f, TDAT_BAD, "printk formats truncated");
	return TDAT_OK;
}
