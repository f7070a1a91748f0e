// SPDX-License-Identifier: LGPL-2.1
/*
 * The column model (see cols.h): text tables, JSON rows and sort keys
 * made from one declaration per table.
 */
#include <inttypes.h>
#include <string.h>

#include "base/numfmt.h"
#include "cols.h"
#include "event/events.h"
#include "csv.h"

/**
 * cols_keys - the sort keys a table has
 * @d: the table
 *
 * Return: SK() of each key its sorts list.
 */
unsigned int cols_keys(const struct cols_def *d)
{
	unsigned int keys = 0;
	int i;

	for (i = 0; i < d->nsorts; i++)
		keys |= SK(d->sorts[i].key);
	return keys;
}

/**
 * cols_row - the row of an entry
 * @c: the table
 * @idx: the entry, below c->nr
 *
 * Return: the row the table's values are read from.
 */
const void *cols_row(const struct cols_ctx *c, uint32_t idx)
{
	if (c->def->row)
		return c->def->row(c, idx);
	return (const char *)c->base + (size_t)idx * c->def->stride;
}

/**
 * cols_num - a number of a row
 * @c: the table
 * @n: where the number is
 * @row: the row
 *
 * Return: the number (0 when @n names none).
 */
uint64_t cols_num(const struct cols_ctx *c, const struct col_num *n,
		  const void *row)
{
	uint32_t v32;
	int32_t i32;
	uint64_t v;

	switch (n->src) {
	case COL_U64:
		memcpy(&v, (const char *)row + n->off, sizeof(v));
		return v;
	case COL_U32:
		memcpy(&v32, (const char *)row + n->off, sizeof(v32));
		return v32;
	case COL_I32:
		memcpy(&i32, (const char *)row + n->off, sizeof(i32));
		return (uint64_t)(int64_t)i32;
	case COL_BOOL:
		return *(const bool *)((const char *)row + n->off);
	case COL_FN:
		return n->fn(c, row);
	case COL_NONE:
		break;
	}
	return 0;
}

/**
 * cols_known - is a field's value known for a row?
 * @c: the table
 * @f: the field
 * @row: the row
 *
 * Return: false when the field writes null (JSON), nothing (CSV), "-".
 */
bool cols_known(const struct cols_ctx *c, const struct col_field *f,
		const void *row)
{
	return !f->known || f->known(c, row);
}

/*
 * cols_slab_frees_known(), cols_page_frees_known(),
 * cols_percpu_frees_known(), cols_vmalloc_frees_known() - the
 * col_field.known of an allocator's figures of frees (frees, live,
 * peak, ping-pong, freed-only)
 * @c: the table
 * @row: the row (unused: the answer is the table's)
 *
 * Return: false when the allocator's frees were not recorded
 * (cols_ctx.frees_unknown, set by report_cols()), as its summary says.
 */
#define FREES_KNOWN(name, id)                                                  \
	bool cols_##name##_frees_known(const struct cols_ctx *c,               \
				       const void *row)                        \
	{                                                                      \
		(void)row;                                                     \
		return !(c->frees_unknown & (1u << (id)));                     \
	}
FREES_KNOWN(slab, KMEM_ALLOC_SLAB)
FREES_KNOWN(page, KMEM_ALLOC_PAGE)
FREES_KNOWN(percpu, KMEM_ALLOC_PERCPU)
FREES_KNOWN(vmalloc, KMEM_ALLOC_VMALLOC)

/**
 * cols_frag - internal fragmentation in percent
 * @req: bytes asked
 * @alloc: bytes allocated
 *
 * Return: the part of @alloc beyond @req (0 if a record claims less).
 */
double cols_frag(uint64_t req, uint64_t alloc)
{
	return pct_of(alloc > req ? alloc - req : 0, alloc);
}

/**
 * cols_offer - offer every row of a table, with its sort keys
 * @c: the table
 * @s: the set (sort_set_init() with cols_keys())
 */
void cols_offer(const struct cols_ctx *c, struct sort_set *s)
{
	const struct cols_def *d = c->def;
	uint32_t i;
	int k;

	for (i = 0; i < c->nr; i++) {
		const void *row = cols_row(c, i);

		if (d->skip && d->skip(c, row))
			continue;
		for (k = 0; k < d->nsorts; k++)
			sort_key(s, d->sorts[k].key,
				 cols_num(c, &d->sorts[k].v, row));
		sort_add(s, i);
	}
}

/* The two numbers of a text column's fields. */
static void col_nums(const struct cols_ctx *c, const struct col_text *t,
		     const void *row, uint64_t *a, uint64_t *b)
{
	const struct col_field *f = c->def->fields;

	*a = t->a == COL_NOFIELD ? 0 : cols_num(c, &f[t->a].a, row);
	if (t->b != COL_NOFIELD)
		*b = cols_num(c, &f[t->b].a, row);
	else
		*b = t->a == COL_NOFIELD ? 0 : cols_num(c, &f[t->a].b, row);
}

static void cell(const struct cols_ctx *c, const struct col_text *t,
		 const void *row, char *buf)
{
	const struct col_field *f =
		t->a == COL_NOFIELD ? NULL : &c->def->fields[t->a];
	const char *s;
	uint64_t a, b;

	if (f && !cols_known(c, f, row)) {
		strcpy(buf, "-");
		return;
	}
	col_nums(c, t, row, &a, &b);
	switch (t->fmt) {
	case CT_COUNT:
		fmt_count(buf, a);
		break;
	case CT_INT:
		snprintf(buf, NUMFMT_LEN, "%" PRId64, (int64_t)a);
		break;
	case CT_DOT:
		fmt_count_dot(buf, a);
		break;
	case CT_TOTAL_SIZE:
		fmt_total_size(buf, a, b);
		break;
	case CT_COUNT_BYTES:
		fmt_count_bytes(buf, a, b);
		break;
	case CT_MEAN_DURATION:
		fmt_mean_duration(buf, a, b);
		break;
	case CT_DURATION:
		fmt_duration(buf, a);
		break;
	case CT_FRAG:
		fmt_pct(buf, cols_frag(a, b));
		break;
	case CT_YESNO:
		strcpy(buf, a ? "yes" : "no");
		break;
	case CT_CALLSITE:
		fmt_callsite(buf, c->sym, a, c->raw_ip);
		break;
	case CT_ADDR:
		fmt_addr(buf, a);
		break;
	case CT_STR:
		s = t->str ? t->str(c, row, buf) : f->str(c, row, buf);
		if (s != buf)
			snprintf(buf, KMEM_SYM_LEN, "%s", s ? s : "");
		break;
	}
}

/* The columns shown, and their cells' pointers. */
static int shown(const struct cols_ctx *c, struct table_col *tc, int *which)
{
	int i, n = 0;

	for (i = 0; i < c->def->ncols && n < TABLE_MAX_COLS; i++) {
		if (c->hidden & (1U << i))
			continue;
		tc[n].header = c->def->cols[i].header;
		tc[n].align = c->def->cols[i].align;
		which[n++] = i;
	}
	return n;
}

static void cells(const struct cols_ctx *c, const int *which, int n,
		  uint32_t idx, char buf[][KMEM_SYM_LEN])
{
	const void *row = cols_row(c, idx);
	int i;

	for (i = 0; i < n; i++)
		cell(c, &c->def->cols[which[i]], row, buf[i]);
}

/*
 * Leave out the least important columns (the highest rank; never rank
 * 1) until the table fits @max_width.  Return: the columns kept; their
 * headers are moved in @tc, their columns in @which, the headers left
 * out added to @gone.
 */
static int fit(const struct cols_ctx *c, struct table *t,
	       struct table_col *tc, int *which, int n, size_t max_width,
	       const char **gone, int *ngone)
{
	int i, k;

	while (table_width_min(t) > max_width) {
		for (k = -1, i = 0; i < n; i++)
			if (c->def->cols[which[i]].rank > 1 &&
			    (k < 0 || c->def->cols[which[i]].rank >
					      c->def->cols[which[k]].rank))
				k = i;
		if (k < 0)
			break;	/* the most important alone: as narrow as it gets */
		gone[(*ngone)++] = tc[k].header;
		table_drop_col(t, k);
		memmove(&tc[k], &tc[k + 1], (size_t)(n - k - 1) * sizeof(*tc));
		memmove(&which[k], &which[k + 1],
			(size_t)(n - k - 1) * sizeof(*which));
		n--;
	}
	return n;
}

/*
 * Under a table: the columns left out to fit, and how to see them,
 * wrapped to @width.
 */
static void say_gone(FILE *out, const char **gone, int n, size_t width)
{
	char word[KMEM_SYM_LEN];
	size_t col;
	int i;

	if (!n)
		return;
	col = (size_t)fprintf(out, " Left out to fit %zu columns:", width);
	for (i = 0; i <= n; i++) {
		if (i < n)
			snprintf(word, sizeof(word), "%s%s", gone[i],
				 i + 1 < n ? "," : "");
		else
			snprintf(word, sizeof(word),
				 "(--width=0 shows them)");
		if (col + 1 + strlen(word) > width) {
			fputs("\n  ", out);
			col = 2;
		}
		col += (size_t)fprintf(out, " %s", word);
	}
	fputc('\n', out);
}

/**
 * cols_print - print the rows of a sorted set as a text table
 * @c: the table
 * @s: its rows, sorted (sort_finish()); a cut shows as a "..." row
 * @max_width: fold columns to fit it; 0: no limit
 * @fit_width: and leave out the least important columns (col_text.rank)
 *	while it is still wider, said under it
 * @out: where to
 *
 * Two passes over the rows, each making the cells again: no row is kept.
 */
void cols_print(const struct cols_ctx *c, const struct sort_set *s,
		size_t max_width, bool fit_width, FILE *out)
{
	char buf[TABLE_MAX_COLS][KMEM_SYM_LEN];
	struct table_col tc[TABLE_MAX_COLS];
	const char *cp[TABLE_MAX_COLS], *gone[TABLE_MAX_COLS];
	int which[TABLE_MAX_COLS], n, i, ngone = 0;
	struct table t;
	size_t r;

	n = shown(c, tc, which);
	for (i = 0; i < TABLE_MAX_COLS; i++)
		cp[i] = buf[i];
	table_init(&t, tc, n, TBL_BOXED);
	t.max_width = max_width;
	for (r = 0; r < s->held; r++) {
		cells(c, which, n, sort_idx(s, r), buf);
		table_measure(&t, cp);
	}
	if (s->held < s->offered)
		table_mark_cut(&t);
	if (fit_width && max_width)
		n = fit(c, &t, tc, which, n, max_width, gone, &ngone);
	table_print_head(&t, out);
	for (r = 0; r < s->held; r++) {
		cells(c, which, n, sort_idx(s, r), buf);
		table_print_row(&t, out, cp);
	}
	table_print_end(&t, out);
	table_release(&t);
	say_gone(out, gone, ngone, max_width);
}

static void json_field(const struct cols_ctx *c, const struct col_field *f,
		       const void *row, struct json *j)
{
	char buf[KMEM_SYM_LEN];

	if (!cols_known(c, f, row) && f->type != CF_JSON) {
		json_str(j, f->key, NULL);
		return;
	}
	switch (f->type) {
	case CF_U64:
		json_u64(j, f->key, cols_num(c, &f->a, row));
		break;
	case CF_I64:
		json_i64(j, f->key, (int64_t)cols_num(c, &f->a, row));
		break;
	case CF_BOOL:
		json_bool(j, f->key, cols_num(c, &f->a, row) != 0);
		break;
	case CF_MEAN:
		json_mean(j, f->key, cols_num(c, &f->a, row),
			  cols_num(c, &f->b, row));
		break;
	case CF_FRAG:
		json_pct(j, f->key,
			 cols_frag(cols_num(c, &f->a, row),
				   cols_num(c, &f->b, row)));
		break;
	case CF_COUNT_BYTES:
		json_count_bytes(j, f->key, cols_num(c, &f->a, row),
				 cols_num(c, &f->b, row));
		break;
	case CF_CALLSITE:
		json_str(j, f->key,
			 fmt_callsite(buf, c->sym, cols_num(c, &f->a, row),
				      c->raw_ip));
		break;
	case CF_ADDR:
		json_str(j, f->key, fmt_addr(buf, cols_num(c, &f->a, row)));
		break;
	case CF_SITE_ADDR:
		json_str(j, f->key,
			 c->sym && c->sym->merged
				 ? NULL
				 : fmt_addr(buf, cols_num(c, &f->a, row)));
		break;
	case CF_STR:
		json_str(j, f->key, f->str(c, row, buf));
		break;
	case CF_JSON:
		f->json(c, row, j);
		break;
	}
}

/**
 * cols_json_row - write a row as a JSON object
 * @c: the table
 * @row: the row (cols_row())
 * @j: the writer, inside an array
 */
void cols_json_row(const struct cols_ctx *c, const void *row, struct json *j)
{
	int i;

	json_open(j, NULL, '{');
	for (i = 0; i < c->def->nfields; i++)
		json_field(c, &c->def->fields[i], row, j);
	json_close(j, '}');
}

/**
 * cols_json_table - write the rows of a sorted set as a JSON array
 * @c: the table
 * @s: its rows, sorted
 * @key: the array's member name
 * @j: the writer (j->table_sink set: the rows go there, as CSV, and
 *	the array written to @j is empty)
 */
void cols_json_table(const struct cols_ctx *c, const struct sort_set *s,
		     const char *key, struct json *j)
{
	size_t i;

	json_open(j, key, '[');
	if (j->table_sink)
		csv_table(j->table_sink, j, key, c, s);
	for (i = 0; !j->table_sink && i < s->held; i++)
		cols_json_row(c, cols_row(c, sort_idx(s, i)), j);
	json_close(j, ']');
}
