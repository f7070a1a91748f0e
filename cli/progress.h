/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A progress line on stderr while a long file is read, only when
 * stderr is a terminal.
 */
#ifndef TRACE_KMEM_PROGRESS_H
#define TRACE_KMEM_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

struct tk_progress {
	bool on;		/* stderr is a terminal */
	bool shown;		/* a line is on the screen */
	const char *label;
	double after;		/* seconds before the first line */
	struct timespec start, last;
	/* how far through the input, when the reader can tell */
	uint64_t (*done)(const void *src);
	const void *src;
	uint64_t total;
};

/* Records between two looks at the clock. */
#define TK_PROGRESS_EVERY 0x10000

void tk_progress_start(struct tk_progress *p, const char *label);
void tk_progress_tick(struct tk_progress *p, uint64_t records);
void tk_progress_done(struct tk_progress *p);
void tk_progress_of(struct tk_progress *p, uint64_t (*done)(const void *),
		    const void *src, uint64_t total);

#endif
