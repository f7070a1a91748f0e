/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The column model: a table's rows described once.
 *
 * A table is a static struct cols_def: its fields (the members of a
 * row's JSON object and the columns of its CSV rows, in that order),
 * its text columns (a header, a format and the fields it shows), and
 * its sort keys.  A value is a u64 or u32 member of the row struct (by
 * offset) or, for the odd ones, a small callback.  Text tables, JSON
 * arrays, CSV tables and the sort order are all made from it:
 *
 *	cols_offer()	every row with its sort keys, to a sort set
 *	cols_print()	the text table of a sorted set (two passes, no
 *			row kept: a million rows cost the lines= printed)
 *	cols_json_table()  the JSON array of a sorted set (or, when the
 *			report writes CSV, its CSV table: csv.h)
 *
 * Each text column has an importance rank (1: the last to go) so that
 * a table narrower than its columns can leave out the least important
 * ones (cols_ctx.hidden) from data, not code.
 */
#ifndef KMEM_COLS_H
#define KMEM_COLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/json.h"
#include "base/table.h"
#include "event/symbols.h"
#include "sort.h"

struct cols_ctx;

/* Where a number is: a member of the row, or a callback's. */
enum col_src { COL_NONE, COL_U64, COL_U32, COL_I32, COL_BOOL, COL_FN };

struct col_num {
	enum col_src src;
	uint16_t off; /* COL_U64, COL_U32: offset in the row */
	uint64_t (*fn)(const struct cols_ctx *c, const void *row);
};

#define COL_NUM64(type, m)                                                     \
	{                                                                      \
		COL_U64, offsetof(type, m), NULL                               \
	}
#define COL_NUM32(type, m)                                                     \
	{                                                                      \
		COL_U32, offsetof(type, m), NULL                               \
	}
/* a signed member, sign-extended: (uint64_t)(int64_t)v */
#define COL_NUMI32(type, m)                                                    \
	{                                                                      \
		COL_I32, offsetof(type, m), NULL                               \
	}
#define COL_NUMB(type, m)                                                      \
	{                                                                      \
		COL_BOOL, offsetof(type, m), NULL                              \
	}
#define COL_NUMFN(f)                                                           \
	{                                                                      \
		COL_FN, 0, f                                                   \
	}

/* A string of a row into @buf (KMEM_SYM_LEN bytes); NULL: null. */
typedef const char *(*col_str_fn)(const struct cols_ctx *c, const void *row,
				  char *buf);
/* Members of a row's JSON object that are no plain value. */
typedef void (*col_json_fn)(const struct cols_ctx *c, const void *row,
			    struct json *j);
/* Is a row's value known?  Unknown: null, an empty CSV field, "-". */
typedef bool (*col_known_fn)(const struct cols_ctx *c, const void *row);

/* How a field is written in JSON (and CSV). */
enum col_type {
	CF_U64,	 /* the number a */
	CF_I64,	 /* a as a signed number */
	CF_BOOL, /* a != 0: true, false */
	CF_MEAN, /* a / b, truncated; null when b is 0 */
	CF_FRAG, /* percent of b (allocated) beyond a (asked), 4 decimals */
	CF_COUNT_BYTES, /* { "count": a, "bytes": b }; CSV: KEY.count, KEY.bytes
			 */
	CF_CALLSITE,	/* a as a call site: function+0xoff (or raw_ip) */
	CF_ADDR,	/* a as an address: 0x... */
	CF_SITE_ADDR,	/* a call site's address: null in a merged report */
	CF_STR,		/* str(); NULL: null */
	CF_JSON,	/* json() writes its members; CSV: str() or nothing */
};

struct col_field {
	const char *key; /* JSON member, CSV header */
	enum col_type type;
	struct col_num a, b;
	col_str_fn str;
	col_json_fn json;
	col_known_fn known; /* NULL: always known */
};

/* How a text column shows its fields (numfmt.h). */
enum col_fmt {
	CT_COUNT,	  /* fmt_count(a) */
	CT_INT,		  /* a as a signed number, no separators */
	CT_DOT,		  /* fmt_count_dot(a): '.' for 0 */
	CT_TOTAL_SIZE,	  /* fmt_total_size(a, b): total/mean size */
	CT_COUNT_BYTES,	  /* fmt_count_bytes(a, b) */
	CT_MEAN_DURATION, /* fmt_mean_duration(a, b) */
	CT_DURATION,	  /* fmt_duration(a) */
	CT_FRAG,	  /* CF_FRAG field a as fmt_pct(), '.' for 0 */
	CT_YESNO,	  /* "yes" or "no" */
	CT_CALLSITE,	  /* a as a call site */
	CT_ADDR,	  /* a as an address */
	CT_STR,		  /* str(), or field a's string */
};

#define COL_NOFIELD (-1)

/*
 * A text column shows field a's number, and for pairs field b's; with
 * no field b, a pair (CT_TOTAL_SIZE ...) is field a's two numbers.
 */
struct col_text {
	const char *header;
	enum table_align align;
	enum col_fmt fmt;
	int8_t a, b;	/* the fields shown (index in fields) */
	col_str_fn str; /* CT_STR: the text's own string */
	uint8_t rank;	/* importance: 1 kept longest */
};

struct col_sort {
	enum kmem_sort_key key;
	struct col_num v;
};

struct cols_def {
	const struct col_field *fields;
	int nfields;
	const struct col_text *cols;
	int ncols;
	const struct col_sort *sorts;
	int nsorts;
	size_t stride; /* bytes from a row to the next */
	/* the row of entry @idx, if not base + idx * stride */
	const void *(*row)(const struct cols_ctx *c, uint32_t idx);
	/* rows not offered (no keys, no line), or NULL */
	bool (*skip)(const struct cols_ctx *c, const void *row);
};

#define COLS_N(a) ((int)(sizeof(a) / sizeof((a)[0])))
/* The members of a cols_def for fields @f, columns @c, sorts @s. */
#define COLS_DEF(f, c, s, type)                                                \
	.fields = f, .nfields = COLS_N(f), .cols = c, .ncols = COLS_N(c),      \
	.sorts = s, .nsorts = COLS_N(s), .stride = sizeof(type)

/* A table being written: its declaration, its rows, what they need. */
struct cols_ctx {
	const struct cols_def *def;
	const void *base; /* entry 0 */
	uint32_t nr;	  /* entries */
	const void *priv; /* the table's callbacks' own */
	const struct kmem_symbolizer *sym;
	bool raw_ip;
	uint32_t hidden;   /* text columns left out: bit i, cols[i] */
	unsigned int mode; /* the table's own switches (page: live only) */
	/* the allocators (bit: enum kmem_alloc_id) whose frees were not
	 * recorded (kmem_recorded()): their figures of frees unknown */
	unsigned int frees_unknown;
};

unsigned int cols_keys(const struct cols_def *d);
const void *cols_row(const struct cols_ctx *c, uint32_t idx);
void cols_offer(const struct cols_ctx *c, struct sort_set *s);
uint64_t cols_num(const struct cols_ctx *c, const struct col_num *n,
		  const void *row);
bool cols_known(const struct cols_ctx *c, const struct col_field *f,
		const void *row);
bool cols_slab_frees_known(const struct cols_ctx *c, const void *row);
bool cols_page_frees_known(const struct cols_ctx *c, const void *row);
bool cols_percpu_frees_known(const struct cols_ctx *c, const void *row);
bool cols_vmalloc_frees_known(const struct cols_ctx *c, const void *row);
double cols_frag(uint64_t req, uint64_t alloc);
void cols_print(const struct cols_ctx *c, const struct sort_set *s,
		size_t max_width, bool fit_width, FILE *out);
void cols_json_row(const struct cols_ctx *c, const void *row, struct json *j);
void cols_json_table(const struct cols_ctx *c, const struct sort_set *s,
		     const char *key, struct json *j);

#endif
