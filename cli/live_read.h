/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Reading a tracefs instance's per-CPU ring buffers while they fill:
 * each round takes every sub-buffer page that is ready on every CPU,
 * then hands their records to the session in time order.
 */
#ifndef TRACE_KMEM_LIVE_READ_H
#define TRACE_KMEM_LIVE_READ_H

#include <tracefs.h>

#include "session.h"

struct live_page {
	struct live_page *next;
	uint64_t base;		/* offset of the page in the CPU's stream */
	char data[];
};

struct live_cpu {
	int cpu;
	struct tracefs_cpu *tcpu;
	struct kbuffer *kbuf;
	struct live_page *head, *tail;	/* read this round, in order */
	uint64_t next_base;	/* stream offset of the next page read */
	bool loaded;		/* kbuf holds the head page */
	struct tep_record rec;	/* the record up next, when have_rec */
	bool have_rec;
};

struct live_reader {
	struct live_cpu *cpus;
	int nr_cpus;
	int page_size;		/* bytes read per sub-buffer */
	size_t max_pages;	/* per CPU and round: the ring buffer's size */
	struct live_page *pool;	/* pages to reuse */
};

int live_reader_open(struct live_reader *r, struct tracefs_instance *inst,
		     struct tep_handle *tep, const struct tk_filter *f,
		     unsigned int buffer_kb);
int live_reader_round(struct live_reader *r, struct tk_session *s);
void live_reader_close(struct live_reader *r);

#endif
