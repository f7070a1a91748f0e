/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The difference of two inputs' statistics (trace-kmem diff): their
 * JSON documents, held in memory (jtree.h), compared member by member;
 * rows of the per-call-site and per-cache arrays matched by name.  The
 * definitions are in Documentation/kmem-stat-definitions.txt, "DIFF";
 * render/diff_report.h writes the result.
 */
#ifndef KMEM_DIFF_H
#define KMEM_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
	bool filtered;		/* --time, --pid, --comm or --cpu given */
};

#define KMEM_DIFF_ROW_KEYS 4	/* members that name a row, at most */
#define KMEM_DIFF_MAX_MEMBERS 48	/* numeric members of a row, at most */

/* One side's value of a member: absent (0), null, an integer, a real. */
struct kmem_dval {
	enum { DV_ABSENT, DV_NULL, DV_INT, DV_REAL } kind;
	int64_t i;
	double d;
};

/* The rows of both sides that have one name. */
struct kmem_diff_group {
	const char *key;
	const struct jt_node *first;	/* names the row */
	const struct jt_node **rows;	/* before's, then after's */
	size_t nb, na;
	double sort[4];			/* |delta| of the measures */
};

/* A keyed array's rows, grouped (kmem_diff_group_rows()). */
struct kmem_diff_groups {
	struct kmem_diff_group *g;
	size_t n;
	struct kmem_diff_entry *e;
	size_t ne;
	const struct jt_node **rows;
	/* the numeric members, in the order first seen */
	const char *names[KMEM_DIFF_MAX_MEMBERS];
	size_t nnames;
	bool oom;
};

void kmem_diff_add_val(const struct kmem_diff *d, struct kmem_dval *v,
		       const struct jt_node *n, bool after);
void kmem_diff_delta_of(const struct kmem_dval *b, const struct kmem_dval *a,
			struct kmem_dval *o);
int kmem_diff_keyed(const char *array);
const char *const *kmem_diff_row_keys(int k);
int kmem_diff_group_rows(const struct kmem_diff *d, int k,
			 const struct jt_node *b, const struct jt_node *a,
			 struct kmem_diff_groups *gs);
void kmem_diff_groups_release(struct kmem_diff_groups *gs);
void kmem_diff_group_val(const struct kmem_diff *d,
			 const struct kmem_diff_group *g, bool after,
			 const char *name, struct kmem_dval *v);
const char *kmem_diff_measure(const struct kmem_diff_groups *gs, int m);
const char *kmem_diff_status(const struct kmem_diff *d,
			     const struct kmem_diff_groups *gs,
			     const struct kmem_diff_group *g);

#endif
