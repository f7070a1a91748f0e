// SPDX-License-Identifier: LGPL-2.1
/*
 * Opening a trace.dat: the mapping, the initial header, and the handle's
 * accessors (see tdat.h).
 *
 * The file is mapped read-only with at least one zero page after its
 * end, so that no read a few bytes past a page at the end of the file
 * can fault; every read is still bounded by the sizes checked here.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

static const uint8_t magic[10] = { 0x17, 0x08, 0x44, 't', 'r',
				   'a',	 'c',  'i',  'n', 'g' };

/**
 * tdat_plain_text - a string from the file made fit for one line of text
 * @s: changed in place: each control character (below 0x20, and 0x7f)
 *	becomes '?'
 *
 * What the reader says goes on one line of a terminal: a name or a
 * version string from the file must not break it (a newline) or drive
 * the terminal (an escape sequence).
 */
void tdat_plain_text(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

/**
 * tdat_fail - say why the file cannot be read here
 * @f: the file being opened
 * @ret: TDAT_BAD or TDAT_UNSUPPORTED
 * @fmt: the reason, printf-style
 *
 * Only the first reason is kept, on one line (tdat_plain_text()).
 *
 * Return: @ret.
 */
int tdat_fail(struct tdat_file *f, int ret, const char *fmt, ...)
{
	va_list ap;

	if (f->why && f->why_len && !f->why[0]) {
		va_start(ap, fmt);
		vsnprintf(f->why, f->why_len, fmt, ap);
		va_end(ap);
		tdat_plain_text(f->why);
	}
	return ret;
}

/**
 * tc_string - a NUL-terminated string inside the cursor's window
 * @c: the cursor
 *
 * Return: the string, or NULL (and @c bad) when no NUL is left.
 */
const char *tc_string(struct tcur *c)
{
	const uint8_t *s, *end;

	if (c->bad)
		return NULL;
	s = c->p + c->pos;
	end = memchr(s, 0, c->len - c->pos);
	if (!end) {
		c->bad = true;
		return NULL;
	}
	c->pos += (size_t)(end - s) + 1;
	return (const char *)s;
}

static int read_header(struct tdat_file *f, struct tcur *c)
{
	const uint8_t *m = tc_take(c, sizeof(magic));
	const char *version;
	const uint8_t *b;

	if (!m || memcmp(m, magic, sizeof(magic)))
		return tdat_fail(f, TDAT_BAD,
				 "not a trace-cmd data file "
				 "(bad magic)");
	version = tc_string(c);
	if (!version || strlen(version) > 8)
		return tdat_fail(f, TDAT_BAD, "truncated file header");
	if (!strcmp(version, "6"))
		f->version = 6;
	else if (!strcmp(version, "7"))
		f->version = 7;
	else if (version[0] >= '1' && version[0] <= '5' && !version[1])
		return tdat_fail(f, TDAT_UNSUPPORTED, "file version %s",
				 version);
	else
		return tdat_fail(f, TDAT_BAD,
				 "file version \"%.8s\" is not "
				 "one trace-cmd writes (6 or 7)",
				 version);
	b = tc_take(c, 2);
	if (!b)
		return tdat_fail(f, TDAT_BAD, "truncated file header");
	if (b[0] > 1)
		return tdat_fail(f, TDAT_BAD,
				 "endianness byte %u is neither "
				 "0 nor 1",
				 b[0]);
	f->big = b[0];
	c->big = f->big;
	f->long_size = b[1];
	if (f->long_size != 4 && f->long_size != 8)
		return tdat_fail(f, TDAT_BAD, "long size %d is neither 4 nor 8",
				 f->long_size);
	f->page_size = (unsigned int)tc_num(c, 4);
	if (c->bad)
		return tdat_fail(f, TDAT_BAD, "truncated file header");
	if (f->page_size < TDAT_MIN_PAGE || f->page_size > TDAT_MAX_PAGE ||
	    (f->page_size & (f->page_size - 1)))
		return tdat_fail(f, TDAT_BAD,
				 "page size %u is not a power of "
				 "two from %d to %u",
				 f->page_size, TDAT_MIN_PAGE, TDAT_MAX_PAGE);
	return TDAT_OK;
}

/**
 * tdat_new_tep - a tep handle set up as the file's
 * @f: the file, its header read
 *
 * The file's byte order, this machine's, the file's long and page sizes.
 *
 * Return: the handle, or NULL when memory ran out.
 */
struct tep_handle *tdat_new_tep(const struct tdat_file *f)
{
	struct tep_handle *tep = tep_alloc();

	if (!tep)
		return NULL;
	tep_set_file_bigendian(tep,
			       f->big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	tep_set_local_bigendian(tep, TEP_BIG_ENDIAN);
#else
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
#endif
	tep_set_long_size(tep, f->long_size);
	tep_set_page_size(tep, (int)f->page_size);
	return tep;
}

/* Where a CPU's data lies (check_overlap()). */
struct extent {
	uint64_t start, end;
	int buffer, cpu;
};

static int extent_cmp(const void *a, const void *b)
{
	const struct extent *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* "the top buffer" or "instance NAME", for a reason. */
static const char *buffer_label(const struct tdat_file *f, int b,
				const char **name)
{
	*name = f->buffers[b].name;
	return **name ? "instance " : "the top buffer";
}

/*
 * Version 6: the buffers follow one another to the end of the file, each
 * its "flyrecord" part (the CPU table, the clock) and its CPUs' data,
 * each page-aligned.  A page or more that is in none of them is no
 * CPU's: a damaged CPU size or count (the gaps inside a buffer are
 * check_gaps()').  @e: room for every CPU's data and every buffer's
 * part, the CPUs' data of no two overlapping (check_overlap()).
 */
static int check_v6_ends(struct tdat_file *f, struct extent *e)
{
	const struct extent *last = NULL;
	const char *name, *label;
	size_t n = 0, k;
	uint64_t gap;
	int b, i;

	for (b = 0; b < f->nr_buffers; b++) {
		const struct tdat_buffer *buf = &f->buffers[b];

		if (buf->head_end > buf->head_start)
			e[n++] = (struct extent){ buf->head_start,
						  buf->head_end, b, -1 };
		for (i = 0; i < buf->nr_cpus; i++)
			if (buf->cpus[i].size)
				e[n++] = (struct extent){
					buf->cpus[i].offset,
					buf->cpus[i].offset + buf->cpus[i].size,
					b, i
				};
	}
	qsort(e, n, sizeof(*e), extent_cmp);
	for (k = 0; k <= n; k++) {
		uint64_t start = k < n ? e[k].start : f->size;

		gap = last && start > last->end ? start - last->end : 0;
		/* data not page-aligned is other damage, said elsewhere */
		if (gap >= f->page_size &&
		    (k == n || start % f->page_size == 0))
			break;
		if (k < n && (!last || e[k].end > last->end))
			last = &e[k];
	}
	if (k > n)
		return TDAT_OK;
	label = buffer_label(f, last->buffer, &name);
	if (last->cpu < 0)
		return tdat_fail(f, TDAT_BAD,
				 "%llu bytes after the CPU table of %s%s are "
				 "no CPU's (a damaged CPU size or count?)",
				 (unsigned long long)gap, label, name);
	return tdat_fail(f, TDAT_BAD,
			 "%llu bytes after the data of CPU %d of %s%s%s are "
			 "no CPU's (a damaged CPU size or count?)",
			 (unsigned long long)gap, last->cpu, label, name,
			 k == n ? ", the last in the file," : "");
}

/*
 * No two CPUs' data, of one buffer or of two, may share a byte: a CPU
 * table that points two CPUs (or an instance described twice) at the
 * same data would have their records counted twice.
 */
static int check_overlap(struct tdat_file *f)
{
	struct extent *e, *last = NULL;
	size_t n = 0, k;
	int b, i, ret = TDAT_OK;

	for (b = 0; b < f->nr_buffers; b++)
		n += (size_t)f->buffers[b].nr_cpus;
	e = malloc((n ? n : 1) * sizeof(*e));
	if (!e)
		return tdat_fail(f, TDAT_BAD, "out of memory");
	n = 0;
	for (b = 0; b < f->nr_buffers; b++)
		for (i = 0; i < f->buffers[b].nr_cpus; i++) {
			const struct tdat_cpu *c = &f->buffers[b].cpus[i];

			if (c->size)
				e[n++] = (struct extent){ c->offset,
							  c->offset + c->size,
							  b, c->cpu };
		}
	qsort(e, n, sizeof(*e), extent_cmp);
	for (k = 0; k < n; k++) {
		if (last && e[k].start < last->end) {
			const char *n1, *n2;
			const char *l1 = buffer_label(f, last->buffer, &n1);
			const char *l2 = buffer_label(f, e[k].buffer, &n2);

			ret = tdat_fail(f, TDAT_BAD,
					"the data of CPU %d of %s%s and of "
					"CPU %d of %s%s overlap (a damaged "
					"CPU table)",
					last->cpu, l1, n1, e[k].cpu, l2, n2);
			break;
		}
		if (!last || e[k].end > last->end)
			last = &e[k];
	}
	free(e);
	return ret;
}

/*
 * One buffer's CPUs lie one after the other, each page-aligned, as
 * trace-cmd writes them (version 6 and 7): a gap of a page or more
 * between two, or (version 7) after the last one in its section, is
 * data no CPU's size covers: a damaged size, which would leave that
 * CPU's last records unread.  @e: room for the buffer's CPUs.
 */
static int check_gaps(struct tdat_file *f, int b, struct extent *e)
{
	const struct tdat_buffer *buf = &f->buffers[b];
	const char *name, *label = buffer_label(f, b, &name);
	size_t n = 0, k;
	int i;

	for (i = 0; i < buf->nr_cpus; i++)
		if (buf->cpus[i].size)
			e[n++] = (struct extent){ buf->cpus[i].offset,
						  buf->cpus[i].offset +
							  buf->cpus[i].size,
						  b, i };
	qsort(e, n, sizeof(*e), extent_cmp);
	for (k = 1; k < n; k++)
		if (e[k].start - e[k - 1].end >= buf->page_size &&
		    e[k].start % buf->page_size == 0) /* else said elsewhere */
			return tdat_fail(
				f, TDAT_BAD,
				"%llu bytes between the data of CPU "
				"%d and of CPU %d of %s%s are no "
				"CPU's (a damaged CPU size?)",
				(unsigned long long)(e[k].start - e[k - 1].end),
				e[k - 1].cpu, e[k].cpu, label, name);
	if (n && buf->data_end > e[n - 1].end &&
	    buf->data_end - e[n - 1].end >= buf->page_size)
		return tdat_fail(
			f, TDAT_BAD,
			"the data of CPU %d, the last of %s%s, end "
			"%llu bytes before the buffer's section "
			"(a damaged CPU size?)",
			e[n - 1].cpu, label, name,
			(unsigned long long)(buf->data_end - e[n - 1].end));
	return TDAT_OK;
}

/* check_gaps() for every buffer of a file not cut short. */
static int check_layout(struct tdat_file *f)
{
	size_t all = 1;
	struct extent *e;
	int b, ret = TDAT_OK;

	if (f->cut.cut)
		return TDAT_OK; /* cut.c sized what is left */
	for (b = 0; b < f->nr_buffers; b++)
		all += (size_t)f->buffers[b].nr_cpus + 1;
	e = malloc(all * sizeof(*e));
	if (!e)
		return tdat_fail(f, TDAT_BAD, "out of memory");
	for (b = 0; b < f->nr_buffers && !ret; b++)
		ret = check_gaps(f, b, e);
	if (!ret && f->version == 6)
		ret = check_v6_ends(f, e);
	free(e);
	return ret;
}

/* Check the top buffer and instances against the file. */
static int check_buffers(struct tdat_file *f)
{
	int b, i;

	if (!f->nr_buffers)
		return tdat_fail(f, TDAT_BAD,
				 "no trace data (no flyrecord "
				 "buffer)");
	for (b = 0; b < f->nr_buffers; b++) {
		struct tdat_buffer *buf = &f->buffers[b];

		buf->bytes = 0;
		for (i = 0; i < buf->nr_cpus; i++) {
			const struct tdat_cpu *cpu = &buf->cpus[i];

			if (!cpu->size)
				continue;
			if (cpu->offset > f->size ||
			    cpu->size > f->size - cpu->offset)
				return tdat_fail(f, TDAT_BAD,
						 "CPU %d data of "
						 "%s%s ends past the end of "
						 "the file (truncated?)",
						 cpu->cpu,
						 *buf->name ? "instance "
							    : "the top buffer",
						 buf->name);
			buf->bytes += cpu->size;
		}
		for (i = 1; i < b; i++)
			if (!strcmp(f->buffers[i].name, buf->name))
				return tdat_fail(f, TDAT_BAD,
						 "instance %s is described "
						 "twice",
						 buf->name);
	}
	return check_overlap(f) ? TDAT_BAD : check_layout(f);
}

/* Is there CPU data left to read (in a cut file)? */
static bool any_data(const struct tdat_file *f)
{
	int b;

	for (b = 0; b < f->nr_buffers; b++)
		if (f->buffers[b].bytes)
			return true;
	return false;
}

/*
 * A failure found after the metadata, with late_kallsyms: the kallsyms
 * section, read before, has the first say, as without.
 */
static int kallsyms_first(struct tdat_file *f, int ret)
{
	char later[TDAT_WHY_LEN];

	snprintf(later, sizeof(later), "%s", f->why ? f->why : "");
	if (f->why && f->why_len)
		f->why[0] = '\0';
	if (tdat_kallsyms_wait(f))
		return TDAT_BAD;
	if (f->why && f->why_len)
		snprintf(f->why, f->why_len, "%s", later);
	return ret;
}

/* What the metadata leaves to check: support, buffers, a cut. */
static int check_open(struct tdat_file *f)
{
	char why[TDAT_WHY_LEN];
	int ret;

	if (f->unsupported)
		return tdat_fail(f, TDAT_UNSUPPORTED, "%s", f->unsupported);
	tdat_cut_buffers(f);
	ret = check_buffers(f);
	/* trace-cmd aligns each CPU's data to its buffer's pages: elsewhere
	 * the offset or the page size is damaged (an instance's page size
	 * doubled reads every other page) */
	if (!ret && !f->keep_unaligned &&
	    tdat_check_aligned(f, why, sizeof(why)))
		ret = tdat_fail(f, TDAT_BAD, "%s", why);
	if (!ret && f->version == 7 && !f->cut.cut)
		ret = tdat_check_spans(f);
	if (ret)
		return ret;
	if (f->cut.cut && !any_data(f)) {
		char note[TDAT_WHY_LEN];

		if (tdat_cut_note(f, note, sizeof(note)) == 2)
			return tdat_fail(f, TDAT_BAD,
					 "%s; nothing left to read", note);
	}
	tep_set_cpus(f->tep, f->cpus);
	return TDAT_OK;
}

static int open_map(struct tdat_file *f, const struct tdat_hooks *hooks)
{
	struct tcur c;
	int ret;

	f->want = hooks ? hooks->want : NULL;
	f->late_kallsyms = hooks && hooks->late_kallsyms;
	f->no_kallsyms = hooks && hooks->no_kallsyms;
	f->no_print_fmt = hooks && hooks->no_print_fmt;
	f->no_formats = hooks && hooks->no_formats;
	f->keep_unaligned = hooks && hooks->keep_unaligned;
	f->lazy_print_fmt = hooks && hooks->lazy_print_fmt;
	f->lazy_cmdlines = hooks && hooks->lazy_cmdlines;
	f->prepare = hooks ? hooks->prepare : NULL;
	tc_init(&c, f->map, f->size, false);
	ret = read_header(f, &c);
	if (ret)
		return ret;
	f->tep = tdat_new_tep(f);
	if (!f->tep)
		return tdat_fail(f, TDAT_BAD, "out of memory");
	if (f->prepare)
		f->prepare(f->tep);
	ret = f->version == 6 ? tdat_read_v6(f, &c) : tdat_read_v7(f, &c);
	if (ret)
		return ret;
	ret = check_open(f);
	return ret && f->late_kallsyms ? kallsyms_first(f, ret) : ret;
}

static int finish_open(struct tdat_file *f, const struct tdat_hooks *hooks,
		       struct tdat_file **out)
{
	int ret = open_map(f, hooks);

	f->why = NULL;
	if (ret) {
		tdat_close(f);
		return ret;
	}
	*out = f;
	return TDAT_OK;
}

/**
 * tdat_open_mem - read a trace.dat held in memory
 * @buf: the file's bytes, kept by the caller until tdat_close()
 * @len: their number
 * @hooks: which event formats to parse, what to do to the tep handle
 *	first (NULL: parse all)
 * @out: the handle
 * @why: TDAT_WHY_LEN bytes for the reason of a failure
 * @why_len: the size of @why
 *
 * Every read stays inside @len.
 *
 * Return: TDAT_OK, TDAT_BAD or TDAT_UNSUPPORTED (then @why says why).
 */
int tdat_open_mem(const void *buf, size_t len, const struct tdat_hooks *hooks,
		  struct tdat_file **out, char *why, size_t why_len)
{
	struct tdat_file *f = calloc(1, sizeof(*f));

	*out = NULL;
	if (why && why_len)
		why[0] = '\0';
	if (!f) {
		snprintf(why, why_len, "out of memory");
		return TDAT_BAD;
	}
	f->why = why;
	f->why_len = why_len;
	f->map = buf;
	f->size = len;
	f->map_len = len;
	f->fd = -1;
	return finish_open(f, hooks, out);
}

/* The file, read-only, with at least one zero page after its end. */
static const uint8_t *map_file(int fd, size_t size, size_t *map_len)
{
	long pg = sysconf(_SC_PAGESIZE);
	size_t len = ((size + (size_t)pg - 1) & ~((size_t)pg - 1)) + (size_t)pg;
	void *area, *m;

	area = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED)
		return NULL;
	m = mmap(area, size, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0);
	if (m == MAP_FAILED) {
		munmap(area, len);
		return NULL;
	}
	*map_len = len;
	return m;
}

/**
 * tdat_open - open a trace.dat file
 * @path: the file
 * @hooks: which event formats to parse, what to do to the tep handle
 *	first (NULL: parse all)
 * @out: the handle
 * @why: TDAT_WHY_LEN bytes for the reason of a failure
 * @why_len: the size of @why
 *
 * Return: TDAT_OK, TDAT_BAD or TDAT_UNSUPPORTED (then @why says why).
 */
int tdat_open(const char *path, const struct tdat_hooks *hooks,
	      struct tdat_file **out, char *why, size_t why_len)
{
	struct tdat_file *f;
	struct stat st;
	int fd;

	*out = NULL;
	if (why && why_len)
		why[0] = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		snprintf(why, why_len, "%s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return TDAT_BAD;
	}
	if (!S_ISREG(st.st_mode) || !st.st_size) {
		close(fd);
		snprintf(why, why_len, "not a regular, non-empty file");
		return TDAT_UNSUPPORTED;
	}
	f = calloc(1, sizeof(*f));
	if (!f) {
		close(fd);
		snprintf(why, why_len, "out of memory");
		return TDAT_BAD;
	}
	f->size = (size_t)st.st_size;
	f->map = map_file(fd, f->size, &f->map_len);
	if (!f->map) {
		snprintf(why, why_len, "cannot map the file: %s",
			 strerror(errno));
		close(fd);
		free(f);
		return TDAT_UNSUPPORTED;
	}
	f->owned = true;
	f->fd = fd; /* uncompressed CPUs are read from it (iter.c) */
	f->why = why;
	f->why_len = why_len;
	return finish_open(f, hooks, out);
}

/**
 * tdat_close - release a handle and its tep handle
 * @f: the handle, or NULL
 */
void tdat_close(struct tdat_file *f)
{
	int i;

	if (!f)
		return;
	tdat_kallsyms_release(f);
	if (f->tep)
		tep_free(f->tep);
	/* after the handle whose print formats name their fields */
	tdat_later_free(f);
	free(f->format_ids);
	free(f->format_text);
	for (i = 0; i < 2; i++)
		tdat_unmap_big(f->kept[i], f->kept_cap[i]);
	free(f->spans);
	free(f->cmdlines);
	for (i = 0; i < f->nr_buffers; i++) {
		free(f->buffers[i].name);
		free(f->buffers[i].cpus);
	}
	free(f->buffers);
	tdat_inflate_release(f);
	if (f->owned)
		munmap((void *)f->map, f->map_len);
	if (f->fd >= 0)
		close(f->fd);
	free(f);
}

/**
 * tdat_tep - the handle's event formats, comms and symbols
 * @f: the handle
 *
 * Return: the tep handle, owned by @f.
 */
struct tep_handle *tdat_tep(const struct tdat_file *f)
{
	return f->tep;
}

/**
 * tdat_nr_buffers - the top buffer and the instances
 * @f: the handle
 *
 * Return: 1 + the number of buffer instances.
 */
int tdat_nr_buffers(const struct tdat_file *f)
{
	return f->nr_buffers;
}

/**
 * tdat_buffer_name - a buffer's instance name
 * @f: the handle
 * @buffer: 0 for the top buffer
 *
 * Return: the name, "" for the top buffer.
 */
const char *tdat_buffer_name(const struct tdat_file *f, int buffer)
{
	return f->buffers[buffer].name;
}

/**
 * tdat_host - the host name of the machine the trace was recorded on
 * @f: the handle
 *
 * Return: the name its UNAME option gives, NULL when it has none.
 */
const char *tdat_host(const struct tdat_file *f)
{
	return f->host[0] ? f->host : NULL;
}

/**
 * tdat_kernel_release - the release of the kernel the trace was
 *	recorded on ("6.1.0-27-amd64")
 * @f: the handle
 *
 * Return: what its UNAME option gives, NULL when it has none.
 */
const char *tdat_kernel_release(const struct tdat_file *f)
{
	return f->release[0] ? f->release : NULL;
}

/**
 * tdat_buffer_bytes - how much ring-buffer data a buffer has
 * @f: the handle
 * @buffer: 0 for the top buffer
 *
 * Return: the bytes of its CPUs' data in the file (compressed or not).
 */
uint64_t tdat_buffer_bytes(const struct tdat_file *f, int buffer)
{
	return f->buffers[buffer].bytes;
}

/**
 * tdat_done - how far tdat_iterate() has read its buffer
 * @f: the handle; another thread may be iterating it
 *
 * Return: bytes of the buffer's CPU data read so far (whole pages, or
 * compressed chunks), out of tdat_buffer_bytes().
 */
uint64_t tdat_done(const struct tdat_file *f)
{
	return __atomic_load_n(&f->done, __ATOMIC_RELAXED);
}

/**
 * tdat_buffer_cpus - how many CPUs a buffer has data slots for
 * @f: the handle
 * @buffer: 0 for the top buffer
 *
 * Return: the highest CPU id + 1.
 */
int tdat_buffer_cpus(const struct tdat_file *f, int buffer)
{
	return f->buffers[buffer].nr_cpus;
}

/**
 * tdat_header_page_size - the page size a trace.dat's header gives
 * @path: the file
 *
 * Read from the header alone, whatever the rest of the file holds (for
 * the front ends over libtracecmd, which reads it but does not pass it
 * on: it is not in trace-cmd.h nor in the tep handle).
 *
 * Return: the page size, or 0 if the header cannot tell.
 */
unsigned int tdat_header_page_size(const char *path)
{
	unsigned char h[64];
	ssize_t n;
	size_t v;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	n = read(fd, h, sizeof(h));
	close(fd);
	if (n < (ssize_t)sizeof(magic) + 8 || memcmp(h, magic, sizeof(magic)))
		return 0;
	/* magic, the version string, endianness, long size, page size */
	v = sizeof(magic) + strnlen((const char *)h + sizeof(magic),
				    (size_t)n - sizeof(magic)) + 1;
	if (v + 6 > (size_t)n)
		return 0;
	if (h[v]) /* big-endian */
		return (unsigned int)h[v + 2] << 24 | h[v + 3] << 16 |
		       h[v + 4] << 8 | h[v + 5];
	return (unsigned int)h[v + 5] << 24 | h[v + 4] << 16 |
	       h[v + 3] << 8 | h[v + 2];
}
