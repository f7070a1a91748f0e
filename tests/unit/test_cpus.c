// SPDX-License-Identifier: LGPL-2.1
/*
 * reader/cpus.c's tdat_cpu_limit() on hand-made /proc and cgroup trees
 * under a temporary directory: cgroup v2 (cpu.max) and v1 (the cpu
 * controller's cpu.cfs_quota_us and cpu.cfs_period_us), limits set on
 * the process's cgroup or an ancestor, both hierarchies at once, a
 * container's mount of its own cgroup, escaped mount points, optional
 * mountinfo fields, and what must count as no limit: "max", -1, a zero
 * period, junk, the cpuacct controller alone, a cgroup outside the
 * mount or the namespace ("/.."), no files at all.  Each expected value
 * is the smallest quota / period of the tree, rounded up, worked out by
 * hand in the comment of its case.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "unit.h"

static char root[64];

/* Write @text to @root/@path, making its directories. */
static void put(const char *path, const char *text)
{
	char name[512], *p;
	FILE *f;

	snprintf(name, sizeof(name), "%s/%s", root, path);
	for (p = name + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(name, 0755) && errno != EEXIST)
			CHECK(!"mkdir");
		*p = '/';
	}
	f = fopen(name, "w");
	CHECK(f);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void fresh(void)
{
	char cmd[128];

	if (root[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		CHECK(!system(cmd));
	}
	strcpy(root, "/tmp/test_cpus.XXXXXX");
	CHECK(mkdtemp(root));
}

#define V2_MOUNT "30 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw\n"
#define PROC_ROOT "1 0 8:1 / / rw - ext4 /dev/sda1 rw\n"

static void test_v2(void)
{
	/* the limit on the parent: 150000 / 100000 = 1.5, rounded up 2 */
	fresh();
	put("proc/self/cgroup", "0::/a/b\n");
	put("proc/self/mountinfo", PROC_ROOT V2_MOUNT);
	put("sys/fs/cgroup/a/b/cpu.max", "max 100000\n");
	put("sys/fs/cgroup/a/cpu.max", "150000 100000\n");
	put("sys/fs/cgroup/cpu.max", "max 100000\n");
	CHECK_U64(tdat_cpu_limit(root), 2);
	/* the child's smaller: 50000 / 100000 = 0.5, up 1 */
	put("sys/fs/cgroup/a/b/cpu.max", "50000 100000\n");
	CHECK_U64(tdat_cpu_limit(root), 1);
	/* exactly 1 CPU stays 1 */
	put("sys/fs/cgroup/a/b/cpu.max", "100000 100000\n");
	CHECK_U64(tdat_cpu_limit(root), 1);
	/* 250000 / 100000 = 2.5, up 3; the parent's gone */
	put("sys/fs/cgroup/a/b/cpu.max", "250000 100000");
	put("sys/fs/cgroup/a/cpu.max", "max 100000\n");
	CHECK_U64(tdat_cpu_limit(root), 3);
	/* the mount point itself (the root of the tree): 400000 / 100000 */
	put("sys/fs/cgroup/a/b/cpu.max", "max 100000\n");
	put("sys/fs/cgroup/cpu.max", "400000 100000\n");
	CHECK_U64(tdat_cpu_limit(root), 4);
	/* what is no limit: a zero period, junk, a third word, nothing */
	put("sys/fs/cgroup/cpu.max", "100000 0\n");
	CHECK_U64(tdat_cpu_limit(root), 0);
	put("sys/fs/cgroup/cpu.max", "lots 100000\n");
	CHECK_U64(tdat_cpu_limit(root), 0);
	put("sys/fs/cgroup/cpu.max", "100000 100000 7\n");
	CHECK_U64(tdat_cpu_limit(root), 0);
	put("sys/fs/cgroup/cpu.max", "-100000 100000\n");
	CHECK_U64(tdat_cpu_limit(root), 0);
	put("sys/fs/cgroup/cpu.max", "");
	CHECK_U64(tdat_cpu_limit(root), 0);
}

static void test_v1(void)
{
	/* a container's own cgroup mounted as the hierarchy's root:
	 * 200000 / 100000 = 2, read at the mount point */
	fresh();
	put("proc/self/cgroup", "12:pids:/docker/c1\n"
				"4:cpu,cpuacct:/docker/c1\n"
				"0::/\n");
	put("proc/self/mountinfo", PROC_ROOT
	    "40 31 0:37 /docker/c1 /sys/fs/cgroup/cpu,cpuacct ro,nosuid "
	    "master:18 - cgroup cgroup rw,cpu,cpuacct\n");
	put("sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "200000\n");
	put("sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us", "100000\n");
	CHECK_U64(tdat_cpu_limit(root), 2);
	/* -1: no limit */
	put("sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "-1\n");
	CHECK_U64(tdat_cpu_limit(root), 0);
	/* no period file: no limit */
	put("sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "50000\n");
	{
		char name[512];

		snprintf(name, sizeof(name),
			 "%s/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us",
			 root);
		CHECK(!unlink(name));
	}
	CHECK_U64(tdat_cpu_limit(root), 0);
	/* a 30 ms period: 50 / 30, up 2 */
	put("sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us", "30000\n");
	CHECK_U64(tdat_cpu_limit(root), 2);

	/* the host's view, a mount point with a space (\040), the limit
	 * two levels up: 70000 / 100000, up 1 */
	fresh();
	put("proc/self/cgroup", "3:cpu:/s/t/u\n");
	put("proc/self/mountinfo", PROC_ROOT
	    "41 31 0:38 / /cg/my\\040cpu rw shared:5 - cgroup cpu rw,cpu\n");
	put("cg/my cpu/s/t/u/cpu.cfs_quota_us", "-1\n");
	put("cg/my cpu/s/t/u/cpu.cfs_period_us", "100000\n");
	put("cg/my cpu/s/cpu.cfs_quota_us", "70000\n");
	put("cg/my cpu/s/cpu.cfs_period_us", "100000\n");
	CHECK_U64(tdat_cpu_limit(root), 1);
}

static void test_both(void)
{
	/* v1's cpu limit 3 (300000 / 100000), v2 2 (200000 / 100000) */
	fresh();
	put("proc/self/cgroup", "1:cpu:/x\n0::/y\n");
	put("proc/self/mountinfo", PROC_ROOT V2_MOUNT
	    "32 31 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n");
	put("sys/fs/cgroup/cpu/x/cpu.cfs_quota_us", "300000\n");
	put("sys/fs/cgroup/cpu/x/cpu.cfs_period_us", "100000\n");
	put("sys/fs/cgroup/y/cpu.max", "200000 100000\n");
	CHECK_U64(tdat_cpu_limit(root), 2);
	/* v2 unlimited: v1's 3 */
	put("sys/fs/cgroup/y/cpu.max", "max 100000\n");
	CHECK_U64(tdat_cpu_limit(root), 3);
}

static void test_none(void)
{
	/* no /proc at all */
	fresh();
	CHECK_U64(tdat_cpu_limit(root), 0);
	/* the cpuacct controller is not the cpu controller */
	put("proc/self/cgroup", "2:cpuacct:/x\n");
	put("proc/self/mountinfo",
	    PROC_ROOT "33 31 0:30 / /sys/fs/cgroup/cpuacct rw - cgroup cgroup "
		      "rw,cpuacct\n");
	put("sys/fs/cgroup/cpuacct/x/cpu.cfs_quota_us", "100000\n");
	put("sys/fs/cgroup/cpuacct/x/cpu.cfs_period_us", "100000\n");
	CHECK_U64(tdat_cpu_limit(root), 0);
	/* a cgroup outside the mount's root, and one outside our cgroup
	 * namespace: neither is read */
	fresh();
	put("proc/self/cgroup", "0::/other/z\n");
	put("proc/self/mountinfo", PROC_ROOT
	    "30 23 0:26 /mine /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
	put("sys/fs/cgroup/cpu.max", "100000 100000\n");
	put("sys/fs/cgroup/other/z/cpu.max", "100000 100000\n");
	CHECK_U64(tdat_cpu_limit(root), 0);
	put("proc/self/cgroup", "0::/mine/../../z\n");
	put("z/cpu.max", "100000 100000\n");
	CHECK_U64(tdat_cpu_limit(root), 0);
	/* no cgroup2 mount for the v2 cgroup; broken lines around */
	fresh();
	put("proc/self/cgroup", "garbage\n0::\n0::/q\n");
	put("proc/self/mountinfo",
	    PROC_ROOT "short line\n"
		      "30 23 0:26 / /sys/fs/cgroup rw - tmpfs tmpfs rw\n");
	put("sys/fs/cgroup/q/cpu.max", "100000 100000\n");
	CHECK_U64(tdat_cpu_limit(root), 0);
	/* the same with the mount: 1 */
	put("proc/self/mountinfo", PROC_ROOT "short line\n" V2_MOUNT);
	CHECK_U64(tdat_cpu_limit(root), 1);
}

static void test_usable(void)
{
	int n = tdat_usable_cpus();
	cpu_set_t cpus;

	/* at least 1, at most the affinity's CPUs */
	CHECK(n >= 1);
	CHECK(!sched_getaffinity(0, sizeof(cpus), &cpus));
	CHECK(n <= CPU_COUNT(&cpus));
}

int main(void)
{
	char cmd[128];

	RUN(test_v2);
	RUN(test_v1);
	RUN(test_both);
	RUN(test_none);
	RUN(test_usable);
	if (root[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		if (system(cmd))
			return 1;
	}
	UNIT_EXIT();
}
