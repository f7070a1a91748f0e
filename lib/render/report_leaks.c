// SPDX-License-Identifier: LGPL-2.1
/*
 * The leak tables (kmem:leaks[=AGE]) of each allocator, text and JSON.
 */
#include <stddef.h>
#include <string.h>

#include "analysis/leaks.h"
#include "base/numfmt.h"
#include "report_leaks.h"
#include "tables.h"

static const struct table_col leak_cols[] = {
	{ "Objects", TBL_RIGHT },    { "Bytes", TBL_RIGHT },
	{ "Oldest", TBL_RIGHT },     { "Median age", TBL_RIGHT },
	{ "Callsite", TBL_LEFT },
};

static const char *const names[] = {
	[KMEM_A_SLAB] = "slab allocator",
	[KMEM_A_PAGE] = "page allocator",
	[KMEM_A_PERCPU] = "per-CPU allocator",
};

/* The report with the rows being printed, for the table's callbacks. */
struct leak_ctx {
	struct kmem_report_ctx r;
	struct leak_set *ls;
	enum kmem_allocator which;
};

static const struct leak_ctx *ctx_of(const struct kmem_report_ctx *r)
{
	return (const struct leak_ctx *)((const char *)r -
					 offsetof(struct leak_ctx, r));
}

static void leak_rows(const struct kmem_report_ctx *r, struct sort_set *set)
{
	const struct leak_set *ls = ctx_of(r)->ls;
	size_t i;

	for (i = 0; i < ls->nr; i++) {
		sort_key(set, SORT_CALLSITE, ls->rows[i].call_site);
		sort_key(set, SORT_BYTES, ls->rows[i].bytes);
		sort_key(set, SORT_HIT, ls->rows[i].count);
		sort_add(set, (uint32_t)i);
	}
}

/* A frame's function, as the folded stacks name it. */
static void frame_name(char *buf, size_t len, const struct kmem_symbolizer *sym,
		       uint64_t addr)
{
	uint64_t start = 0;
	const char *name = NULL;

	if (!addr) {
		snprintf(buf, len, "(no stack)");
		return;
	}
	if (sym && sym->resolve)
		name = sym->resolve(sym->priv, addr, &start);
	if (name)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "0x%llx", (unsigned long long)addr);
}

/*
 * A stack in one cell: "call_site+0xoff <- caller <- ...", cut to fit
 * (two stacks may differ in return addresses only, not in the names).
 */
static char *stack_name(char *buf, const struct leak_ctx *lc, uint64_t idx)
{
	const struct kmem_folded *f = &lc->r.agg->folded;
	const struct folded_stack *st = &f->stacks[idx];
	char fn[KMEM_SYM_LEN];
	size_t len = 0;
	uint32_t k;

	buf[0] = '\0';
	for (k = 0; k < st->n; k++) {
		if (!k && f->frames[st->off])	/* the call site, exactly */
			fmt_callsite(fn, lc->r.sym, f->frames[st->off],
				     lc->r.cfg->raw_ip);
		else
			frame_name(fn, sizeof(fn), lc->r.sym,
				   f->frames[st->off + k]);
		if (len + strlen(fn) + 8 > 120) {
			snprintf(buf + len, KMEM_SYM_LEN - len, " <- ...");
			break;
		}
		len += (size_t)snprintf(buf + len, KMEM_SYM_LEN - len, "%s%s",
					k ? " <- " : "", fn);
	}
	return buf;
}

/* "(no stack)" for the page allocator, "(no call_site field)" per-CPU */
static char *site_name(char *buf, const struct leak_ctx *lc, uint64_t cs)
{
	if (lc->ls->by_stack)
		return stack_name(buf, lc, cs);
	if (cs)
		return fmt_callsite(buf, lc->r.sym, cs, lc->r.cfg->raw_ip);
	return strcpy(buf, lc->which == KMEM_A_PAGE ? "(no stack)" :
			   lc->which == KMEM_A_PERCPU ? "(no call_site field)" :
							"0x0");
}

static void leak_cells(const struct kmem_report_ctx *r, uint32_t idx,
		       char c[][KMEM_SYM_LEN])
{
	const struct leak_ctx *lc = ctx_of(r);
	const struct leak_row *row = &lc->ls->rows[idx];

	fmt_count(c[0], row->count);
	fmt_count(c[1], row->bytes);
	fmt_duration(c[2], row->oldest_ns);
	fmt_duration(c[3], row->median_ns);
	site_name(c[4], lc, row->call_site);
}

static const struct kmem_table leak_table = {
	leak_cols, TABLE_NCOLS(leak_cols), leak_rows, leak_cells,
	SORT_KEYS_LEAKS,
};

static const struct table_col stack_cols[] = {
	{ "Objects", TBL_RIGHT },    { "Bytes", TBL_RIGHT },
	{ "Oldest", TBL_RIGHT },     { "Median age", TBL_RIGHT },
	{ "Stack (innermost first)", TBL_LEFT },
};

/* By stack the call site key is the stack: the same rows and keys. */
static const struct kmem_table stack_table = {
	stack_cols, TABLE_NCOLS(stack_cols), leak_rows, leak_cells,
	SORT_KEYS_LEAKS & ~SK(SORT_CALLSITE),
};

/* What can make an object look live though it was freed. */
static void caveats(const struct kmem_agg *a, enum kmem_allocator which,
		    uint64_t *missed, uint64_t *lost)
{
	*missed = which == KMEM_A_SLAB ? a->slab.sum.missed_frees :
		  which == KMEM_A_PAGE ? a->page.sum.missed_frees :
					 a->percpu.sum.missed_frees;
	*lost = a->events_lost + a->lost_unknown;
}

static void print_title(const struct leak_ctx *lc, FILE *out)
{
	const struct kmem_agg *a = lc->r.agg;
	char age[NUMFMT_LEN], b1[NUMFMT_LEN], b2[NUMFMT_LEN];
	uint64_t missed, lost;

	fprintf(out, " Leaks (%s): live at the end of the trace", names[lc->which]);
	if (lc->ls->older_than_ns)
		fprintf(out, ", allocated %s or more before it",
			fmt_duration(age, lc->ls->older_than_ns));
	fputc('\n', out);
	caveats(a, lc->which, &missed, &lost);
	if (!missed && !lost)
		return;
	fprintf(out, " Some may have been freed unseen:");
	if (missed)
		fprintf(out, " %s missed frees", fmt_count(b1, missed));
	if (missed && lost)
		fprintf(out, ",");
	if (a->events_lost)
		fprintf(out, " %s events lost", fmt_count(b2, a->events_lost));
	if (a->events_lost && a->lost_unknown)
		fprintf(out, " and");
	if (a->lost_unknown)
		fprintf(out, " losses of unknown size at %s place%s",
			fmt_count(b2, a->lost_unknown),
			a->lost_unknown > 1 ? "s" : "");
	fputc('\n', out);
}

/**
 * leaks_print - print an allocator's leak table (kmem:leaks)
 * @r: what to print
 * @out: where to
 * @which: the allocator
 *
 * Rows are sorted by the sort keys it has (callsite, bytes, hit: the
 * count), and lines= cuts them; a line under it gives the totals.
 */
void leaks_print(const struct kmem_report_ctx *r, FILE *out,
		 enum kmem_allocator which)
{
	struct leak_ctx lc = { *r, NULL, which };
	char b1[NUMFMT_LEN], b2[NUMFMT_LEN];
	struct leak_set ls;

	if (!kmem_render_text(r->cfg, KMEM_T_LEAKS) || r->in->merged)
		return;
	kmem_leaks_build(&ls, r->agg, which, r->cfg->leak_age);
	lc.ls = &ls;
	print_title(&lc, out);
	if (ls.oom)
		fprintf(out, " (out of memory: table left out)\n\n");
	else if (!ls.nr)
		fprintf(out, " None.\n\n");
	else
		report_table(&lc.r, out, &leak_table);
	if (ls.nr)
		fprintf(out, " %s objects, %s bytes not freed\n\n",
			fmt_count(b1, ls.count), fmt_count(b2, ls.bytes));
	kmem_leaks_release(&ls);
	if (which == KMEM_A_PERCPU || !kmem_leaks_have_stacks(r->agg, which))
		return;
	kmem_leaks_build_stacks(&ls, r->agg, which, r->cfg->leak_age);
	fprintf(out, " The same by kernel stack\n");
	if (ls.oom)
		fprintf(out, " (out of memory: table left out)\n\n");
	else if (ls.nr)
		report_table(&lc.r, out, &stack_table);
	else
		fprintf(out, " None.\n\n");
	kmem_leaks_release(&ls);
}

/* A row's name: its call site and address, or its stack's frames. */
static void json_row_name(const struct leak_ctx *lc, struct json *j,
			  const struct leak_row *row)
{
	const struct kmem_folded *f = &lc->r.agg->folded;
	char buf[KMEM_SYM_LEN];
	uint32_t k;

	if (!lc->ls->by_stack) {
		json_str(j, "callsite", site_name(buf, lc, row->call_site));
		json_str(j, "address", fmt_addr(buf, row->call_site));
		return;
	}
	json_open(j, "stack", '[');
	for (k = 0; k < f->stacks[row->call_site].n; k++) {
		frame_name(buf, sizeof(buf), lc->r.sym,
			   f->frames[f->stacks[row->call_site].off + k]);
		json_str(j, NULL, buf);
	}
	json_close(j, ']');
}

/*
 * The array @key of the rows in lc->ls (built; released here), in table
 * order: "leaks" by call site, "leak_stacks" by stack.
 */
static void json_rows(struct leak_ctx *lc, struct json *j, const char *key,
		      const struct kmem_table *t)
{
	struct sort_set set;
	size_t i;

	if (lc->ls->oom || report_sorted(&lc->r, t, &set)) {
		kmem_leaks_release(lc->ls);
		return;	/* out of memory: the array is left out */
	}
	json_open(j, key, '[');
	for (i = 0; i < set.held; i++) {
		const struct leak_row *row = &lc->ls->rows[sort_idx(&set, i)];

		json_open(j, NULL, '{');
		json_row_name(lc, j, row);
		json_u64(j, "count", row->count);
		json_u64(j, "bytes", row->bytes);
		json_u64(j, "oldest_ns", row->oldest_ns);
		json_u64(j, "median_age_ns", row->median_ns);
		json_close(j, '}');
	}
	json_close(j, ']');
	sort_set_release(&set);
	kmem_leaks_release(lc->ls);
}

/**
 * leaks_json - write an allocator's "leaks" array (kmem:leaks)
 * @r: what to write
 * @j: the writer, inside the allocator's member
 * @which: the allocator
 *
 * With "leaks_older_than_ns" and "leaks_end_ns" before it; every row, in
 * table order.
 */
void leaks_json(const struct kmem_report_ctx *r, struct json *j,
		enum kmem_allocator which)
{
	struct leak_ctx lc = { *r, NULL, which };
	struct leak_set ls;

	if (!kmem_render_json(r->cfg, KMEM_T_LEAKS) || r->in->merged)
		return;
	kmem_leaks_build(&ls, r->agg, which, r->cfg->leak_age);
	lc.ls = &ls;
	json_u64(j, "leaks_older_than_ns", ls.older_than_ns);
	json_u64(j, "leaks_end_ns", ls.end_ns);
	json_rows(&lc, j, "leaks", &leak_table);
	if (which == KMEM_A_PERCPU || !kmem_leaks_have_stacks(r->agg, which))
		return;
	kmem_leaks_build_stacks(&ls, r->agg, which, r->cfg->leak_age);
	json_rows(&lc, j, "leak_stacks", &stack_table);
}
