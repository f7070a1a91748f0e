// SPDX-License-Identifier: LGPL-2.1
/*
 * Whether and where the reader's threads run: the short-lived ones
 * (kallsyms) none on one CPU (tdat_usable_cpus()), else beside their
 * creator; the one that inflates chunks ahead (prefetch.c) when its
 * caller asks, for the whole pass, beside its creator too.
 *
 * A thread created to share a short piece of work (the kallsyms
 * decompression, the second half of the kallsyms pass) is queued by
 * Linux on its creator's CPU when the machine is quiet, and runs only
 * when the creator blocks: on a 2-vCPU virtual machine the second half of
 * the pass started 0.8 ms late, when the first half ended, in 7 runs of
 * 8.  Created with the other CPUs as its affinity, it started within
 * 0.05 ms, and the pass took 1.0 ms instead of 1.8.
 */
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include "internal.h"

/**
 * tdat_usable_cpus - how many CPUs this process may run on
 *
 * Those of its affinity mask (taskset, a cpuset).  On one, a thread to
 * share a piece of work would only take turns with its creator: the
 * reader makes none, and trace-kmem reads and counts on one thread.
 *
 * A cgroup CPU limit (cpu.max, cpu.cfs_quota_us) does not count: within
 * its period (100 ms by default) two threads share its time in parallel.
 * Measured in a cgroup limited to 1 CPU (bench/RESULTS.md, "One CPU"):
 * one thread took 34% longer than two on the 1m recording (v7), 8%
 * longer on two such files, and 7% less time (v6: 14%) only on five.
 *
 * Return: at least 1.
 */
int tdat_usable_cpus(void)
{
	cpu_set_t cpus;

	if (sched_getaffinity(0, sizeof(cpus), &cpus))
		return CPU_SETSIZE;
	return CPU_COUNT(&cpus) > 1 ? CPU_COUNT(&cpus) : 1;
}

/**
 * tdat_thread_attr - attributes for a thread that should run beside us
 * @attr: initialised here; pthread_attr_destroy() it after the create
 *
 * The CPUs this thread may run on, but the one it runs on now; with no
 * other, no affinity is set (the thread goes where Linux puts it).
 *
 * Return: @attr, ready for pthread_create(); NULL when it could not be
 * initialised (create with default attributes then).
 */
pthread_attr_t *tdat_thread_attr(pthread_attr_t *attr)
{
	cpu_set_t cpus;
	int me = sched_getcpu();

	if (pthread_attr_init(attr))
		return NULL;
	if (me < 0 || me >= CPU_SETSIZE ||
	    sched_getaffinity(0, sizeof(cpus), &cpus))
		return attr;
	CPU_CLR(me, &cpus);
	if (CPU_COUNT(&cpus))
		pthread_attr_setaffinity_np(attr, sizeof(cpus), &cpus);
	return attr;
}

/**
 * tdat_thread_started - what a thread of tdat_thread_attr() does first
 *
 * It may run on every CPU of the process again (those of its main
 * thread, which the reader never restricts).
 */
void tdat_thread_started(void)
{
	cpu_set_t cpus;

	if (!sched_getaffinity(getpid(), sizeof(cpus), &cpus))
		sched_setaffinity(0, sizeof(cpus), &cpus);
}
