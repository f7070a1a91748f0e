// SPDX-License-Identifier: LGPL-2.1
/*
 * Aligned summary blocks (see kvblock.h).
 */
#include <stddef.h>
#include <string.h>

#include "kvblock.h"
#include "numfmt.h"

/**
 * kv_init - start an empty block
 * @b: the block
 */
void kv_init(struct kvblock *b)
{
	memset(b, 0, sizeof(*b));
}

/**
 * kv_add - append a line
 * @b: the block
 * @label: the label, without the colon
 * @value: the formatted value, right-aligned when printed
 *
 * Return: the line, to fill in its bytes or note; a scratch line when
 * the block is full (it is then not printed).
 */
struct kv_line *kv_add(struct kvblock *b, const char *label,
		       const char *value)
{
	static const struct kv_line empty;
	struct kv_line *l;

	if (b->n == KV_MAX_LINES)
		l = &b->scratch;
	else
		l = &b->lines[b->n++];
	*l = empty;
	snprintf(l->label, sizeof(l->label), "%s:", label);
	snprintf(l->value, sizeof(l->value), "%s", value);
	l->gap_before = b->pending_gap;
	b->pending_gap = 0;
	return l;
}

/**
 * kv_add_count - append a line whose value is a count
 * @b: the block
 * @label: the label, without the colon
 * @v: the count, printed with thousands separators
 *
 * Return: the line (see kv_add()).
 */
struct kv_line *kv_add_count(struct kvblock *b, const char *label,
			     uint64_t v)
{
	char buf[NUMFMT_LEN];

	return kv_add(b, label, fmt_count(buf, v));
}

/**
 * kv_add_count_bytes - append a line of a count and its bytes
 * @b: the block
 * @label: the label, without the colon
 * @count: the count
 * @bytes: the bytes, printed in the bracket
 *
 * Return: the line (see kv_add()).
 */
struct kv_line *kv_add_count_bytes(struct kvblock *b, const char *label,
				   uint64_t count, uint64_t bytes)
{
	struct kv_line *l = kv_add_count(b, label, count);

	fmt_count(l->bytes, bytes);
	return l;
}

/**
 * kv_gap - put a blank line before the next line added
 * @b: the block
 */
void kv_gap(struct kvblock *b)
{
	b->pending_gap = b->n > 0;
}

static int max_len(const struct kvblock *b, size_t off)
{
	size_t m = 0;
	int i;

	for (i = 0; i < b->n; i++) {
		size_t n = strlen((const char *)&b->lines[i] + off);

		m = n > m ? n : m;
	}
	return (int)m;
}

/* A note on lines of its own, indented 5, broken at spaces to @width. */
static void put_wrapped(FILE *out, const char *s, size_t width)
{
	size_t col = width, w;

	while (*s) {
		w = strcspn(s, " ");
		if (col + 1 + w > width && col > 5) {
			fputs("\n     ", out);
			col = 5;
		} else {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", (int)w, s);
		col += w;
		s += w;
		s += strspn(s, " ");
	}
}

/**
 * kv_print_width - print the block, aligned, within a width
 * @b: the block
 * @out: where to
 * @width: a line with its note wider than this has the note on a line
 *	of its own under it; 0: no limit
 */
void kv_print_width(const struct kvblock *b, FILE *out, size_t width)
{
	int wl = max_len(b, offsetof(struct kv_line, label));
	int wv = max_len(b, offsetof(struct kv_line, value));
	int wb = max_len(b, offsetof(struct kv_line, bytes));
	int i, n;

	for (i = 0; i < b->n; i++) {
		const struct kv_line *l = &b->lines[i];

		if (l->gap_before > 0)
			fputc('\n', out);
		n = fprintf(out, " %-*s  %*s", wl, l->label, wv, l->value);
		if (l->bytes[0])
			n += fprintf(out, "   [ %*s bytes ]", wb, l->bytes);
		if (l->note[0] && width &&
		    (size_t)n + 3 + strlen(l->note) > width)
			put_wrapped(out, l->note, width);
		else if (l->note[0])
			fprintf(out, "%s%s", l->bytes[0] ? "  " : "   ",
				l->note);
		fputc('\n', out);
	}
}

/**
 * kv_print - print the block, aligned
 * @b: the block
 * @out: where to
 */
void kv_print(const struct kvblock *b, FILE *out)
{
	kv_print_width(b, out, 0);
}
