// SPDX-License-Identifier: LGPL-2.1
/*
 * One report over many inputs (see merge.h).
 *
 * A merged call site is MERGE_BASE + (function number << 32) + offset:
 * above every 32-bit kernel address and below every 64-bit kernel's
 * (their kernels live in the top half), so an address no input could
 * name (no symbol) keeps its own value.  One that falls in the range
 * after all (a damaged trace's) is named by its hex digits instead.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "merge.h"

#define MERGE_BASE (1ULL << 60)
#define MERGE_END (1ULL << 61)
#define MERGE_OFF_MASK 0xffffffffULL

/* The merged symbolizer: a merged call site's function and its start. */
static const char *merged_resolve(void *priv, uint64_t addr, uint64_t *start)
{
	const struct kmem_merge *m = priv;
	uint64_t fn = (addr - MERGE_BASE) >> 32;

	if (addr < MERGE_BASE || addr >= MERGE_END || fn >= m->fns.n)
		return NULL;
	*start = addr & ~MERGE_OFF_MASK;
	return strtab_str(&m->fns, (uint32_t)fn);
}

/* GFP flags as the first input names them. */
static const char *merged_gfp(void *priv, uint64_t gfp, char *buf, size_t len)
{
	const struct kmem_merge *m = priv;

	if (!m->first.gfp)
		return NULL;
	return m->first.gfp(m->first.priv, gfp, buf, len);
}

/* A merged pid is its command's number + 1. */
static const char *merged_comm(void *priv, int pid)
{
	const struct kmem_merge *m = priv;

	if (pid < 1 || (size_t)pid > m->comms.n)
		return "<...>";
	return strtab_str(&m->comms, (uint32_t)(pid - 1));
}

/**
 * kmem_merge_init - an empty merged report
 * @m: the merged report
 * @c: what the inputs collect (their lifetimes are merged; their rows
 *	and stacks are not)
 * @numa: the topology the inputs used, or NULL
 * @by_function: match call sites by function, not function+offset
 *
 * Return: 0, or -1 when memory ran out (kmem_merge_release() still
 * frees what was made).
 */
int kmem_merge_init(struct kmem_merge *m, const struct kmem_collect_cfg *c,
		    const struct kmem_numa *numa, bool by_function)
{
	struct kmem_collect_cfg cc = { .lifetimes = c->lifetimes };

	memset(m, 0, sizeof(*m));
	m->sym.resolve = merged_resolve;
	m->sym.gfp = merged_gfp;
	m->sym.comm = merged_comm;
	m->sym.priv = m;
	m->sym.functions_only = by_function;
	m->sym.merged = true;
	if (kmem_agg_init(&m->agg) || strtab_init(&m->fns) ||
	    strtab_init(&m->comms))
		return -1;
	kmem_agg_keep_rows(&m->agg, &cc);
	kmem_agg_set_numa(&m->agg, numa);
	return 0;
}

/* A name's merged call site: its function's number, and the offset. */
static uint64_t named_site(struct kmem_merge *m, const char *name, uint64_t off)
{
	uint32_t fn = strtab_id(&m->fns, name);

	if (fn == U64_INDEX_NONE || fn >= (MERGE_END - MERGE_BASE) >> 32) {
		m->oom = true;
		return 0;
	}
	if (m->sym.functions_only)
		off = 0;
	return MERGE_BASE + ((uint64_t)fn << 32) +
	       (off > MERGE_OFF_MASK ? MERGE_OFF_MASK : off);
}

/* The site map: an input's call site in the merged report's terms. */
static uint64_t map_site(void *priv, uint64_t addr)
{
	struct kmem_merge *m = priv;
	const struct kmem_symbolizer *sym = m->from;
	uint64_t start = 0;
	const char *name = NULL;
	char buf[KMEM_SYM_LEN];

	if (!addr)
		return 0; /* no call site, as in every input */
	if (sym && sym->resolve)
		name = sym->resolve(sym->priv, addr, &start);
	if (name && start <= addr)
		return named_site(m, name, addr - start);
	if (addr < MERGE_BASE || addr >= MERGE_END)
		return addr; /* no symbol: the address itself */
	return named_site(m, fmt_addr(buf, addr), 0);
}

/* The site map: an input's pid becomes its command's merged pid. */
static int map_pid(void *priv, int pid)
{
	struct kmem_merge *m = priv;
	const struct kmem_symbolizer *sym = m->from;
	const char *comm = sym && sym->comm ? sym->comm(sym->priv, pid) : NULL;
	uint32_t i = strtab_id(&m->comms, comm ? comm : "<...>");

	if (i == U64_INDEX_NONE || i >= INT32_MAX - 1) {
		m->oom = true;
		return 0;
	}
	return (int)i + 1;
}

/* Keep what was the input's own: its name, machine, span and losses. */
static int add_part(struct kmem_merge *m, const struct kmem_agg *from,
		    const char *label, const char *host, const char *release)
{
	struct kmem_merge_part *p;
	unsigned int id;

	p = realloc(m->parts, (m->nr_parts + 1) * sizeof(*p));
	if (!p)
		return -1;
	m->parts = p;
	p += m->nr_parts;
	memset(p, 0, sizeof(*p));
	p->head = *from;
	memset(p->head.stats, 0, sizeof(p->head.stats));
	memset(&p->head.folded, 0, sizeof(p->head.folded));
	for (id = 0; id < KMEM_NR_ALLOC; id++) {
		p->events += from->events[id];
		if (kmem_agg_stats(from, id))
			p->double_frees[id] =
				kmem_alloc_counts(&kmem_allocs[id],
						  kmem_agg_stats(from, id))
					->double_frees;
	}
	m->nr_parts++;
	p->label = strdup(label);
	p->host = host ? strdup(host) : NULL;
	p->release = release ? strdup(release) : NULL;
	return !p->label || (host && !p->host) || (release && !p->release) ? -1
									   : 0;
}

/**
 * kmem_merge_add - add a finished input
 * @m: the merged report
 * @from: the input's statistics, every event accounted and finished
 * @sym: its symbolizer (its kallsyms, comms and numbering); the first
 *	input's names the merged report's GFP flags, so it must outlive @m
 * @label: its name in the report
 * @host: the machine it was recorded on, or NULL
 * @release: that machine's kernel release, or NULL
 *
 * Summaries are added as the merged summary adds them; call-site, cache
 * and request tables row by row (kmem_allocs[].merge_tables()).
 *
 * Return: 0, or -1 when memory ran out.
 */
int kmem_merge_add(struct kmem_merge *m, const struct kmem_agg *from,
		   const struct kmem_symbolizer *sym, const char *label,
		   const char *host, const char *release)
{
	struct kmem_site_map map = { .site = map_site,
				     .pid = map_pid,
				     .priv = m,
				     .old_migratetypes =
					     sym->old_migratetypes > 0 };
	unsigned int id;

	if (!m->nr_parts)
		m->first = *sym;
	if (add_part(m, from, label, host, release))
		return -1;
	kmem_agg_merge(&m->agg, from, map.old_migratetypes);
	m->from = sym;
	for (id = 0; id < KMEM_NR_ALLOC && !m->oom; id++)
		if (kmem_allocs[id].merge_tables(kmem_agg_stats(&m->agg, id),
						 kmem_agg_stats(from, id),
						 &map))
			m->oom = true;
	m->from = NULL;
	return m->oom ? -1 : 0;
}

/**
 * kmem_merge_release - free the merged report
 * @m: the merged report
 */
void kmem_merge_release(struct kmem_merge *m)
{
	int i;

	for (i = 0; i < m->nr_parts; i++) {
		free(m->parts[i].label);
		free(m->parts[i].host);
		free(m->parts[i].release);
	}
	free(m->parts);
	kmem_agg_release(&m->agg);
	strtab_release(&m->fns);
	strtab_release(&m->comms);
	memset(m, 0, sizeof(*m));
}
