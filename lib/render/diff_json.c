// SPDX-License-Identifier: LGPL-2.1
/*
 * The diff document (trace-kmem diff --json): both inputs' statistics
 * and their difference, as analysis/diff.c compares them.  Runs once,
 * after both inputs are read.
 */
#include <stdio.h>
#include <string.h>

#include "diff_report.h"
#include "report.h"

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

static void delta_rows(const struct kmem_diff *d, const char *key, int k,
		       const struct jt_node *b, const struct jt_node *a,
		       struct json *j)
{
	const char *const *keys = kmem_diff_row_keys(k);
	struct kmem_diff_groups gs;
	size_t i, m, n;

	if (kmem_diff_group_rows(d, k, b, a, &gs)) {
		j->oom = true; /* out of memory: the array is left out */
		return;
	}
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
 * { "schema_version", "before": ..., "after": ..., "delta": ... }: the
 * two stat documents
 * as they are, and their difference: every number after minus before
 * (a member one document lacks counts as 0, null stays null), the rows
 * of the keyed arrays matched by name with a "status".  An array left
 * out for want of memory sets @j->oom.
 */
void kmem_diff_json(const struct kmem_diff *d, struct json *j)
{
	static const char *const norm[] = { NULL, "second", "event" };

	json_open(j, NULL, '{');
	json_u64(j, "schema_version", KMEM_JSON_SCHEMA);
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
