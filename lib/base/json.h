/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A small streaming JSON writer: objects, arrays, numbers, strings,
 * indented two spaces (or, compact, a document on one line), keys in
 * the order they are written; or, in
 * capture mode, the same document built in memory (jtree.h), which
 * jt_write() writes out again.
 */
#ifndef KMEM_JSON_H
#define KMEM_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "jtree.h"

#define JSON_MAX_DEPTH 16

struct json {
	FILE *out;		/* NULL: capture into a tree */
	int depth;
	bool has_items[JSON_MAX_DEPTH];
	struct jt_node *cap[JSON_MAX_DEPTH];	/* the open containers */
	struct jt_node *root;	/* capture: the document */
	bool oom;		/* capture: a node was left out */
	void *table_sink;	/* the caller's: where tables' rows go instead */
	bool compact;		/* no newline but the document's last */
};

void json_init(struct json *j, FILE *out);
void json_init_inside(struct json *j, FILE *out, int depth, bool has_items);
void json_init_tree(struct json *j);
void json_open(struct json *j, const char *key, char bracket);
void json_close(struct json *j, char bracket);
void json_u64(struct json *j, const char *key, uint64_t v);
void json_count_bytes(struct json *j, const char *key, uint64_t n,
		      uint64_t bytes);
void json_i64(struct json *j, const char *key, int64_t v);
void json_pct(struct json *j, const char *key, double v);
void json_str(struct json *j, const char *key, const char *s);
void json_bool(struct json *j, const char *key, bool v);
void json_mean(struct json *j, const char *key, uint64_t sum, uint64_t n);
void jt_write_as(const struct jt_node *n, const char *key, struct json *j);
void jt_write(const struct jt_node *n, struct json *j);

#endif
