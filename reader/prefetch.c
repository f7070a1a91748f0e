// SPDX-License-Identifier: LGPL-2.1
/*
 * Chunks inflated ahead (see prefetch.h).
 *
 * The thread reads each CPU's chunk table as next_chunk() (iter.c) will:
 * the same headers, the same end (a table that runs out, a chunk larger
 * than TDAT_MAX_CHUNK), chunks of no page passed over.  It inflates each
 * of the others into a buffer of its own, up to TDAT_PF_AHEAD a CPU ahead
 * of the one iter.c walks, the CPU that iter.c waits on first, then the
 * others in turn.  iter.c takes them by their index in the
 * table (tdat_prefetch_take()) and gives each buffer back when it asks
 * for the CPU's next chunk: TDAT_PF_AHEAD + 1 buffers a CPU, each of its
 * largest chunk's size, made as they are first needed.
 *
 * What the thread could not do (no memory for a buffer or a context) is
 * left to iter.c, which inflates that chunk itself as on one thread: the
 * records, and the damage counted, are those of reading on one thread.
 * iter.c may end a CPU before the thread does (the chunks held past
 * TDAT_MAX_HELD): the thread then stops when that CPU's chunks ahead are
 * made, and they are freed with the rest.
 *
 * Each step costs the same whatever the number of CPUs: the CPUs with
 * room for another chunk wait in a queue, served in turn after the one
 * iter.c waits on, and each side wakes the other only when it waits.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "prefetch.h"

#define PF_BUFS (TDAT_PF_AHEAD + 1)

/* A chunk inflated ahead. */
struct pf_chunk {
	uint64_t index; /* in the CPU's table */
	uint8_t *buf;
	size_t out; /* bytes inflated */
	int ret;    /* 0, -1: it does not inflate, 1: left to iter.c */
};

struct pf_cpu {
	/* the thread's alone: where it is in the table */
	struct tcur chunks;
	uint64_t left;	/* headers not read yet */
	uint64_t index; /* of the next header */
	size_t size;	/* of a buffer: the largest chunk */
	/* under the lock */
	bool end;	     /* no chunk after those ready */
	bool queued;	     /* in the thread's queue */
	uint64_t next_index; /* the index after the last header read */
	struct pf_chunk ready[TDAT_PF_AHEAD];
	unsigned int head, count;
	uint8_t *spare[PF_BUFS];
	int nspare;
	int made;	/* buffers made */
	uint8_t *taken; /* the buffer iter.c walks */
};

struct tdat_prefetch {
	enum tdat_compress compress;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t room;  /* for the thread: a buffer or a wish */
	pthread_cond_t ready; /* for iter.c: its chunk */
	bool stop;
	bool idle;  /* the thread waits on @room */
	int want;   /* the CPU iter.c waits on, -1 */
	int *queue; /* CPUs that may have room, in turn */
	int qhead, qlen;
	int batch; /* queued CPUs that wake the thread */
	int n;
	struct pf_cpu c[];
};

/* Can the thread inflate the next chunk of @c now? */
static bool pf_can_work(const struct pf_cpu *c)
{
	return !c->end && c->count < TDAT_PF_AHEAD &&
	       (c->nspare || c->made < PF_BUFS);
}

/* CPU @i joins the queue, when it has room and is not in it yet. */
static void pf_queue(struct tdat_prefetch *pf, int i)
{
	struct pf_cpu *c = &pf->c[i];

	if (c->queued || !pf_can_work(c))
		return;
	c->queued = true;
	pf->queue[(pf->qhead + pf->qlen++) % pf->n] = i;
}

/* The CPU to work on: the one iter.c waits on, else the next queued. */
static int pf_pick(struct tdat_prefetch *pf)
{
	int i;

	if (pf->want >= 0 && pf_can_work(&pf->c[pf->want]))
		return pf->want;
	while (pf->qlen) {
		i = pf->queue[pf->qhead];
		pf->qhead = (pf->qhead + 1) % pf->n;
		pf->qlen--;
		pf->c[i].queued = false;
		if (pf_can_work(&pf->c[i]))
			return i;
	}
	return -1;
}

/*
 * Wake the thread, when it waits: for the CPU iter.c waits on, or for a
 * batch of CPUs with room (many CPUs: not a wake each chunk).
 */
static void pf_wake(struct tdat_prefetch *pf)
{
	if (pf->idle && (pf->want >= 0 || pf->qlen >= pf->batch))
		pthread_cond_signal(&pf->room);
}

/* A buffer back to @c's spares (NULL: one the thread could not make). */
static void pf_give(struct pf_cpu *c, uint8_t *buf)
{
	if (buf)
		c->spare[c->nspare++] = buf;
	else
		c->made--;
}

/* The chunk at the head of @c's ready ones leaves them. */
static struct pf_chunk pf_pop(struct pf_cpu *c)
{
	struct pf_chunk ch = c->ready[c->head];

	c->head = (c->head + 1) % TDAT_PF_AHEAD;
	c->count--;
	return ch;
}

/*
 * The next chunk of @c's table that iter.c will ask for, as next_chunk()
 * reads the table.  Return: false at its end.
 */
static bool pf_next_header(struct pf_cpu *c, uint64_t *index,
			   const uint8_t **src, uint64_t *zsize, uint64_t *size)
{
	while (c->left) {
		c->left--;
		*index = c->index++;
		if (!tdat_chunk_head(&c->chunks, zsize, size, src)) {
			c->left = 0;
			return false;
		}
		if (*size)
			return true;
	}
	return false;
}

/* Inflate @c's next chunk into @ch (outside the lock); false: no more. */
static bool pf_inflate(struct tdat_prefetch *pf, struct pf_cpu *c, void **zctx,
		       struct pf_chunk *ch)
{
	const uint8_t *src;
	uint64_t zsize, size;

	if (!pf_next_header(c, &ch->index, &src, &zsize, &size))
		return false;
	if (!ch->buf && (ch->buf = malloc(c->size)))
		tdat_populate(ch->buf, c->size);
	if (!ch->buf || size > c->size) {
		ch->ret = 1;
		return true;
	}
	ch->ret = tdat_inflate_ctx(pf->compress, zctx, src, (size_t)zsize,
				   ch->buf, (size_t)size, &ch->out);
	if (ch->ret == TDAT_INFLATE_NOMEM)
		ch->ret = 1; /* no context: iter.c has its own */
	return true;
}

static void *pf_thread(void *arg)
{
	struct tdat_prefetch *pf = arg;
	void *zctx = NULL;

	tdat_thread_started();
	pthread_mutex_lock(&pf->lock);
	while (!pf->stop) {
		struct pf_chunk ch = { 0 };
		struct pf_cpu *c;
		bool got;
		int i = pf_pick(pf);

		if (i < 0) {
			pf->idle = true;
			pthread_cond_wait(&pf->room, &pf->lock);
			pf->idle = false;
			continue;
		}
		c = &pf->c[i];
		if (c->nspare)
			ch.buf = c->spare[--c->nspare];
		else
			c->made++;
		pthread_mutex_unlock(&pf->lock);
		got = pf_inflate(pf, c, &zctx, &ch);
		pthread_mutex_lock(&pf->lock);
		c->next_index = c->index;
		if (got) {
			c->ready[(c->head + c->count++) % TDAT_PF_AHEAD] = ch;
		} else {
			c->end = true;
			pf_give(c, ch.buf);
		}
		pf_queue(pf, i);
		if (i == pf->want)
			pthread_cond_signal(&pf->ready);
	}
	pthread_mutex_unlock(&pf->lock);
	tdat_inflate_ctx_free(zctx);
	return NULL;
}

/**
 * tdat_prefetch_start - start inflating a buffer's chunks ahead
 * @f: the file
 * @cpus: the chunk tables of the CPUs iter.c reads, its streams' order
 * @n: their number
 *
 * Return: the prefetcher, or NULL: no thread (none could be made, no
 * memory, the buffers would take more than TDAT_PF_BUDGET).
 */
struct tdat_prefetch *tdat_prefetch_start(const struct tdat_file *f,
					  const struct tdat_pf_cpu *cpus, int n)
{
	struct tdat_prefetch *pf;
	uint64_t bytes = 0;
	pthread_attr_t attr, *at;
	int i, err;

	if (n <= 0)
		return NULL;
	for (i = 0; i < n; i++)
		bytes += PF_BUFS * cpus[i].max_size;
	if (bytes > TDAT_PF_BUDGET)
		return NULL;
	pf = calloc(1, sizeof(*pf) + (size_t)n * sizeof(pf->c[0]));
	if (!pf)
		return NULL;
	pf->queue = calloc((size_t)n, sizeof(*pf->queue));
	if (!pf->queue) {
		free(pf);
		return NULL;
	}
	pf->compress = f->compress;
	pf->want = -1;
	pf->n = n;
	pf->batch = n < 8 ? 1 : n / 8 < 32 ? n / 8 : 32;
	for (i = 0; i < n; i++) {
		pf->c[i].chunks = cpus[i].chunks;
		pf->c[i].left = cpus[i].nchunks;
		pf->c[i].size = (size_t)cpus[i].max_size;
		pf->c[i].end = !cpus[i].max_size;
		pf_queue(pf, i);
	}
	pthread_mutex_init(&pf->lock, NULL);
	pthread_cond_init(&pf->room, NULL);
	pthread_cond_init(&pf->ready, NULL);
	at = tdat_thread_attr(&attr);
	err = pthread_create(&pf->thread, at, pf_thread, pf);
	if (at)
		pthread_attr_destroy(at);
	if (err) {
		pthread_cond_destroy(&pf->ready);
		pthread_cond_destroy(&pf->room);
		pthread_mutex_destroy(&pf->lock);
		free(pf->queue);
		free(pf);
		return NULL;
	}
	return pf;
}

/**
 * tdat_prefetch_take - a CPU's next chunk, inflated
 * @pf: the prefetcher
 * @cpu: the CPU's place in tdat_prefetch_start()'s @cpus
 * @index: the chunk's index in the CPU's table (from 0)
 * @buf: set to its bytes, with room for its size (the CPU's buffer
 *	until its next take)
 * @out: set to the bytes inflated
 *
 * Called for the chunks of each CPU in their order; the buffer of the
 * CPU's previous chunk is given back.  Waits for the thread when the
 * chunk is on its way.
 *
 * Return: 0 with @buf and @out; -1 when the chunk does not inflate; 1
 * when it was not inflated ahead (inflate it here).
 */
int tdat_prefetch_take(struct tdat_prefetch *pf, int cpu, uint64_t index,
		       uint8_t **buf, size_t *out)
{
	struct pf_cpu *c = &pf->c[cpu];
	struct pf_chunk ch;
	int ret = 1;

	pthread_mutex_lock(&pf->lock);
	if (c->taken) {
		pf_give(c, c->taken);
		c->taken = NULL;
	}
	for (;;) {
		/* chunks that iter.c passed over: not to be walked */
		while (c->count && c->ready[c->head].index < index)
			pf_give(c, pf_pop(c).buf);
		if (c->count) {
			if (c->ready[c->head].index != index)
				break;
			ch = pf_pop(c);
			ret = ch.ret;
			if (!ret) {
				c->taken = ch.buf;
				*buf = ch.buf;
				*out = ch.out;
			} else {
				pf_give(c, ch.buf);
			}
			break;
		}
		if (c->end || c->next_index > index)
			break;
		pf->want = cpu;
		pf_queue(pf, cpu);
		pf_wake(pf);
		pthread_cond_wait(&pf->ready, &pf->lock);
	}
	pf->want = -1;
	pf_queue(pf, cpu);
	pf_wake(pf);
	pthread_mutex_unlock(&pf->lock);
	return ret;
}

/**
 * tdat_prefetch_stop - stop the thread and free the buffers
 * @pf: the prefetcher, or NULL
 */
void tdat_prefetch_stop(struct tdat_prefetch *pf)
{
	int i;

	if (!pf)
		return;
	pthread_mutex_lock(&pf->lock);
	pf->stop = true;
	pthread_cond_signal(&pf->room);
	pthread_mutex_unlock(&pf->lock);
	pthread_join(pf->thread, NULL);
	for (i = 0; i < pf->n; i++) {
		struct pf_cpu *c = &pf->c[i];

		while (c->count)
			free(pf_pop(c).buf);
		while (c->nspare)
			free(c->spare[--c->nspare]);
		free(c->taken);
	}
	pthread_cond_destroy(&pf->ready);
	pthread_cond_destroy(&pf->room);
	pthread_mutex_destroy(&pf->lock);
	free(pf->queue);
	free(pf);
}
