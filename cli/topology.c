// SPDX-License-Identifier: LGPL-2.1
/*
 * trace-kmem topology: this machine's CPU -> node and pfn range -> node
 * map from sysfs, in the format of Documentation/kmem-numa.txt.
 *
 * /sys/devices/system/node/nodeN/cpulist names the CPUs; the memoryM
 * entries of nodeN are memory blocks of block_size_bytes (hex) from
 * /sys/devices/system/memory.  Adjacent blocks of one node make one
 * range.  $TRACE_KMEM_SYSFS replaces /sys (tests use a made-up tree).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/outfile.h"
#include "cli.h"

struct block {
	uint64_t nr;
	int node;
};

struct topo {
	const char *sys;
	struct block *blocks;
	size_t n, cap;
	uint64_t block_pages;
};

static FILE *open_sys(const struct topo *t, const char *rel)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", t->sys, rel);
	return fopen(path, "r");
}

static int cmp_block(const void *a, const void *b)
{
	const struct block *x = a, *y = b;

	return x->nr < y->nr ? -1 : x->nr > y->nr;
}

/* "0-3,8,10-11" as cpu lines */
static void print_cpus(FILE *out, const char *list, int node)
{
	const char *p = list;
	char *end;
	long lo, hi, c;

	while (*p) {
		lo = strtol(p, &end, 10);
		if (end == p)
			break;
		hi = lo;
		if (*end == '-') {
			p = end + 1;
			hi = strtol(p, &end, 10);
			if (end == p)
				break;
		}
		for (c = lo; c <= hi; c++)
			fprintf(out, "cpu %ld node %d\n", c, node);
		if (*end != ',')
			break;
		p = end + 1;
	}
}

static int add_block(struct topo *t, uint64_t nr, int node)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		struct block *b = realloc(t->blocks, cap * sizeof(*b));

		if (!b)
			return -1;
		t->blocks = b;
		t->cap = cap;
	}
	t->blocks[t->n].nr = nr;
	t->blocks[t->n++].node = node;
	return 0;
}

static int read_node(struct topo *t, FILE *out, int node)
{
	char rel[64], path[PATH_MAX], list[4096];
	struct dirent *d;
	unsigned long long nr;
	DIR *dir;
	FILE *f;

	snprintf(rel, sizeof(rel), "devices/system/node/node%d/cpulist", node);
	f = open_sys(t, rel);
	if (f) {
		if (fgets(list, sizeof(list), f))
			print_cpus(out, list, node);
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/devices/system/node/node%d", t->sys,
		 node);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((d = readdir(dir)))
		if (sscanf(d->d_name, "memory%llu", &nr) == 1 &&
		    add_block(t, nr, node)) {
			closedir(dir);
			return -1;
		}
	closedir(dir);
	return 0;
}

static void print_ranges(const struct topo *t, FILE *out)
{
	size_t i = 0, j;

	qsort(t->blocks, t->n, sizeof(*t->blocks), cmp_block);
	while (i < t->n) {
		for (j = i + 1; j < t->n && t->blocks[j].node == t->blocks[i].node &&
				t->blocks[j].nr == t->blocks[j - 1].nr + 1; j++)
			;
		fprintf(out, "mem 0x%llx-0x%llx node %d\n",
			(unsigned long long)(t->blocks[i].nr * t->block_pages),
			(unsigned long long)((t->blocks[j - 1].nr + 1) *
					     t->block_pages),
			t->blocks[i].node);
		i = j;
	}
}

static int block_pages(struct topo *t)
{
	unsigned long long bytes = 0;
	FILE *f = open_sys(t, "devices/system/memory/block_size_bytes");

	if (f) {
		if (fscanf(f, "%llx", &bytes) != 1)
			bytes = 0;
		fclose(f);
	}
	t->block_pages = bytes / (unsigned long long)sysconf(_SC_PAGESIZE);
	return t->block_pages ? 0 : -1;
}

static int write_map(struct topo *t, FILE *out)
{
	char path[PATH_MAX];
	struct dirent *d;
	int node, nodes = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/devices/system/node", t->sys);
	dir = opendir(path);
	if (!dir) {
		fprintf(stderr, TK_NAME ": %s: %s (no NUMA information in "
				"sysfs)\n", path, strerror(errno));
		return -1;
	}
	if (block_pages(t)) {
		closedir(dir);
		fprintf(stderr, TK_NAME ": cannot read %s/devices/system/"
				"memory/block_size_bytes\n", t->sys);
		return -1;
	}
	fprintf(out, "# trace-kmem topology: cpu N node M; mem FIRST_PFN-"
		     "END_PFN node M (end exclusive)\n");
	while ((d = readdir(dir)))
		if (sscanf(d->d_name, "node%d", &node) == 1 && node >= 0) {
			if (read_node(t, out, node)) {
				closedir(dir);
				return -1;
			}
			nodes++;
		}
	closedir(dir);
	print_ranges(t, out);
	return nodes ? 0 : -1;
}

/**
 * tk_topology - trace-kmem topology
 * @a: the command line (-o FILE)
 *
 * Return: the exit status.
 */
int tk_topology(struct tk_args *a)
{
	struct topo t = { .sys = getenv("TRACE_KMEM_SYSFS") };
	struct kmem_out out;
	int ret;

	if (!t.sys)
		t.sys = "/sys";
	/* as every output: "-" and /dev/stdout the stream, a file whole */
	if (kmem_out_open(&out, a->opts.output ? a->opts.output : "-",
			  "topology", false, stderr))
		return TK_ENV;
	ret = write_map(&t, out.f);
	free(t.blocks);
	if (ret) {
		kmem_out_discard(&out);
		return TK_ENV;
	}
	kmem_out_check(&out, stderr); /* a failure is said once, here */
	return kmem_out_finish(&out, stderr) ? TK_ENV : TK_OK;
}
