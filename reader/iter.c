// SPDX-License-Identifier: LGPL-2.1
/*
 * The records of one buffer in libtracecmd's order (see tdat.h): each
 * CPU's pages in file order, the CPUs merged by timestamp with ties to
 * the lowest CPU, as tracecmd_iterate_events() does.  A binary heap of
 * the CPUs' next records keeps that O(log CPUs) a record.
 *
 * Record offsets are libtracecmd's too: the file offset of the page for
 * uncompressed data; for compressed data, offsets in a virtual file that
 * starts one page in and lays each CPU's uncompressed data after the
 * previous one's, page-aligned.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"
#include "prefetch.h"
#include "ringbuf.h"

struct stream {
	const struct tdat_cpu *cpu;
	/* the bytes of the pages: the file, or the current chunk */
	const uint8_t *bytes;
	uint64_t len;  /* of @bytes */
	uint64_t pos;  /* of the current page in @bytes */
	uint64_t base; /* record offset of @bytes[0] */
	uint64_t end;  /* record offset past the CPU's data */
	/* compressed: the chunks still to read */
	struct tcur chunks;
	uint64_t nchunks;
	uint64_t index;	   /* of the next chunk in the table */
	uint64_t span;	   /* the current chunk's room in the virtual file */
	bool no_chunks;	   /* a count of no chunk, then the CPU's bytes */
	bool tail_done;	   /* after_chunks() looked past the last chunk */
	bool have_ts;	   /* @rec holds the CPU's last record so far */
	uint8_t *zbuf;	   /* the chunk, or the window read (@left) */
	size_t zcap;
	/* uncompressed, read a window at a time: the CPU's bytes past it */
	uint64_t left;
	bool reads;
	struct rb_page pg;
	bool page_open;
	uintptr_t dropped;     /* mapped file bytes below this are dropped */
	struct tep_record rec; /* the next record, valid when @have */
	bool have;
};

struct iter {
	struct tdat_file *f;
	const struct tdat_buffer *b;
	struct tdat_damage *dmg;
	struct tdat_scan *scan; /* or NULL: where the damage lies */
	struct stream *s;
	int n;
	struct stream **heap;
	int nheap;
	uint64_t held; /* bytes of the chunk buffers of all its CPUs */
	struct tdat_prefetch *pf; /* or NULL: chunks inflated here */
	bool oom;		  /* a chunk could not be inflated: no memory */
};

/*
 * Records from @offset up to @end (record offsets) are skipped as
 * damaged: the rest of a page, a chunk, or the rest of a CPU.
 */
static void damaged(struct iter *it, struct stream *s, uint64_t offset,
		    uint64_t end, bool chunk)
{
	if (!it->dmg->pages && !it->dmg->chunks) {
		it->dmg->first_cpu = s->cpu->cpu;
		it->dmg->first_offset = offset;
	}
	if (chunk)
		it->dmg->chunks++;
	else
		it->dmg->pages++;
	if (it->scan)
		tdat_scan_note(it->scan, offset, end);
}

/*
 * The trace is read in place from the mapping, compressed or not; a CPU
 * never goes back, so what lies a megabyte behind it is dropped from
 * memory (MADV_DONTNEED on a private read-only file mapping: a page
 * touched again is read back from the file), and memory stays flat
 * however long the trace.
 */
#define DROP_STEP (1UL << 20)

/* Drop the mapped file bytes from *@dropped to a megabyte before @at. */
static void drop_to(const struct tdat_file *f, uintptr_t *dropped,
		    const uint8_t *at)
{
	uintptr_t here = (uintptr_t)at, pg;

	/* called for every page: sysconf() only when there is work */
	if (!f->owned || (*dropped && here - *dropped < 2 * DROP_STEP))
		return;
	pg = (uintptr_t)sysconf(_SC_PAGESIZE);
	if (!*dropped)
		*dropped = here & ~(pg - 1);
	if (here - *dropped < 2 * DROP_STEP)
		return;
	here = (here - DROP_STEP) & ~(pg - 1);
	madvise((void *)*dropped, here - *dropped, MADV_DONTNEED);
	*dropped = here;
}

/* The whole of [@p, @p + @len) dropped (walked once, read again later). */
static void drop_all(const struct tdat_file *f, const uint8_t *p, size_t len)
{
	if (f->owned)
		tdat_drop_pages(p, len);
}

/*
 * A compressed CPU's chunk table is mapped AHEAD_STEP at a time as it is
 * walked, in one call rather than a fault each 64 KB (the kernel's
 * fault-around), at about 10 us each on the virtual machines measured.
 * Memory: at most AHEAD_STEP more than the pages read so far.
 */
#define AHEAD_STEP (256UL << 10)

/* The mapped file bytes from @at to AHEAD_STEP past it mapped, when
 * fewer than half of that are. */
static void ahead_to(const struct tdat_file *f, uintptr_t *ahead,
		     const uint8_t *at, const uint8_t *end)
{
	uintptr_t here = (uintptr_t)at, stop = (uintptr_t)end, to;

	if (!f->owned || *ahead >= stop || here + AHEAD_STEP / 2 < *ahead)
		return;
	if (*ahead < here)
		*ahead = here;
	to = here + AHEAD_STEP < stop ? here + AHEAD_STEP : stop;
	tdat_populate_read((const uint8_t *)*ahead, to - *ahead);
	*ahead = to;
}

static void drop_behind(struct iter *it, struct stream *s)
{
	if (it->b->compressed)
		drop_to(it->f, &s->dropped, s->chunks.p + s->chunks.pos);
	else if (!s->reads)
		drop_to(it->f, &s->dropped, s->bytes + s->pos);
}

/*
 * An uncompressed CPU is read from the file READ_WINDOW at a time into
 * one buffer (pread()), not where the file is mapped: the first touch of
 * each newly mapped page costs the virtual machines measured about 3 us
 * even when the page was mapped ahead, and reading a 58 MB file through
 * its mapping took 45 to 57 ms against 11 to 18 ms read into 256 KB.
 */
#define READ_WINDOW (256U << 10)

/*
 * The next window of @s into s->zbuf (made at the first); false at the
 * CPU's end, or when the file ends early (then the rest of the CPU is
 * damaged: the file shrank since it was opened).  With no memory for
 * the window, the rest is read where the file is mapped.
 */
static bool next_window(struct iter *it, struct stream *s)
{
	size_t n = s->left < READ_WINDOW ? (size_t)s->left : READ_WINDOW;
	ssize_t got;

	if (!s->left)
		return false;
	s->base += s->len;
	s->pos = 0;
	s->len = 0;
	if (!s->zbuf) {
		s->zbuf = malloc(READ_WINDOW);
		if (!s->zbuf) {
			s->reads = false;
			s->bytes = it->f->map + s->base;
			s->len = s->left;
			s->left = 0;
			return true;
		}
		tdat_populate(s->zbuf, READ_WINDOW);
	}
	do
		got = pread(it->f->fd, s->zbuf, n, (off_t)s->base);
	while (got < 0 && errno == EINTR);
	if (got <= 0) {
		damaged(it, s, s->base, s->end, false);
		s->left = 0;
		return false;
	}
	s->bytes = s->zbuf;
	s->len = (uint64_t)got;
	s->left -= (uint64_t)got;
	return true;
}

/*
 * Chunk @index of @s: inflated ahead (prefetch.c), or here into s->zbuf.
 * Either way the chunk buffers held count as on one thread: one a CPU,
 * of its largest chunk so far.
 *
 * Return: 0 with @buf and @out; -1 when it does not inflate; 1 when
 * memory ran out.
 */
static int inflate_chunk(struct iter *it, struct stream *s, uint64_t index,
			 const uint8_t *src, uint64_t zsize, uint64_t size,
			 uint8_t **buf, size_t *out)
{
	int ret;

	if (size > s->zcap) {
		free(s->zbuf);
		s->zbuf = NULL;
		it->held += size - s->zcap;
		s->zcap = (size_t)size;
	}
	if (it->pf) {
		ret = tdat_prefetch_take(it->pf, (int)(s - it->s), index, buf,
					 out);
		if (ret <= 0)
			return ret;
	}
	if (!s->zbuf) {
		s->zbuf = malloc(s->zcap);
		if (!s->zbuf)
			return 1;
		tdat_populate(s->zbuf, s->zcap);
	}
	*buf = s->zbuf;
	ret = tdat_inflate(it->f, src, (size_t)zsize, s->zbuf, (size_t)size,
			   out);
	if (ret == TDAT_INFLATE_NOMEM)
		return 1;
	return ret ? -1 : 0;
}

/*
 * After the last chunk its count gives, the CPU's data ends: chunks past
 * it (a count too low) are skipped as damage, each one counted while
 * their headers tile the rest, which libtracecmd does not read either.
 * trace-cmd 3.3's convert counts the count word in the CPU's size (3.1's
 * record does not), so chunks_len() may reach 4 bytes past the last one.
 */
static void after_chunks(struct iter *it, struct stream *s)
{
	uint64_t zsize, size, at = s->base + s->span;
	const uint8_t *src;
	bool any = false;

	if (s->tail_done || !it->b->compressed || s->cpu->cut || it->oom ||
	    s->chunks.bad)
		return;
	s->tail_done = true;
	while (s->chunks.len - s->chunks.pos > 4) {
		if (!tdat_chunk_head(&s->chunks, &zsize, &size, &src)) {
			if (!any)
				damaged(it, s, at, at, true);
			break;
		}
		damaged(it, s, at, at, true);
		any = true;
	}
}

/*
 * The next chunk of a compressed CPU into s->bytes; false at the end.
 * A chunk's size is what the file claims: the buffers of all CPUs
 * together stay under TDAT_MAX_HELD, and only the pages that the data
 * reaches are read (the rest of the chunk is empty pages).
 */
static bool next_chunk(struct iter *it, struct stream *s)
{
	uint64_t zsize, size, end, index;
	unsigned int ps = it->b->page_size;
	const uint8_t *src;
	uint8_t *buf;
	size_t out;
	bool ok;
	int ret;

	while (s->nchunks) {
		s->nchunks--;
		index = s->index++;
		ok = tdat_chunk_head(&s->chunks, &zsize, &size, &src);
		__atomic_fetch_add(&it->f->done, zsize + 8, __ATOMIC_RELAXED);
		s->base += s->span;
		s->span = 0;
		s->len = 0;
		s->pos = 0;
		if (!ok || (size > s->zcap &&
			    it->held - s->zcap + size > TDAT_MAX_HELD)) {
			damaged(it, s, s->base, s->end, true);
			s->nchunks = 0;
			s->tail_done = true; /* the rest is said with it */
			return false;
		}
		if (!size) {
			/* no page; compressed bytes that make none: damage */
			if (zsize)
				damaged(it, s, s->base, s->base, true);
			continue;
		}
		if (size % ps) {
			/* trace-cmd's chunks hold whole pages: the size or
			 * the buffer's page size is damaged */
			damaged(it, s, s->base, s->base + size, true);
			s->span = size;
			continue;
		}
		ret = inflate_chunk(it, s, index, src, zsize, size, &buf, &out);
		if (ret > 0) { /* no memory: not damage, the reading ends */
			it->oom = true;
			s->nchunks = 0;
			return false;
		}
		if (ret < 0) {
			damaged(it, s, s->base, s->base + size, true);
			s->span = size; /* its pages still take their room */
			continue;
		}
		drop_behind(it, s);
		/* the size is rounded up to whole pages: the rest is empty */
		end = out + (ps - out % ps) % ps;
		if (end > size)
			end = size;
		memset(buf + out, 0, (size_t)(end - out));
		/* pages the header claims and the data does not hold */
		if (end < size)
			damaged(it, s, s->base + end, s->base + size, true);
		s->bytes = buf;
		s->len = end;
		s->span = size;
		return true;
	}
	return false;
}

/* Open the page at s->pos, or the next one that loads; false at the end. */
static bool open_page(struct iter *it, struct stream *s)
{
	unsigned int ps = it->b->page_size;

	for (;;) {
		uint64_t left;

		while (s->pos >= s->len) {
			if (s->reads) {
				if (!next_window(it, s))
					return false;
				continue;
			}
			/* damage: a count of no chunk before the bytes */
			if (s->no_chunks) {
				s->no_chunks = false;
				s->tail_done = true;
				damaged(it, s, s->base, s->end, true);
			}
			if (!s->nchunks || !next_chunk(it, s)) {
				after_chunks(it, s);
				return false;
			}
		}
		left = s->len - s->pos;
		if (!rb_page_load(&s->pg, s->bytes + s->pos,
				  left < ps ? (uint32_t)left : ps,
				  it->f->kbuf_long, it->f->big))
			return true;
		damaged(it, s, s->base + s->pos, s->base + s->pos + ps, false);
		s->pos += ps;
	}
}

/*
 * How far a page may start before the record ahead of it on its CPU: on
 * kernels before 5.10 an interrupt's event at the end of a page could
 * carry a later time than the first event of the next (a few
 * microseconds).  1 ms in the trace clock's units (ns, or TSC cycles).
 */
#define TIME_BACK_SLACK 1000000ULL

/* A page of @s starts before the CPU's last record: said, not skipped. */
static void time_back(struct iter *it, struct stream *s)
{
	if (!it->dmg->time_back) {
		it->dmg->back_cpu = s->cpu->cpu;
		it->dmg->back_offset = s->base + s->pos;
	}
	it->dmg->time_back++;
}

/*
 * The first record of the pages after the open one, whose
 * rb_page_next() gave @ret (0: its end, -1: damaged), or of the first
 * page when none is open.  Out of line: once a page.
 */
static __attribute__((noinline)) bool
next_page(struct iter *it, struct stream *s, int ret, struct rb_record *r)
{
	for (;;) {
		if (s->page_open) {
			if (ret < 0)
				damaged(it, s,
					s->base + s->pos + s->pg.hdr +
						s->pg.next,
					s->base + s->pos + it->b->page_size,
					false);
			s->page_open = false;
			s->pos += it->b->page_size;
			if (!it->b->compressed)
				__atomic_fetch_add(&it->f->done,
						   it->b->page_size,
						   __ATOMIC_RELAXED);
			drop_behind(it, s);
		}
		if (!open_page(it, s))
			return false;
		s->page_open = true;
		ret = rb_page_next(&s->pg, r);
		if (ret > 0) {
			/* a CPU's time never goes back, but in damage */
			if (s->have_ts &&
			    tdat_ts(it->f, r->ts) + TIME_BACK_SLACK < s->rec.ts)
				time_back(it, s);
			s->have_ts = true;
			return true;
		}
	}
}

/*
 * Whether the pages of @f are read by the fast instance of advance_as():
 * little-endian on a little-endian host (every page's rb_page_load()
 * then sets neither big nor swap), with no TSC conversion of the
 * timestamps.
 */
static bool fast_file(const struct tdat_file *f)
{
	return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && !f->big &&
	       !f->tsc_mult;
}

/*
 * The stream's next record into @s->rec; false at its end.  Inline: the
 * per-record path (the page's records too, rb_page_next_as()).  @fast is
 * a constant, true only for fast_file(it->f): the byte order and clock
 * tests are left out of that instance.
 */
static inline __attribute__((always_inline)) bool
advance_as(struct iter *it, struct stream *s, bool fast)
{
	struct rb_record r;
	int ret = 0;

	if ((!s->page_open || (ret = rb_page_next_as(&s->pg, &r, fast)) <= 0) &&
	    !next_page(it, s, ret, &r))
		return false;
	s->rec.ts =
		fast ? r.ts + (uint64_t)it->f->ts_offset : tdat_ts(it->f, r.ts);
	s->rec.offset = s->base + s->pos + r.offset;
	s->rec.size = (int)r.size;
	s->rec.data = (void *)r.data;
	s->rec.missed_events = r.missed;
	s->rec.record_size = (int)r.size;
	return true;
}

static inline __attribute__((always_inline)) bool advance(struct iter *it,
							  struct stream *s)
{
	return advance_as(it, s, false);
}

static bool before(const struct stream *a, const struct stream *b)
{
	return a->rec.ts < b->rec.ts ||
	       (a->rec.ts == b->rec.ts && a->cpu->cpu < b->cpu->cpu);
}

static void sift_down(struct iter *it, int i)
{
	struct stream **h = it->heap;

	for (;;) {
		int l = 2 * i + 1, m = i;
		struct stream *t;

		if (l < it->nheap && before(h[l], h[m]))
			m = l;
		if (l + 1 < it->nheap && before(h[l + 1], h[m]))
			m = l + 1;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

/*
 * The bytes of a compressed CPU's chunk table: trace-cmd records the size
 * of the chunks, without the 4-byte count before them.
 */
static size_t chunks_len(const struct tdat_file *f, const struct tdat_cpu *c)
{
	uint64_t room = f->size - c->offset;

	return (size_t)(c->size + 4 < room ? c->size + 4 : room);
}

/*
 * The uncompressed size of @n chunks from @t: their headers, read one
 * after the other; the pages the walk touches are dropped as it goes
 * (one header every few kilobytes faults in nearly the whole file).
 */
static uint64_t walk_chunks(const struct tdat_file *f, struct tcur *t,
			    uint64_t n, uint64_t *max)
{
	uintptr_t dropped = 0, ahead = 0;
	uint64_t total = 0;

	*max = 0;
	for (; n && !t->bad; n--) {
		uint64_t z = tc_num(t, 4), size = tc_num(t, 4);

		total += size;
		if (size <= TDAT_MAX_CHUNK && size > *max)
			*max = size;
		tc_take(t, z);
		drop_to(f, &dropped, t->p + t->pos);
		ahead_to(f, &ahead, t->p + t->pos, t->p + t->len);
	}
	drop_all(f, t->p, t->pos);
	return total;
}

/* Where the buffer's compressed CPUs start in libtracecmd's virtual file. */
static uint64_t virtual_start(const struct tdat_file *f, int buffer)
{
	uint64_t next = f->page_size;
	int i;

	if (!buffer)
		return next;
	/* an instance continues after the top buffer */
	for (i = 0; i < f->buffers[0].nr_cpus; i++) {
		const struct tdat_cpu *c = &f->buffers[0].cpus[i];
		struct tcur t;
		uint64_t n, total = 0, max;

		if (!f->buffers[0].compressed || !c->size)
			continue;
		tc_init(&t, f->map + c->offset, chunks_len(f, c), f->big);
		n = tc_num(&t, 4);
		if (c->cut)
			n = c->nchunks;
		total = walk_chunks(f, &t, n, &max);
		next = (next + total + f->page_size - 1) &
		       ~(uint64_t)(f->page_size - 1);
	}
	return next;
}

/* Set up CPU @i's stream; *vnext: the virtual offset for compressed data. */
static void init_stream(struct iter *it, struct stream *s, struct tdat_cpu *cpu,
			uint64_t *vnext)
{
	const struct tdat_file *f = it->f;
	uint64_t total;
	struct tcur t;

	memset(s, 0, sizeof(*s));
	s->cpu = cpu;
	s->rec.cpu = cpu->cpu;
	if (!it->b->compressed) {
		s->base = cpu->offset;
		s->end = cpu->offset + cpu->size;
		/* read from the file (next_window()), else where it lies */
		if (f->fd >= 0) {
			s->left = cpu->size;
			s->reads = true;
			return;
		}
		s->bytes = f->map + cpu->offset;
		s->len = cpu->size;
		return;
	}
	tc_init(&s->chunks, f->map + cpu->offset, chunks_len(f, cpu), f->big);
	s->nchunks = tc_num(&s->chunks, 4);
	if (cpu->cut) /* the whole chunks before the end of the file */
		s->nchunks = cpu->nchunks;
	else
		s->no_chunks = !s->nchunks;
	/* the virtual file: this CPU's uncompressed size, from the table,
	 * walked once a file (a thread refused, the buffer read again) */
	if (!cpu->walked) {
		t = s->chunks;
		cpu->total = walk_chunks(f, &t, s->nchunks, &cpu->max_chunk);
		cpu->walked = true;
	}
	total = cpu->total;
	s->base = *vnext;
	s->end = *vnext + total;
	*vnext = (*vnext + total + it->b->page_size - 1) &
		 ~(uint64_t)(it->b->page_size - 1);
}

/*
 * The compressed CPUs' chunks inflated ahead on a thread.  Return: false
 * when none could be made, or when the chunks are too small for it to
 * pay (TDAT_PF_MIN_CHUNK); true with it, or when no CPU has a chunk to
 * inflate.
 */
static bool start_prefetch(struct iter *it)
{
	uint64_t bytes = 0, chunks = 0;
	struct tdat_pf_cpu *pc;
	int i;

	for (i = 0; i < it->n; i++) {
		bytes += it->s[i].end - it->s[i].base;
		chunks += it->s[i].nchunks;
	}
	if (!bytes)
		return true;
	if (bytes < chunks * TDAT_PF_MIN_CHUNK)
		return false;
	pc = calloc((size_t)it->n + 1, sizeof(*pc));
	if (!pc)
		return false;
	for (i = 0; i < it->n; i++) {
		pc[i].chunks = it->s[i].chunks;
		pc[i].nchunks = it->s[i].nchunks;
		pc[i].max_size = it->s[i].cpu->max_chunk;
	}
	it->pf = tdat_prefetch_start(it->f, pc, it->n);
	free(pc);
	return it->pf != NULL;
}

/*
 * merge()'s loop while two streams are left (most files): the earlier
 * one's record handed over, the two held here, compared once a record.
 * Return: @fn's non-zero result (the walk ends: the heap is not read
 * again), or 0 with one stream left in the heap.
 */
static inline __attribute__((always_inline)) int
merge_two(struct iter *it, tdat_record_fn fn, void *priv, bool fast)
{
	struct stream *s = it->heap[0], *o = it->heap[1], *t;
	int ret;

	for (;;) {
		ret = fn(priv, &s->rec);
		if (!advance_as(it, s, fast)) {
			it->heap[0] = o;
			it->nheap = 1;
			return ret;
		}
		if (ret)
			return ret;
		if (before(o, s)) {
			t = s;
			s = o;
			o = t;
		}
	}
}

/*
 * tdat_iterate()'s loop: the record of the heap's top handed over, its
 * stream advanced and put back in order.  @fast as for advance_as().
 */
static inline __attribute__((always_inline)) int
merge(struct iter *it, tdat_record_fn fn, void *priv, bool fast)
{
	int ret = 0;

	while (it->nheap && !ret) {
		struct stream *s = it->heap[0];

		if (it->nheap == 2) {
			ret = merge_two(it, fn, priv, fast);
			continue;
		}
		ret = fn(priv, &s->rec);
		if (!advance_as(it, s, fast))
			it->heap[0] = it->heap[--it->nheap];
		sift_down(it, 0);
	}
	return ret;
}

/**
 * tdat_set_prefetch - inflate compressed chunks ahead, on a thread
 * @f: the file
 * @on: true: tdat_iterate() inflates the chunks of a compressed buffer on
 *	a thread of its own (prefetch.c) while it walks those it has, or
 *	returns TDAT_NO_PREFETCH before any record when it cannot make one;
 *	for a caller that counts the records where they lie, with a second
 *	CPU, and that reads otherwise when the thread cannot be
 *
 * The records and the damage counted are the same either way.  The
 * thread is not made when its buffers (TDAT_PF_AHEAD + 1 a CPU, each of
 * the CPU's largest chunk) would pass TDAT_PF_BUDGET: many CPUs with
 * large pages, or a chunk table that claims large chunks.
 */
void tdat_set_prefetch(struct tdat_file *f, bool on)
{
	f->prefetch = on;
}

/**
 * tdat_buffer_compressed - is a buffer's data in compressed chunks?
 * @f: the file
 * @buffer: 0 for the top buffer, then the instances
 *
 * Return: true for a version 7 file's compressed buffer.
 */
bool tdat_buffer_compressed(const struct tdat_file *f, int buffer)
{
	return buffer >= 0 && buffer < f->nr_buffers &&
	       f->buffers[buffer].compressed;
}

/**
 * tdat_iterate - hand every record of a buffer over in time order
 * @f: the file
 * @buffer: 0 for the top buffer, then the instances
 * @cpus: only these CPUs (NULL: all)
 * @cpus_size: the size of @cpus
 * @fn: called for each record; its record lives until it returns
 * @priv: passed to @fn
 * @damage: zeroed, then counts what could not be trusted
 * @why: for the reason of a failure
 * @why_len: its size
 *
 * Damaged pages and chunks are skipped and counted, the rest is read;
 * what the end of a cut file took is counted too (tdat_cut_note()).
 *
 * Return: 0, @fn's non-zero result, -1 when memory ran out, or
 * TDAT_NO_PREFETCH when tdat_set_prefetch() asked for a thread and none
 * could be made (no record was handed over).
 */
int tdat_iterate(struct tdat_file *f, int buffer, const cpu_set_t *cpus,
		 size_t cpus_size, tdat_record_fn fn, void *priv,
		 struct tdat_damage *damage, char *why, size_t why_len)
{
	const struct tdat_buffer *b = &f->buffers[buffer];
	struct iter it = { .f = f, .b = b, .dmg = damage };
	uint64_t vnext = virtual_start(f, buffer);
	int i, ret = 0;

	memset(damage, 0, sizeof(*damage));
	__atomic_store_n(&f->done, 0, __ATOMIC_RELAXED);
	tdat_kallsyms_reading(f);
	it.s = calloc((size_t)b->nr_cpus + 1, sizeof(*it.s));
	it.heap = calloc((size_t)b->nr_cpus + 1, sizeof(*it.heap));
	if (!it.s || !it.heap) {
		snprintf(why, why_len, "out of memory");
		ret = -1;
		goto out;
	}
	for (i = 0; i < b->nr_cpus; i++) {
		struct stream *s = &it.s[it.n];

		if (!cpus || CPU_ISSET_S((size_t)i, cpus_size, cpus)) {
			damage->cut_pages += b->cpus[i].lost_pages;
			damage->cut_chunks += b->cpus[i].lost_chunks;
		}
		if (!b->cpus[i].size)
			continue;
		/* every CPU takes its room in the virtual file */
		init_stream(&it, s, &f->buffers[buffer].cpus[i], &vnext);
		if (cpus && !CPU_ISSET_S((size_t)i, cpus_size, cpus))
			continue;
		it.n++;
	}
	if (f->prefetch && b->compressed && !start_prefetch(&it)) {
		ret = TDAT_NO_PREFETCH;
		goto out;
	}
	for (i = 0; i < it.n; i++)
		if (advance(&it, &it.s[i]))
			it.heap[it.nheap++] = &it.s[i];
	for (i = it.nheap / 2 - 1; i >= 0; i--)
		sift_down(&it, i);
	if (fast_file(f))
		ret = merge(&it, fn, priv, true);
	else
		ret = merge(&it, fn, priv, false);
	if (!ret && it.oom) {
		snprintf(why, why_len, "out of memory");
		ret = -1;
	}
out:
	tdat_prefetch_stop(it.pf);
	for (i = 0; it.s && i < it.n; i++)
		free(it.s[i].zbuf);
	free(it.s);
	free(it.heap);
	return ret;
}

/**
 * tdat_scan_buffer - read every page of a buffer, handing nothing over
 * @f: the file
 * @buffer: 0 for the top buffer, then the instances
 * @scan: notes where the damage lies (scan.c)
 * @damage: zeroed, then counts what could not be trusted
 * @counted: which records to count (NULL: all)
 * @priv: passed to @counted
 * @records: per CPU id of the buffer, the records counted
 *
 * The same checks as tdat_iterate(), a CPU at a time, without merging:
 * for a file that libtracecmd is about to read.
 *
 * Return: 0, or -1 when memory ran out (a chunk could not be inflated).
 */
int tdat_scan_buffer(struct tdat_file *f, int buffer, struct tdat_scan *scan,
		     struct tdat_damage *damage, tdat_count_fn counted,
		     void *priv, uint64_t *records)
{
	const struct tdat_buffer *b = &f->buffers[buffer];
	struct iter it = { .f = f, .b = b, .dmg = damage, .scan = scan };
	uint64_t vnext = virtual_start(f, buffer);
	struct stream s;
	int i;

	memset(damage, 0, sizeof(*damage));
	for (i = 0; i < b->nr_cpus; i++) {
		if (!b->cpus[i].size)
			continue;
		init_stream(&it, &s, &f->buffers[buffer].cpus[i], &vnext);
		while (advance(&it, &s))
			if (!counted || counted(priv, &s.rec))
				records[i]++;
		free(s.zbuf);
		it.held = 0;
	}
	return it.oom ? -1 : 0;
}

/**
 * tdat_check_aligned - does each CPU's data start on a page of its buffer?
 * @f: the file
 * @why: for the reason
 * @why_len: its size
 *
 * trace-cmd writes them so, compressed or not, in pages of the buffer's
 * size (an instance's own).  Elsewhere the offset or the page size is
 * damaged: an instance's page size doubled reads every other page.  And
 * libtracecmd cannot map uncompressed data there: it reads each page
 * into a buffer of a page, and the offsets it gives the records no
 * longer tell where in its page a record is, which the check of their
 * extents (lib/extent.c) relies on: a record past its page would pass.
 * tdat_open() refuses such a file, unless opened with keep_unaligned
 * (its caller then checks it here).
 *
 * Return: 0, or -1 with @why set.
 */
int tdat_check_aligned(const struct tdat_file *f, char *why, size_t why_len)
{
	int b, i;

	for (b = 0; b < f->nr_buffers; b++) {
		const struct tdat_buffer *buf = &f->buffers[b];
		unsigned int ps = b ? buf->page_size : f->page_size;

		for (i = 0; i < buf->nr_cpus; i++) {
			const struct tdat_cpu *c = &buf->cpus[i];

			if (c->size && ps && c->offset % ps) {
				snprintf(why, why_len,
					 "the data of CPU %d of %s%s is not "
					 "page-aligned (offset %#llx, pages "
					 "of %u bytes)",
					 c->cpu,
					 *buf->name ? "instance "
						    : "the top buffer",
					 buf->name,
					 (unsigned long long)c->offset, ps);
				return -1;
			}
		}
	}
	return 0;
}

/**
 * tdat_check_chunks - are the CPUs' data where libtracecmd can read them?
 * @f: the file
 * @why: for the reason
 * @why_len: its size
 *
 * The native reader skips a bad chunk and reads on; libtracecmd trusts
 * the table and overruns its buffers on a lie (an uncompressed size that
 * is no multiple of the page size, say).  CPU data must start on a
 * page boundary too (tdat_check_aligned()).  For a file about to be
 * handed to libtracecmd.
 *
 * Return: 0, or -1 with @why set.
 */
int tdat_check_chunks(const struct tdat_file *f, char *why, size_t why_len)
{
	int b, i;

	if (tdat_check_aligned(f, why, why_len))
		return -1;
	for (b = 0; b < f->nr_buffers; b++) {
		const struct tdat_buffer *buf = &f->buffers[b];
		unsigned int ps = b ? buf->page_size : f->page_size;

		for (i = 0; buf->compressed && i < buf->nr_cpus; i++) {
			const struct tdat_cpu *c = &buf->cpus[i];
			struct tcur t;
			uint64_t n;

			if (!c->size)
				continue;
			tc_init(&t, f->map + c->offset, chunks_len(f, c),
				f->big);
			n = tc_num(&t, 4);
			if (c->cut)
				n = c->nchunks;
			for (; n && !t.bad; n--) {
				uint64_t z = tc_num(&t, 4),
					 size = tc_num(&t, 4);

				if (!t.bad && (!size || size % ps ||
					       size > TDAT_MAX_CHUNK))
					break;
				tc_take(&t, z);
			}
			if (n || t.bad) {
				snprintf(why, why_len,
					 "the compressed chunks of "
					 "CPU %d of %s%s are damaged",
					 c->cpu,
					 *buf->name ? "instance "
						    : "the top buffer",
					 buf->name);
				return -1;
			}
		}
	}
	return 0;
}
