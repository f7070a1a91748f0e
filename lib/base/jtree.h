/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A JSON document held in memory, as the writer of json.h builds it in
 * capture mode (json_init_tree()): the report's own document, read back
 * member by member (trace-kmem diff compares two of them).
 */
#ifndef KMEM_JTREE_H
#define KMEM_JTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum jt_type { JT_OBJ, JT_ARR, JT_U64, JT_I64, JT_PCT, JT_STR, JT_BOOL,
	       JT_NULL };

struct jt_node {
	enum jt_type type;
	char *key;		/* member name; NULL for array elements */
	union {
		uint64_t u;
		int64_t i;
		double d;	/* JT_PCT */
		bool b;
		char *s;
	} v;
	struct jt_node **kids;	/* JT_OBJ, JT_ARR: in written order */
	size_t n, cap;
};

struct jt_node *jt_add(struct jt_node *parent, enum jt_type type,
		       const char *key);
void jt_free(struct jt_node *n);
const struct jt_node *jt_get(const struct jt_node *obj, const char *key);
bool jt_is_num(const struct jt_node *n);
double jt_num(const struct jt_node *n);

#endif
