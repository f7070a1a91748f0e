// SPDX-License-Identifier: LGPL-2.1
/*
 * The follow pass beside KernelShark's loading: a thread started when the
 * last CPU's entries begin to come, fed the last CPU's copies as the
 * event handler keeps them, and waited for when the graph is first drawn.
 */
#include <pthread.h>
#include <stdlib.h>

#include "follow.h"

static void *worker_main(void *arg)
{
	struct kmem_ks_worker *w = arg;

	w->ret = kmem_ks_read_copies(w->fw);
	return NULL;
}

/**
 * kmem_ks_follow_start - start the pass beside KernelShark's loading
 * @ks: the stream's context, the last CPU's first copy just kept (all
 *	the other CPUs' are there)
 *
 * Without a thread, or memory for it, the pass is made when the graph
 * is first drawn instead.
 */
void kmem_ks_follow_start(struct kmem_ks_ctx *ks)
{
	struct kmem_ks_worker *w;
	struct follow *fw;

	if (ks->worker || ks->followed || !ks->cpu_raw)
		return;
	w = calloc(1, sizeof(*w));
	if (!w)
		return;
	fw = kmem_ks_begin(ks);
	if (!fw) {
		free(w);
		return;
	}
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->more, NULL);
	w->fw = fw;
	w->published = ks->cpu_raw[ks->n_cpus - 1].count;
	ks->worker = w;
	if (pthread_create(&w->thread, NULL, worker_main, w)) {
		ks->worker = NULL;
		pthread_mutex_destroy(&w->lock);
		pthread_cond_destroy(&w->more);
		kmem_ks_teardown(fw);
		free(w);
		kmem_ks_unfollow(ks);
	}
}

/* Let the pass read the last CPU's copies so far; @closed: all of them. */
static void publish(struct kmem_ks_ctx *ks, bool closed, bool abort)
{
	struct kmem_ks_worker *w = ks->worker;

	pthread_mutex_lock(&w->lock);
	w->published =
		ks->cpu_raw ? ks->cpu_raw[ks->n_cpus - 1].count : w->published;
	w->closed = closed;
	w->abort = abort;
	pthread_cond_signal(&w->more);
	pthread_mutex_unlock(&w->lock);
}

/**
 * kmem_ks_follow_publish - hand the pass the last CPU's copies so far
 * @ks: the stream's context, its pass running
 */
void kmem_ks_follow_publish(struct kmem_ks_ctx *ks)
{
	publish(ks, false, false);
}

/* Wait for the pass; it is no longer running. */
static struct kmem_ks_worker *join(struct kmem_ks_ctx *ks, bool abort)
{
	struct kmem_ks_worker *w = ks->worker;

	publish(ks, true, abort);
	pthread_join(w->thread, NULL);
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->more);
	ks->worker = NULL;
	return w;
}

/**
 * kmem_ks_follow_stop - stop the pass beside the loading, its work lost
 * @ks: the stream's context (nothing happens without such a pass)
 */
void kmem_ks_follow_stop(struct kmem_ks_ctx *ks)
{
	struct kmem_ks_worker *w;

	if (!ks->worker)
		return;
	w = join(ks, true);
	kmem_ks_teardown(w->fw);
	free(w);
	kmem_ks_unfollow(ks);
}

/**
 * kmem_ks_ready - have the links, leaks and curves made
 * @ks: the stream's context, its entries loaded
 *
 * Waits for the pass beside the loading, or makes it now.
 *
 * Return: true if they are there to draw.
 */
bool kmem_ks_ready(struct kmem_ks_ctx *ks)
{
	struct kmem_ks_worker *w;

	if (ks->worker) {
		w = join(ks, false);
		kmem_ks_finish(ks, w->fw, w->ret);
		free(w);
	} else if (!ks->followed) {
		kmem_ks_follow(ks);
	}
	return !ks->failed;
}
