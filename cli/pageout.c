// SPDX-License-Identifier: LGPL-2.1
/*
 * Dropping the pages libtracecmd has read (see pageout.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "pageout.h"

/**
 * tk_pageout_init - no pages seen yet
 * @po: the state
 * @nr_cpus: CPUs of the trace
 *
 * Return: 0, or -1 when memory ran out.
 */
int tk_pageout_init(struct tk_pageout *po, int nr_cpus)
{
	po->nr_cpus = nr_cpus > 0 ? nr_cpus : 0;
	po->cpu = calloc((size_t)po->nr_cpus + 1, sizeof(*po->cpu));
	return po->cpu ? 0 : -1;
}

/**
 * tk_pageout_release - free the state
 * @po: the state
 */
void tk_pageout_release(struct tk_pageout *po)
{
	free(po->cpu);
	po->cpu = NULL;
	po->nr_cpus = 0;
}

/*
 * The end of the mapping holding @addr if it is a private read-only
 * mapping of a file, else 0.
 */
static uintptr_t file_mapping_end(uintptr_t addr)
{
	unsigned long lo, hi, ino;
	char perms[8], line[512];
	uintptr_t end = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %7s %*s %*s %lu", &lo, &hi, perms,
			   &ino) != 4)
			continue;
		if (addr < lo || addr >= hi)
			continue;
		if (ino && !strcmp(perms, "r--p"))
			end = hi;
		break;
	}
	fclose(f);
	return end;
}

/**
 * tk_pageout_step - @cpu's reader is at @page, a step past its start
 * @po: the state
 * @cpu: the CPU
 * @page: the page of its current record
 *
 * Forward inside the file mapping: the pages behind are dropped.
 * Anywhere else (another mapping): start over there.
 */
void tk_pageout_step(struct tk_pageout *po, int cpu, uintptr_t page)
{
	struct tk_pageout_cpu *c = &po->cpu[cpu];

	if (c->end && page > c->start && page < c->end)
		madvise((void *)c->start, page - c->start, MADV_DONTNEED);
	else
		c->end = file_mapping_end(page);
	c->start = page;
}
