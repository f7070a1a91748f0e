// SPDX-License-Identifier: LGPL-2.1
/*
 * The progress line (see progress.h): shown after the first second
 * ($TRACE_KMEM_PROGRESS_AFTER seconds: tests use 0), redrawn four
 * times a second, erased at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/numfmt.h"
#include "progress.h"

static double since(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) +
	       (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

/**
 * tk_progress_start - a file is about to be read
 * @p: the progress state
 * @label: the file's name
 */
void tk_progress_start(struct tk_progress *p, const char *label)
{
	const char *after = getenv("TRACE_KMEM_PROGRESS_AFTER");

	p->on = isatty(STDERR_FILENO);
	p->after = after ? atof(after) : 1.0;
	p->shown = false;
	p->label = label;
	p->done = NULL;
	clock_gettime(CLOCK_MONOTONIC, &p->start);
	p->last = p->start;
}

/**
 * tk_progress_of - how to tell how far the reader is
 * @p: the progress state
 * @done: bytes of the input read so far (called from the counting side)
 * @src: passed to @done
 * @total: the input's bytes
 *
 * With it the line shows the percentage, and a time left once a few
 * per cent are read.
 */
void tk_progress_of(struct tk_progress *p, uint64_t (*done)(const void *),
		    const void *src, uint64_t total)
{
	p->done = total ? done : NULL;
	p->src = src;
	p->total = total;
}

/**
 * tk_progress_tick - @records read so far (call every TK_PROGRESS_EVERY)
 * @p: the progress state
 * @records: records read
 */
void tk_progress_tick(struct tk_progress *p, uint64_t records)
{
	char n[NUMFMT_LEN];
	struct timespec now;
	double t;

	if (!p->on)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	t = since(&p->start, &now);
	if (t < p->after || (p->shown && since(&p->last, &now) < 0.25))
		return;
	p->last = now;
	p->shown = true;
	fprintf(stderr, "\r\033[K trace-kmem: %s: %s records, %.1f M/s",
		p->label, fmt_count(n, records), (double)records / t / 1e6);
	if (p->done) {
		double f = (double)p->done(p->src) / (double)p->total;

		f = f > 1 ? 1 : f;
		fprintf(stderr, ", %.0f%%", f * 100);
		if (f >= 0.03 && f < 1)
			fprintf(stderr, ", %.0f s left", t * (1 - f) / f + 0.5);
	}
}

/**
 * tk_progress_done - the file is read: erase the line
 * @p: the progress state
 */
void tk_progress_done(struct tk_progress *p)
{
	if (p->shown)
		fprintf(stderr, "\r\033[K");
	p->shown = false;
}
