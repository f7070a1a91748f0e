// SPDX-License-Identifier: LGPL-2.1
/*
 * Where the reader's short-lived threads run.
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
