// SPDX-License-Identifier: LGPL-2.1
/*
 * How many CPUs this process may keep busy: those of its affinity mask,
 * fewer when a cgroup it is in (or an ancestor of it) limits its CPU
 * time, as cgroup v2's cpu.max and cgroup v1's cpu.cfs_quota_us do.  A
 * container given one CPU's worth of time on a larger machine has every
 * CPU in its affinity mask, and two busy threads there take turns as on
 * one CPU.
 *
 * The cgroups come from /proc/self/cgroup, where they are mounted from
 * /proc/self/mountinfo; a limit of 1.5 CPUs counts as 2 (two threads
 * still gain there).  What cannot be read is no limit.
 */
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/* One cgroup hierarchy: the process's cgroup in it, and where it is. */
struct hier {
	bool v2;	 /* cpu.max, else cpu.cfs_quota_us (v1) */
	char *path;	 /* of /proc/self/cgroup */
	char *mnt_root;	 /* the mount's root in the hierarchy */
	char *mnt_point; /* where it is mounted */
};

/* Is @word one of the comma-separated words of @list? */
static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while (p && *p) {
		if (!strncmp(p, word, n) && (p[n] == ',' || p[n] == '\0'))
			return true;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return false;
}

/* Undo mountinfo's octal escapes (\040 for a space) in place. */
static void unescape(char *s)
{
	char *d = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
				      (s[3] - '0'));
			s += 3;
		} else {
			*d++ = *s;
		}
	}
	*d = '\0';
}

/* Each line of @root@path, its newline cut, to @fn with @v2 and @v1. */
static void each_line(const char *root, const char *path,
		      void (*fn)(char *line, struct hier *v2, struct hier *v1),
		      struct hier *v2, struct hier *v1)
{
	char name[PATH_MAX], *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f;

	if ((size_t)snprintf(name, sizeof(name), "%s%s", root, path) >=
	    sizeof(name))
		return;
	f = fopen(name, "re");
	if (!f)
		return;
	while ((n = getline(&line, &cap, f)) > 0) {
		if (line[n - 1] == '\n')
			line[n - 1] = '\0';
		fn(line, v2, v1);
	}
	free(line);
	fclose(f);
}

/* A line of /proc/self/cgroup: the v2 cgroup, or v1's of the cpu controller. */
static void cgroup_line(char *line, struct hier *v2, struct hier *v1)
{
	char *ctl = strchr(line, ':'), *path;

	path = ctl ? strchr(ctl + 1, ':') : NULL;
	if (!path || path[1] != '/')
		return;
	*path++ = '\0';
	*ctl++ = '\0';
	if (!strcmp(line, "0") && !*ctl && !v2->path)
		v2->path = strdup(path);
	else if (has_word(ctl, "cpu") && !v1->path)
		v1->path = strdup(path);
}

/* Is @path the mount root @r or under it? */
static bool under(const char *path, const char *r)
{
	size_t n = strlen(r);

	if (!strcmp(r, "/"))
		return true;
	return !strncmp(path, r, n) && (path[n] == '/' || path[n] == '\0');
}

/* Note a mountinfo line's root and mount point in @h, if it is @h's. */
static void take_mount(struct hier *h, char *const *fld)
{
	if (!h->path || h->mnt_point || !under(h->path, fld[3]))
		return;
	h->mnt_root = strdup(fld[3]);
	h->mnt_point = strdup(fld[4]);
	if (!h->mnt_root || !h->mnt_point) { /* out of memory: no limit */
		free(h->mnt_root);
		free(h->mnt_point);
		h->mnt_root = h->mnt_point = NULL;
	}
}

/* A line of /proc/self/mountinfo: where @v2's or @v1's hierarchy is. */
static void mount_line(char *line, struct hier *v2, struct hier *v1)
{
	char *fld[5], *p = line, *type, *opts;
	int i;

	/* id parent dev root point opts [tags] - type source super */
	for (i = 0; i < 5 && p; i++) {
		fld[i] = p;
		p = strchr(p, ' ');
		if (p)
			*p++ = '\0';
	}
	p = p ? strstr(p, " - ") : NULL;
	if (i < 5 || !p)
		return;
	type = p + 3;
	p = strchr(type, ' ');
	opts = p ? strchr(p + 1, ' ') : NULL;
	if (!opts)
		return;
	*p = '\0';
	opts++;
	unescape(fld[3]);
	unescape(fld[4]);
	if (!strcmp(type, "cgroup2"))
		take_mount(v2, fld);
	else if (!strcmp(type, "cgroup") && has_word(opts, "cpu"))
		take_mount(v1, fld);
}

/*
 * The number in @dir/@file into *@a or, with @b, the two of a cpu.max
 * into *@a and *@b.  False: no file, "max" (no limit), or not numbers.
 */
static bool read_num(const char *dir, const char *file, long long *a,
		     long long *b)
{
	char name[PATH_MAX], buf[64], *end;
	ssize_t n;
	int fd;

	if ((size_t)snprintf(name, sizeof(name), "%s/%s", dir, file) >=
	    sizeof(name))
		return false;
	fd = open(name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	*a = strtoll(buf, &end, 10);
	if (end == buf)
		return false;
	if (b) {
		*b = strtoll(end, &end, 10);
		if (*end != '\0' && *end != '\n')
			return false;
	}
	return true;
}

/* The limit of the cgroup in @dir, in CPUs rounded up; 0: none. */
static long long dir_limit(const struct hier *h, const char *dir)
{
	long long quota, period;

	if (h->v2 ? !read_num(dir, "cpu.max", &quota, &period)
		  : !read_num(dir, "cpu.cfs_quota_us", &quota, NULL) ||
			    quota <= 0 || /* -1: none; period unread */
			    !read_num(dir, "cpu.cfs_period_us", &period, NULL))
		return 0;
	if (quota <= 0 || period <= 0)
		return 0;
	return quota / period + (quota % period != 0);
}

/* The smallest limit of @h's cgroup and its ancestors; 0: none. */
static long long hier_limit(const char *root, const struct hier *h)
{
	char dir[PATH_MAX], *cut;
	const char *rel;
	long long best = 0, l;
	size_t base;

	/* a cgroup outside our namespace's ("/../x"): not ours to read */
	if (!h->mnt_point || strstr(h->path, "/.."))
		return 0;
	rel = strcmp(h->mnt_root, "/") ? h->path + strlen(h->mnt_root)
				       : h->path;
	if (!strcmp(rel, "/"))
		rel = ""; /* the mount point itself */
	if ((size_t)snprintf(dir, sizeof(dir), "%s%s", root, h->mnt_point) >=
	    sizeof(dir))
		return 0;
	base = strlen(dir);
	if (base + strlen(rel) >= sizeof(dir))
		return 0;
	strcpy(dir + base, rel);
	for (;;) {
		l = dir_limit(h, dir);
		if (l > 0 && (!best || l < best))
			best = l;
		cut = strrchr(dir + base, '/');
		if (!cut)
			break;
		*cut = '\0';
	}
	return best;
}

static void hier_free(struct hier *h)
{
	free(h->path);
	free(h->mnt_root);
	free(h->mnt_point);
}

/**
 * tdat_cpu_limit - the CPU limit of this process's cgroups
 * @root: prefixed to every path read ("" for this process's own)
 *
 * cgroup v2's cpu.max and v1's cpu.cfs_quota_us with cpu.cfs_period_us,
 * of the process's cgroup and each ancestor up to its mount.
 *
 * Return: the smallest limit in CPUs, rounded up; 0 when there is none
 * (or none could be read).
 */
long long tdat_cpu_limit(const char *root)
{
	struct hier v2 = { .v2 = true }, v1 = { .v2 = false };
	long long a, b;

	each_line(root, "/proc/self/cgroup", cgroup_line, &v2, &v1);
	if (v2.path || v1.path)
		each_line(root, "/proc/self/mountinfo", mount_line, &v2, &v1);
	a = hier_limit(root, &v2);
	b = hier_limit(root, &v1);
	hier_free(&v2);
	hier_free(&v1);
	return !a ? b : !b || a < b ? a : b;
}

static int usable;
static pthread_once_t usable_once = PTHREAD_ONCE_INIT;

static void count_usable(void)
{
	cpu_set_t cpus;
	long long lim;
	int n = CPU_SETSIZE;

	if (!sched_getaffinity(0, sizeof(cpus), &cpus))
		n = CPU_COUNT(&cpus);
	if (n <= 1) {
		usable = 1;
		return;
	}
	lim = tdat_cpu_limit("");
	usable = lim > 0 && lim < n ? (int)lim : n;
}

/**
 * tdat_usable_cpus - how many CPUs this process may keep busy
 *
 * The CPUs of its affinity mask, no more than its cgroups' CPU limit
 * (tdat_cpu_limit(), a fraction counted as a whole CPU).  Worked out on
 * the first call (about 40,000 instructions and a dozen small reads of
 * /proc and the cgroup files), the same answer after.
 *
 * Return: at least 1.
 */
int tdat_usable_cpus(void)
{
	pthread_once(&usable_once, count_usable);
	return usable;
}
