/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A small streaming JSON writer: objects, arrays, numbers, strings,
 * indented two spaces, keys in the order they are written.
 */
#ifndef KMEM_JSON_H
#define KMEM_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

struct json {
	FILE *out;
	int depth;
	bool has_items[JSON_MAX_DEPTH];
};

void json_init(struct json *j, FILE *out);
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

#endif
