// SPDX-License-Identifier: LGPL-2.1
/*
 * Text table rendering (see table.h).
 */
#include <stdlib.h>
#include <string.h>

#include "table.h"
#include "utf8.h"

/**
 * table_init - start an empty table
 * @t: the table
 * @cols: column headers and alignment (not copied; must outlive @t)
 * @ncols: number of columns
 * @style: TBL_BOXED or TBL_MATRIX
 */
void table_init(struct table *t, const struct table_col *cols, int ncols,
		enum table_style style)
{
	const char *hdr[TABLE_MAX_COLS];
	int c;

	memset(t, 0, sizeof(*t));
	t->cols = cols;
	t->ncols = ncols > TABLE_MAX_COLS ? TABLE_MAX_COLS : ncols;
	t->style = style;
	for (c = 0; c < t->ncols; c++)
		hdr[c] = cols[c].header;
	table_measure(t, hdr);
}

/**
 * table_add_row - append a row
 * @t: the table
 * @cells: @t->ncols strings, copied
 *
 * Return: 0 on success, -1 when memory is exhausted (the table then
 * says so when printed).
 */
int table_add_row(struct table *t, const char *const *cells)
{
	size_t need = (t->nrows + 1) * t->ncols;
	int i;

	if (need > t->cap) {
		size_t n = t->cap ? t->cap * 2 : 16 * (size_t)t->ncols;
		char **p;

		while (n < need)
			n *= 2;
		p = realloc(t->cells, n * sizeof(*p));
		if (!p)
			goto oom;
		t->cells = p;
		t->cap = n;
	}
	for (i = 0; i < t->ncols; i++) {
		char *c = strdup(cells[i]);

		if (!c) {
			while (i--)
				free(t->cells[t->nrows * t->ncols + i]);
			goto oom;
		}
		t->cells[t->nrows * t->ncols + i] = c;
	}
	t->nrows++;
	table_measure(t, cells);
	return 0;
oom:
	t->oom = true;
	return -1;
}

/**
 * table_mark_cut - end the table with a "..." row (rows were left out)
 * @t: the table
 */
void table_mark_cut(struct table *t)
{
	t->cut = true;
}

/**
 * table_release - free the cells
 * @t: the table
 */
void table_release(struct table *t)
{
	size_t i;

	for (i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	t->cells = NULL;
	t->nrows = t->cap = 0;
}

static void split(const char *s, size_t *l, size_t *r)
{
	const char *slash = strchr(s, '/');

	if (!slash) {
		*l = strlen(s);
		*r = 0;
		return;
	}
	*l = (size_t)(slash - s);
	*r = strlen(slash + 1);
}

/**
 * table_measure - widen the columns to fit a row, without keeping it
 * @t: the table
 * @cells: @t->ncols strings
 */
void table_measure(struct table *t, const char *const *cells)
{
	size_t l, r;
	int c;

	for (c = 0; c < t->ncols; c++) {
		struct table_width *w = &t->w[c];

		if (t->cols[c].align == TBL_PAIR) {
			split(cells[c], &l, &r);
			w->w[0] = l > w->w[0] ? l : w->w[0];
			w->w[1] = r > w->w[1] ? r : w->w[1];
		} else {
			l = strlen(cells[c]);
			w->w[0] = l > w->w[0] ? l : w->w[0];
		}
		if (t->cols[c].align == TBL_FOLD) {
			const char *p = cells[c];

			while (*p) {	/* pieces end after their '|' */
				l = strcspn(p, "|");
				l += p[l] == '|';
				w->piece = l > w->piece ? l : w->piece;
				p += l;
			}
		}
	}
}

static size_t col_width(const struct table *t, int c,
			const struct table_width *w);

/*
 * The widths to print with: a cut table's "..." must fit too, and when
 * the table is wider than max_width, a fold column gives up what it
 * must, down to its longest piece.
 */
static void final_widths(const struct table *t, struct table_width *w)
{
	size_t total = 1;
	int c;

	for (c = 0; c < t->ncols; c++) {
		w[c] = t->w[c];
		if (t->cut && w[c].w[0] + w[c].w[1] < 3)
			w[c].w[0] = 3;
		total += col_width(t, c, &w[c]) + (c ? 3 : 0);
	}
	/* the rules are one wider than the rows */
	for (c = 0; c < t->ncols && t->max_width && total + 1 > t->max_width;
	     c++) {
		size_t over = total + 1 - t->max_width, room;

		if (t->cols[c].align != TBL_FOLD || w[c].w[0] <= w[c].piece)
			continue;
		room = w[c].w[0] - w[c].piece;
		over = over < room ? over : room;
		w[c].w[0] -= over;
		total -= over;
	}
}

/**
 * table_width_min - the narrowest a measured table prints
 * @t: the table, every row measured
 *
 * Return: its rules' width, its fold columns folded as far as
 * max_width asks (a table that does not fit is still wider).
 */
size_t table_width_min(const struct table *t)
{
	struct table_width w[TABLE_MAX_COLS];
	size_t total = 1;
	int c;

	final_widths(t, w);
	for (c = 0; c < t->ncols; c++)
		total += col_width(t, c, &w[c]) + (c ? 3 : 0);
	return total + 1;
}

/**
 * table_drop_col - leave a measured column out
 * @t: the table
 * @c: the column; the caller moves its struct table_col (t->cols) the
 *	same way, the columns after it one to the left
 */
void table_drop_col(struct table *t, int c)
{
	if (c < 0 || c >= t->ncols)
		return;
	memmove(&t->w[c], &t->w[c + 1],
		(size_t)(t->ncols - c - 1) * sizeof(t->w[0]));
	t->ncols--;
}

/* How much of a fold cell goes on this line: whole pieces that fit. */
static size_t fold_take(const char *s, size_t width)
{
	size_t n = 0, l;

	while (s[n]) {
		l = strcspn(s + n, "|");
		l += s[n + l] == '|';
		if (n && n + l > width)
			break;
		n += l;
	}
	return n;
}

static size_t col_width(const struct table *t, int c,
			const struct table_width *w)
{
	return t->cols[c].align == TBL_PAIR ? w->w[0] + 1 + w->w[1] : w->w[0];
}

static void put_cell_as_is(FILE *out, const struct table *t, int c,
			   const struct table_width *w, const char *s,
			   bool last)
{
	size_t width = col_width(t, c, w), l, r;

	switch (t->cols[c].align) {
	case TBL_RIGHT:
		fprintf(out, "%*s", (int)width, s);
		return;
	case TBL_PAIR:
		split(s, &l, &r);
		if (!strchr(s, '/')) {
			fprintf(out, "%*s%*s", (int)w->w[0], s,
				last ? 0 : (int)(w->w[1] + 1), "");
			return;
		}
		fprintf(out, "%*.*s/%-*s", (int)w->w[0], (int)l, s,
			last ? 0 : (int)w->w[1], s + l + 1);
		return;
	case TBL_LEFT:
	case TBL_FOLD:
		fprintf(out, "%-*s", last ? 0 : (int)width, s);
		return;
	}
}

/* Does @s hold a control character (a name from a trace can)? */
static bool has_control(const char *s)
{
	for (; *s; s++)
		if (utf8_is_control((unsigned char)*s))
			return true;
	return false;
}

/* @s, its control characters as '?' (utf8_plain_line()) */
static void put_plain(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc(utf8_is_control((unsigned char)*s) ? '?' : *s, out);
}

/*
 * A cell, its control characters as '?': a symbol, cache or command name
 * from a trace must not break the line or drive the terminal.  (Such a
 * cell is a name, never a pair of numbers.)
 */
static void put_cell(FILE *out, const struct table *t, int c,
		     const struct table_width *w, const char *s, bool last)
{
	size_t width = col_width(t, c, w), n;

	if (!has_control(s) || t->cols[c].align == TBL_PAIR) {
		put_cell_as_is(out, t, c, w, s, last);
		return;
	}
	n = strlen(s);
	if (t->cols[c].align == TBL_RIGHT)
		fprintf(out, "%*s", n < width ? (int)(width - n) : 0, "");
	put_plain(out, s);
	if (t->cols[c].align != TBL_RIGHT && !last && n < width)
		fprintf(out, "%*s", (int)(width - n), "");
}

static const char *sep_of(const struct table *t)
{
	return t->style == TBL_BOXED ? " | " : "  ";
}

/*
 * One row; a fold cell wider than its column goes on as many lines as
 * it takes, cut after a '|', the other cells blank there.
 */
static void put_line(FILE *out, const struct table *t,
		     const struct table_width *w, const char *const *cells)
{
	const char *rest[TABLE_MAX_COLS], *line[TABLE_MAX_COLS];
	char piece[TABLE_MAX_COLS][512];
	bool first = true, more;
	int c;

	for (c = 0; c < t->ncols; c++)
		rest[c] = cells[c];
	do {
		more = false;
		for (c = 0; c < t->ncols; c++) {
			size_t n = strlen(rest[c]);

			if (t->cols[c].align != TBL_FOLD) {
				line[c] = first ? cells[c] : "";
				continue;
			}
			if (n > w[c].w[0])
				n = fold_take(rest[c], w[c].w[0]);
			if (n >= sizeof(piece[c]))
				n = sizeof(piece[c]) - 1;
			memcpy(piece[c], rest[c], n);
			piece[c][n] = '\0';
			line[c] = piece[c];
			rest[c] += n;
			more = more || *rest[c];
		}
		fputc(' ', out);
		for (c = 0; c < t->ncols; c++) {
			bool last = c == t->ncols - 1;

			if (c && last && !*line[c])	/* no trailing blank */
				fputs(t->style == TBL_BOXED ? " |" : "", out);
			else if (c)
				fputs(sep_of(t), out);
			put_cell(out, t, c, &w[c], line[c], last);
		}
		fputc('\n', out);
		first = false;
	} while (more);
}

static void put_dashes(FILE *out, size_t n)
{
	while (n--)
		fputc('-', out);
}

static void put_rule(FILE *out, const struct table *t,
		     const struct table_width *w)
{
	size_t total = 1;
	int c;

	if (t->style == TBL_MATRIX) {
		fputc(' ', out);
		for (c = 0; c < t->ncols; c++) {
			if (c)
				fputs(sep_of(t), out);
			put_dashes(out, col_width(t, c, &w[c]));
		}
		fputc('\n', out);
		return;
	}
	for (c = 0; c < t->ncols; c++)
		total += col_width(t, c, &w[c]) + (c ? 3 : 0);
	put_dashes(out, total + 1);
	fputc('\n', out);
}

static void put_cut(FILE *out, const struct table *t,
		    const struct table_width *w)
{
	int c;

	fputc(' ', out);
	for (c = 0; c < t->ncols; c++) {
		if (c)
			fputs(sep_of(t), out);
		fprintf(out, "%-*s", c == t->ncols - 1 ? 0 :
			(int)col_width(t, c, &w[c]), "...");
	}
	fputc('\n', out);
}

/**
 * table_print_head - print the rules and the header
 * @t: the table, every row measured (and table_mark_cut() if it is)
 * @out: where to
 */
void table_print_head(const struct table *t, FILE *out)
{
	struct table_width w[TABLE_MAX_COLS];
	const char *hdr[TABLE_MAX_COLS];
	int c;

	final_widths(t, w);
	for (c = 0; c < t->ncols; c++)
		hdr[c] = t->cols[c].header;
	if (t->style == TBL_BOXED)
		put_rule(out, t, w);
	put_line(out, t, w, hdr);
	put_rule(out, t, w);
}

/**
 * table_print_row - print a row measured before
 * @t: the table
 * @out: where to
 * @cells: @t->ncols strings
 */
void table_print_row(const struct table *t, FILE *out,
		     const char *const *cells)
{
	struct table_width w[TABLE_MAX_COLS];

	final_widths(t, w);
	put_line(out, t, w, cells);
}

/**
 * table_print_end - print the "..." row of a cut table and the last rule
 * @t: the table
 * @out: where to
 */
void table_print_end(const struct table *t, FILE *out)
{
	struct table_width w[TABLE_MAX_COLS];

	final_widths(t, w);
	if (t->cut)
		put_cut(out, t, w);
	if (t->style == TBL_BOXED)
		put_rule(out, t, w);
	if (t->oom)
		fprintf(out, " (out of memory: rows are missing)\n");
}

/**
 * table_print - render the table and the rows it holds
 * @t: the table
 * @out: where to
 */
void table_print(const struct table *t, FILE *out)
{
	size_t i;

	table_print_head(t, out);
	for (i = 0; i < t->nrows; i++)
		table_print_row(t, out,
				(const char *const *)&t->cells[i * t->ncols]);
	table_print_end(t, out);
}
