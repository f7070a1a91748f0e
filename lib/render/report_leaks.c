// SPDX-License-Identifier: LGPL-2.1
/*
 * The leak tables (kmem:leaks[=AGE]) of each allocator, text and JSON.
 */
#include <string.h>

#include "analysis/leaks.h"
#include "base/numfmt.h"
#include "recorded.h"
#include "report_leaks.h"
#include "tables.h"

/* What the tables' callbacks read besides the rows. */
struct leak_ctx {
	const struct kmem_agg *agg;
	struct leak_set *ls;
	enum kmem_alloc_id which;
};

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
static char *stack_name(char *buf, const struct cols_ctx *c, uint64_t idx)
{
	const struct leak_ctx *lc = c->priv;
	const struct kmem_folded *f = &lc->agg->folded;
	const struct folded_stack *st = &f->stacks[idx];
	char fn[KMEM_SYM_LEN];
	size_t len = 0;
	uint32_t k;

	buf[0] = '\0';
	for (k = 0; k < st->n; k++) {
		if (!k && f->frames[st->off])	/* the call site, exactly */
			fmt_callsite(fn, c->sym, f->frames[st->off], c->raw_ip);
		else
			frame_name(fn, sizeof(fn), c->sym,
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
static const char *site_name(const struct cols_ctx *c, const void *row,
			     char *buf)
{
	const struct leak_ctx *lc = c->priv;
	uint64_t cs = ((const struct leak_row *)row)->call_site;

	if (lc->ls->by_stack)
		return stack_name(buf, c, cs);
	if (cs)
		return fmt_callsite(buf, c->sym, cs, c->raw_ip);
	if (kmem_allocs[lc->which].no_site)
		return strcpy(buf, kmem_allocs[lc->which].no_site);
	return strcpy(buf, "0x0");
}

/* A stack's frames, innermost first: a JSON array. */
static void stack_json(const struct cols_ctx *c, const void *row,
		       struct json *j)
{
	const struct leak_ctx *lc = c->priv;
	const struct kmem_folded *f = &lc->agg->folded;
	uint64_t idx = ((const struct leak_row *)row)->call_site;
	char buf[KMEM_SYM_LEN];
	uint32_t k;

	json_open(j, "stack", '[');
	for (k = 0; k < f->stacks[idx].n; k++) {
		frame_name(buf, sizeof(buf), c->sym,
			   f->frames[f->stacks[idx].off + k]);
		json_str(j, NULL, buf);
	}
	json_close(j, ']');
}

/* A row's JSON members, in order; a stack's row has "stack" first. */
enum { L_CALLSITE, L_ADDRESS, L_COUNT, L_BYTES, L_OLDEST, L_MEDIAN };

#define LEAK(m) COL_NUM64(struct leak_row, m)

static const struct col_field leak_fields[] = {
	[L_CALLSITE] = { .key = "callsite", .type = CF_STR, .str = site_name },
	[L_ADDRESS] = { .key = "address",
			.type = CF_SITE_ADDR,
			.a = LEAK(call_site) },
	[L_COUNT] = { .key = "count", .type = CF_U64, .a = LEAK(count) },
	[L_BYTES] = { .key = "bytes", .type = CF_U64, .a = LEAK(bytes) },
	[L_OLDEST] = { .key = "oldest_ns",
		       .type = CF_U64,
		       .a = LEAK(oldest_ns) },
	[L_MEDIAN] = { .key = "median_age_ns",
		       .type = CF_U64,
		       .a = LEAK(median_ns) },
};

static const struct col_text leak_cols[] = {
	{ "Objects", TBL_RIGHT, CT_COUNT, L_COUNT, COL_NOFIELD, NULL, 2 },
	{ "Bytes", TBL_RIGHT, CT_COUNT, L_BYTES, COL_NOFIELD, NULL, 3 },
	{ "Oldest", TBL_RIGHT, CT_DURATION, L_OLDEST, COL_NOFIELD, NULL, 4 },
	{ "Median age", TBL_RIGHT, CT_DURATION, L_MEDIAN, COL_NOFIELD, NULL,
	  5 },
	{ "Callsite", TBL_LEFT, CT_STR, L_CALLSITE, COL_NOFIELD, NULL, 1 },
};

static const struct col_sort leak_sorts[] = {
	{ SORT_CALLSITE, LEAK(call_site) },
	{ SORT_BYTES, LEAK(bytes) },
	{ SORT_HIT, LEAK(count) },
};

static const struct cols_def leak_def = {
	COLS_DEF(leak_fields, leak_cols, leak_sorts, struct leak_row),
};

/* By stack: the same columns; the call site key is the stack's index. */
enum { LS_STACK, LS_COUNT, LS_BYTES, LS_OLDEST, LS_MEDIAN };

static const struct col_field stack_fields[] = {
	[LS_STACK] = { .key = "stack",
		       .type = CF_JSON,
		       .str = site_name,
		       .json = stack_json },
	[LS_COUNT] = { .key = "count", .type = CF_U64, .a = LEAK(count) },
	[LS_BYTES] = { .key = "bytes", .type = CF_U64, .a = LEAK(bytes) },
	[LS_OLDEST] = { .key = "oldest_ns",
			.type = CF_U64,
			.a = LEAK(oldest_ns) },
	[LS_MEDIAN] = { .key = "median_age_ns",
			.type = CF_U64,
			.a = LEAK(median_ns) },
};

static const struct col_text stack_cols[] = {
	{ "Objects", TBL_RIGHT, CT_COUNT, LS_COUNT, COL_NOFIELD, NULL, 2 },
	{ "Bytes", TBL_RIGHT, CT_COUNT, LS_BYTES, COL_NOFIELD, NULL, 3 },
	{ "Oldest", TBL_RIGHT, CT_DURATION, LS_OLDEST, COL_NOFIELD, NULL, 4 },
	{ "Median age", TBL_RIGHT, CT_DURATION, LS_MEDIAN, COL_NOFIELD, NULL,
	  5 },
	{ "Stack (innermost first)", TBL_LEFT, CT_STR, LS_STACK, COL_NOFIELD,
	  NULL, 1 },
};

static const struct col_sort stack_sorts[] = {
	{ SORT_BYTES, LEAK(bytes) },
	{ SORT_HIT, LEAK(count) },
};

static const struct cols_def stack_def = {
	COLS_DEF(stack_fields, stack_cols, stack_sorts, struct leak_row),
};

/* What can make an object look live though it was freed. */
static void caveats(const struct kmem_agg *a, enum kmem_alloc_id which,
		    uint64_t *missed, uint64_t *lost)
{
	*missed =
		kmem_alloc_counts(&kmem_allocs[which], kmem_agg_stats(a, which))
			->missed_frees;
	*lost = a->events_lost + a->lost_unknown;
}

static void print_title(const struct leak_ctx *lc, FILE *out)
{
	const struct kmem_agg *a = lc->agg;
	char age[NUMFMT_LEN], b1[NUMFMT_LEN], b2[NUMFMT_LEN];
	uint64_t missed, lost;

	fprintf(out, " Leaks (%s): live at the end of the trace",
		kmem_allocs[lc->which].title);
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

/*
 * Do the rows by stack repeat those by call site: as many, and each
 * stack's call site (its first frame) a row of the same count and
 * bytes?  Then no two stacks share a call site.  Quadratic, at report
 * time, in the rows of a table.  @deep: set when a stack has callers.
 */
static bool same_rows(const struct kmem_agg *a, const struct leak_set *site,
		      const struct leak_set *stack, bool *deep)
{
	const struct kmem_folded *f = &a->folded;
	size_t i, k;

	*deep = false;
	if (site->oom || stack->oom || site->nr != stack->nr || !site->nr)
		return false;
	for (i = 0; i < stack->nr; i++) {
		const struct leak_row *s = &stack->rows[i];
		const struct folded_stack *fs;
		uint64_t cs;

		if (s->call_site >= f->nr)
			return false;
		fs = &f->stacks[s->call_site];
		cs = fs->n ? f->frames[fs->off] : 0;
		*deep |= fs->n > 1;
		for (k = 0; k < site->nr; k++)
			if (site->rows[k].call_site == cs &&
			    site->rows[k].count == s->count &&
			    site->rows[k].bytes == s->bytes)
				break;
		if (k == site->nr)
			return false;
	}
	return true;
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
		 enum kmem_alloc_id which)
{
	struct leak_ctx lc = { r->agg, NULL, which };
	char b1[NUMFMT_LEN], b2[NUMFMT_LEN];
	struct leak_set ls, st;
	struct cols_ctx c;
	bool stacks, one, deep = false, second;

	if (!kmem_render_text(r->cfg, KMEM_T_LEAKS) || r->in->merged)
		return;
	if (!kmem_recorded(r, kmem_allocs[which].free_kind)) {
		fprintf(out,
			" Leaks (%s): unknown, its frees were not recorded "
			"(the summary names the events)\n\n",
			kmem_allocs[which].title);
		return;
	}
	kmem_leaks_build(&ls, r->agg, which, r->cfg->leak_age);
	stacks = kmem_leaks_have_stacks(r->agg, which);
	if (stacks)
		kmem_leaks_build_stacks(&st, r->agg, which, r->cfg->leak_age);
	/*
	 * One stack per call site: one table says it all, the stacks' when
	 * they have callers, else (stacks of their call site alone) the
	 * call sites'.
	 */
	one = stacks && same_rows(r->agg, &ls, &st, &deep);
	second = stacks && !one;
	if (!deep)
		one = false;
	lc.ls = one ? &st : &ls;
	print_title(&lc, out);
	if (one)
		fprintf(out, " (one kernel stack per call site: by stack)\n");
	if (lc.ls->oom) {
		fprintf(out, " (out of memory: table left out)\n\n");
	} else if (!lc.ls->nr) {
		fprintf(out, " None.\n\n");
	} else {
		report_cols(r, &c, one ? &stack_def : &leak_def, lc.ls->rows,
			    (uint32_t)lc.ls->nr, &lc);
		report_cols_table(r, out, &c);
	}
	if (ls.nr)
		fprintf(out, " %s objects, %s bytes not freed\n\n",
			fmt_count(b1, ls.count), fmt_count(b2, ls.bytes));
	kmem_leaks_release(&ls);
	if (!stacks)
		return;
	if (second) {
		lc.ls = &st;
		fprintf(out, " The same by kernel stack\n");
		if (st.oom) {
			fprintf(out, " (out of memory: table left out)\n\n");
		} else if (st.nr) {
			report_cols(r, &c, &stack_def, st.rows,
				    (uint32_t)st.nr, &lc);
			report_cols_table(r, out, &c);
		} else {
			fprintf(out, " None.\n\n");
		}
	}
	kmem_leaks_release(&st);
}

/*
 * The array @key of the rows in lc->ls (built; released here), in table
 * order: "leaks" by call site, "leak_stacks" by stack.
 */
static void json_rows(const struct kmem_report_ctx *r, struct leak_ctx *lc,
		      struct json *j, const char *key,
		      const struct cols_def *def)
{
	struct cols_ctx c;

	/* out of memory: the array is left out, and j->oom says so */
	if (!lc->ls->oom) {
		report_cols(r, &c, def, lc->ls->rows, (uint32_t)lc->ls->nr, lc);
		report_cols_json(r, j, key, &c);
	} else {
		j->oom = true;
	}
	kmem_leaks_release(lc->ls);
}

/**
 * leaks_json - write an allocator's "leaks" array (kmem:leaks)
 * @r: what to write
 * @j: the writer, inside the allocator's member
 * @which: the allocator
 *
 * With "leaks_older_than_ns" and "leaks_end_ns" before it; every row, in
 * table order.  Its frees not recorded: "leaks": null.
 */
void leaks_json(const struct kmem_report_ctx *r, struct json *j,
		enum kmem_alloc_id which)
{
	struct leak_ctx lc = { r->agg, NULL, which };
	struct leak_set ls;

	if (!kmem_render_json(r->cfg, KMEM_T_LEAKS) || r->in->merged)
		return;
	if (!kmem_recorded(r, kmem_allocs[which].free_kind)) {
		json_str(j, "leaks", NULL);
		return;
	}
	kmem_leaks_build(&ls, r->agg, which, r->cfg->leak_age);
	lc.ls = &ls;
	json_u64(j, "leaks_older_than_ns", ls.older_than_ns);
	json_u64(j, "leaks_end_ns", ls.end_ns);
	json_rows(r, &lc, j, "leaks", &leak_def);
	if (!kmem_leaks_have_stacks(r->agg, which))
		return;
	kmem_leaks_build_stacks(&ls, r->agg, which, r->cfg->leak_age);
	json_rows(r, &lc, j, "leak_stacks", &stack_def);
}
