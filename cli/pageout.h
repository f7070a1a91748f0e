/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Keeping trace-kmem stat's memory flat.  libtracecmd maps each CPU's
 * data of an uncompressed trace in one piece, so every page it has read
 * stays resident and the process grows with the trace.  A CPU's reader
 * never goes back, so the pages behind it are dropped with
 * madvise(MADV_DONTNEED) a megabyte at a time: only inside a private,
 * read-only file mapping (checked in /proc/self/maps), where a page
 * dropped and touched again is read back from the file unchanged.
 */
#ifndef TRACE_KMEM_PAGEOUT_H
#define TRACE_KMEM_PAGEOUT_H

#include <stdint.h>

struct tk_pageout_cpu {
	uintptr_t start;	/* first page not yet dropped */
	uintptr_t end;		/* end of its file mapping, 0: not one */
};

struct tk_pageout {
	struct tk_pageout_cpu *cpu;
	int nr_cpus;
};

/* A CPU's reader moves on this far before the pages behind are dropped. */
#define TK_PAGEOUT_STEP (1UL << 20)

int tk_pageout_init(struct tk_pageout *po, int nr_cpus);
void tk_pageout_release(struct tk_pageout *po);
void tk_pageout_step(struct tk_pageout *po, int cpu, uintptr_t page);

/**
 * tk_pageout_record - a record of @cpu was read at @data
 * @po: the state
 * @cpu: its CPU
 * @data: where libtracecmd holds it
 */
static inline void tk_pageout_record(struct tk_pageout *po, int cpu,
				     const void *data)
{
	uintptr_t page = (uintptr_t)data & ~(uintptr_t)4095;

	if (cpu >= 0 && cpu < po->nr_cpus &&
	    page - po->cpu[cpu].start >= TK_PAGEOUT_STEP)
		tk_pageout_step(po, cpu, page);
}

#endif
