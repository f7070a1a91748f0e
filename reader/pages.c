// SPDX-License-Identifier: LGPL-2.1
/*
 * The reader's advice on its memory, by whole pages: pages about to be
 * written made in one call, and pages of the file mapping read once
 * dropped again.
 *
 * Each first touch of an anonymous page is a fault.  On the virtual
 * machines measured (2 vCPUs, a PVM guest) a fault cost 10.5 us: 2 MB
 * written a page at a time took 5.4 ms, 0.3 to 2.3 ms after one
 * MADV_POPULATE_WRITE.  A tiny trace's 2 MB formats section was 490 of
 * a run's 807 faults.
 */
#include <stdbool.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"

/* Below this, the faults cost less than the call. */
#define POPULATE_MIN (64U << 10)

/* madvise() @advice on the pages wholly inside [@p, @p + @len), or with
 * @out, on every page it touches. */
static void advise(const void *p, size_t len, bool out, int advice)
{
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t a = (uintptr_t)p, b = (uintptr_t)p + len;

	a = out ? a & ~(pg - 1) : (a + pg - 1) & ~(pg - 1);
	b = out ? (b + pg - 1) & ~(pg - 1) : b & ~(pg - 1);
	if (b > a)
		madvise((void *)a, b - a, advice);
}

/**
 * tdat_populate - make the pages of a buffer about to be written
 * @p: the buffer (malloc()ed or mapped)
 * @len: its size
 *
 * Advice only (MADV_POPULATE_WRITE, Linux 5.14): without it, or for a
 * buffer under 64 KB, pages come as they are written.  The pages made
 * are those wholly inside the buffer: a neighbour's page is not made
 * writable or touched.
 */
void tdat_populate(void *p, size_t len)
{
#ifdef MADV_POPULATE_WRITE
	if (len >= POPULATE_MIN)
		advise(p, len, false, MADV_POPULATE_WRITE);
#else
	(void)p;
	(void)len;
#endif
}

/**
 * tdat_populate_read - map the file mapping's pages of a range now
 * @p: the range's start, in a mapping of the file
 * @len: its length
 *
 * The pages are in the page cache (or read into it) and mapped in one
 * call (MADV_POPULATE_READ, Linux 5.14) instead of a fault each 64 KB
 * (the kernel's fault-around) as they are read.  Advice only.
 */
void tdat_populate_read(const uint8_t *p, size_t len)
{
#ifdef MADV_POPULATE_READ
	advise(p, len, true, MADV_POPULATE_READ);
#else
	(void)p;
	(void)len;
#endif
}

/**
 * tdat_drop_pages - drop the file mapping's pages wholly inside a range
 * @p: the range's start
 * @len: its length
 *
 * The pages are read back from the page cache if touched again; until
 * then they are not counted in the process's memory (MADV_DONTNEED on a
 * private read-only file mapping).
 */
void tdat_drop_pages(const uint8_t *p, size_t len)
{
	advise(p, len, false, MADV_DONTNEED);
}
