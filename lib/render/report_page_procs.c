// SPDX-License-Identifier: LGPL-2.1
/*
 * The page allocator's activity per process (kmem:per-process), as Mel
 * Gorman's trace-pagealloc-postprocess.pl counts it: text and JSON.
 */
#include <stdlib.h>
#include <string.h>

#include "base/numfmt.h"
#include "recorded.h"
#include "report_page.h"
#include "tables.h"

/* One row of the per-process table (processes merged by comm or not). */
struct proc_row {
	const char *comm;
	int pid;		/* -1 when merged */
	struct page_proc sum;
};

static void proc_add(struct page_proc *to, const struct page_proc *p)
{
	to->allocs += p->allocs;
	to->alloc_bytes += p->alloc_bytes;
	to->zone_locked += p->zone_locked;
	to->frees += p->frees;
	to->batched += p->batched;
	to->drains += p->drains;
	to->refills += p->refills;
	to->fallbacks += p->fallbacks;
	to->frag_fallbacks += p->frag_fallbacks;
}

static const char *comm_of(const struct kmem_report_ctx *r, int pid)
{
	if (r->sym && r->sym->comm)
		return r->sym->comm(r->sym->priv, pid);
	return "<...>";
}

static int cmp_proc_rows(const void *pa, const void *pb)
{
	const struct proc_row *a = pa, *b = pb;

	if (a->sum.allocs != b->sum.allocs)
		return a->sum.allocs > b->sum.allocs ? -1 : 1;
	if (a->sum.frees != b->sum.frees)
		return a->sum.frees > b->sum.frees ? -1 : 1;
	if (strcmp(a->comm, b->comm))
		return strcmp(a->comm, b->comm);
	return a->pid < b->pid ? -1 : a->pid > b->pid;
}

/* Rows per pid, or per comm with merge-pids; sorted by pages allocated. */
static struct proc_row *proc_rows(const struct kmem_report_ctx *r,
				  size_t *n)
{
	const struct page_stats *st = page_st(r->agg);
	struct proc_row *rows = calloc(st->nr_procs + 1, sizeof(*rows));
	size_t i, j;

	*n = 0;
	if (!rows)
		return NULL;
	for (i = 0; i < st->nr_procs; i++) {
		const struct page_proc *p = &st->procs[i];
		const char *comm = comm_of(r, p->pid);

		j = *n;
		if (r->cfg->merge_pids)	/* few rows: a linear scan at the end */
			for (j = 0; j < *n; j++)
				if (!strcmp(rows[j].comm, comm))
					break;
		if (j == *n) {
			rows[j].comm = comm;
			rows[j].pid = r->cfg->merge_pids ? -1 : p->pid;
			(*n)++;
		}
		proc_add(&rows[j].sum, p);
	}
	qsort(rows, *n, sizeof(*rows), cmp_proc_rows);
	return rows;
}

/* Per process: the members of its JSON object, in order. */
enum {
	R_COMM, R_PID, R_ALLOCS, R_ALLOC_BYTES, R_ZONE_LOCKED, R_FREES,
	R_BATCHED, R_DRAINS, R_REFILLS, R_FALLBACKS, R_FRAG,
};

#define PROC(m) COL_NUM64(struct proc_row, sum.m)

static const char *proc_comm(const struct cols_ctx *c, const void *row,
			     char *buf)
{
	(void)c;
	(void)buf;
	return ((const struct proc_row *)row)->comm;
}

/* "comm-pid", or the comm alone when processes are merged by it. */
static const char *proc_name(const struct cols_ctx *c, const void *row,
			     char *buf)
{
	const struct proc_row *p = row;

	(void)c;
	if (p->pid < 0)
		snprintf(buf, KMEM_SYM_LEN, "%s", p->comm);
	else
		snprintf(buf, KMEM_SYM_LEN, "%s-%d", p->comm, p->pid);
	return buf;
}

static bool pid_known(const struct cols_ctx *c, const void *row)
{
	(void)c;
	return ((const struct proc_row *)row)->pid >= 0;
}

/* A column is known when the trace holds its event's records. */
static bool recorded(const struct cols_ctx *c, enum kmem_ev_kind k)
{
	return kmem_recorded(c->priv, k);
}

static bool zone_locked_known(const struct cols_ctx *c, const void *row)
{
	(void)row;
	return recorded(c, KMEM_EV_PAGE_ZONE_LOCKED);
}

static bool drains_known(const struct cols_ctx *c, const void *row)
{
	(void)row;
	return recorded(c, KMEM_EV_PAGE_PCPU_DRAIN);
}

static bool batched_known(const struct cols_ctx *c, const void *row)
{
	const struct kmem_report_ctx *r = c->priv;

	(void)row;
	return recorded(c, KMEM_EV_PAGE_FREE_BATCHED) ||
	       page_st(r->agg)->sum.batched_frees;
}

static bool frag_known(const struct cols_ctx *c, const void *row)
{
	const struct kmem_report_ctx *r = c->priv;

	(void)row;
	return !page_st(r->agg)->sum.frag_unknown;
}

static const struct col_field proc_fields[] = {
	[R_COMM] = { .key = "comm", .type = CF_STR, .str = proc_comm },
	[R_PID] = { .key = "pid",
		    .type = CF_I64,
		    .a = COL_NUMI32(struct proc_row, pid),
		    .known = pid_known },
	[R_ALLOCS] = { .key = "allocs", .type = CF_U64, .a = PROC(allocs) },
	[R_ALLOC_BYTES] = { .key = "alloc_bytes",
			    .type = CF_U64,
			    .a = PROC(alloc_bytes) },
	[R_ZONE_LOCKED] = { .key = "zone_locked",
			    .type = CF_U64,
			    .a = PROC(zone_locked),
			    .known = zone_locked_known },
	[R_FREES] = { .key = "frees", .type = CF_U64, .a = PROC(frees) },
	[R_BATCHED] = { .key = "batched_frees",
			.type = CF_U64,
			.a = PROC(batched),
			.known = batched_known },
	[R_DRAINS] = { .key = "pcpu_drains",
		       .type = CF_U64,
		       .a = PROC(drains),
		       .known = drains_known },
	[R_REFILLS] = { .key = "pcpu_refills",
			.type = CF_U64,
			.a = PROC(refills),
			.known = zone_locked_known },
	[R_FALLBACKS] = { .key = "fallbacks",
			  .type = CF_U64,
			  .a = PROC(fallbacks) },
	[R_FRAG] = { .key = "fragmenting_fallbacks",
		     .type = CF_U64,
		     .a = PROC(frag_fallbacks),
		     .known = frag_known },
};

static const struct col_text proc_cols[] = {
	{ "Pages alloc", TBL_RIGHT, CT_DOT, R_ALLOCS, COL_NOFIELD, NULL, 2 },
	{ "Zone-locked", TBL_RIGHT, CT_DOT, R_ZONE_LOCKED, COL_NOFIELD, NULL,
	  4 },
	{ "Freed", TBL_RIGHT, CT_DOT, R_FREES, COL_NOFIELD, NULL, 3 },
	{ "Batched", TBL_RIGHT, CT_DOT, R_BATCHED, COL_NOFIELD, NULL, 5 },
	{ "Drains", TBL_RIGHT, CT_DOT, R_DRAINS, COL_NOFIELD, NULL, 6 },
	{ "Refills", TBL_RIGHT, CT_DOT, R_REFILLS, COL_NOFIELD, NULL, 7 },
	{ "Fallbacks", TBL_RIGHT, CT_DOT, R_FALLBACKS, COL_NOFIELD, NULL, 8 },
	{ "Fragmenting", TBL_RIGHT, CT_DOT, R_FRAG, COL_NOFIELD, NULL, 9 },
	{ "Process", TBL_LEFT, CT_STR, R_COMM, COL_NOFIELD, proc_name, 1 },
};

/* No sort keys: the rows are in proc_rows()' order. */
static const struct cols_def proc_def = {
	.fields = proc_fields, .nfields = COLS_N(proc_fields),
	.cols = proc_cols, .ncols = COLS_N(proc_cols),
	.stride = sizeof(struct proc_row),
};

/**
 * page_procs_print - print the per-process table (kmem:per-process)
 * @r: what to print
 * @out: where to
 *
 * By pages allocated, the first lines= rows.
 */
void page_procs_print(const struct kmem_report_ctx *r, FILE *out)
{
	struct proc_row *rows;
	struct cols_ctx c;
	size_t n;

	rows = proc_rows(r, &n);
	if (!rows) {
		fprintf(out, " Page allocator activity per process"
			     " (out of memory: table left out)\n\n");
		return;
	}
	report_cols(r, &c, &proc_def, rows, (uint32_t)n, r);
	fprintf(out, " Page allocator activity per process\n\n");
	report_cols_table(r, out, &c);
	free(rows);
}

/**
 * page_procs_json - write the "per_process" array of the page member
 * @r: what to write
 * @j: the writer, inside the "page" object
 *
 * Every row, in the table's order.
 */
void page_procs_json(const struct kmem_report_ctx *r, struct json *j)
{
	struct proc_row *rows;
	struct cols_ctx c;
	size_t n;

	rows = proc_rows(r, &n);
	if (!rows) { /* left out, and said */
		j->oom = true;
		return;
	}
	report_cols(r, &c, &proc_def, rows, (uint32_t)n, r);
	report_cols_json(r, j, "per_process", &c);
	free(rows);
}
