// SPDX-License-Identifier: LGPL-2.1
/*
 * The reading thread and the block queue (see pipeline.h).
 *
 * A block holds records one after another (block.h).  The reader fills
 * a block, queues it, and takes an empty one (waiting when TK_BLOCKS
 * are in flight); the counting side takes queued blocks in order, hands
 * each to the session (tk_session_block()) and gives it back.
 * The order of records is libtracecmd's, so the statistics are exactly
 * those of a single thread.
 *
 * When the process may run on one CPU only, the two threads would take
 * turns on it, and the copy would be all they add: the reading thread
 * is then the calling one, and tk_pipe_push() counts each record where
 * it lies (tk_session_count()).
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "block.h"
#include "pipeline.h"
#include "tdat.h"

#define TK_BLOCK_SIZE (256U << 10)
#define TK_BLOCKS 4

struct block {
	struct block *next;
	size_t used;
	size_t cap;
	char buf[];
};

/*
 * Cache-line aligned, the reading side's members on a line of their own:
 * the reading thread reads them at every record, apart from the members
 * both threads change and from the counting thread's locals, which lie
 * next to this structure (a local of tk_pipeline_run()).
 */
struct tk_pipe {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct block *full, *full_tail;	/* queued, oldest first */
	struct block *empty;		/* given back */
	bool stop;			/* the counting side gave up */
	int ret;			/* the reader's result */
	/* changed under the lock, read by spin() without it: atomics */
	bool done;  /* the reader has finished */
	int queued; /* full blocks not taken yet */
	int spare;  /* blocks given back, not taken yet */
	int cpu[2]; /* where each side ran last: SIDE_READER, SIDE_COUNTER */
	/* the reading side's */
	struct {
		tk_produce_fn produce;
		void *src;
		struct block *cur;
		char *w;     /* where the next record goes in @cur */
		size_t room; /* bytes left from @w */
		size_t max_rec;
		int allocated;
		bool oom; /* no memory for a block */
		/* counting here, on one thread: the session, else NULL */
		struct tk_session *here;
		struct tk_progress *progress;
	} __attribute__((aligned(64)));
} __attribute__((aligned(64)));

enum { SIDE_READER, SIDE_COUNTER };

/*
 * Before it sleeps on the condition, a side that waits for the other
 * spins this long: on a virtual machine, a thread woken on a vCPU gone
 * idle starts tens of microseconds late.  On the bench's 1m recording
 * (v6), 41.5 -> 37.5 ms wall for 60.6 -> 68.2 ms of CPU (perf stat -r 10).
 * Not while both sides share a CPU (the other CPU busy with other work):
 * there the spin would only hold back the side it waits for.
 */
#define TK_SPIN_NS 200000

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ volatile("yield" ::: "memory");
#else
	__asm__ volatile("" ::: "memory");
#endif
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

/* Note where side @side runs now. */
static void ran(struct tk_pipe *p, int side)
{
	__atomic_store_n(&p->cpu[side], sched_getcpu(), __ATOMIC_RELAXED);
}

/*
 * Spin until *@v is above 0, the reader is done, TK_SPIN_NS passed, or
 * the other side of @side is seen on our CPU.
 */
static void spin(struct tk_pipe *p, const int *v, int side)
{
	const int *other = &p->cpu[!side];
	uint64_t until = 0;
	unsigned int i;

	for (i = 0; __atomic_load_n(v, __ATOMIC_ACQUIRE) <= 0 &&
		    !__atomic_load_n(&p->done, __ATOMIC_ACQUIRE);
	     i++) {
		if (!(i & 63)) {
			uint64_t t = now_ns();

			if (sched_getcpu() ==
			    __atomic_load_n(other, __ATOMIC_RELAXED))
				return;
			if (!until)
				until = t + TK_SPIN_NS;
			else if (t > until)
				return;
		}
		cpu_relax();
	}
}

/* An empty block for the reader: a given-back one, a new one, or wait. */
static struct block *take_empty(struct tk_pipe *p)
{
	struct block *b;

	if (p->allocated >= TK_BLOCKS)
		spin(p, &p->spare, SIDE_READER);
	pthread_mutex_lock(&p->lock);
	while (!p->empty && p->allocated >= TK_BLOCKS && !p->stop)
		pthread_cond_wait(&p->cond, &p->lock);
	b = p->empty;
	if (b) {
		p->empty = b->next;
		__atomic_fetch_sub(&p->spare, 1, __ATOMIC_RELEASE);
	} else if (!p->stop)
		p->allocated++;
	pthread_mutex_unlock(&p->lock);
	if (!b && !p->stop) {
		b = malloc(sizeof(*b) + p->max_rec);
		if (b) {
			b->cap = p->max_rec;
			tdat_populate(b, sizeof(*b) + p->max_rec);
		} else {
			p->oom = true;
		}
	}
	if (b)
		b->used = 0;
	return b;
}

static void queue_full(struct tk_pipe *p, struct block *b)
{
	b->next = NULL;
	pthread_mutex_lock(&p->lock);
	if (p->full_tail)
		p->full_tail->next = b;
	else
		p->full = b;
	p->full_tail = b;
	__atomic_fetch_add(&p->queued, 1, __ATOMIC_RELEASE);
	ran(p, SIDE_READER);
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
}

/* The filled part of the current block, queued. */
static void queue_cur(struct tk_pipe *p)
{
	p->cur->used = (size_t)(p->w - p->cur->buf);
	queue_full(p, p->cur);
	p->cur = NULL;
	p->room = 0;
}

/*
 * Queue the current block and take an empty one for a record of @need
 * bytes.  Out of line: once a block.  Return: 0, or -1 when the
 * counting side stopped, memory ran out or the record is larger than a
 * block.
 */
static __attribute__((noinline)) int next_block(struct tk_pipe *p, size_t need)
{
	if (p->cur)
		queue_cur(p);
	p->cur = take_empty(p);
	if (!p->cur)
		return -1;
	p->w = p->cur->buf;
	p->room = p->cur->cap;
	return need > p->room ? -1 : 0;
}

/**
 * tk_pipe_push - the reading side hands over one record (copied)
 * @p: the pipe
 * @rec: the record; its data may be reused once this returns
 *
 * On one thread (tk_pipeline_run()), the record is counted before this
 * returns, with no copy.
 *
 * Return: 0, or -1 when the counting side stopped, memory ran out or the
 * record is larger than a block (damaged sizes are the reader's to
 * catch: a negative size is refused here too).
 */
int tk_pipe_push(struct tk_pipe *p, const struct tep_record *rec)
{
	size_t need;
	struct tk_rec_hdr *r;

	if (rec->size < 0)
		return -1;
	if (p->here) {
		tk_session_count(p->here, p->progress, rec);
		return 0;
	}
	need = tk_rec_bytes((size_t)rec->size);
	if (need > p->room && next_block(p, need))
		return -1;
	r = (struct tk_rec_hdr *)p->w;
	r->ts = rec->ts;
	r->offset = rec->offset;
	r->missed = rec->missed_events;
	r->cpu = rec->cpu;
	r->size = (unsigned int)rec->size;
	memcpy(r + 1, rec->data, (size_t)rec->size);
	p->w += need;
	p->room -= need;
	return 0;
}

static void *reader(void *arg)
{
	struct tk_pipe *p = arg;
	int ret;

	ran(p, SIDE_READER);
	ret = p->produce(p, p->src);
	if (p->cur)
		queue_cur(p);
	pthread_mutex_lock(&p->lock);
	p->ret = ret;
	__atomic_store_n(&p->done, true, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* The next queued block, or NULL once the reader is done. */
static struct block *take_full(struct tk_pipe *p)
{
	struct block *b;

	spin(p, &p->queued, SIDE_COUNTER);
	pthread_mutex_lock(&p->lock);
	while (!p->full && !__atomic_load_n(&p->done, __ATOMIC_RELAXED))
		pthread_cond_wait(&p->cond, &p->lock);
	b = p->full;
	if (b) {
		__atomic_fetch_sub(&p->queued, 1, __ATOMIC_RELEASE);
		p->full = b->next;
		if (!p->full)
			p->full_tail = NULL;
	}
	pthread_mutex_unlock(&p->lock);
	return b;
}

static void give_back(struct tk_pipe *p, struct block *b)
{
	pthread_mutex_lock(&p->lock);
	b->next = p->empty;
	p->empty = b;
	__atomic_fetch_add(&p->spare, 1, __ATOMIC_RELEASE);
	ran(p, SIDE_COUNTER);
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
}

static void free_blocks(struct block *b)
{
	struct block *next;

	for (; b; b = next) {
		next = b->next;
		free(b);
	}
}

/* $TRACE_KMEM_THREADS: 1 or 2, else 0 (not set, or neither) */
static int threads_asked(void)
{
	const char *v = getenv("TRACE_KMEM_THREADS");

	return v && (!strcmp(v, "1") || !strcmp(v, "2")) ? *v - '0' : 0;
}

/**
 * tk_pipeline_one_thread - read and count on one thread?
 *
 * $TRACE_KMEM_THREADS=1 or 2 says; else yes when the process may run on
 * one CPU only (taskset, a cpuset: tdat_usable_cpus()).  On one CPU the
 * two threads take turns, and counting where the records lie saves the
 * copy: bench/RESULTS.md, "One CPU": under taskset -c 1, the 1m
 * recording 49.4 -> 41.4 ms (v6) and 69.0 -> 65.0 ms (v7).  Not under a
 * cgroup CPU limit: two threads share its time in parallel within each
 * period (same section).
 *
 * Return: true for one thread.
 */
bool tk_pipeline_one_thread(void)
{
	int n = threads_asked();

	return n ? n == 1 : tdat_usable_cpus() == 1;
}

/*
 * Below these bytes of a buffer's data in the file, a second thread does
 * not repay what it costs: its start, its buffers' fresh pages (10 us
 * each on the bench's host), the hand-overs, and the second CPU it takes
 * from the kallsyms thread while that one decompresses.  Measured there
 * (perf stat, alternated with TRACE_KMEM_THREADS=2, medians):
 * bench/RESULTS.md, run 41.
 */
#define TK_SMALL_PLAIN (16ULL << 20)
#define TK_SMALL_COMPRESSED (2ULL << 20)

/**
 * tk_pipeline_small - too little data for a second thread?
 * @bytes: a buffer's data in the file (tdat_buffer_bytes())
 * @compressed: compressed chunks (TK_SMALL_COMPRESSED applies), or pages
 *
 * Return: true when one thread should read and count it; never when
 * $TRACE_KMEM_THREADS says (tk_pipeline_one_thread() follows it).
 */
bool tk_pipeline_small(uint64_t bytes, bool compressed)
{
	return !threads_asked() &&
	       bytes < (compressed ? TK_SMALL_COMPRESSED : TK_SMALL_PLAIN);
}

/* tk_pipeline_run() on one thread: @produce's records counted as pushed. */
static int run_here(struct tk_pipe *p, struct tk_session *s,
		    struct tk_progress *progress)
{
	p->here = s;
	p->progress = progress;
	return p->produce(p, p->src) < 0 ? -1 : 0;
}

/**
 * tk_pipeline_run - read on a second thread, count here
 * @produce: the reading side: pushes each record with tk_pipe_push(), in
 *	order, and returns 0 or -1
 * @src: what @produce reads
 * @s: the session the records go to, in the order pushed
 * @progress: ticked as records are counted
 *
 * On one CPU (tk_pipeline_one_thread()), or when no thread can be
 * made, @produce runs here and its records are counted as it pushes
 * them.
 *
 * Return: 0, -1 when reading failed, or TK_PIPE_NOMEM when memory ran
 * out for the records' blocks.
 */
int tk_pipeline_run(tk_produce_fn produce, void *src, struct tk_session *s,
		    struct tk_progress *progress)
{
	struct tk_pipe p = { .produce = produce, .src = src };
	int page = tep_get_sub_buffer_size(s->tep);
	struct block *b;
	pthread_t t;
	int ret;

	if (tk_pipeline_one_thread())
		return run_here(&p, s, progress);
	p.max_rec = TK_BLOCK_SIZE;
	if (page > 0 && (size_t)page * 2 > p.max_rec)
		p.max_rec = (size_t)page * 2;
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.cond, NULL);
	p.cpu[SIDE_READER] = -1;
	ran(&p, SIDE_COUNTER);
	if (pthread_create(&t, NULL, reader, &p)) {
		/* no second thread (a limit on threads): one will do */
		ret = run_here(&p, s, progress);
	} else {
		while ((b = take_full(&p))) {
			tk_session_block(s, progress, b->buf, b->used);
			give_back(&p, b);
		}
		pthread_join(t, NULL);
		ret = p.oom ? TK_PIPE_NOMEM : p.ret < 0 ? -1 : 0;
	}
	free_blocks(p.full);
	free_blocks(p.empty);
	free(p.cur);
	pthread_cond_destroy(&p.cond);
	pthread_mutex_destroy(&p.lock);
	return ret;
}
