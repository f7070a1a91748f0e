// SPDX-License-Identifier: LGPL-2.1
/*
 * libFuzzer target: records as libtracecmd hands them over, damaged,
 * through the code that copies them out of libtracecmd's buffers:
 * trace-kmem's (cli/tracecmd_push.c tk_tc_push(), what
 * --reader=libtracecmd's one_record() calls, then cli/pipeline.c's
 * tk_pipe_push() and the counting thread's blocks, block.h, or on one
 * thread the record itself, tk_session_count()) and the
 * KernelShark plugin's (kernelshark/copies.c kmem_ks_copy(), what its
 * event handler calls, and kmem_ks_copy_read()).
 *
 * The model is libtracecmd's: a CPU's data is read a page of the file's
 * page size P at a time, into a buffer that holds one or more pages (a
 * mapping of the file, a decompressed chunk, or a page read into
 * memory); a record's header is somewhere in its page, its data 4 or 8
 * bytes after it (8: a length word), and kbuffer gives it
 * rec->record_size = the header's size + rec->size whatever the length
 * word said, and rec->offset = the page's file offset + the header's
 * place in the page.  The page offsets are multiples of P (trace-cmd
 * writes CPU data page-aligned; the native reader's structural check
 * refuses uncompressed CPU data that is not, before libtracecmd sees
 * it).
 *
 * Input:
 *
 *	byte 0		bits 0-2: P = 512 << v; bit 3: the file's page size
 *			is P + 8 (not a power of two: libtracecmd still
 *			reads pages of it, kmem_page_bound() must fall back
 *			to the sub-buffer size or refuse everything)
 *	byte 1		bits 0-3: the sub-buffer size (header_page's data
 *			field's end), 0: none, else 256 << (v - 1)
 *	byte 2		bits 0-1: pages in the buffer - 1; bits 2-4: CPUs - 1;
 *			bit 5: one thread (the pipeline's path on one CPU:
 *			each record counted where it lies, not copied)
 *	bytes 3-10	the file offset of the buffer's first page (rounded
 *			down to a multiple of P)
 *	then records of 8 bytes:
 *	  bytes 0-1	where the header is in its page (mod P), and
 *	  byte 2	which page of the buffer (mod pages)
 *	  byte 3	bit 0: an 8-byte header; bit 1: rec->data NULL;
 *			bits 2-4: the CPU; bit 5: rec->record_size a
 *			further byte 4 larger (data ends before the record
 *			does); bits 6-7: how rec->size is made of bytes 4-7
 *			(0: a u16, 1: an s32, 2: P - where - header + s8,
 *			the edge of the page, 3: a u8)
 *	  bytes 4-7	the size
 *
 * The buffer is malloc()ed exactly, so AddressSanitizer sees any read
 * past it; besides, every record either path keeps must lie within its
 * own page of the buffer (checked here, abort() if not), and every byte
 * of every copy is read back.  Whatever the page bound, what each path
 * refuses must be what the other refuses.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "block.h"
#include "event/extent.h"
#include "fuzz_copy.h"
#include "tracecmd_push.h"

/* --- what the counting side of the pipeline calls ------------------ */

static uint64_t counted, counted_bytes;

/* every byte read (AddressSanitizer checks memcpy()'s whole range) */
void fz_read(const void *data, int size)
{
	static unsigned char scratch[1 << 17];

	if (size < 0 || (size_t)size > sizeof(scratch))
		abort(); /* no kept record is larger than a page */
	memcpy(scratch, data, (size_t)size);
}

/* the one-thread path's: the record where libtracecmd keeps it */
void tk_session_count(struct tk_session *s, struct tk_progress *progress,
		      const struct tep_record *rec)
{
	(void)progress;
	s->records++;
	fz_read(rec->data, rec->size);
	counted++;
	counted_bytes += (uint64_t)rec->size;
}

void tk_session_block(struct tk_session *s, struct tk_progress *progress,
		      const char *buf, size_t used)
{
	struct tk_block_reader b = { buf, buf + used };
	struct tep_record rec;

	memset(&rec, 0, sizeof(rec));
	while (tk_block_next(&b, &rec))
		tk_session_count(s, progress, &rec);
}

/* --- the input ------------------------------------------------------ */

struct in {
	const uint8_t *d;
	size_t n, pos;
};

static uint64_t take(struct in *in, int bytes)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < bytes; i++, in->pos++)
		v |= (uint64_t)(in->pos < in->n ? in->d[in->pos] : 0)
		     << (8 * i);
	return v;
}

struct run {
	struct in in;
	unsigned char *buf; /* the buffer, exactly sized */
	size_t len;
	unsigned int P; /* libtracecmd's page */
	unsigned int pages;
	int cpus;
	unsigned long long base;
	uint64_t pushed, pushed_bytes, refused;
#ifdef FUZZ_KSHARK
	struct fz_ks *ks;
#endif
};

/* A record as libtracecmd's kbuffer makes it, from 8 input bytes. */
static bool make_record(struct run *r, struct tep_record *rec, int *cpu,
			size_t *page_end)
{
	unsigned int where, pg, hdr;
	uint8_t fl;
	uint32_t raw;
	long long size;

	if (r->in.pos + 4 > r->in.n)
		return false;
	where = (unsigned int)take(&r->in, 2) % r->P;
	pg = (unsigned int)take(&r->in, 1) % r->pages;
	fl = (uint8_t)take(&r->in, 1);
	raw = (uint32_t)take(&r->in, 4);
	hdr = fl & 1 ? 8 : 4;
	if (where + hdr > r->P)
		where = r->P - hdr; /* kbuffer read the header in the page */
	switch (fl >> 6) {
	case 0:
		size = raw & 0xffff;
		break;
	case 1:
		size = (int32_t)raw;
		break;
	case 2:
		size = (long long)(r->P - where - hdr) + (int8_t)raw;
		break;
	default:
		size = raw & 0xff;
		break;
	}
	memset(rec, 0, sizeof(*rec));
	*cpu = (fl >> 2 & 7) % r->cpus;
	rec->cpu = *cpu;
	rec->ts = r->in.pos;
	rec->offset = r->base + (unsigned long long)pg * r->P + where;
	rec->size = (int)size;
	/* kbuffer: record_size = next - curr, in int */
	rec->record_size = (int)((unsigned int)size + hdr);
	if (fl & 0x20)
		rec->record_size =
			(int)((unsigned int)rec->record_size + (raw >> 24));
	rec->data = fl & 2 ? NULL : r->buf + (size_t)pg * r->P + where + hdr;
	*page_end = (size_t)(pg + 1) * r->P;
	return true;
}

/* Kept data must lie in its own page of the buffer. */
static void within(const struct run *r, const struct tep_record *rec,
		   size_t page_end, const char *who)
{
	size_t at = (size_t)((unsigned char *)rec->data - r->buf);

	if (rec->size < 0 || at + (size_t)rec->size > page_end ||
	    page_end > r->len) {
		fprintf(stderr,
			"%s kept a record past its page: data at %zu, size %d, "
			"record_size %d, offset %#llx, page ends at %zu, P "
			"%u\n",
			who, at, rec->size, rec->record_size, rec->offset,
			page_end, r->P);
		abort();
	}
}

struct src {
	struct tk_tc_push tp;
	struct run *r;
};

/* tracecmd_read.c's produce(), records made of the input */
static int produce(struct tk_pipe *p, void *arg)
{
	struct src *src = arg;
	struct tk_tc_push *tp = &src->tp;
	struct run *r = src->r;
	struct tep_record rec;
	size_t page_end;
	uint64_t skipped;
	int cpu;

	tp->pipe = p;
	while (make_record(r, &rec, &cpu, &page_end)) {
		skipped = tp->skipped;
		if (tk_tc_push(tp, &rec, cpu) < 0)
			return -1;
		if (tp->skipped != skipped) {
			r->refused++;
		} else {
			within(r, &rec, page_end, "tk_tc_push");
			r->pushed++;
			r->pushed_bytes += (uint64_t)rec.size;
		}
#ifdef FUZZ_KSHARK
		/* kernelshark/plugin.c's keep(), in fuzz_copy_ks.c */
		if (fz_ks_copy(r->ks, &rec, cpu, r->in.pos) ==
		    (tp->skipped != skipped)) {
			fprintf(stderr, "the paths disagree on a record\n");
			abort();
		}
		if (rec.data && rec.size >= 0 && tp->skipped == skipped)
			within(r, &rec, page_end, "kmem_ks_copy");
#endif
	}
	return 0;
}

static void header_page(struct tep_handle *tep, unsigned int sub)
{
	char h[512];

	snprintf(h, sizeof(h),
		 "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		 "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
		 "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
		 "\tfield: char data;\toffset:16;\tsize:%u;\tsigned:1;\n",
		 sub - 16);
	tep_parse_header_page(tep, h, strlen(h), 8);
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	struct run r = { .in = { .d = d, .n = n } };
	struct tk_session s;
	struct src src = { .r = &r };
	struct tep_handle *tep;
	unsigned int file_page, sub;
	size_t k;
	uint8_t b0, b1, b2;

	if (n < 11)
		return 0;
	b0 = (uint8_t)take(&r.in, 1);
	b1 = (uint8_t)take(&r.in, 1);
	b2 = (uint8_t)take(&r.in, 1);
	r.P = 512u << (b0 & 7);
	file_page = b0 & 8 ? r.P + 8 : r.P;
	r.P = file_page; /* libtracecmd reads pages of the file's size */
	sub = b1 & 15 ? 256u << ((b1 & 15) - 1) : 0;
	r.pages = (b2 & 3) + 1u;
	r.cpus = (b2 >> 2 & 7) + 1;
	r.base = take(&r.in, 8);
	r.base -= r.base % r.P;
	r.len = (size_t)r.pages * r.P;
	r.buf = malloc(r.len);
	if (!r.buf)
		abort();
	for (k = 0; k < r.len; k += n) /* the input, again and again */
		memcpy(r.buf + k, d, r.len - k < n ? r.len - k : n);

	tep = tep_alloc();
	if (!tep)
		abort();
	tep_set_page_size(tep, (int)file_page);
	/*
	 * no tep_set_cpus(): tk_tc_push_init() then leaves the pageout
	 * (pageout.h) out; no buffer here is a file mapping, and its
	 * reading of /proc/self/maps once a run made the target ten times
	 * slower
	 */
	if (sub)
		header_page(tep, sub);
	memset(&s, 0, sizeof(s));
	s.tep = tep;
	if (tk_tc_push_init(&src.tp, tep))
		abort();
#ifdef FUZZ_KSHARK
	/* as kernelshark/plugin.c sets them */
	r.ks = fz_ks_new(r.cpus, src.tp.max_size, kmem_page_bound(tep));
#endif
	setenv("TRACE_KMEM_THREADS", b2 & 0x20 ? "1" : "2", 1);
	if (tk_pipeline_run(produce, &src, &s, NULL))
		abort();
	if (counted != r.pushed || counted_bytes != r.pushed_bytes) {
		fprintf(stderr,
			"counted %llu records (%llu bytes), pushed %llu "
			"(%llu)\n",
			(unsigned long long)counted,
			(unsigned long long)counted_bytes,
			(unsigned long long)r.pushed,
			(unsigned long long)r.pushed_bytes);
		abort();
	}
	counted = counted_bytes = 0;
#ifdef FUZZ_KSHARK
	fz_ks_read_free(r.ks);
#endif
	tk_tc_push_release(&src.tp);
	tep_free(tep);
	free(r.buf);
	return 0;
}
