/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A NUMA topology for cross-node figures: CPU -> node and pfn range ->
 * node, read from a small text file (kmem:numa=FILE); the format is in
 * Documentation/kmem-numa.txt.
 */
#ifndef KMEM_NUMA_H
#define KMEM_NUMA_H

#include <stdint.h>
#include <stdio.h>

/* The highest CPU a topology file names (trace-kmem topology writes no
 * higher one) */
#define KMEM_NUMA_MAX_CPU 65535

struct numa_range {
	uint64_t start, end;	/* pfns, end exclusive */
	int node;
};

struct kmem_numa {
	int *cpu_node;		/* -1: unknown */
	int nr_cpus;
	struct numa_range *ranges;	/* sorted by start */
	int nr_ranges;
};

int kmem_numa_load(struct kmem_numa *n, const char *path, FILE *err);
void kmem_numa_release(struct kmem_numa *n);
int kmem_numa_cpu(const struct kmem_numa *n, int cpu);
int kmem_numa_pfn(const struct kmem_numa *n, uint64_t pfn);

#endif
