// SPDX-License-Identifier: LGPL-2.1
/*
 * trace-kmem topology: this machine's CPU -> node and pfn range -> node
 * map from sysfs, in the format of Documentation/kmem-numa.txt.
 *
 * /sys/devices/system/node/nodeN/cpulist names the CPUs; the memoryM
 * entries of nodeN are memory blocks of block_size_bytes (hex) from
 * /sys/devices/system/memory.  Adjacent blocks of one node make one
 * range.  $TRACE_KMEM_SYSFS replaces /sys (tests use a made-up tree,
 * and a tree copied from another machine is read the same way).
 *
 * What is read is held to what the kernel writes and to what --numa
 * loads (lib/base/numa.c): anything else stops with one line naming the
 * file, so that the map written is always one --numa takes.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/numa.h"
#include "base/outfile.h"
#include "base/utf8.h"
#include "cli.h"

/* a cpulist longer than this is no kernel's (65,536 CPUs, every other
 * one, take 360 KB) */
#define TOPO_MAX_LIST (1 << 20)

struct block {
	uint64_t nr;
	int node;
};

struct topo {
	const char *sys;
	struct block *blocks;
	size_t n, cap;
	int *cpu_node; /* KMEM_NUMA_MAX_CPU + 1 entries, -1: no node */
	uint64_t block_pages;
};

static void sys_path(const struct topo *t, char *path, size_t len,
		     const char *rel)
{
	snprintf(path, len, "%s/%s", t->sys, rel);
}

/*
 * The text of a sysfs file, NUL terminated (free() it), or NULL: said
 * (it cannot be read, or it is longer than any the kernel writes).
 */
static char *read_text(const char *path)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	FILE *f = fopen(path, "r");
	size_t got;

	if (!f || !buf) {
		fprintf(stderr, TK_NAME ": cannot read %s: %s\n", path,
			f ? "out of memory" : strerror(errno));
		goto fail;
	}
	while ((got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		char *p;

		len += got;
		if (len < cap - 1)
			continue;
		p = cap < TOPO_MAX_LIST ? realloc(buf, cap * 2) : NULL;
		if (!p) {
			fprintf(stderr, TK_NAME ": cannot read %s: %s\n", path,
				cap < TOPO_MAX_LIST ? "out of memory"
						    : "longer than 1 MB");
			goto fail;
		}
		buf = p;
		cap *= 2;
	}
	if (ferror(f)) {
		fprintf(stderr, TK_NAME ": cannot read %s: %s\n", path,
			strerror(errno));
		goto fail;
	}
	fclose(f);
	buf[len] = '\0';
	return buf;
fail:
	if (f)
		fclose(f);
	free(buf);
	return NULL;
}

/* A decimal number at *@p (digits only), at most @max; *@p past it. */
static bool decimal(const char **p, unsigned long long max,
		    unsigned long long *v)
{
	char *end;

	if (**p < '0' || **p > '9')
		return false;
	errno = 0;
	*v = strtoull(*p, &end, 10);
	if (errno == ERANGE || *v > max)
		return false;
	*p = end;
	return true;
}

/*
 * The first line of a file's @text as an error quotes it: at most 64
 * bytes, a control character as '?' (it must not drive the terminal).
 */
static const char *quote(const char *text, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", (int)strcspn(text, "\n"), text);
	utf8_plain_line(buf);
	return buf;
}

/*
 * The CPUs of @node's cpulist @list ("0-3,8,10-11\n"; an empty line for
 * a node with memory alone) into t->cpu_node.  Return: 0, or -1 said.
 */
static int read_cpus(struct topo *t, const char *path, const char *list,
		     int node)
{
	const char *p = list;
	unsigned long long lo, hi, c;
	char q[65];

	while (*p && *p != '\n') {
		if (!decimal(&p, KMEM_NUMA_MAX_CPU, &lo))
			goto bad;
		hi = lo;
		if (*p == '-') {
			p++;
			if (!decimal(&p, KMEM_NUMA_MAX_CPU, &hi) || hi < lo)
				goto bad;
		}
		for (c = lo; c <= hi; c++) {
			if (t->cpu_node[c] >= 0 && t->cpu_node[c] != node) {
				fprintf(stderr,
					TK_NAME ": %s: CPU %llu is in node %d "
						"too\n",
					path, c, t->cpu_node[c]);
				return -1;
			}
			t->cpu_node[c] = node;
		}
		if (*p != ',')
			break;
		p++; /* a number must follow */
		if (*p < '0' || *p > '9')
			goto bad;
	}
	if (*p == '\n')
		p++;
	if (!*p)
		return 0;
bad:
	fprintf(stderr, TK_NAME ": %s: not a list of CPUs 0 to %d: \"%s\"\n",
		path, KMEM_NUMA_MAX_CPU, quote(list, q, sizeof(q)));
	return -1;
}

static int add_block(struct topo *t, uint64_t nr, int node)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		struct block *b = realloc(t->blocks, cap * sizeof(*b));

		if (!b) {
			fprintf(stderr, TK_NAME ": out of memory\n");
			return -1;
		}
		t->blocks = b;
		t->cap = cap;
	}
	t->blocks[t->n].nr = nr;
	t->blocks[t->n++].node = node;
	return 0;
}

/*
 * Is @name "@prefix" and a decimal number (nodeN, memoryM)?  A number
 * above @max is said (@dir names the directory), *@bad set.
 */
static bool numbered(const char *name, const char *prefix,
		     unsigned long long max, unsigned long long *v,
		     const char *dir, bool *bad)
{
	const char *p = name + strlen(prefix);

	if (strncmp(name, prefix, strlen(prefix)) || *p < '0' || *p > '9' ||
	    p[strspn(p, "0123456789")])
		return false;
	if (!decimal(&p, max, v)) {
		fprintf(stderr, TK_NAME ": %s/%s: its number is above %llu\n",
			dir, name, max);
		*bad = true;
		return false;
	}
	return true;
}

static int read_node(struct topo *t, const char *dir, int node)
{
	char path[PATH_MAX];
	unsigned long long nr;
	bool bad = false;
	struct dirent *d;
	char *list;
	DIR *dp;
	int ret;

	if (snprintf(path, sizeof(path), "%s/cpulist", dir) >=
	    (int)sizeof(path)) {
		fprintf(stderr, TK_NAME ": %s: path too long\n", dir);
		return -1;
	}
	list = read_text(path);
	if (!list)
		return -1;
	ret = read_cpus(t, path, list, node);
	free(list);
	if (ret)
		return -1;
	dp = opendir(dir);
	if (!dp) {
		fprintf(stderr, TK_NAME ": cannot read %s: %s\n", dir,
			strerror(errno));
		return -1;
	}
	/* a block's first and end pfn must fit in 64 bits */
	while (!bad && (d = readdir(dp)))
		if (numbered(d->d_name, "memory",
			     UINT64_MAX / t->block_pages - 1, &nr, dir, &bad) &&
		    add_block(t, nr, node))
			bad = true;
	closedir(dp);
	return bad ? -1 : 0;
}

static int cmp_block(const void *a, const void *b)
{
	const struct block *x = a, *y = b;

	return x->nr < y->nr ? -1 : x->nr > y->nr;
}

/* The blocks in order, each in one node.  Return: 0, or -1 said. */
static int sort_blocks(struct topo *t)
{
	size_t i;

	if (!t->n)
		return 0;
	qsort(t->blocks, t->n, sizeof(*t->blocks), cmp_block);
	for (i = 1; i < t->n; i++)
		if (t->blocks[i].nr == t->blocks[i - 1].nr) {
			fprintf(stderr,
				TK_NAME ": %s/devices/system/node: memory "
					"block %llu is in node %d and node "
					"%d\n",
				t->sys, (unsigned long long)t->blocks[i].nr,
				t->blocks[i - 1].node, t->blocks[i].node);
			return -1;
		}
	return 0;
}

static void print_map(const struct topo *t, FILE *out)
{
	size_t i = 0, j;
	int c;

	fprintf(out, "# trace-kmem topology: cpu N node M; mem FIRST_PFN-"
		     "END_PFN node M (end exclusive)\n");
	for (c = 0; c <= KMEM_NUMA_MAX_CPU; c++)
		if (t->cpu_node[c] >= 0)
			fprintf(out, "cpu %d node %d\n", c, t->cpu_node[c]);
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

/* block_size_bytes: hex (no 0x), a whole number of pages. */
static int block_pages(struct topo *t)
{
	unsigned long long bytes,
		page = (unsigned long long)sysconf(_SC_PAGESIZE);
	char path[PATH_MAX], *text, *end, q[65];
	const char *p;

	sys_path(t, path, sizeof(path),
		 "devices/system/memory/block_size_bytes");
	text = read_text(path);
	if (!text)
		return -1;
	p = text;
	errno = 0;
	bytes = strtoull(p, &end, 16);
	if (!isxdigit((unsigned char)*p) || errno == ERANGE ||
	    (*end && strcmp(end, "\n")) || !bytes || bytes % page) {
		fprintf(stderr,
			TK_NAME ": %s: not a block size in hexadecimal bytes, "
				"a multiple of the page size (%llu): \"%s\"\n",
			path, page, quote(text, q, sizeof(q)));
		free(text);
		return -1;
	}
	free(text);
	t->block_pages = bytes / page;
	return 0;
}

static bool any_cpu(const struct topo *t)
{
	int c;

	for (c = 0; c <= KMEM_NUMA_MAX_CPU; c++)
		if (t->cpu_node[c] >= 0)
			return true;
	return false;
}

static int read_map(struct topo *t)
{
	char path[PATH_MAX], node_dir[PATH_MAX];
	unsigned long long node;
	bool bad = false;
	struct dirent *d;
	int nodes = 0;
	DIR *dir;

	sys_path(t, path, sizeof(path), "devices/system/node");
	dir = opendir(path);
	if (!dir) {
		fprintf(stderr, TK_NAME ": %s: %s (no NUMA information in "
				"sysfs)\n", path, strerror(errno));
		return -1;
	}
	if (block_pages(t)) {
		closedir(dir);
		return -1;
	}
	while (!bad && (d = readdir(dir)))
		if (numbered(d->d_name, "node", INT_MAX, &node, path, &bad)) {
			if (snprintf(node_dir, sizeof(node_dir), "%s/%s", path,
				     d->d_name) >= (int)sizeof(node_dir)) {
				fprintf(stderr, TK_NAME ": %s: path too long\n",
					path);
				bad = true;
				break;
			}
			bad = read_node(t, node_dir, (int)node) != 0;
			nodes++;
		}
	closedir(dir);
	if (bad || sort_blocks(t))
		return -1;
	if (!nodes || !any_cpu(t) || !t->n) {
		fprintf(stderr, TK_NAME ": %s: %s\n", path,
			!nodes	      ? "no nodeN directories"
			: !any_cpu(t) ? "no node lists a CPU"
				      : "no node lists a memory block");
		return -1;
	}
	return 0;
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
	int ret, c;

	if (!t.sys)
		t.sys = "/sys";
	t.cpu_node = malloc((KMEM_NUMA_MAX_CPU + 1) * sizeof(*t.cpu_node));
	if (!t.cpu_node) {
		fprintf(stderr, TK_NAME ": out of memory\n");
		return TK_ENV;
	}
	for (c = 0; c <= KMEM_NUMA_MAX_CPU; c++)
		t.cpu_node[c] = -1;
	ret = read_map(&t);
	/* as every output: "-" and /dev/stdout the stream, a file whole */
	if (!ret && kmem_out_open(&out, a->opts.output ? a->opts.output : "-",
				  "topology", false, stderr))
		ret = -1;
	if (!ret) {
		print_map(&t, out.f);
		kmem_out_check(&out, stderr); /* a failure is said once, here */
		ret = kmem_out_finish(&out, stderr);
	}
	free(t.blocks);
	free(t.cpu_node);
	return ret ? TK_ENV : TK_OK;
}
