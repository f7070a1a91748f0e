/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A reader of trace-cmd's trace.dat files, versions 6 and 7, written
 * from trace-cmd.dat(5): the file mapped once, only the event formats
 * the caller wants parsed into a libtraceevent handle, kallsyms kept
 * raw and indexed on the first symbol lookup, the ring-buffer pages of
 * every CPU read in place (or decompressed chunk by chunk) and merged
 * in libtracecmd's order.  Every size, offset and count read from the
 * file is checked against the bytes it claims to lie in.
 *
 * A version 7 file cut short is read up to the cut (tdat_cut_note()
 * says what was lost).
 *
 * What this reader does not handle (latency files, guest time shift,
 * the pre-2.6.31 ring buffer, an unknown compression) it says so
 * (TDAT_UNSUPPORTED and a reason), so that the caller can hand the file
 * to libtracecmd instead.
 */
#ifndef TDAT_H
#define TDAT_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <event-parse.h>

struct tdat_file;

/* tdat_open() results */
#define TDAT_OK 0
#define TDAT_BAD (-1)	   /* damaged or not a trace.dat: say why */
#define TDAT_UNSUPPORTED 1 /* valid, but for libtracecmd: say why */

#define TDAT_WHY_LEN 512

/* Which event formats to parse into the tep handle. */
typedef bool (*tdat_want_fn)(const char *system, const char *name);

/* What the caller does to the tep handle before formats are parsed
 * (print functions its formats call, for example). */
typedef void (*tdat_prepare_fn)(struct tep_handle *tep);

struct tdat_hooks {
	tdat_want_fn want;		/* NULL: every format */
	tdat_prepare_fn prepare;	/* or NULL */
	/* tdat_open() returns before a compressed kallsyms is decompressed:
	 * records can be read meanwhile; the caller calls tdat_ready()
	 * before its first output */
	bool late_kallsyms;
	/* no symbol will be looked up (a scan for damage): a compressed
	 * kallsyms section is not decompressed, nor checked */
	bool no_kallsyms;
	/* only the formats' fields are read (a scan for damage): their
	 * print formats are not parsed (libtraceevent takes most of its
	 * time over the GFP flags of the kmem events') */
	bool no_print_fmt;
	/* no event format is read (a scan whose caller tells the records'
	 * events apart with a handle of its own): the formats sections are
	 * skipped, neither decompressed nor parsed; the handle (tdat_tep())
	 * holds no event */
	bool no_formats;
	/* each wanted format's print format is parsed when first asked
	 * for (tdat_print_fmt()), its fields at once: a report probes one
	 * or two of them */
	bool lazy_print_fmt;
	/* the saved command lines are registered in the handle when first
	 * asked for (tdat_comms()): a report names few tasks, if any */
	bool lazy_cmdlines;
	/* CPU data that does not start on a page of its buffer is opened
	 * (else refused): the caller checks it with tdat_check_aligned() */
	bool keep_unaligned;
};

/* One record, handed over in time order; return non-zero to stop. */
typedef int (*tdat_record_fn)(void *priv, const struct tep_record *rec);

/* Ring-buffer pages that could not be trusted, per buffer read. */
struct tdat_damage {
	uint64_t pages;	       /* pages (or their rest) skipped */
	uint64_t chunks;       /* compressed chunks that did not inflate */
	int first_cpu;	       /* where the first one was */
	uint64_t first_offset; /* its offset, as records count them */
	/* lost where the file was cut short (tdat_cut_note()) */
	uint64_t cut_pages;
	uint64_t cut_chunks;
	/* pages whose first record is older than the record before it on
	 * their CPU (a damaged timestamp: read, in file order), and where
	 * the first one is */
	uint64_t time_back;
	int back_cpu;
	uint64_t back_offset;
};

int tdat_open(const char *path, const struct tdat_hooks *hooks,
	      struct tdat_file **out, char *why, size_t why_len);
int tdat_open_mem(const void *buf, size_t len, const struct tdat_hooks *hooks,
		  struct tdat_file **out, char *why, size_t why_len);
void tdat_close(struct tdat_file *f);
/* CPUs the process may run on (its affinity mask) */
int tdat_usable_cpus(void);
void tdat_populate(void *p, size_t len);
void *tdat_map_big(size_t len);
void tdat_unmap_big(void *p, size_t len);
int tdat_ready(struct tdat_file *f, char *why, size_t why_len);
unsigned int tdat_header_page_size(const char *path);

struct tep_handle *tdat_tep(const struct tdat_file *f);
int tdat_print_fmt(struct tdat_file *f, struct tep_event *ev);
size_t tdat_print_fmt_bound(const struct tdat_file *f,
			    const struct tep_event *ev);
int tdat_comms(struct tdat_file *f);
int tdat_nr_buffers(const struct tdat_file *f);
const char *tdat_buffer_name(const struct tdat_file *f, int buffer);
uint64_t tdat_buffer_bytes(const struct tdat_file *f, int buffer);
const char *tdat_host(const struct tdat_file *f);
const char *tdat_kernel_release(const struct tdat_file *f);
uint64_t tdat_done(const struct tdat_file *f);
int tdat_buffer_cpus(const struct tdat_file *f, int buffer);

void tdat_index_symbols(struct tdat_file *f);
int tdat_want_symbols(struct tdat_file *f, const uint64_t *addrs, size_t n);
const char *tdat_symbol_module(struct tdat_file *f, uint64_t addr);
uint64_t tdat_kallsyms_bytes(const struct tdat_file *f);
bool tdat_kallsyms_failed(const struct tdat_file *f);
int tdat_cut_note(const struct tdat_file *f, char *note, size_t len);
unsigned int tdat_formats_note(const struct tdat_file *f, char *note,
			       size_t len);
bool tdat_cmdlines_note(const struct tdat_file *f, char *note, size_t len);
/* Event ids below this have a bit in tdat_format_ids(). */
#define TDAT_FORMAT_IDS 65536
const uint8_t *tdat_format_ids(const struct tdat_file *f);
int tdat_format_len(const struct tdat_file *f, int id, uint32_t *lo,
		    uint32_t *hi);
void tdat_format_len_of(void *f, int id, uint32_t *lo, uint32_t *hi);
int tdat_check_chunks(const struct tdat_file *f, char *why, size_t why_len);
int tdat_check_aligned(const struct tdat_file *f, char *why, size_t why_len);

/*
 * Where a file is damaged, for libtracecmd's readers: it skips damaged
 * compressed chunks without a word and hands over the records of a
 * damaged page; this says what the native reader skips (scan.c).
 */
struct tdat_scan;

/* Which records a scan counts (its record lives until it returns). */
typedef bool (*tdat_count_fn)(void *priv, const struct tep_record *rec);

struct tdat_scan *tdat_scan(struct tdat_file *f, tdat_count_fn counted,
			    void *priv);
const struct tdat_damage *tdat_scan_damage(const struct tdat_scan *sc,
					   const char *buffer);
uint64_t tdat_scan_records(const struct tdat_scan *sc, const char *buffer,
			   int cpu);
int tdat_scan_cpus(const struct tdat_scan *sc);
bool tdat_scan_skips(const struct tdat_scan *sc, uint64_t offset);
void tdat_scan_free(struct tdat_scan *sc);
const uint8_t *tdat_scan_format_ids(const struct tdat_scan *sc);

bool tdat_buffer_compressed(const struct tdat_file *f, int buffer);
/* tdat_iterate(): the thread tdat_set_prefetch() asked for was not made */
#define TDAT_NO_PREFETCH (-2)
void tdat_set_prefetch(struct tdat_file *f, bool on);
int tdat_iterate(struct tdat_file *f, int buffer, const cpu_set_t *cpus,
		 size_t cpus_size, tdat_record_fn fn, void *priv,
		 struct tdat_damage *damage, char *why, size_t why_len);

#endif
