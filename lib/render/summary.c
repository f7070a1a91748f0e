// SPDX-License-Identifier: LGPL-2.1
/*
 * Summaries declared once (see summary.h): the text block and the JSON
 * object of one table of fields.
 */
#include <string.h>

#include "alloc/registry.h"
#include "base/numfmt.h"
#include "recorded.h"
#include "summary.h"

/**
 * sum_num - a number of a summary
 * @c: the summary
 * @n: where the number is
 *
 * Return: the number.
 */
uint64_t sum_num(const struct sum_ctx *c, const struct sum_num *n)
{
	uint64_t v;

	if (n->fn)
		return n->fn(c);
	memcpy(&v, (const char *)c->base + n->off, sizeof(v));
	return v;
}

/**
 * sum_nonzero - a text line shown only when its number is not 0
 * @c: the summary
 * @f: the field
 *
 * Return: whether @f's number a is not 0.
 */
bool sum_nonzero(const struct sum_ctx *c, const struct sum_field *f)
{
	return sum_num(c, &f->a) != 0;
}

/**
 * sum_double_label - "Double frees", or "Repeated frees" when the trace
 *	may have missed their allocations (kmem_free_doubt())
 * @c: the summary
 *
 * Return: the label.
 */
const char *sum_double_label(const struct sum_ctx *c)
{
	char buf[KMEM_DOUBT_LEN];

	return kmem_free_doubt(c->r, c->def->alloc, buf, sizeof(buf))
		       ? "Repeated frees"
		       : "Double frees";
}

/**
 * sum_double_note - what the double or repeated frees may be
 * @c: the summary
 * @buf: SUM_NOTE_LEN bytes
 *
 * Return: @buf, or SUM_NOTE_DOUBLE.
 */
const char *sum_double_note(const struct sum_ctx *c, char *buf)
{
	char why[KMEM_DOUBT_LEN];
	const char *d = kmem_free_doubt(c->r, c->def->alloc, why, sizeof(why));

	if (!d)
		return SUM_NOTE_DOUBLE;
	snprintf(buf, SUM_NOTE_LEN, "(no allocation seen between; %s)", d);
	return buf;
}

/**
 * sum_double_json - "double_frees_doubt": why the double frees may be
 *	frees of allocations the trace missed, or null
 * @c: the summary
 * @f: the field
 * @j: the writer
 */
void sum_double_json(const struct sum_ctx *c, const struct sum_field *f,
		     struct json *j)
{
	char why[KMEM_DOUBT_LEN];

	json_str(j, f->key,
		 kmem_free_doubt(c->r, c->def->alloc, why, sizeof(why)));
}

/* The event kind @f counts (KMEM_EV_NONE: none). */
static enum kmem_ev_kind needed(const struct sum_ctx *c,
				const struct sum_field *f)
{
	return f->needs == SUM_NEEDS_FREE ? kmem_allocs[c->def->alloc].free_kind
					  : f->needs;
}

static bool sum_known(const struct sum_ctx *c, const struct sum_field *f)
{
	if (f->known)
		return f->known(c);
	return kmem_recorded(c->r, needed(c, f));
}

/* The text line of @f, added to @b. */
static void add_line(const struct sum_ctx *c, const struct sum_field *f,
		     struct kvblock *b)
{
	const char *label = f->label_fn ? f->label_fn(c) : f->label;
	struct kv_line *l;
	const char *note = NULL; /* none on an unknown value */
	bool known;

	if (f->kind == SF_GAP) {
		kv_gap(b);
		return;
	}
	known = sum_known(c, f);
	if (!known) {
		l = kv_add(b, label, "-");
	} else if (f->kind == SF_SIGNED) {
		l = kv_add(b, label, "");
		fmt_signed(l->value, (int64_t)sum_num(c, &f->a));
	} else if (f->kind == SF_COUNT_BYTES || f->kind == SF_PAIR) {
		l = kv_add_count_bytes(b, label, sum_num(c, &f->a),
				       sum_num(c, &f->b));
	} else {
		l = kv_add_count(b, label, sum_num(c, &f->a));
	}
	if (known)
		note = f->note_fn ? f->note_fn(c, l->note) : f->note;
	if (!note)
		l->note[0] = '\0';
	else if (note != l->note)
		snprintf(l->note, sizeof(l->note), "%s", note);
}

/**
 * sum_lines - add a summary's text lines to a block
 * @c: the summary
 * @b: the block (kv_print() prints it)
 *
 * The fields with a line number, in its order; those whose show() says
 * no are left out, and so are numbers past SUM_MAX_LINES.
 */
void sum_lines(const struct sum_ctx *c, struct kvblock *b)
{
	const struct sum_def *d = c->def;
	int at[SUM_MAX_LINES + 1];
	int i;

	for (i = 0; i <= SUM_MAX_LINES; i++)
		at[i] = -1;
	for (i = 0; i < d->nfields; i++)
		if (d->fields[i].line && d->fields[i].line <= SUM_MAX_LINES)
			at[d->fields[i].line] = i;
	for (i = 1; i <= SUM_MAX_LINES; i++) {
		const struct sum_field *f;

		if (at[i] < 0)
			continue;
		f = &d->fields[at[i]];
		if (!f->show || f->show(c, f))
			add_line(c, f, b);
	}
}

/* @w after a space at column @col, or on a new line; Return: the column. */
static int put_word(FILE *out, int col, const char *w)
{
	int len = (int)strlen(w);

	if (col + 1 + len > 79) {
		fputs("\n   ", out);
		col = 3;
	} else {
		fputc(' ', out);
		col++;
	}
	fputs(w, out);
	return col + len;
}

/*
 * After the block, the events whose absence made a line "-", wrapped
 * at 80 columns: " -: not recorded; enable kmem:A and kmem:B to count
 * these."
 */
static void print_unrecorded(const struct sum_ctx *c, FILE *out)
{
	enum kmem_slot ev[KMEM_NR_SLOTS];
	uint64_t named = 0, set;
	char word[80];
	int i, n = 0, k, col;

	/* in the order of the lines, each event once */
	for (i = 0; i < c->def->nfields; i++) {
		const struct sum_field *f = &c->def->fields[i];

		if (!f->needs || !f->line || f->line > SUM_MAX_LINES ||
		    (f->show && !f->show(c, f)) || sum_known(c, f))
			continue;
		set = kmem_unrecorded_slots(c->r, needed(c, f)) & ~named;
		named |= set;
		for (k = 0; k < KMEM_NR_SLOTS; k++)
			if (set & KMEM_SLOT_BIT(k))
				ev[n++] = (enum kmem_slot)k;
	}
	if (!n)
		return;
	col = fprintf(out, "\n -: not recorded; enable") - 1;
	for (k = 0; k < n; k++) {
		snprintf(word, sizeof(word), "%s:%s%s", kmem_slot_system(ev[k]),
			 kmem_slot_event_name(ev[k]),
			 k + 2 < n   ? ","
			 : k + 1 < n ? " and"
				     : "");
		col = put_word(out, col, word);
	}
	put_word(out, col, n > 1 ? "to count these." : "to count it.");
	fputc('\n', out);
}

/**
 * sum_print - print a summary's heading and text block
 * @c: the summary
 * @out: where to
 */
void sum_print(const struct sum_ctx *c, FILE *out)
{
	size_t n = strlen("SUMMARY ()") + strlen(c->def->title);
	struct kvblock b;

	fprintf(out, " SUMMARY (%s)\n ", c->def->title);
	while (n--)
		fputc('=', out); /* under the heading */
	fputs("\n\n", out);
	kv_init(&b);
	sum_lines(c, &b);
	kv_print_width(&b, out,
		       c->r && c->r->cfg && c->r->cfg->fit ? c->r->cfg->width
							   : 0);
	print_unrecorded(c, out);
}

/* The JSON member(s) of @f. */
static void json_field(const struct sum_ctx *c, const struct sum_field *f,
		       struct json *j)
{
	if (f->kind == SF_CLOSE) {
		json_close(j, '}');
		return;
	}
	if (!f->key || f->kind == SF_GAP)
		return;
	if (f->kind == SF_OPEN) {
		json_open(j, f->key, '{');
	} else if (f->kind == SF_JSON) {
		f->json(c, f, j);
	} else if (!sum_known(c, f)) {
		json_str(j, f->key, NULL);
		if (f->kind == SF_PAIR)
			json_str(j, f->key_b, NULL);
	} else if (f->kind == SF_SIGNED) {
		json_i64(j, f->key, (int64_t)sum_num(c, &f->a));
	} else if (f->kind == SF_COUNT_BYTES) {
		json_count_bytes(j, f->key, sum_num(c, &f->a),
				 sum_num(c, &f->b));
	} else {
		json_u64(j, f->key, sum_num(c, &f->a));
		if (f->kind == SF_PAIR)
			json_u64(j, f->key_b, sum_num(c, &f->b));
	}
}

/**
 * sum_json - write a summary as a JSON object
 * @c: the summary
 * @key: its member name (NULL: in an array)
 * @j: the writer
 *
 * Every field with a key, in table order, whatever show() says.
 */
void sum_json(const struct sum_ctx *c, const char *key, struct json *j)
{
	int i;

	json_open(j, key, '{');
	for (i = 0; i < c->def->nfields; i++)
		json_field(c, &c->def->fields[i], j);
	json_close(j, '}');
}
