// SPDX-License-Identifier: LGPL-2.1
/*
 * NUMA topology files (see numa.h and Documentation/kmem-numa.txt).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "msg.h"
#include "numa.h"

static int set_cpu(struct kmem_numa *n, int cpu, int node)
{
	int *p, i;

	if (cpu >= n->nr_cpus) {
		p = realloc(n->cpu_node, sizeof(*p) * (size_t)(cpu + 1));
		if (!p)
			return -1;
		for (i = n->nr_cpus; i <= cpu; i++)
			p[i] = -1;
		n->cpu_node = p;
		n->nr_cpus = cpu + 1;
	}
	n->cpu_node[cpu] = node;
	return 0;
}

static int add_range(struct kmem_numa *n, uint64_t start, uint64_t end,
		     int node)
{
	struct numa_range *p = realloc(n->ranges, sizeof(*p) *
				       (size_t)(n->nr_ranges + 1));

	if (!p)
		return -1;
	n->ranges = p;
	p[n->nr_ranges].start = start;
	p[n->nr_ranges].end = end;
	p[n->nr_ranges].node = node;
	n->nr_ranges++;
	return 0;
}

static int cmp_range(const void *a, const void *b)
{
	const struct numa_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* What a line's parse found wrong (parse_line()'s negative returns). */
enum {
	LINE_BAD = -1, /* not one of the two forms */
	LINE_OOM = -2,
	LINE_TWICE = -3, /* a CPU given before */
	LINE_CPU = -4,	 /* a CPU number above KMEM_NUMA_MAX_CPU */
	LINE_BIG = -5,	 /* a number too large */
	LINE_EMPTY = -6, /* a memory range whose END is not above START */
};

/* @s past blanks, past the word @w and a blank; false if @w is not next */
static bool word(const char **s, const char *w)
{
	const char *p = *s + strspn(*s, " \t");
	size_t n = strlen(w);

	if (strncmp(p, w, n) || (p[n] != ' ' && p[n] != '\t'))
		return false;
	*s = p + n;
	return true;
}

/*
 * A number at @s (after blanks; decimal, or with @base 0 hexadecimal
 * after 0x: never octal), at most @max, into @v.  Return: 0, LINE_BAD
 * (none there) or LINE_BIG.
 */
static int number(const char **s, int base, unsigned long long max,
		  unsigned long long *v)
{
	const char *p = *s + strspn(*s, " \t");
	char *end;

	if (*p < '0' || *p > '9')
		return LINE_BAD; /* no sign, no blank: strtoull takes both */
	if (!base)
		base = p[0] == '0' && (p[1] == 'x' || p[1] == 'X') ? 16 : 10;
	errno = 0;
	*v = strtoull(p, &end, base);
	if (errno == ERANGE || *v > max)
		return LINE_BIG;
	*s = end;
	return 0;
}

/* Nothing but blanks left at @s. */
static bool done(const char *s)
{
	return s[strspn(s, " \t\r\n")] == '\0';
}

/*
 * One line: "cpu N node M" or "mem START-END node M"; 0 ok (or a
 * blank or comment line), or what is wrong (LINE_*).
 */
static int parse_line(struct kmem_numa *n, const char *line)
{
	unsigned long long a, b, node;
	const char *p = line;
	int ret;

	if (done(line) || line[strspn(line, " \t")] == '#')
		return 0;
	if (word(&p, "cpu")) {
		ret = number(&p, 10, ULLONG_MAX, &a);
		if (!ret && a > KMEM_NUMA_MAX_CPU)
			ret = LINE_CPU;
		if (!ret)
			ret = word(&p, "node") ? number(&p, 10, INT_MAX, &node)
					       : LINE_BAD;
		if (!ret && !done(p))
			ret = LINE_BAD;
		if (ret)
			return ret;
		if ((int)a < n->nr_cpus && n->cpu_node[a] >= 0)
			return LINE_TWICE; /* which node? */
		return set_cpu(n, (int)a, (int)node) ? LINE_OOM : 0;
	}
	if (!word(&p, "mem"))
		return LINE_BAD;
	ret = number(&p, 0, ULLONG_MAX, &a);
	if (!ret && *p++ != '-')
		ret = LINE_BAD;
	if (!ret)
		ret = number(&p, 0, ULLONG_MAX, &b);
	if (!ret)
		ret = word(&p, "node") ? number(&p, 10, INT_MAX, &node)
				       : LINE_BAD;
	if (!ret && !done(p))
		ret = LINE_BAD;
	if (!ret && a >= b)
		ret = LINE_EMPTY;
	if (ret)
		return ret;
	return add_range(n, a, b, (int)node) ? LINE_OOM : 0;
}

/*
 * @path opened to read, if it is a regular file: a FIFO (opened without
 * waiting for a writer), a device (/dev/zero: endless) or a directory
 * is refused in one line on @err.
 */
static FILE *open_regular(const char *path, FILE *err)
{
	struct stat st;
	FILE *f;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		fprintf(err, "%s: cannot read topology '%s': %s\n", kmem_prog,
			path,
			fd < 0		      ? strerror(errno)
			: S_ISDIR(st.st_mode) ? strerror(EISDIR)
					      : "not a regular file");
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	f = fdopen(fd, "r");
	if (!f) {
		fprintf(err, "%s: cannot read topology '%s': %s\n", kmem_prog,
			path, strerror(errno));
		close(fd);
	}
	return f;
}

/**
 * kmem_numa_load - read a topology file
 * @n: filled in (release with kmem_numa_release(); on error it holds
 *	nothing, and releasing it again is harmless)
 * @path: the file
 * @err: where a problem is reported, in one line
 *
 * Return: 0 on success, -1 on error (unreadable, malformed line,
 * overlapping memory ranges).
 */
int kmem_numa_load(struct kmem_numa *n, const char *path, FILE *err)
{
	char line[256];
	int lineno = 0, i, rc = 0;
	FILE *f;

	memset(n, 0, sizeof(*n));
	f = open_regular(path, err);
	if (!f)
		return -1;
	while (!rc && fgets(line, sizeof(line), f)) {
		lineno++;
		rc = parse_line(n, line);
	}
	if (!rc && ferror(f)) { /* a directory: EISDIR */
		fprintf(err, "%s: cannot read topology '%s': %s\n", kmem_prog,
			path, strerror(errno));
		fclose(f);
		goto bad;
	}
	fclose(f);
	if (rc) {
		fprintf(err, "%s: %s:%d: %s\n", kmem_prog, path, lineno,
			rc == LINE_OOM	   ? "out of memory"
			: rc == LINE_TWICE ? "a CPU given a node twice"
			: rc == LINE_CPU   ? "a CPU number above 65535"
			: rc == LINE_BIG   ? "a number too large"
			: rc == LINE_EMPTY
				? "a memory range whose END is not "
				  "above its START"
				: "bad line (expected 'cpu N node M' "
				  "or 'mem START-END node M')");
		goto bad;
	}
	if (n->nr_ranges)
		qsort(n->ranges, (size_t)n->nr_ranges, sizeof(*n->ranges),
		      cmp_range);
	for (i = 1; i < n->nr_ranges; i++)
		if (n->ranges[i].start < n->ranges[i - 1].end) {
			fprintf(err, "%s: %s: memory ranges overlap at pfn "
				     "0x%" PRIx64 "\n", kmem_prog, path,
				n->ranges[i].start);
			goto bad;
		}
	if (!n->nr_cpus || !n->nr_ranges) {
		fprintf(err, "%s: %s: no %s lines\n", kmem_prog, path,
			n->nr_cpus ? "mem" : "cpu");
		goto bad;
	}
	return 0;
bad:
	kmem_numa_release(n);	/* what the lines before it made */
	return -1;
}

/**
 * kmem_numa_release - free a topology
 * @n: the topology
 */
void kmem_numa_release(struct kmem_numa *n)
{
	free(n->cpu_node);
	free(n->ranges);
	memset(n, 0, sizeof(*n));
}

/**
 * kmem_numa_cpu - the node of a CPU
 * @n: the topology
 * @cpu: the CPU
 *
 * Return: its node, or -1 if the topology does not say.
 */
int kmem_numa_cpu(const struct kmem_numa *n, int cpu)
{
	return cpu >= 0 && cpu < n->nr_cpus ? n->cpu_node[cpu] : -1;
}

/**
 * kmem_numa_pfn - the node of a page frame
 * @n: the topology
 * @pfn: the page frame number
 *
 * Return: its node, or -1 if no range holds it (binary search).
 */
int kmem_numa_pfn(const struct kmem_numa *n, uint64_t pfn)
{
	int lo = 0, hi = n->nr_ranges - 1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		const struct numa_range *r = &n->ranges[mid];

		if (pfn < r->start)
			hi = mid - 1;
		else if (pfn >= r->end)
			lo = mid + 1;
		else
			return r->node;
	}
	return -1;
}
