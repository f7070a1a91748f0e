// SPDX-License-Identifier: LGPL-2.1
/*
 * The diff report (trace-kmem diff): summaries side by side, then the
 * call sites and caches that changed most, as analysis/diff.c compares
 * them.  Runs once, after both inputs are read.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/numfmt.h"
#include "base/table.h"
#include "diff_report.h"
#include "event/symbols.h"
#include "views.h"

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

/* Return: whether either input has the allocator @member. */
static bool print_section(const struct kmem_diff *d, FILE *out,
			  const char *member, const char *title)
{
	const struct jt_node *b = jt_get(d->before, member);
	const struct jt_node *a = jt_get(d->after, member);
	struct table t;
	int n;

	if (!b && !a)
		return false;
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
	return true;
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
	unsigned int id, shown = 0;

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
	for (id = 0; id < KMEM_NR_ALLOC; id++)
		shown += print_section(d, out, kmem_allocs[id].name,
				       kmem_alloc_views[id].section);
	if (!shown)
		fprintf(out,
			" No allocator %s in either trace: nothing to "
			"compare.\n",
			d->filtered ? "records matched the filters" : "events");
}
