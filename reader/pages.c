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
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"

/* Below this, the faults cost less than the call. */
#define POPULATE_MIN (64U << 10)

/* A transparent huge page (x86-64, arm64 with 4 KB pages) */
#define HUGE_SZ (2UL << 20)

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

static bool thp_on;
static pthread_once_t thp_once = PTHREAD_ONCE_INIT;

/* Does the kernel give huge pages to memory advised so ("always" or
 * "madvise")? */
static void thp_read(void)
{
	char buf[128] = "";
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "re");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	thp_on = strstr(buf, "[always]") || strstr(buf, "[madvise]");
}

/* The 2 MB blocks of a buffer of @len bytes that are huge pages: the
 * whole ones, and the last when at least 7/8 of it is used (at most
 * 256 KB more counted in the process's memory); none without THP. */
static size_t huge_part(size_t len)
{
	size_t rest = len % HUGE_SZ;

	pthread_once(&thp_once, thp_read);
	if (!thp_on)
		return 0;
	return rest >= HUGE_SZ - HUGE_SZ / 8 ? len - rest + HUGE_SZ
					     : len - rest;
}

/* What tdat_map_big() maps for @len bytes: whole pages, or its blocks. */
static size_t map_len(size_t len, size_t huge)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	size_t n = len ? (len + pg - 1) & ~(pg - 1) : pg;

	return huge > n ? huge : n;
}

/**
 * tdat_map_big - memory for a buffer about to be written, once
 * @len: its size
 *
 * Anonymous memory, its pages made ahead (tdat_populate()), except that
 * from 2 MB on, where the kernel gives transparent huge pages, it is
 * 2 MB aligned and its whole 2 MB blocks are advised as huge pages
 * (MADV_HUGEPAGE) and come as they are written, one fault a block
 * instead of 512.  The last partial block is huge too when at least
 * 7/8 of it is used; otherwise its pages are made ahead.
 *
 * On the PVM guest measured, the 5.4 MB kallsyms text of a trace
 * decompressed into fresh memory in a median 19 ms in 4 KB pages
 * (after MADV_POPULATE_WRITE) and 7.5 ms in huge pages.  trace-kmem
 * stat on the bench's tiny v7 trace went from 28-30 to 19-22 ms (perf
 * stat -r 10, three alternations), its peak RSS from 10.8-11.1 to
 * 11.0-11.3 MB: the blocks come as decompression reaches them, not all
 * at once (populated ahead, the whole block is counted from the
 * start).  An earlier round had seen stalls of 30 to 130 ms in 13 of
 * 40 runs with huge pages; with 2 GB written and freed by another
 * process before every fourth of 40 alternated pairs, none came back
 * (compact_stall stayed 0).
 *
 * Free with tdat_unmap_big().
 *
 * Return: the memory, or NULL when none could be mapped.
 */
void *tdat_map_big(size_t len)
{
	size_t huge = huge_part(len), n = map_len(len, huge);
	uint8_t *raw, *p;
	uintptr_t a;

	if (!huge) {
		p = mmap(NULL, n, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return NULL;
		tdat_populate(p, n);
		return p;
	}
	/* over-map by a block, then trim to a 2 MB boundary */
	raw = mmap(NULL, n + HUGE_SZ, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED)
		return NULL;
	a = ((uintptr_t)raw + HUGE_SZ - 1) & ~(HUGE_SZ - 1);
	p = (uint8_t *)a;
	if (p > raw)
		munmap(raw, (size_t)(p - raw));
	munmap(p + n, (size_t)(raw + HUGE_SZ - p));
#ifdef MADV_HUGEPAGE
	madvise(p, huge, MADV_HUGEPAGE);
#endif
	if (n > huge)
		tdat_populate(p + huge, n - huge);
	return p;
}

/**
 * tdat_unmap_big - free memory of tdat_map_big()
 * @p: the memory, or NULL
 * @len: the size it was asked for with
 */
void tdat_unmap_big(void *p, size_t len)
{
	if (p)
		munmap(p, map_len(len, huge_part(len)));
}
