// SPDX-License-Identifier: LGPL-2.1
/*
 * Two inputs' statistics compared (see diff.h): the rows of the keyed
 * arrays matched by name, and the values of both sides and their
 * difference.  render/diff_text.c and render/diff_json.c write them.
 * Everything here runs once, after both inputs are read: nothing is on
 * a per-event path.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

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
		"largest", "nr_lazy_peak", "nr_lazy_max",
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

/*
 * A member null in one row and a string in another ("cache": a call
 * site's one cache, or null for several) is not a number: not compared.
 */
static void drop_string_names(struct kmem_diff_groups *gs,
			      const struct jt_node *row)
{
	size_t k = 0;

	while (k < gs->nnames) {
		const struct jt_node *m = jt_get(row, gs->names[k]);

		if (m && m->type == JT_STR) {
			gs->nnames--;
			memmove(&gs->names[k], &gs->names[k + 1],
				(gs->nnames - k) * sizeof(gs->names[0]));
		} else {
			k++;
		}
	}
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
	for (i = 0; i < gs->ne; i++)
		drop_string_names(gs, gs->e[i].row);
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
