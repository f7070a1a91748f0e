/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Summaries declared once: an allocator's SUMMARY block of text and
 * its JSON "summary" object made from one table, as the column model
 * (cols.h) makes a table's text, JSON and CSV.
 *
 * A summary is a static struct sum_def: its fields, in the order of
 * the JSON object's members.  A field has a JSON key (NULL: text only),
 * a text label and its place in the text block (line 0: JSON only), a
 * kind (how text and JSON show it), its values a and b (a u64 member
 * of the statistics by offset, or a callback), an optional note after
 * its text line, and a condition for the text line (JSON members are
 * always written):
 *
 *	sum_print()	" SUMMARY (title)" and the text block, its lines
 *			in the order of their line numbers, aligned
 *			(base/kvblock.h)
 *	sum_json()	the JSON object, its members in table order
 *
 * What is neither a line nor a member (a table inside the summary) is
 * written by a SF_JSON callback, or printed beside the block.
 */
#ifndef KMEM_SUMMARY_H
#define KMEM_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/json.h"
#include "base/kvblock.h"
#include "event/events.h"

struct kmem_report_ctx;
struct sum_ctx;
struct sum_field;

/* The highest line number of a text block. */
#define SUM_MAX_LINES 64

/**
 * struct sum_num - where a summary's number is
 * @off: a u64 member of the statistics (sum_ctx.base), when @fn is NULL
 * @fn: or the number this returns
 */
struct sum_num {
	uint32_t off;
	uint64_t (*fn)(const struct sum_ctx *c);
};

#define SUM_NUM64(type, m)                                                     \
	{                                                                      \
		offsetof(type, m), NULL                                        \
	}
#define SUM_NUMFN(f)                                                           \
	{                                                                      \
		0, f                                                           \
	}

/* A text line's label, when it depends on the trace. */
typedef const char *(*sum_label_fn)(const struct sum_ctx *c);
/* A text line's note into @buf (SUM_NOTE_LEN bytes); NULL: none. */
typedef const char *(*sum_note_fn)(const struct sum_ctx *c, char *buf);
/* Is a text line shown? */
typedef bool (*sum_show_fn)(const struct sum_ctx *c, const struct sum_field *f);
/* Is a field's value known?  Unknown: null in JSON, "-" in text. */
typedef bool (*sum_known_fn)(const struct sum_ctx *c);
/* SF_JSON: the member(s) of a field that are no plain value. */
typedef void (*sum_json_fn)(const struct sum_ctx *c, const struct sum_field *f,
			    struct json *j);

#define SUM_NOTE_LEN ((int)sizeof(((struct kv_line *)0)->note))

/* sum_field.needs: the free event of the summary's allocator */
#define SUM_NEEDS_FREE KMEM_NR_KINDS

/* The notes of the anomalies every allocator has. */
#define SUM_NOTE_DOUBLE                                                        \
	"(a kernel bug, or an allocation that passed no tracepoint)"
#define SUM_NOTE_MISSED "(address reused; its free was not recorded)"

/**
 * enum sum_kind - how a field is shown in text and JSON
 * @SF_COUNT: text fmt_count(a); JSON a
 * @SF_SIGNED: text fmt_signed(a); JSON a as a signed number
 * @SF_COUNT_BYTES: text "a [ b bytes ]"; JSON { "count": a, "bytes": b }
 * @SF_PAIR: text "a [ b bytes ]"; JSON two members, key: a, key_b: b
 * @SF_OPEN: JSON only: an object named key, up to the next SF_CLOSE
 * @SF_CLOSE: JSON only: the end of that object
 * @SF_JSON: JSON only: json() writes the member(s)
 * @SF_GAP: text only: a blank line before the next line shown (none
 *	    when no line follows, or none was shown before)
 */
enum sum_kind {
	SF_COUNT,
	SF_SIGNED,
	SF_COUNT_BYTES,
	SF_PAIR,
	SF_OPEN,
	SF_CLOSE,
	SF_JSON,
	SF_GAP,
};

/**
 * struct sum_field - a line of the text block, a JSON member, or both
 * @key: the JSON member; NULL: text only (SF_CLOSE: none needed)
 * @label: the text label, without the colon
 * @label_fn: or the label this returns (NULL: @label)
 * @line: its place in the text block, 1 first; 0: JSON only
 * @kind: how it is shown
 * @a: its number
 * @b: its second number (bytes: SF_COUNT_BYTES, SF_PAIR)
 * @key_b: SF_PAIR: the JSON member of @b
 * @note: the text after the line, or NULL
 * @note_fn: or the text this makes (NULL: none)
 * @show: the text line is shown when this says so (NULL: always;
 *	  sum_nonzero(): when a is not 0)
 * @needs: the event kind it counts (KMEM_EV_*; KMEM_EV_NONE: none;
 *	  SUM_NEEDS_FREE: the allocator's free): with no record of it, the
 *	  value is unknown and the text block is followed by a line naming
 *	  the event to enable
 * @known: NULL: known when @needs is recorded; else this says
 * @json: SF_JSON: writes the member(s)
 */
struct sum_field {
	const char *key;
	const char *label;
	sum_label_fn label_fn;
	uint8_t line;
	enum sum_kind kind;
	struct sum_num a, b;
	const char *key_b;
	const char *note;
	sum_note_fn note_fn;
	sum_show_fn show;
	enum kmem_ev_kind needs;
	sum_known_fn known;
	sum_json_fn json;
};

/**
 * struct sum_lc - where a summary's object lifecycle numbers are, for the
 *	fields and callbacks of lc_cols.h
 * @counts: the offset of its struct kmem_lc_counts in the statistics
 * @bytes: the bytes of every allocation (alloc_only, net_bytes)
 * @cross_cpu: the matched frees on another CPU than the allocation's
 *	(SUM_LC_CROSS_CPU())
 */
struct sum_lc {
	uint32_t counts;
	struct sum_num bytes;
	struct sum_num cross_cpu;
};

/**
 * struct sum_def - a summary, declared once
 * @title: the text heading says " SUMMARY (title)"
 * @fields: the fields, in JSON order
 * @nfields: how many
 * @lc: where its lifecycle numbers are (SUM_LC(): lc_cols.h)
 * @alloc: the allocator it is of (SUM_DOUBLE_FREES() asks)
 */
struct sum_def {
	const char *title;
	const struct sum_field *fields;
	int nfields;
	struct sum_lc lc;
	enum kmem_alloc_id alloc;
};

/*
 * A field with key @k, label @l on line @n and number @v (SF_COUNT),
 * then any other members (.kind = SF_COUNT_BYTES, .b = ..., .note = ...).
 */
#define SUM_FIELD(k, l, n, v, ...)                                             \
	{                                                                      \
		.key = k, .label = l, .line = n, .a = v, __VA_ARGS__           \
	}

#define SUM_N(a) ((int)(sizeof(a) / sizeof((a)[0])))
/* The members of a sum_def of allocator @id titled @t with fields @f. */
#define SUM_DEF(id, t, f)                                                      \
	.title = t, .fields = f, .nfields = SUM_N(f), .alloc = id

/*
 * SUM_DOUBLE_FREES(n, l) - the frees of objects already freed, number @n
 * on line @l: "Double frees" when the trace recorded every allocation,
 * else "Repeated frees" with the reason it may not have; JSON
 * "double_frees" and "double_frees_doubt" (the reason, or null)
 */
#define SUM_DOUBLE_FREES(n, l)                                                 \
	SUM_FIELD("double_frees", "Double frees", l, n,                        \
		  .label_fn = sum_double_label, .note_fn = sum_double_note,    \
		  .show = sum_nonzero),                                        \
	{                                                                      \
		.key = "double_frees_doubt", .kind = SF_JSON,                  \
		.json = sum_double_json                                        \
	}

/**
 * struct sum_ctx - a summary being written
 * @def: its declaration
 * @base: the statistics the fields' offsets are in
 * @r: the report, for the callbacks (NULL when there is none)
 */
struct sum_ctx {
	const struct sum_def *def;
	const void *base;
	const struct kmem_report_ctx *r;
};

uint64_t sum_num(const struct sum_ctx *c, const struct sum_num *n);
bool sum_nonzero(const struct sum_ctx *c, const struct sum_field *f);
const char *sum_double_label(const struct sum_ctx *c);
const char *sum_double_note(const struct sum_ctx *c, char *buf);
void sum_double_json(const struct sum_ctx *c, const struct sum_field *f,
		     struct json *j);
void sum_lines(const struct sum_ctx *c, struct kvblock *b);
void sum_print(const struct sum_ctx *c, FILE *out);
void sum_json(const struct sum_ctx *c, const char *key, struct json *j);

#endif
