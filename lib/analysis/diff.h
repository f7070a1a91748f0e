/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The difference of two inputs' statistics (trace-kmem diff): their
 * JSON documents, held in memory (jtree.h), compared member by member;
 * rows of the per-call-site and per-cache arrays matched by name.  The
 * definitions are in Documentation/kmem-stat-definitions.txt, "DIFF".
 */
#ifndef KMEM_DIFF_H
#define KMEM_DIFF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/json.h"
#include "base/jtree.h"

enum kmem_diff_norm { KMEM_NORM_NONE, KMEM_NORM_SECOND, KMEM_NORM_EVENT };

struct kmem_diff {
	const struct jt_node *before, *after;	/* the stat documents */
	const char *before_label, *after_label;
	bool by_function;	/* match call sites by symbol, not +0xoff */
	enum kmem_diff_norm norm;
	double before_per, after_per;	/* seconds or events of each input */
	uint64_t span_ns[2];		/* first to last allocator record */
	uint64_t events[2];		/* allocator records */
	unsigned int lines;	/* rows per table, 0 for all (lines=) */
};

void kmem_diff_json(const struct kmem_diff *d, struct json *j);
void kmem_diff_text(const struct kmem_diff *d, FILE *out);

#endif
