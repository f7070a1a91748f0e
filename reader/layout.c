// SPDX-License-Identifier: LGPL-2.1
/*
 * The layout of a trace.dat after its initial header: the options both
 * versions carry, and version 7's chain of options sections and the
 * sections they point to (trace-cmd.dat.v7(5)); version 6's fixed
 * sequence of parts is in layout_v6.c (trace-cmd.dat.v6(5)).
 *
 * Options that change what libtracecmd reports are applied as it
 * applies them (DATE, OFFSET, TSC2NSEC, CPUCOUNT); the guest time shift
 * and latency data are left to libtracecmd (f->unsupported).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"

#define SEC_FL_COMPRESS 1
#define MAX_OPTION_SECTIONS 256

/* Sections found through options (v7), by option id. */
struct sections {
	uint64_t off[OPT_CMDLINES + 1];
	bool have[OPT_CMDLINES + 1];
	int buffers; /* BUFFER and BUFFER_TEXT options */
};

/**
 * tdat_init_buffers - the top buffer, always [0], before anything else is read
 * @f: the file
 *
 * Return: TDAT_OK, or the failure.
 */
int tdat_init_buffers(struct tdat_file *f)
{
	f->buffers = calloc(1, sizeof(*f->buffers));
	if (!f->buffers)
		return tdat_fail(f, TDAT_BAD, "out of memory");
	f->nr_buffers = 1;
	f->buffers[0].name = strdup("");
	if (!f->buffers[0].name)
		return tdat_fail(f, TDAT_BAD, "out of memory");
	return TDAT_OK;
}

/**
 * tdat_add_buffer - the top buffer (described again: the last description
 * wins), or a new instance
 * @f: the file
 * @name: the instance's name, "" for the top buffer
 *
 * Return: the buffer, cleared but for its name, or NULL when there are
 * too many or out of memory.
 */
struct tdat_buffer *tdat_add_buffer(struct tdat_file *f, const char *name)
{
	struct tdat_buffer *b;

	if (!*name) {
		b = &f->buffers[0];
		free(b->cpus);
	} else {
		if (f->nr_buffers >= TDAT_MAX_BUFFERS)
			return NULL;
		b = realloc(f->buffers, (f->nr_buffers + 1) * sizeof(*b));
		if (!b)
			return NULL;
		f->buffers = b;
		b += f->nr_buffers++;
		b->name = strdup(name);
		if (!b->name) {
			f->nr_buffers--;
			return NULL;
		}
		/* said in labels and reasons: one line */
		tdat_plain_text(b->name);
	}
	name = b->name;
	memset(b, 0, sizeof(*b));
	b->name = (char *)name;
	return b;
}

/* The CPU table of a v7 BUFFER option, indexed by CPU id. */
static int buffer_cpus(struct tdat_file *f, struct tdat_buffer *b,
		       struct tcur *c)
{
	uint64_t n = tc_num(c, 4), i;
	int max = -1;
	struct tdat_cpu *tab;
	size_t start = c->pos;

	if (c->bad || n > TDAT_MAX_CPUS || n * 20 > c->len - c->pos)
		return tdat_fail(f, TDAT_BAD,
				 "BUFFER option: %llu CPUs do "
				 "not fit in the option",
				 (unsigned long long)n);
	/* trace-cmd lists exactly the CPUs with data: a whole entry more
	 * is a CPU that a damaged count leaves unread */
	if (c->len - c->pos - n * 20 >= 20)
		return tdat_fail(f, TDAT_BAD,
				 "BUFFER option: %llu bytes after the last "
				 "of its %llu CPU%s (a damaged CPU count?)",
				 (unsigned long long)(c->len - c->pos - n * 20),
				 (unsigned long long)n, n == 1 ? "" : "s");
	for (i = 0; i < n; i++) {
		uint64_t id = tc_num(c, 4);

		if (id >= TDAT_MAX_CPUS)
			return tdat_fail(f, TDAT_BAD,
					 "BUFFER option: CPU id "
					 "%llu",
					 (unsigned long long)id);
		if ((int)id > max)
			max = (int)id;
		tc_take(c, 16);
	}
	b->nr_cpus = max + 1;
	if (!b->nr_cpus)
		return TDAT_OK;
	tab = calloc((size_t)b->nr_cpus, sizeof(*tab));
	if (!tab)
		return tdat_fail(f, TDAT_BAD, "out of memory");
	b->cpus = tab;
	for (i = 0; i < (uint64_t)b->nr_cpus; i++)
		tab[i].cpu = (int)i;
	c->pos = start;
	for (i = 0; i < n; i++) {
		int id = (int)tc_num(c, 4);
		uint64_t off = tc_num(c, 8), size = tc_num(c, 8);

		if (tab[id].size)
			return tdat_fail(f, TDAT_BAD,
					 "BUFFER option: CPU %d "
					 "given twice",
					 id);
		/* trace-cmd lists only the CPUs with data (since version 7
		 * has this option): a size of 0 is damage, and the CPU's
		 * records would be left unread */
		if (!size)
			return tdat_fail(f, TDAT_BAD,
					 "BUFFER option: CPU %d has a size of "
					 "0 (trace-cmd lists only CPUs with "
					 "data: a damaged CPU size?)",
					 id);
		tab[id].offset = off;
		tab[id].size = size;
	}
	return TDAT_OK;
}

static int section_header(struct tdat_file *f, uint64_t off, int id,
			  struct tcur *c, bool *compressed)
{
	uint64_t sid, flags;

	if (off > f->size)
		return tdat_fail(f, TDAT_BAD,
				 "section %d at offset %llu is "
				 "past the end of the file",
				 id, (unsigned long long)off);
	tc_init(c, f->map + off, f->size - off, f->big);
	sid = tc_num(c, 2);
	flags = tc_num(c, 2);
	tc_take(c, 4 + 8); /* description, size */
	if (c->bad)
		return tdat_fail(f, TDAT_BAD, "section %d header truncated",
				 id);
	if ((int)sid != id)
		return tdat_fail(f, TDAT_BAD,
				 "section at offset %llu has id "
				 "%llu, expected %d",
				 (unsigned long long)off,
				 (unsigned long long)sid, id);
	/* trace-cmd.dat(5) defines one flag; another bit is damage (the
	 * data would be read as what it is not) */
	if (flags & ~(uint64_t)SEC_FL_COMPRESS)
		return tdat_fail(f, TDAT_BAD,
				 "section %d at offset %llu has unknown "
				 "flags 0x%llx",
				 id, (unsigned long long)off,
				 (unsigned long long)flags);
	*compressed = flags & SEC_FL_COMPRESS;
	if (*compressed && f->compress == TDAT_Z_NONE)
		return tdat_fail(f, TDAT_BAD,
				 "section %d is compressed in a "
				 "file without compression",
				 id);
	return TDAT_OK;
}

static int v7_buffer(struct tdat_file *f, struct tcur *c)
{
	uint64_t off = tc_num(c, 8);
	const char *name = tc_string(c);
	struct tdat_buffer *b;
	struct tcur sc;
	uint64_t sec;
	bool z;
	int ret;

	tc_string(c); /* clock */
	if (c->bad)
		return tdat_fail(f, TDAT_BAD, "BUFFER option truncated");
	b = tdat_add_buffer(f, name);
	if (!b)
		return tdat_fail(f, TDAT_BAD,
				 "too many buffers, or out of "
				 "memory");
	b->offset = off;
	tdat_span_section(f, off, OPT_BUFFER);
	b->page_size = (unsigned int)tc_num(c, 4);
	/* libtracecmd reads the top buffer in pages of the file header's
	 * size, an instance in its own */
	if (c->bad || b->page_size < TDAT_MIN_PAGE ||
	    b->page_size > TDAT_MAX_PAGE || (b->page_size & (b->page_size - 1)))
		return tdat_fail(f, TDAT_BAD,
				 "BUFFER option: ring-buffer "
				 "page size %u",
				 b->page_size);
	if (!*name)
		b->page_size = f->page_size;
	ret = buffer_cpus(f, b, c);
	if (ret || !b->nr_cpus)
		return ret;
	ret = section_header(f, off, OPT_BUFFER, &sc, &z);
	if (ret)
		return ret;
	b->compressed = z;
	/* its data end where the section does (check_gaps(), open.c):
	 * trace-cmd sizes it after the last CPU's data */
	sec = tdat_num(f->map + off + 8, 8, f->big);
	if (sec <= f->size - off - 16)
		b->data_end = off + 16 + sec;
	return TDAT_OK;
}

/* Word @n (from 0) of @s, up to @len bytes, into @to (@cap bytes): ""
 * when it is not there or is not printable ASCII. */
static void uname_word(const char *s, size_t len, int n, char *to, size_t cap)
{
	size_t i = 0, w;

	to[0] = '\0';
	while (n-- > 0) {
		while (i < len && s[i] != ' ')
			i++;
		while (i < len && s[i] == ' ')
			i++;
	}
	for (w = 0; i + w < len && s[i + w] != ' ' && s[i + w]; w++)
		if (s[i + w] < 0x21 || s[i + w] > 0x7e || w + 1 >= cap)
			return;
	memcpy(to, s + i, w);
	to[w] = '\0';
}

/*
 * UNAME: "sysname nodename release machine" as trace-cmd writes it
 * (struct utsname's fields, a space between): the host name and the
 * kernel release, kept when they are plain words.
 */
static void uname_option(struct tdat_file *f, const uint8_t *p, uint64_t size)
{
	size_t len = (size_t)(size > 1024 ? 1024 : size);

	uname_word((const char *)p, len, 1, f->host, sizeof(f->host));
	uname_word((const char *)p, len, 2, f->release, sizeof(f->release));
}

static void ts_option(struct tdat_file *f, const uint8_t *p, uint64_t size,
		      int scale)
{
	char num[64];
	size_t n = size < sizeof(num) - 1 ? (size_t)size : sizeof(num) - 1;

	memcpy(num, p, n);
	num[n] = '\0';
	f->ts_offset += strtoll(num, NULL, 0) * scale;
}

/* The name trace-cmd.dat(5) gives a section option. */
static const char *section_name(int id)
{
	static const char *const names[] = {
		[OPT_HEADER_INFO] = "HEADER_INFO",
		[OPT_FTRACE_EVENTS] = "FTRACE_EVENTS",
		[OPT_EVENT_FORMATS] = "EVENT_FORMATS",
		[OPT_KALLSYMS] = "KALLSYMS",
		[OPT_PRINTK] = "PRINTK",
		[OPT_CMDLINES] = "CMDLINES",
	};

	return id >= OPT_HEADER_INFO && id <= OPT_CMDLINES ? names[id]
							   : "section";
}

static int too_short(struct tdat_file *f, const char *option, uint64_t size)
{
	return tdat_fail(f, TDAT_BAD, "%s option of %llu bytes", option,
			 (unsigned long long)size);
}

/**
 * tdat_layout_option - one option; *done set at DONE with the next options offset
 * @f: the file
 * @id: the option's id
 * @p: its bytes
 * @size: their number
 * @s: where the sections it points to are noted (v7), or NULL
 * @next: set to the next options section at DONE (v7), or NULL
 *
 * Return: TDAT_OK, or the failure.
 */
int tdat_layout_option(struct tdat_file *f, int id, const uint8_t *p, uint64_t size,
	   struct sections *s, uint64_t *next)
{
	struct tcur c;

	tc_init(&c, p, (size_t)size, f->big);
	switch (id) {
	case OPT_DATE:
		ts_option(f, p, size, 1000);
		break;
	case OPT_UNAME:
		uname_option(f, p, size);
		break;
	case OPT_OFFSET:
		ts_option(f, p, size, 1);
		break;
	case OPT_CPUCOUNT:
		if (size < 4)
			return too_short(f, "CPUCOUNT", size);
		f->cpus = (int)tc_num(&c, 4);
		if (f->cpus < 0 || f->cpus > TDAT_MAX_CPUS)
			return tdat_fail(f, TDAT_BAD, "CPU count %d", f->cpus);
		break;
	case OPT_TIME_SHIFT:
		if (size >= 16)
			f->unsupported = "guest time-shift option";
		break;
	case OPT_TSC2NSEC:
		if (size < 16)
			break;
		f->tsc_mult = (unsigned int)tc_num(&c, 4);
		f->tsc_shift = (unsigned int)tc_num(&c, 4);
		if (f->tsc_shift > 32)
			f->unsupported = "TSC2NSEC shift over 32";
		break;
	case OPT_BUFFER:
		if (s)
			s->buffers++;
		return f->version == 7 ? v7_buffer(f, &c) : TDAT_OK;
	case OPT_BUFFER_TEXT:
		if (s)
			s->buffers++;
		if (f->version == 7 && size >= 8)
			tdat_span_section(f, tc_num(&c, 8), OPT_BUFFER_TEXT);
		f->unsupported = "latency trace data";
		break;
	case OPT_HEADER_INFO:
	case OPT_FTRACE_EVENTS:
	case OPT_EVENT_FORMATS:
	case OPT_KALLSYMS:
	case OPT_PRINTK:
	case OPT_CMDLINES:
		if (!s)
			break;
		/* a section's offset, always 8 bytes: other sizes are
		 * damage (one of 16 swallows the next option) */
		if (size != 8)
			return tdat_fail(f, TDAT_BAD,
					 "%s option of %llu bytes (a section "
					 "offset: 8)",
					 section_name(id),
					 (unsigned long long)size);
		s->off[id] = tc_num(&c, 8);
		s->have[id] = true;
		tdat_span_section(f, s->off[id], id);
		break;
	case OPT_DONE:
		if (size < 8)
			return too_short(f, "DONE", size);
		if (next)
			*next = tc_num(&c, 8);
		break;
	default:
		/* a section a newer trace-cmd writes (spans.c) */
		if (s && size == 8)
			tdat_span_section(f, tc_num(&c, 8), id);
		break;
	}
	return TDAT_OK;
}

/*
 * The options of one v7 options section; *next: the following one, *end:
 * where this one ends.  A section that the end of the file cuts is
 * TDAT_CUT (tdat_cut_at()), with the whole options of an uncompressed
 * one applied.
 */
static int v7_options(struct tdat_file *f, uint64_t off, struct sections *s,
		      uint64_t *next, uint64_t *end)
{
	uint8_t *zbuf = NULL;
	size_t zcap = 0;
	struct tcur c;
	bool z, done = false, cut = false;
	uint64_t secsize;
	int ret;

	*next = 0;
	if (off >= f->size || f->size - off < 16) {
		tdat_cut_at(f, off > UINT64_MAX - 16 ? UINT64_MAX : off + 16);
		return TDAT_CUT;
	}
	ret = section_header(f, off, OPT_DONE, &c, &z);
	if (ret)
		return ret;
	secsize = tdat_num(f->map + off + 8, 8, f->big);
	tdat_span_section(f, off, OPT_DONE);
	/* saturated: a size past the end of the file wraps to no offset */
	*end = secsize > UINT64_MAX - off - 16 ? UINT64_MAX
					       : off + 16 + secsize;
	if (secsize > f->size - off - 16) {
		tdat_cut_at(f, *end);
		if (z)
			return TDAT_CUT;
		cut = true;
	} else if (z) {
		size_t len;

		ret = tdat_section_block(f, &c, &zbuf, &len, &zcap);
		if (ret)
			return ret;
		tc_init(&c, zbuf, len, f->big);
	}
	while (!done && !ret) {
		int id = (int)tc_num(&c, 2);
		uint64_t size = tc_num(&c, 4);
		const uint8_t *p = tc_take(&c, size);

		if (c.bad && cut) {
			ret = TDAT_CUT;
			break;
		}
		if (c.bad) {
			ret = tdat_fail(f, TDAT_BAD,
					"options section at "
					"offset %llu truncated",
					(unsigned long long)off);
			break;
		}
		ret = tdat_layout_option(f, id, p, size, s, next);
		done = id == OPT_DONE;
	}
	tdat_unmap_big(zbuf, zcap);
	return ret;
}

/*
 * After the last options section: a strings section that the end of the
 * file cuts (nothing is lost but names), or a cut section header.
 */
static void v7_tail(struct tdat_file *f, uint64_t end)
{
	const uint8_t *h;
	uint64_t size;

	if (end >= f->size)
		return;
	h = f->map + end;
	if (f->size - end < 16) {
		tdat_cut_at(f, end + 16);
		return;
	}
	size = tdat_num(h + 8, 8, f->big);
	tdat_span_section(f, end, OPT_STRINGS);
	if (tdat_num(h, 2, f->big) == OPT_STRINGS && size > f->size - end - 16)
		tdat_cut_at(f, size > UINT64_MAX - end - 16 ? UINT64_MAX
							    : end + 16 + size);
}

typedef int (*part_fn)(struct tdat_file *f, struct tcur *c);

/*
 * trace-cmd's uncompressed kallsyms section at @off is its size word and
 * the text, to the byte (@c after them).  More is damage: a compressed
 * section whose flag was lost reads its sizes as the size word and the
 * compressed bytes as the text, which holds no symbol.
 */
static int kallsyms_fills(struct tdat_file *f, uint64_t off,
			  const struct tcur *c)
{
	uint64_t sec = tdat_num(f->map + off + 8, 8, f->big);

	if (sec > f->size - off - 16 || c->pos - 16 == sec)
		return TDAT_OK; /* the file is cut short: said elsewhere */
	return tdat_fail(f, TDAT_BAD,
			 "the kallsyms section holds %llu bytes, its size "
			 "word and text %llu (a damaged size or section "
			 "flag?)",
			 (unsigned long long)sec,
			 (unsigned long long)(c->pos - 16));
}

/* A v7 section pointed to by an option, parsed by @fn. */
static int v7_section(struct tdat_file *f, const struct sections *s, int id,
		      part_fn fn)
{
	uint8_t *zbuf = NULL;
	size_t zcap = 0;
	struct tcur c;
	size_t len;
	bool z;
	int ret;

	if (!s->have[id])
		return TDAT_OK;
	ret = section_header(f, s->off[id], id, &c, &z);
	if (ret)
		return ret;
	if (id == OPT_KALLSYMS) { /* kept where it is, even compressed */
		ret = tdat_kallsyms_set(f, &c, z);
		return ret || z ? ret : kallsyms_fills(f, s->off[id], &c);
	}
	if (f->no_formats &&
	    (id == OPT_FTRACE_EVENTS || id == OPT_EVENT_FORMATS))
		return TDAT_OK;
	if (z) {
		ret = tdat_section_block(f, &c, &zbuf, &len, &zcap);
		if (ret)
			return ret;
		tc_init(&c, zbuf, len, f->big);
	}
	ret = fn(f, &c);
	if (zbuf && (id == OPT_FTRACE_EVENTS || id == OPT_EVENT_FORMATS)) {
		/* the format texts lie there (tdat_format_len()) */
		int k = id == OPT_EVENT_FORMATS;

		f->kept[k] = zbuf;
		f->kept_cap[k] = zcap;
		return ret;
	}
	tdat_unmap_big(zbuf, zcap);
	return ret;
}

static int compression(struct tdat_file *f, struct tcur *c)
{
	const char *name = tc_string(c);
	const char *version = tc_string(c);

	if (c->bad)
		return tdat_fail(f, TDAT_BAD, "truncated compression header");
	(void)version;
	if (!strcmp(name, "none"))
		f->compress = TDAT_Z_NONE;
	else if (!strcmp(name, "zstd"))
		f->compress = TDAT_Z_ZSTD;
	else if (!strcmp(name, "zlib"))
		f->compress = TDAT_Z_ZLIB;
	else
		return tdat_fail(f, TDAT_UNSUPPORTED, "compression \"%.32s\"",
				 name);
	return TDAT_OK;
}

/*
 * Run @fn on the sections of @s it reads, its failure's reason kept in
 * @why (of @why_len bytes) instead of the file's: the sections are read
 * out of order, and the reason said is that of the first in the file's
 * order to fail.
 */
static int aside(struct tdat_file *f, const struct sections *s, int id,
		 part_fn fn, char *why, size_t why_len)
{
	char *keep = f->why;
	size_t keep_len = f->why_len;
	int ret;

	why[0] = '\0';
	f->why = why;
	f->why_len = why_len;
	ret = v7_section(f, s, id, fn);
	f->why = keep;
	f->why_len = keep_len;
	return ret;
}

/* A reason kept aside, said now (the file's says none yet). */
static int say_aside(struct tdat_file *f, int ret, const char *why)
{
	return tdat_fail(f, ret, "%s", why);
}

/*
 * The metadata sections.  A compressed kallsyms is decompressed on a
 * thread of its own (tdat_kallsyms_set()) while the others are read, and
 * joined before the file is said to be open, or with late_kallsyms by
 * tdat_ready(); the reason of a failure is the one the sections read in
 * the file's order would give.
 */
static int v7_meta(struct tdat_file *f, const struct sections *s)
{
	char kwhy[TDAT_WHY_LEN], lwhy[TDAT_WHY_LEN];
	int kret, ret, wret;

	kret = aside(f, s, OPT_KALLSYMS, NULL, kwhy, sizeof(kwhy));
	ret = v7_section(f, s, OPT_HEADER_INFO, tdat_header_info);
	if (!ret)
		ret = v7_section(f, s, OPT_FTRACE_EVENTS, tdat_ftrace_formats);
	if (!ret)
		ret = v7_section(f, s, OPT_EVENT_FORMATS, tdat_event_formats);
	if (ret) {
		tdat_kallsyms_wait(f); /* its reason comes later */
		return ret;
	}
	if (kret)
		return say_aside(f, kret, kwhy);
	ret = aside(f, s, OPT_PRINTK, tdat_printk, lwhy, sizeof(lwhy));
	if (!ret)
		ret = aside(f, s, OPT_CMDLINES, tdat_cmdlines, lwhy,
			    sizeof(lwhy));
	if (!ret && f->late_kallsyms)
		return TDAT_OK; /* tdat_ready() joins it */
	wret = tdat_kallsyms_wait(f);
	if (wret)
		return wret;
	return ret ? say_aside(f, ret, lwhy) : TDAT_OK;
}

/**
 * tdat_read_v7 - the options chain and the sections of a version 7 file
 * @f: the file, its initial header read
 * @c: the cursor after the page size
 *
 * Return: TDAT_OK, or the failure.
 */
int tdat_read_v7(struct tdat_file *f, struct tcur *c)
{
	struct sections s;
	uint64_t off, next, end, prev = 0;
	int ret, n = 0;

	memset(&s, 0, sizeof(s));
	ret = tdat_init_buffers(f);
	if (!ret)
		ret = compression(f, c);
	if (ret)
		return ret;
	off = tc_num(c, 8);
	if (c->bad)
		return tdat_fail(f, TDAT_BAD, "truncated file header");
	tdat_span_add(f, 0, c->pos);
	while (off) {
		if (++n > MAX_OPTION_SECTIONS)
			return tdat_fail(f, TDAT_BAD,
					 "more than %d options "
					 "sections (a loop?)",
					 MAX_OPTION_SECTIONS);
		ret = v7_options(f, off, &s, &next, &end);
		if (ret == TDAT_CUT) {
			/* the data sections before the lost options */
			f->cut.options = off;
			ret = prev ? tdat_cut_orphans(f, prev, off) : TDAT_OK;
			break;
		}
		if (ret)
			return ret;
		prev = end;
		off = next;
	}
	if (ret)
		return ret;
	if (!off && prev)
		v7_tail(f, prev);
	if (!s.have[OPT_HEADER_INFO] && f->cut.cut)
		return tdat_fail(f, TDAT_BAD,
				 "options section at offset %llu is past the "
				 "end of the file (cut at %llu bytes?)",
				 (unsigned long long)off,
				 (unsigned long long)f->size);
	if (!s.have[OPT_HEADER_INFO])
		return tdat_fail(f, TDAT_BAD, "no header page section");
	/* trace-cmd writes it with the header page, even with no event */
	if (!s.have[OPT_EVENT_FORMATS])
		return tdat_fail(f, TDAT_BAD,
				 "no event formats section: no record can "
				 "be read");
	/* and a BUFFER option after each buffer's data, even with no data
	 * (BUFFER_TEXT for latency data); without one, the options chain
	 * ends early (its DONE option damaged) and every record is lost */
	if (!s.buffers && !f->cut.cut)
		return tdat_fail(f, TDAT_BAD,
				 "no BUFFER option: the options end before "
				 "any trace data is described, no record can "
				 "be read");
	return v7_meta(f, &s);
}
