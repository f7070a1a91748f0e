/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * What the files of reader/ share: the bounded byte cursor, the parsed
 * layout of a trace.dat, and the pieces each file provides.
 */
#ifndef TDAT_INTERNAL_H
#define TDAT_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tdat.h"

/* Bounds on what a file may make us allocate. */
#define TDAT_MAX_SECTION (256ULL << 20) /* one metadata section */
#define TDAT_MAX_CHUNK (64U << 20)	/* one decompressed data chunk */
#define TDAT_MAX_HELD (512ULL << 20)	/* chunks held at once, all CPUs */
#define TDAT_MAX_CPUS 8192
#define TDAT_MAX_BUFFERS 1024
#define TDAT_MIN_PAGE 64 /* smaller ring-buffer pages are lies */
#define TDAT_MAX_PAGE (1U << 24)
/* A compressed section inflates at most this much (real ones 1:17, the
 * event formats): more is a decompression bomb. */
#define TDAT_MAX_RATIO 256
#define TDAT_RATIO_SLACK (1U << 20)

/* A window of bytes read with bounds checks; @bad sticks. */
struct tcur {
	const uint8_t *p;
	size_t len;
	size_t pos;
	bool big;
	bool bad;
};

static inline uint64_t tdat_num(const uint8_t *p, int n, bool big)
{
	bool swap = big != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	uint64_t v = 0, v64;
	uint32_t v32;
	int i;

	/* the ring buffer's words and stamps: one load, not a byte loop
	 * (the loop was 5% of trace-kmem stat's instructions) */
	if (n == 4) {
		memcpy(&v32, p, 4);
		return swap ? __builtin_bswap32(v32) : v32;
	}
	if (n == 8) {
		memcpy(&v64, p, 8);
		return swap ? __builtin_bswap64(v64) : v64;
	}
	for (i = 0; i < n; i++)
		v |= (uint64_t)p[big ? n - 1 - i : i] << (8 * i);
	return v;
}

static inline void tc_init(struct tcur *c, const void *p, size_t len, bool big)
{
	c->p = p;
	c->len = len;
	c->pos = 0;
	c->big = big;
	c->bad = false;
}

static inline const uint8_t *tc_take(struct tcur *c, uint64_t n)
{
	const uint8_t *p;

	if (c->bad || n > c->len - c->pos) {
		c->bad = true;
		return NULL;
	}
	p = c->p + c->pos;
	c->pos += (size_t)n;
	return p;
}

static inline uint64_t tc_num(struct tcur *c, int n)
{
	const uint8_t *p = tc_take(c, (uint64_t)n);

	return p ? tdat_num(p, n, c->big) : 0;
}

/*
 * The next chunk header of a CPU's chunk table at @c: its compressed
 * size, its size and its compressed bytes.  One reading of the table
 * for iter.c and for the thread that inflates ahead (prefetch.c), so
 * that both end it at the same chunk.  Return: false when the table
 * ends here, damaged (past its bytes, or a size above TDAT_MAX_CHUNK).
 */
static inline bool tdat_chunk_head(struct tcur *c, uint64_t *zsize,
				   uint64_t *size, const uint8_t **src)
{
	*zsize = tc_num(c, 4);
	*size = tc_num(c, 4);
	*src = tc_take(c, *zsize);
	return !c->bad && *size <= TDAT_MAX_CHUNK;
}

const char *tc_string(struct tcur *c);

enum tdat_compress { TDAT_Z_NONE, TDAT_Z_ZSTD, TDAT_Z_ZLIB };

/* One CPU's data in a buffer. */
struct tdat_cpu {
	int cpu;	 /* its id, and its index in the buffer */
	uint64_t offset; /* in the file */
	uint64_t size;	 /* bytes in the file (compressed: chunks) */
	/* cut short by the end of the file (cut.c): what is left, lost */
	bool cut;
	uint64_t nchunks;     /* compressed: the whole chunks left */
	uint64_t lost_bytes;  /* of its data, past the end of the file */
	uint64_t lost_chunks; /* compressed chunks */
	bool count_cut;	      /* their count too: lost_chunks is 1 */
	uint64_t lost_pages;  /* ring-buffer pages (uncompressed) */
	/* compressed: its chunk table walked once (iter.c) */
	bool walked;
	uint64_t total;	    /* the chunks' uncompressed bytes */
	uint64_t max_chunk; /* the largest chunk, up to TDAT_MAX_CHUNK */
};

struct tdat_buffer {
	char *name;		/* "" for the top buffer */
	uint64_t offset;	/* v7: its section; v6: its options */
	unsigned int page_size; /* ring-buffer page */
	bool compressed;	/* chunked per-CPU data */
	int nr_cpus;		/* max CPU id + 1 */
	struct tdat_cpu *cpus;	/* nr_cpus entries, by id */
	uint64_t bytes;		/* sum of the CPUs' sizes */
	uint64_t data_end;	/* v7: where its data section ends; 0: not
				 * known */
	/* v6: its "flyrecord", CPU table and clock (check_v6_ends()) */
	uint64_t head_start, head_end;
};

struct tdat_kallsyms;

/* A version 7 file cut short: where, and what the cut took (cut.c). */
#define TDAT_CUT 2 /* v7_options(): the end of the file cut the section */
#define TDAT_GONE_MAX 4
struct tdat_cutinfo {
	bool cut;
	uint64_t wanted;  /* where the file's own offsets reach, at least */
	uint64_t options; /* the options section it cut, 0: only the end */
	/* buffer sections left unread: what they were, why (the first few) */
	char gone[TDAT_GONE_MAX][128];
	int nr_gone;
};

/* A part of a v7 file the reader was led to (spans.c). */
struct tdat_span {
	uint64_t start, end;
};

/* An event format's text, its record lengths read when first asked for. */
struct tdat_ftext {
	const uint8_t *p; /* NULL: no text, or two of one id */
	uint32_t size;
	bool open;  /* ftrace's own, or a user event: no longest */
	bool twice; /* two texts give the id */
};

struct tdat_file {
	const uint8_t *map; /* the whole file */
	size_t size;
	size_t map_len; /* mapped, with a zero page after */
	bool owned;	/* map is ours to unmap */
	int fd;		/* the file, for pread(), or -1: in memory */
	int version;
	bool big;
	int long_size;		/* the file header's */
	int kbuf_long;		/* the header page's commit size */
	unsigned int page_size; /* the recording machine's */
	enum tdat_compress compress;
	void *zctx; /* ZSTD_DCtx */
	int cpus;   /* CPU count of the machine */
	/* timestamps as libtracecmd corrects them */
	long long ts_offset;
	unsigned int tsc_mult, tsc_shift;
	/* the recording machine's uname (host name, kernel release): "" */
	char host[65], release[65];
	/* metadata */
	struct tep_handle *tep;
	tdat_want_fn want;
	bool late_kallsyms; /* kallsyms joined by tdat_ready() */
	bool no_kallsyms;   /* tdat_hooks.no_kallsyms */
	bool no_print_fmt;  /* tdat_hooks.no_print_fmt */
	bool no_formats;    /* tdat_hooks.no_formats */
	bool keep_unaligned; /* tdat_hooks.keep_unaligned */
	/* tdat_hooks.lazy_print_fmt and .prepare; the print formats left
	 * for tdat_print_fmt() (fmtlater.c) */
	bool lazy_print_fmt;
	tdat_prepare_fn prepare;
	struct tdat_later *later;
	/* tdat_hooks.lazy_cmdlines: the saved command lines' text, until
	 * tdat_comms() registers them (cmdlines.c) */
	bool lazy_cmdlines;
	char *cmdlines;
	struct tdat_kallsyms *ksyms;
	struct tdat_buffer *buffers; /* [0] is the top buffer */
	int nr_buffers;
	bool prefetch; /* chunks inflated ahead on a thread (prefetch.c) */
	/* bytes of the buffer being iterated read so far (tdat_done()) */
	uint64_t done;
	struct tdat_cutinfo cut;
	/* formats left out as damaged (meta.c, tdat_formats_note()) */
	unsigned int formats_left;
	char format_left[96]; /* the first: "kmem:kmalloc", or its id */
	/* the saved command lines' text ends at a NUL with comms after it
	 * (tdat_cmdlines_note()): where, of how many bytes */
	uint64_t cmdlines_nul, cmdlines_size;
	bool cmdlines_cut;
	/* a bit for each event id below TDAT_FORMAT_IDS that a format text
	 * of the file names (tdat_format_ids()), every format's */
	uint8_t *format_ids;
	/* each of those ids' format text, for tdat_format_len(): where it
	 * lies (in the file's map or @kept), or NULL */
	struct tdat_ftext *format_text;
	/* the inflated sections of formats (v7) those texts lie in */
	uint8_t *kept[2];
	size_t kept_cap[2];
	/* v7: the parts met (spans.c); spans_failed: out of memory, the
	 * file is not checked */
	struct tdat_span *spans;
	int nr_spans, cap_spans;
	bool spans_failed;
	/* set while reading the headers */
	const char *unsupported;
	char *why;
	size_t why_len;
};

/* open.c */
void tdat_plain_text(char *s);
int tdat_fail(struct tdat_file *f, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* spans.c: v7, every byte in a part the reader was led to */
void tdat_span_add(struct tdat_file *f, uint64_t start, uint64_t end);
void tdat_span_section(struct tdat_file *f, uint64_t off, int id);
int tdat_check_spans(struct tdat_file *f);

/* layout.c: the v6 header sequence and the v7 options and sections */
int tdat_read_v6(struct tdat_file *f, struct tcur *c);
int tdat_read_v7(struct tdat_file *f, struct tcur *c);

/* iter.c and scan.c: a buffer read for its damage only */
int tdat_scan_buffer(struct tdat_file *f, int buffer, struct tdat_scan *scan,
		     struct tdat_damage *damage, tdat_count_fn counted,
		     void *priv, uint64_t *records);
void tdat_scan_note(struct tdat_scan *scan, uint64_t from, uint64_t end);

/* cut.c: a version 7 file cut short */
void tdat_cut_at(struct tdat_file *f, uint64_t wanted);
int tdat_cut_orphans(struct tdat_file *f, uint64_t from, uint64_t to);
void tdat_cut_buffers(struct tdat_file *f);

/* inflate.c */
#define TDAT_INFLATE_NOMEM (-2) /* no memory (no zstd context) */
int tdat_inflate_ctx(enum tdat_compress compress, void **zctx,
		     const uint8_t *src, size_t srclen, uint8_t *dst,
		     size_t dstlen, size_t *out);
int tdat_inflate_steps(void **zctx, const uint8_t *src, size_t srclen,
		       uint8_t *dst, size_t dstlen, size_t *out,
		       void (*step)(void *priv, size_t done), void *priv);
void tdat_inflate_ctx_free(void *zctx);
int tdat_inflate(struct tdat_file *f, const uint8_t *src, size_t srclen,
		 uint8_t *dst, size_t dstlen, size_t *out);
int tdat_section_head(struct tdat_file *f, struct tcur *c,
		      const uint8_t **src, uint64_t *zsize, uint64_t *size);
int tdat_section_block(struct tdat_file *f, struct tcur *c, uint8_t **buf,
		       size_t *len, size_t *cap);
void tdat_inflate_release(struct tdat_file *f);

/* meta.c: header page, formats, cmdlines into the tep handle */
int tdat_header_info(struct tdat_file *f, struct tcur *c);
int tdat_ftrace_formats(struct tdat_file *f, struct tcur *c);
int tdat_event_formats(struct tdat_file *f, struct tcur *c);
int tdat_cmdlines(struct tdat_file *f, struct tcur *c);
int tdat_parse_cmdlines(struct tep_handle *tep, const char *text);
int tdat_printk(struct tdat_file *f, struct tcur *c);

/* fmtcheck.c */
struct tep_event *tdat_parse_format(struct tep_handle *tep, const uint8_t *p,
				    uint64_t size, const char *system,
				    bool fields_only, bool *oom);
void tdat_text_len(const char *s, const char *end, bool open, uint32_t *lo,
		   uint32_t *hi);

/* fmtlater.c: print formats parsed when asked for (tdat_print_fmt()) */
struct tdat_later;
int tdat_later_keep(struct tdat_file *f, struct tep_event *ev, const uint8_t *p,
		    uint64_t size);
void tdat_later_free(struct tdat_file *f);

/* open.c: a handle as the file's (byte order, long and page size) */
struct tep_handle *tdat_new_tep(const struct tdat_file *f);

/* kallsyms.c, ksyms_resolve.c (the others: ksyms.h) */
int tdat_kallsyms_set(struct tdat_file *f, struct tcur *c, bool z);
/* pages.c: pages made in one call, pages dropped (and tdat_populate()) */
void tdat_populate_read(const uint8_t *p, size_t len);
void tdat_drop_pages(const uint8_t *p, size_t len);

/* threads.c */
pthread_attr_t *tdat_thread_attr(pthread_attr_t *attr);
void tdat_thread_started(void);

int tdat_kallsyms_wait(struct tdat_file *f);
void tdat_kallsyms_release(struct tdat_file *f);
void tdat_kallsyms_reading(struct tdat_file *f);

/* timestamps, as libtracecmd's timestamp_calc() without guest sync */
static inline uint64_t tdat_ts(const struct tdat_file *f, uint64_t ts)
{
	if (f->tsc_mult) {
		uint64_t lo = (uint32_t)ts, hi = ts >> 32;
		uint64_t r = (lo * f->tsc_mult) >> f->tsc_shift;

		if (hi)
			r += (hi * f->tsc_mult) << (32 - f->tsc_shift);
		ts = r;
	}
	return ts + (uint64_t)f->ts_offset;
}

#endif
