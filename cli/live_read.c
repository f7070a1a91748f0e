// SPDX-License-Identifier: LGPL-2.1
/*
 * Per-CPU ring buffer reading for trace-kmem live (see live_read.h).
 *
 * Records get the fields libtracecmd would give them: a CPU's pages
 * are numbered as if they lay one after another in a file, so a
 * record's offset is its page's base plus its place in the page, and
 * lib/'s stack matching (a kernel_stack record right after its
 * allocation, or first on the next page) works as on a trace.dat.
 * Within a round, records are merged by timestamp across CPUs: each
 * round drains every CPU first, so a later round only holds records
 * that were written after this one started.  A round reads at most a
 * ring buffer's worth of pages per CPU, so that it ends even when the
 * kernel writes faster than we read; then the ring buffer is losing
 * events anyway (they are counted), and records of two CPUs near a
 * round's end may be counted out of order.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kbuffer.h>

#include "live_read.h"

static int cpu_wanted(const struct tk_filter *f, int cpu)
{
	return !f->cpus || (cpu <= f->max_cpu &&
			    CPU_ISSET_S((size_t)cpu, f->cpus_size, f->cpus));
}

/*
 * A CPU's trace_pipe_raw, opened here with O_CLOEXEC (tracefs_cpu_open()
 * opens it without): a traced command must not inherit it, or the
 * instance cannot be removed while the command runs on.
 */
static struct tracefs_cpu *open_cpu(struct tracefs_instance *inst, int cpu)
{
	struct tracefs_cpu *tcpu;
	char name[64];
	char *path;
	int fd;

	snprintf(name, sizeof(name), "per_cpu/cpu%d/trace_pipe_raw", cpu);
	path = tracefs_instance_get_file(inst, name);
	if (!path)
		return NULL;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	tracefs_put_tracing_file(path);
	if (fd < 0)
		return NULL;
	tcpu = tracefs_cpu_alloc_fd(fd, getpagesize(), true);
	if (!tcpu)
		close(fd);
	return tcpu;
}

/**
 * live_reader_open - open the ring buffers of @inst's CPUs
 * @r: the reader
 * @inst: the instance
 * @tep: its event formats (the header page gives the kbuffer layout)
 * @f: the filters: only CPUs of --cpu are read
 * @buffer_kb: the ring buffer's size per CPU
 *
 * Return: 0, or -1 (errno set).
 */
int live_reader_open(struct live_reader *r, struct tracefs_instance *inst,
		     struct tep_handle *tep, const struct tk_filter *f,
		     unsigned int buffer_kb)
{
	int cpu, n = (int)sysconf(_SC_NPROCESSORS_CONF);

	memset(r, 0, sizeof(*r));
	r->cpus = calloc((size_t)n, sizeof(*r->cpus));
	if (!r->cpus)
		return -1;
	for (cpu = 0; cpu < n; cpu++) {
		struct live_cpu *c = &r->cpus[r->nr_cpus];

		if (!cpu_wanted(f, cpu))
			continue;
		c->cpu = cpu;
		c->tcpu = open_cpu(inst, cpu);
		if (!c->tcpu)
			continue;	/* offline CPU */
		c->kbuf = tep_kbuffer(tep);
		if (!c->kbuf) {
			tracefs_cpu_close(c->tcpu);
			return -1;
		}
		r->page_size = tracefs_cpu_read_size(c->tcpu);
		r->nr_cpus++;
	}
	if (!r->nr_cpus || r->page_size <= 0)
		return -1;
	r->max_pages = (size_t)buffer_kb * 1024 / (size_t)r->page_size + 1;
	return 0;
}

static struct live_page *new_page(struct live_reader *r)
{
	struct live_page *p = r->pool;

	if (p) {
		r->pool = p->next;
		return p;
	}
	return malloc(sizeof(*p) + (size_t)r->page_size);
}

/* The pages ready on @c now (a ring buffer's worth at most), queued. */
static int drain_cpu(struct live_reader *r, struct live_cpu *c)
{
	struct live_page *p;
	size_t pages;
	int n;

	for (pages = 0; pages < r->max_pages; pages++) {
		p = new_page(r);
		if (!p)
			return -1;
		n = tracefs_cpu_read(c->tcpu, p->data, true);
		if (n <= 0) {
			p->next = r->pool;
			r->pool = p;
			return 0;
		}
		p->next = NULL;
		p->base = c->next_base;
		c->next_base += (uint64_t)r->page_size;
		if (c->tail)
			c->tail->next = p;
		else
			c->head = p;
		c->tail = p;
	}
	return 0;
}

/* The next record of @c, loading its next page as needed. */
static void next_record(struct live_reader *r, struct live_cpu *c)
{
	unsigned long long ts;
	struct live_page *p;
	void *data;

	c->have_rec = false;
	for (;;) {
		if (c->loaded) {
			data = kbuffer_read_event(c->kbuf, &ts);
			if (data)
				break;
			p = c->head;	/* page done: recycle it */
			c->head = p->next;
			if (!c->head)
				c->tail = NULL;
			p->next = r->pool;
			r->pool = p;
			c->loaded = false;
		}
		if (!c->head)
			return;
		kbuffer_load_subbuffer(c->kbuf, c->head->data);
		c->loaded = true;
	}
	memset(&c->rec, 0, sizeof(c->rec));
	c->rec.ts = ts;
	c->rec.cpu = c->cpu;
	c->rec.data = data;
	c->rec.size = kbuffer_event_size(c->kbuf);
	c->rec.record_size = kbuffer_curr_size(c->kbuf);
	c->rec.offset = c->head->base + (uint64_t)kbuffer_curr_offset(c->kbuf);
	c->rec.missed_events = kbuffer_missed_events(c->kbuf);
	c->rec.ref_count = 1;
	c->have_rec = true;
	kbuffer_next_event(c->kbuf, NULL);
}

/**
 * live_reader_round - read what is ready and account it
 * @r: the reader
 * @s: the session the records go to, oldest first
 *
 * Return: records accounted, or -1 when memory ran out.
 */
int live_reader_round(struct live_reader *r, struct tk_session *s)
{
	struct live_cpu *c, *min;
	int i, n = 0;

	for (i = 0; i < r->nr_cpus; i++) {
		c = &r->cpus[i];
		if (drain_cpu(r, c))
			return -1;
		if (!c->have_rec)
			next_record(r, c);
	}
	for (;;) {
		min = NULL;
		for (i = 0; i < r->nr_cpus; i++) {
			c = &r->cpus[i];
			if (c->have_rec && (!min || c->rec.ts < min->rec.ts))
				min = c;
		}
		if (!min)
			return n;
		tk_session_record(s, &min->rec);
		n++;
		next_record(r, min);
	}
}

static void free_pages(struct live_page *p)
{
	struct live_page *next;

	for (; p; p = next) {
		next = p->next;
		free(p);
	}
}

/**
 * live_reader_close - close the buffers, free the pages
 * @r: the reader
 */
void live_reader_close(struct live_reader *r)
{
	int i;

	for (i = 0; i < r->nr_cpus; i++) {
		tracefs_cpu_close(r->cpus[i].tcpu);
		kbuffer_free(r->cpus[i].kbuf);
		free_pages(r->cpus[i].head);
	}
	free_pages(r->pool);
	free(r->cpus);
	memset(r, 0, sizeof(*r));
}
