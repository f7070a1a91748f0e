// SPDX-License-Identifier: LGPL-2.1
/*
 * The page allocator's activity per process, text table and JSON (the
 * per-process part of the page section, report_page.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/numfmt.h"
#include "base/table.h"
#include "report_page.h"

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
	const struct page_stats *st = &r->agg->page;
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

/**
 * page_procs_print - print the page allocator's activity per process
 * @r: what to print (merge-pids: one row per command; lines=)
 * @out: where to
 */
void page_procs_print(const struct kmem_report_ctx *r, FILE *out)
{
	static const struct table_col cols[] = {
		{ "Pages alloc", TBL_RIGHT }, { "Zone-locked", TBL_RIGHT },
		{ "Freed", TBL_RIGHT },	      { "Batched", TBL_RIGHT },
		{ "Drains", TBL_RIGHT },      { "Refills", TBL_RIGHT },
		{ "Fallbacks", TBL_RIGHT },   { "Fragmenting", TBL_RIGHT },
		{ "Process", TBL_LEFT },
	};
	char cell[9][KMEM_SYM_LEN];
	const char *cp[9];
	struct proc_row *rows;
	struct table t;
	size_t n, i, shown;
	int c;

	rows = proc_rows(r, &n);
	if (!rows)
		return;
	for (c = 0; c < 9; c++)
		cp[c] = cell[c];
	shown = r->cfg->lines && n > r->cfg->lines ? r->cfg->lines : n;
	table_init(&t, cols, 9, TBL_BOXED);
	for (i = 0; i < shown; i++) {
		const struct page_proc *p = &rows[i].sum;

		fmt_count_dot(cell[0], p->allocs);
		fmt_count_dot(cell[1], p->zone_locked);
		fmt_count_dot(cell[2], p->frees);
		fmt_count_dot(cell[3], p->batched);
		fmt_count_dot(cell[4], p->drains);
		fmt_count_dot(cell[5], p->refills);
		fmt_count_dot(cell[6], p->fallbacks);
		fmt_count_dot(cell[7], p->frag_fallbacks);
		if (rows[i].pid < 0)
			snprintf(cell[8], KMEM_SYM_LEN, "%s", rows[i].comm);
		else
			snprintf(cell[8], KMEM_SYM_LEN, "%s-%d", rows[i].comm,
				 rows[i].pid);
		table_add_row(&t, cp);
	}
	if (shown < n)
		table_mark_cut(&t);
	fprintf(out, " Page allocator activity per process\n\n");
	table_print(&t, out);
	fputc('\n', out);
	table_release(&t);
	free(rows);
}

/**
 * page_procs_json - write the page allocator's activity per process
 * @r: what to write (merge-pids: one row per command)
 * @j: the writer; the array is "per_process"
 */
void page_procs_json(const struct kmem_report_ctx *r, struct json *j)
{
	struct proc_row *rows;
	size_t n, i;

	rows = proc_rows(r, &n);
	json_open(j, "per_process", '[');
	for (i = 0; rows && i < n; i++) {
		const struct page_proc *p = &rows[i].sum;

		json_open(j, NULL, '{');
		json_str(j, "comm", rows[i].comm);
		if (rows[i].pid >= 0)
			json_i64(j, "pid", rows[i].pid);
		else
			json_str(j, "pid", NULL);
		json_u64(j, "allocs", p->allocs);
		json_u64(j, "alloc_bytes", p->alloc_bytes);
		json_u64(j, "zone_locked", p->zone_locked);
		json_u64(j, "frees", p->frees);
		json_u64(j, "batched_frees", p->batched);
		json_u64(j, "pcpu_drains", p->drains);
		json_u64(j, "pcpu_refills", p->refills);
		json_u64(j, "fallbacks", p->fallbacks);
		json_u64(j, "fragmenting_fallbacks", p->frag_fallbacks);
		json_close(j, '}');
	}
	json_close(j, ']');
	free(rows);
}
