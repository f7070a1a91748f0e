// SPDX-License-Identifier: LGPL-2.1
/*
 * Two inputs' statistics compared (see diff.h).  Everything here runs
 * once, after both inputs are read: nothing is on a per-event path.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/numfmt.h"
#include "base/table.h"
#include "diff.h"
#include "event/symbols.h"

/* The arrays whose rows are matched, and the members that name a row. */
static const struct {
	const char *array;
	const char *keys[KMEM_DIFF_ROW_KEYS];
} keyed[] = {
	{ "callsites", { "callsite" } },
	{ "caches", { "name" } },
	{ "leaks", { "callsite" } },
	{ "anomalies", { "callsite" } },
	{ "order_migratetype", { "order", "migratetype" } },
	{ "extfrag", { "requested", "fallback" } },
	{ "per_process", { "comm" } },
	{ "requests", { "size", "align", "atomic", "reserved" } },
};

#define NR_KEYED (sizeof(keyed) / sizeof(keyed[0]))

/* Members that are not sums: not added up, not normalised. */
static bool intensive(const struct jt_node *n)
{
	static const char *const names[] = {
		"order", "size", "align", "lo_ns", "hi_ns", "mean_lifetime_ns",
		"lifetime_p50_ns", "lifetime_p99_ns", "oldest_ns",
		"median_age_ns", "leaks_older_than_ns", "leaks_end_ns",
	};
	size_t i;

	if (n->type == JT_PCT)
		return true;
	for (i = 0; n->key && i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(n->key, names[i]))
			return true;
	return false;
}

static double per(const struct kmem_diff *d, bool after)
{
	double p = after ? d->after_per : d->before_per;

	return d->norm == KMEM_NORM_NONE || p <= 0 ? 1 : p;
}

/**
 * kmem_diff_add_val - add one side's value of a member
 * @d: the comparison (how values are normalised)
 * @v: the value so far (zeroed before the first)
 * @n: the member, or NULL when this side lacks it
 * @after: @n is the after document's
 *
 * @n's value, normalised unless intensive, is added to @v; a null
 * member makes @v null for good.
 */
void kmem_diff_add_val(const struct kmem_diff *d, struct kmem_dval *v,
		       const struct jt_node *n, bool after)
{
	if (!n)
		return;
	if (!jt_is_num(n)) {
		if (n->type == JT_NULL)
			v->kind = DV_NULL;
		return;
	}
	if (v->kind == DV_NULL)
		return;
	if (d->norm == KMEM_NORM_NONE && n->type != JT_PCT) {
		v->i += n->type == JT_U64 ? (int64_t)n->v.u : n->v.i;
		v->d += jt_num(n);
		if (v->kind == DV_ABSENT)
			v->kind = DV_INT;
		return;
	}
	v->d += jt_num(n) / (intensive(n) ? 1 : per(d, after));
	v->kind = DV_REAL;
}

static void write_delta(struct json *j, const char *key,
			const struct kmem_dval *b, const struct kmem_dval *a)
{
	if (b->kind == DV_NULL || a->kind == DV_NULL)
		json_str(j, key, NULL);
	else if (b->kind != DV_REAL && a->kind != DV_REAL)
		json_i64(j, key, a->i - b->i);
	else
		json_pct(j, key, a->d - b->d);
}

static double dval(const struct kmem_dval *b, const struct kmem_dval *a)
{
	if (b->kind == DV_NULL || a->kind == DV_NULL)
		return 0;
	return a->d - b->d;
}

/* ---------------------------------------------------------------- rows */

struct kmem_diff_entry {
	char *key;
	const struct jt_node *row;
	bool after;
};

/**
 * kmem_diff_keyed - the keyed array of that name
 * @array: the member name of an array (may be NULL)
 *
 * Return: its index for kmem_diff_row_keys() and
 * kmem_diff_group_rows(), or -1 if its rows are not matched.
 */
int kmem_diff_keyed(const char *array)
{
	size_t i;

	for (i = 0; array && i < NR_KEYED; i++)
		if (!strcmp(array, keyed[i].array))
			return (int)i;
	return -1;
}

/**
 * kmem_diff_row_keys - the members that name a keyed array's row
 * @k: the keyed array (kmem_diff_keyed())
 *
 * Return: up to KMEM_DIFF_ROW_KEYS names; fewer end with a NULL.
 */
const char *const *kmem_diff_row_keys(int k)
{
	return keyed[k].keys;
}

/* A row's name: its key members' values, joined by \x1f. */
static char *row_key(const struct kmem_diff *d, int k,
		     const struct jt_node *row)
{
	char buf[1024], part[256];
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < KMEM_DIFF_ROW_KEYS && keyed[k].keys[i]; i++) {
		const struct jt_node *m = jt_get(row, keyed[k].keys[i]);

		if (!m)
			strcpy(part, "-");
		else if (m->type == JT_STR)
			snprintf(part, sizeof(part), "%s", m->v.s);
		else if (m->type == JT_BOOL)
			strcpy(part, m->v.b ? "true" : "false");
		else if (jt_is_num(m))
			snprintf(part, sizeof(part), "%.4f", jt_num(m));
		else
			strcpy(part, "null");
		if (d->by_function && !strcmp(keyed[k].keys[i], "callsite"))
			part[strcspn(part, "+")] = '\0';
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
					i ? "\x1f" : "", part);
		if (len >= sizeof(buf))
			len = sizeof(buf) - 1;
	}
	return strdup(buf);
}

static int by_key(const void *x, const void *y)
{
	const struct kmem_diff_entry *a = x, *b = y;
	int c = strcmp(a->key, b->key);

	if (c)
		return c;
	if (a->after != b->after)
		return a->after ? 1 : -1;
	return 0;
}

static void note_names(struct kmem_diff_groups *gs, const struct jt_node *row)
{
	size_t i, k;

	for (i = 0; i < row->n; i++) {
		const struct jt_node *m = row->kids[i];

		if (!m->key || (!jt_is_num(m) && m->type != JT_NULL))
			continue;
		for (k = 0; k < gs->nnames; k++)
			if (!strcmp(gs->names[k], m->key))
				break;
		if (k == gs->nnames && k < KMEM_DIFF_MAX_MEMBERS)
			gs->names[gs->nnames++] = m->key;
	}
}

/**
 * kmem_diff_group_val - a group's value of a member on one side
 * @d: the comparison
 * @g: the group
 * @after: the after document's rows, else the before's
 * @name: the member
 * @v: the value: a sum, or one intensive value (null if several)
 */
void kmem_diff_group_val(const struct kmem_diff *d,
			 const struct kmem_diff_group *g, bool after,
			 const char *name, struct kmem_dval *v)
{
	size_t i, from = after ? g->nb : 0, n = after ? g->na : g->nb;

	memset(v, 0, sizeof(*v));
	for (i = from; i < from + n; i++) {
		const struct jt_node *m = jt_get(g->rows[i], name);

		if (m && n > 1 && jt_is_num(m) && intensive(m)) {
			v->kind = DV_NULL;	/* not a sum: unknown merged */
			return;
		}
		kmem_diff_add_val(d, v, m, after);
	}
}

static const char *const measures[4][3] = {
	{ "bytes_alloc", "bytes", "alloc_bytes" },
	{ "hits", "allocs", "count" },
	{ "live_bytes", NULL, NULL },
	{ "frag_pct", NULL, NULL },
};

/**
 * kmem_diff_measure - the member that gives one measure of the rows
 * @gs: the groups
 * @m: the measure: 0 bytes, 1 hits, 2 live bytes, 3 fragmentation
 *
 * Return: the first of the measure's names the rows have, or NULL.
 */
const char *kmem_diff_measure(const struct kmem_diff_groups *gs, int m)
{
	const char *const *names = measures[m];
	size_t i, k;

	for (i = 0; i < 3 && names[i]; i++)
		for (k = 0; k < gs->nnames; k++)
			if (!strcmp(gs->names[k], names[i]))
				return names[i];
	return NULL;
}

static int by_change(const void *x, const void *y)
{
	const struct kmem_diff_group *a = x, *b = y;
	int i;

	for (i = 0; i < 4; i++)
		if (a->sort[i] != b->sort[i])
			return a->sort[i] > b->sort[i] ? -1 : 1;
	return strcmp(a->key, b->key);
}

/**
 * kmem_diff_groups_release - free what kmem_diff_group_rows() made
 * @gs: the groups
 */
void kmem_diff_groups_release(struct kmem_diff_groups *gs)
{
	size_t i;

	for (i = 0; i < gs->ne; i++)
		free(gs->e[i].key);
	free(gs->e);
	free(gs->g);
	free(gs->rows);
	memset(gs, 0, sizeof(*gs));
}

/**
 * kmem_diff_group_rows - match the rows of a keyed array
 * @d: the comparison
 * @k: the keyed array (kmem_diff_keyed())
 * @b: the before document's array, or NULL
 * @a: the after document's array, or NULL
 * @gs: the groups made
 *
 * The rows of the two arrays, grouped by name and sorted by the size of
 * their change: bytes, hits, live bytes, fragmentation.
 *
 * Return: 0, or -1 out of memory (@gs then holds nothing to release).
 */
int kmem_diff_group_rows(const struct kmem_diff *d, int k,
			 const struct jt_node *b, const struct jt_node *a,
			 struct kmem_diff_groups *gs)
{
	size_t nb = b ? b->n : 0, na = a ? a->n : 0, i, j, n;

	memset(gs, 0, sizeof(*gs));
	gs->e = calloc(nb + na + 1, sizeof(*gs->e));
	gs->g = calloc(nb + na + 1, sizeof(*gs->g));
	gs->rows = calloc(nb + na + 1, sizeof(*gs->rows));
	if (!gs->e || !gs->g || !gs->rows)
		goto oom;
	for (i = 0; i < nb + na; i++) {
		const struct jt_node *r = i < nb ? b->kids[i] : a->kids[i - nb];

		if (r->type != JT_OBJ)
			continue;
		gs->e[gs->ne].row = r;
		gs->e[gs->ne].after = i >= nb;
		gs->e[gs->ne].key = row_key(d, k, r);
		if (!gs->e[gs->ne++].key)
			goto oom;
		note_names(gs, r);
	}
	qsort(gs->e, gs->ne, sizeof(*gs->e), by_key);
	for (i = 0, n = 0; i < gs->ne; i = j) {
		struct kmem_diff_group *g = &gs->g[gs->n++];

		g->key = gs->e[i].key;
		g->first = gs->e[i].row;
		g->rows = gs->rows + n;
		for (j = i; j < gs->ne && !strcmp(gs->e[j].key, g->key); j++) {
			gs->rows[n++] = gs->e[j].row;
			if (gs->e[j].after)
				g->na++;
			else
				g->nb++;
		}
	}
	for (i = 0; i < gs->n; i++) {
		struct kmem_diff_group *g = &gs->g[i];
		int m;

		for (m = 0; m < 4; m++) {
			const char *name = kmem_diff_measure(gs, m);
			struct kmem_dval vb, va;

			if (!name)
				continue;
			kmem_diff_group_val(d, g, false, name, &vb);
			kmem_diff_group_val(d, g, true, name, &va);
			g->sort[m] = fabs(dval(&vb, &va));
		}
	}
	qsort(gs->g, gs->n, sizeof(*gs->g), by_change);
	return 0;
oom:
	kmem_diff_groups_release(gs);
	gs->oom = true;
	return -1;
}

/**
 * kmem_diff_status - how a group changed
 * @d: the comparison
 * @gs: the groups
 * @g: one of them
 *
 * Return: "new", "gone", "changed" or "same".
 */
const char *kmem_diff_status(const struct kmem_diff *d,
			     const struct kmem_diff_groups *gs,
			     const struct kmem_diff_group *g)
{
	size_t k;

	if (!g->nb)
		return "new";
	if (!g->na)
		return "gone";
	for (k = 0; k < gs->nnames; k++) {
		struct kmem_dval vb, va;

		kmem_diff_group_val(d, g, false, gs->names[k], &vb);
		kmem_diff_group_val(d, g, true, gs->names[k], &va);
		if (dval(&vb, &va) != 0 ||
		    (vb.kind == DV_NULL) != (va.kind == DV_NULL))
			return "changed";
	}
	return "same";
}

static void delta_rows(const struct kmem_diff *d, const char *key, int k,
		       const struct jt_node *b, const struct jt_node *a,
		       struct json *j)
{
	const char *const *keys = kmem_diff_row_keys(k);
	struct kmem_diff_groups gs;
	size_t i, m, n;

	if (kmem_diff_group_rows(d, k, b, a, &gs))
		return;	/* out of memory: the array is left out */
	json_open(j, key, '[');
	for (i = 0; i < gs.n; i++) {
		const struct kmem_diff_group *g = &gs.g[i];

		json_open(j, NULL, '{');
		for (m = 0; m < KMEM_DIFF_ROW_KEYS && keys[m]; m++) {
			const struct jt_node *v = jt_get(g->first, keys[m]);
			char buf[256];

			if (!v || jt_is_num(v))
				continue;	/* numbers follow, as deltas */
			if (v->type == JT_STR && d->by_function &&
			    !strcmp(v->key, "callsite")) {
				snprintf(buf, sizeof(buf), "%s", v->v.s);
				buf[strcspn(buf, "+")] = '\0';
				json_str(j, v->key, buf);
			} else {
				jt_write(v, j);
			}
		}
		for (m = 0; m < KMEM_DIFF_ROW_KEYS && keys[m]; m++) {
			const struct jt_node *v = jt_get(g->first, keys[m]);

			if (v && jt_is_num(v))
				jt_write(v, j);	/* a key: as it is */
		}
		json_str(j, "status", kmem_diff_status(d, &gs, g));
		for (n = 0; n < gs.nnames; n++) {
			struct kmem_dval vb, va;

			for (m = 0; m < KMEM_DIFF_ROW_KEYS && keys[m]; m++)
				if (!strcmp(keys[m], gs.names[n]))
					break;
			if (m < KMEM_DIFF_ROW_KEYS && keys[m])
				continue;
			kmem_diff_group_val(d, g, false, gs.names[n], &vb);
			kmem_diff_group_val(d, g, true, gs.names[n], &va);
			write_delta(j, gs.names[n], &vb, &va);
		}
		json_close(j, '}');
	}
	json_close(j, ']');
	kmem_diff_groups_release(&gs);
}

/* ---------------------------------------------------------------- JSON */

static void delta(const struct kmem_diff *d, const char *key,
		  const struct jt_node *b, const struct jt_node *a,
		  struct json *j)
{
	const struct jt_node *n = b ? b : a;
	struct kmem_dval vb = { 0 }, va = { 0 };
	size_t i;
	int k;

	switch (n->type) {
	case JT_OBJ:
		json_open(j, key, '{');
		for (i = 0; b && i < b->n; i++)
			delta(d, b->kids[i]->key, b->kids[i],
			      jt_get(a, b->kids[i]->key), j);
		for (i = 0; a && i < a->n; i++)
			if (!jt_get(b, a->kids[i]->key))
				delta(d, a->kids[i]->key, NULL, a->kids[i], j);
		json_close(j, '}');
		break;
	case JT_ARR:
		k = kmem_diff_keyed(key);
		if (k >= 0)
			delta_rows(d, key, k, b, a, j);
		break;	/* other arrays (per address, names) have no delta */
	case JT_U64:
	case JT_I64:
	case JT_PCT:
	case JT_NULL:
		kmem_diff_add_val(d, &vb, b, false);
		kmem_diff_add_val(d, &va, a, true);
		write_delta(j, key, &vb, &va);
		break;
	case JT_STR:
	case JT_BOOL:
		break;
	}
}

/**
 * kmem_diff_json - write the diff document
 * @d: the two documents and how to compare them
 * @j: the writer, before anything was written
 *
 * { "before": ..., "after": ..., "delta": ... }: the two stat documents
 * as they are, and their difference: every number after minus before
 * (a member one document lacks counts as 0, null stays null), the rows
 * of the keyed arrays matched by name with a "status".
 */
void kmem_diff_json(const struct kmem_diff *d, struct json *j)
{
	static const char *const norm[] = { NULL, "second", "event" };

	json_open(j, NULL, '{');
	json_str(j, "normalised", norm[d->norm]);
	json_u64(j, "before_span_ns", d->span_ns[0]);
	json_u64(j, "after_span_ns", d->span_ns[1]);
	json_u64(j, "before_events", d->events[0]);
	json_u64(j, "after_events", d->events[1]);
	json_bool(j, "by_function", d->by_function);
	jt_write_as(d->before, "before", j);
	jt_write_as(d->after, "after", j);
	delta(d, "delta", d->before, d->after, j);
	json_close(j, '}');
}

/* ---------------------------------------------------------------- text */

static char *fmt_val(char *buf, const struct kmem_dval *v, bool sign)
{
	if (v->kind == DV_NULL)
		return strcpy(buf, "-");
	if (v->kind == DV_REAL)
		snprintf(buf, NUMFMT_LEN, sign ? "%+.2f" : "%.2f", v->d);
	else if (sign && v->i > 0) {
		buf[0] = '+';
		fmt_count(buf + 1, (uint64_t)v->i);
	} else if (sign) {
		fmt_signed(buf, v->i);
	}
	else
		fmt_count(buf, (uint64_t)v->i);
	return buf;
}

/**
 * kmem_diff_delta_of - after minus before
 * @b: the before value
 * @a: the after value
 * @o: the difference: null if either is, real if either is
 */
void kmem_diff_delta_of(const struct kmem_dval *b, const struct kmem_dval *a,
			struct kmem_dval *o)
{
	memset(o, 0, sizeof(*o));
	if (b->kind == DV_NULL || a->kind == DV_NULL) {
		o->kind = DV_NULL;
		return;
	}
	o->kind = b->kind == DV_REAL || a->kind == DV_REAL ? DV_REAL : DV_INT;
	o->i = a->i - b->i;
	o->d = a->d - b->d;
}

/* The summary's numbers, flattened ("live.bytes"), side by side. */
static void summary_rows(const struct kmem_diff *d, struct table *t,
			 const char *prefix, const struct jt_node *b,
			 const struct jt_node *a)
{
	const struct jt_node *n = b ? b : a;
	char name[128], c1[NUMFMT_LEN], c2[NUMFMT_LEN], c3[NUMFMT_LEN];
	const char *cells[4] = { name, c1, c2, c3 };
	struct kmem_dval vb = { 0 }, va = { 0 }, dv;
	size_t i;

	if (n->type == JT_OBJ) {
		for (i = 0; b && i < b->n; i++) {
			snprintf(name, sizeof(name), "%s%s%s", prefix,
				 *prefix ? "." : "", b->kids[i]->key);
			summary_rows(d, t, name, b->kids[i],
				     jt_get(a, b->kids[i]->key));
		}
		for (i = 0; a && i < a->n; i++)
			if (!jt_get(b, a->kids[i]->key)) {
				snprintf(name, sizeof(name), "%s%s%s", prefix,
					 *prefix ? "." : "", a->kids[i]->key);
				summary_rows(d, t, name, NULL, a->kids[i]);
			}
		return;
	}
	if (!jt_is_num(n) && n->type != JT_NULL)
		return;
	snprintf(name, sizeof(name), "%s", prefix);
	kmem_diff_add_val(d, &vb, b, false);
	kmem_diff_add_val(d, &va, a, true);
	kmem_diff_delta_of(&vb, &va, &dv);
	fmt_val(c1, &vb, false);
	fmt_val(c2, &va, false);
	fmt_val(c3, &dv, true);
	table_add_row(t, cells);
}

static const struct table_col sum_cols[] = {
	{ "Summary", TBL_LEFT }, { "Before", TBL_RIGHT },
	{ "After", TBL_RIGHT },	 { "Delta", TBL_RIGHT },
};

static const struct table_col row_cols[] = {
	{ "Delta bytes", TBL_RIGHT }, { "Before", TBL_RIGHT },
	{ "After", TBL_RIGHT },	      { "Delta hits", TBL_RIGHT },
	{ "Delta live bytes", TBL_RIGHT }, { "Delta frag", TBL_RIGHT },
	{ "Status", TBL_LEFT },	      { "Name", TBL_LEFT },
};

static void print_rows(const struct kmem_diff *d, FILE *out, const char *what,
		       const char *array, const struct jt_node *b,
		       const struct jt_node *a)
{
	char cell[8][KMEM_SYM_LEN];
	const char *cp[8];
	struct table_col cols[8];
	struct kmem_diff_groups gs;
	struct table t;
	size_t i, shown;
	int k = kmem_diff_keyed(array), m;

	if (!b && !a)
		return;
	if (kmem_diff_group_rows(d, k, b, a, &gs)) {
		fprintf(out, " (out of memory: %s left out)\n\n", what);
		return;
	}
	memcpy(cols, row_cols, sizeof(cols));
	cols[7].header = !strcmp(array, "caches") ? "Cache" : "Callsite";
	for (m = 0; m < 8; m++)
		cp[m] = cell[m];
	table_init(&t, cols, 8, TBL_BOXED);
	t.max_width = 0;
	shown = d->lines && gs.n > d->lines ? d->lines : gs.n;
	for (i = 0; i < shown; i++) {
		const struct kmem_diff_group *g = &gs.g[i];
		const char *bm = kmem_diff_measure(&gs, 0);
		const char *hm = kmem_diff_measure(&gs, 1);
		const char *lm = kmem_diff_measure(&gs, 2);
		const char *fm = kmem_diff_measure(&gs, 3);
		struct kmem_dval vb, va, dv;

		for (m = 0; m < 7; m++)
			strcpy(cell[m], "-");
		if (bm) {
			kmem_diff_group_val(d, g, false, bm, &vb);
			kmem_diff_group_val(d, g, true, bm, &va);
			kmem_diff_delta_of(&vb, &va, &dv);
			fmt_val(cell[0], &dv, true);
			fmt_val(cell[1], &vb, false);
			fmt_val(cell[2], &va, false);
		}
		if (hm) {
			kmem_diff_group_val(d, g, false, hm, &vb);
			kmem_diff_group_val(d, g, true, hm, &va);
			kmem_diff_delta_of(&vb, &va, &dv);
			fmt_val(cell[3], &dv, true);
		}
		if (lm) {
			kmem_diff_group_val(d, g, false, lm, &vb);
			kmem_diff_group_val(d, g, true, lm, &va);
			kmem_diff_delta_of(&vb, &va, &dv);
			fmt_val(cell[4], &dv, true);
		}
		if (fm) {
			kmem_diff_group_val(d, g, false, fm, &vb);
			kmem_diff_group_val(d, g, true, fm, &va);
			if (vb.kind == DV_NULL || va.kind == DV_NULL)
				strcpy(cell[5], "-");
			else
				snprintf(cell[5], KMEM_SYM_LEN, "%+.2f%%",
					 va.d - vb.d);
		}
		snprintf(cell[6], KMEM_SYM_LEN, "%s",
			 kmem_diff_status(d, &gs, g));
		snprintf(cell[7], KMEM_SYM_LEN, "%s", g->key);
		table_add_row(&t, cp);
	}
	if (shown < gs.n)
		table_mark_cut(&t);
	fprintf(out, " %s, by the size of the change (bytes, hits, live bytes, "
		     "fragmentation)\n", what);
	if (!gs.n)
		fprintf(out, " None.\n");
	else
		table_print(&t, out);
	fputc('\n', out);
	table_release(&t);
	kmem_diff_groups_release(&gs);
}

static void print_section(const struct kmem_diff *d, FILE *out,
			  const char *member, const char *title)
{
	const struct jt_node *b = jt_get(d->before, member);
	const struct jt_node *a = jt_get(d->after, member);
	struct table t;
	int n;

	if (!b && !a)
		return;
	n = fprintf(out, " %s\n", title) - 2;
	fputc(' ', out);
	while (n-- > 0)
		fputc('=', out);
	fputs("\n\n", out);
	table_init(&t, sum_cols, 4, TBL_BOXED);
	t.max_width = 0;
	summary_rows(d, &t, "", jt_get(b, "summary"), jt_get(a, "summary"));
	table_print(&t, out);
	table_release(&t);
	fputc('\n', out);
	print_rows(d, out, "Call sites", "callsites", jt_get(b, "callsites"),
		   jt_get(a, "callsites"));
	print_rows(d, out, "Caches", "caches", jt_get(b, "caches"),
		   jt_get(a, "caches"));
}

/**
 * kmem_diff_text - print the diff report
 * @d: the two documents and how to compare them
 * @out: where to
 *
 * For each allocator either input has: its summaries side by side with
 * the difference, then the call sites and caches whose bytes, hits,
 * live bytes or fragmentation changed most (lines= of them), new and
 * vanished ones marked.
 */
void kmem_diff_text(const struct kmem_diff *d, FILE *out)
{
	fprintf(out, "\n kmem diff: %s -> %s\n", d->before_label,
		d->after_label);
	if (d->norm == KMEM_NORM_SECOND)
		fprintf(out, " Counts and bytes per second of trace (%.6f s "
			     "before, %.6f s after)\n", d->before_per,
			d->after_per);
	else if (d->norm == KMEM_NORM_EVENT)
		fprintf(out, " Counts and bytes per allocator event (%.0f "
			     "before, %.0f after)\n", d->before_per,
			d->after_per);
	if (d->by_function)
		fprintf(out, " Call sites matched by function (the +0xoff "
			     "left out)\n");
	fputc('\n', out);
	print_section(d, out, "slab", "Slab allocator");
	print_section(d, out, "page", "Page allocator");
	print_section(d, out, "percpu", "Per-CPU allocator");
}
