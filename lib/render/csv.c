// SPDX-License-Identifier: LGPL-2.1
/*
 * The CSV backend (see csv.h): the JSON document's tables, each row
 * made from its columns' declaration (cols.h), every number as the JSON
 * writes it.
 */
#include <inttypes.h>
#include <string.h>

#include "csv.h"
#include "report.h"

/* A field, quoted when it holds a comma, a quote, CR or LF. */
static void put_field(FILE *out, const char *s, bool first)
{
	if (!first)
		fputc(',', out);
	if (!s[strcspn(s, ",\"\r\n")]) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void put_u64(FILE *out, uint64_t v)
{
	fprintf(out, ",%" PRIu64, v);
}

/* Does a field have a CSV column?  Not a member of many values. */
static bool has_column(const struct col_field *f)
{
	return f->type != CF_JSON || f->str;
}

static void put_value(FILE *out, const struct cols_ctx *c,
		      const struct col_field *f, const void *row)
{
	char buf[KMEM_SYM_LEN];
	const char *s;
	uint64_t b;

	if (!cols_known(c, f, row)) {
		fputs(f->type == CF_COUNT_BYTES ? ",," : ",", out); /* null */
		return;
	}
	switch (f->type) {
	case CF_U64:
		put_u64(out, cols_num(c, &f->a, row));
		break;
	case CF_I64:
		fprintf(out, ",%" PRId64, (int64_t)cols_num(c, &f->a, row));
		break;
	case CF_BOOL:
		fputs(cols_num(c, &f->a, row) ? ",true" : ",false", out);
		break;
	case CF_MEAN:
		b = cols_num(c, &f->b, row);
		if (b)
			put_u64(out, cols_num(c, &f->a, row) / b);
		else
			fputc(',', out);
		break;
	case CF_FRAG:
		fprintf(out, ",%.4f",
			cols_frag(cols_num(c, &f->a, row),
				  cols_num(c, &f->b, row)));
		break;
	case CF_COUNT_BYTES:
		put_u64(out, cols_num(c, &f->a, row));
		put_u64(out, cols_num(c, &f->b, row));
		break;
	case CF_CALLSITE:
		put_field(out,
			  fmt_callsite(buf, c->sym, cols_num(c, &f->a, row),
				       c->raw_ip),
			  false);
		break;
	case CF_ADDR:
		put_field(out, fmt_addr(buf, cols_num(c, &f->a, row)), false);
		break;
	case CF_SITE_ADDR:
		put_field(out,
			  c->sym && c->sym->merged
				  ? ""
				  : fmt_addr(buf, cols_num(c, &f->a, row)),
			  false);
		break;
	case CF_STR:
	case CF_JSON:
		s = f->str(c, row, buf);
		put_field(out, s ? s : "", false);
		break;
	}
}

/* A field's column names: its key, or KEY.count and KEY.bytes. */
static void put_head(FILE *out, const struct col_field *f)
{
	char name[KMEM_SYM_LEN];

	if (!has_column(f))
		return;
	if (f->type != CF_COUNT_BYTES)
		return put_field(out, f->key, false);
	snprintf(name, sizeof(name), "%s.count", f->key);
	put_field(out, name, false);
	snprintf(name, sizeof(name), "%s.bytes", f->key);
	put_field(out, name, false);
}

/* The JSON path of the array being written: "percpu.callsites". */
static void put_table(FILE *out, const struct json *j, const char *key)
{
	char path[KMEM_SYM_LEN];
	size_t len = 0;
	int d;

	path[0] = '\0';
	for (d = 1; d < j->depth && d < JSON_MAX_DEPTH; d++) {
		const struct jt_node *n = j->cap[d];

		if (!n || !n->key) /* capture left it out: the key alone */
			return put_field(out, key, true);
		len += (size_t)snprintf(path + len, sizeof(path) - len, "%s%s",
					len ? "." : "", n->key);
		if (len >= sizeof(path))
			return put_field(out, key, true);
	}
	put_field(out, path, true);
}

/**
 * csv_table - write a table's header row and rows
 * @w: the CSV
 * @j: the JSON writer capturing the document, inside the table's array
 *	(its path names the table)
 * @key: the array's member name
 * @c: the table
 * @s: its rows, in order
 */
void csv_table(struct csv *w, const struct json *j, const char *key,
	       const struct cols_ctx *c, const struct sort_set *s)
{
	const struct cols_def *d = c->def;
	size_t i;
	int k;

	/* no memory for the document: its path may no longer name the
	 * table; this and the tables after it are left out */
	if (j->oom)
		return;
	put_field(w->out, "table", true);
	put_field(w->out, "file", false);
	for (k = 0; k < d->nfields; k++)
		put_head(w->out, &d->fields[k]);
	fputs("\r\n", w->out);
	for (i = 0; i < s->held; i++) {
		const void *row = cols_row(c, sort_idx(s, i));

		put_table(w->out, j, key);
		put_field(w->out, w->file, false);
		for (k = 0; k < d->nfields; k++)
			if (has_column(&d->fields[k]))
				put_value(w->out, c, &d->fields[k], row);
		fputs("\r\n", w->out);
	}
}

/**
 * kmem_report_csv - write the tables of one input as CSV
 * @r: what to write
 * @out: where to
 *
 * The JSON document is made in memory without its tables' rows, which
 * go to @out instead, so the CSV holds the tables the JSON would.
 *
 * Return: 0, or -1 when memory ran out for the document (the tables
 * written are whole, those after it missing).
 */
int kmem_report_csv(const struct kmem_report_ctx *r, FILE *out)
{
	struct csv w = { out, r->in->label };
	struct json j;

	json_init_tree(&j);
	j.table_sink = &w; /* cols_json_table() writes its rows to @w */
	kmem_report_json_to(r, &j);
	jt_free(j.root);
	return j.oom ? -1 : 0;
}
