/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Summary blocks: "Label:   value   [ bytes ]  note" lines with the
 * labels, values and bracketed byte counts each aligned.
 */
#ifndef KMEM_KVBLOCK_H
#define KMEM_KVBLOCK_H

#include <stdint.h>
#include <stdio.h>

#define KV_MAX_LINES 32
#define KV_TEXT 64

struct kv_line {
	char label[KV_TEXT];
	char value[KV_TEXT];
	char bytes[KV_TEXT];	/* empty: no bracket */
	char note[KV_TEXT * 2];
	int gap_before;		/* blank line before this one */
};

struct kvblock {
	struct kv_line lines[KV_MAX_LINES];
	struct kv_line scratch;	/* lines past KV_MAX_LINES go here */
	int n;
	int pending_gap;
};

void kv_init(struct kvblock *b);
struct kv_line *kv_add(struct kvblock *b, const char *label,
		       const char *value);
struct kv_line *kv_add_count(struct kvblock *b, const char *label,
			     uint64_t v);
struct kv_line *kv_add_count_bytes(struct kvblock *b, const char *label,
				   uint64_t count, uint64_t bytes);
void kv_gap(struct kvblock *b);
void kv_print(const struct kvblock *b, FILE *out);
void kv_print_width(const struct kvblock *b, FILE *out, size_t width);

#endif
