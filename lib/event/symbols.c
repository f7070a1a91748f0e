// SPDX-License-Identifier: LGPL-2.1
/*
 * Call-site formatting (see symbols.h).
 */
#include <inttypes.h>
#include <stdio.h>

#include "symbols.h"

/**
 * fmt_addr - an address as "0x" and lower-case hex
 * @buf: KMEM_SYM_LEN bytes
 * @addr: the address
 *
 * Return: @buf.
 */
char *fmt_addr(char *buf, uint64_t addr)
{
	snprintf(buf, KMEM_SYM_LEN, "0x%" PRIx64, addr);
	return buf;
}

/* The function holding @addr, unless raw_ip or no symbol is known. */
static const char *lookup(const struct kmem_symbolizer *sym, uint64_t addr,
			  int raw_ip, uint64_t *start)
{
	const char *name;

	if (raw_ip || !sym || !sym->resolve)
		return NULL;
	name = sym->resolve(sym->priv, addr, start);
	return name && *start <= addr ? name : NULL;
}

/**
 * fmt_callsite - a call site as "symbol+0xoff", or its address (the
 *	symbol alone when the symbolizer's call sites are functions)
 * @buf: KMEM_SYM_LEN bytes
 * @sym: the symbolizer, or NULL
 * @addr: the call site
 * @raw_ip: print the address even when a symbol is known
 *
 * Return: @buf.
 */
char *fmt_callsite(char *buf, const struct kmem_symbolizer *sym,
		   uint64_t addr, int raw_ip)
{
	uint64_t start = 0;
	const char *name = lookup(sym, addr, raw_ip, &start);

	if (!name)
		return fmt_addr(buf, addr);
	if (sym->functions_only)
		snprintf(buf, KMEM_SYM_LEN, "%s", name);
	else
		snprintf(buf, KMEM_SYM_LEN, "%s+0x%" PRIx64, name,
			 addr - start);
	return buf;
}

/**
 * fmt_gfp - GFP flags by name, as the recording kernel names them
 * @buf: where to write
 * @len: size of @buf
 * @sym: the symbolizer (its gfp callback), or NULL
 * @gfp: the flags
 *
 * Return: @buf: names from the trace's own format, else hex.
 */
char *fmt_gfp(char *buf, size_t len, const struct kmem_symbolizer *sym,
	      uint64_t gfp)
{
	if (sym && sym->gfp && sym->gfp(sym->priv, gfp, buf, len))
		return buf;
	snprintf(buf, len, "0x%" PRIx64, gfp);
	return buf;
}

/**
 * migratetype_name - the name of a migration type number
 * @sym: says which numbering the recording kernel used
 * @mt: the number
 *
 * Linux 4.4 swapped MOVABLE and RECLAIMABLE; types from 3 up (reserve,
 * high-atomic, CMA, isolate: their numbers depend on the kernel's
 * configuration) are "Special", as Ingo Molnar's review asked.
 *
 * Return: "Unmovable", "Reclaimable", "Movable" or "Special".
 */
const char *migratetype_name(const struct kmem_symbolizer *sym, int mt)
{
	int old = sym && sym->old_migratetypes;

	switch (mt) {
	case 0:
		return "Unmovable";
	case 1:
		return old ? "Reclaimable" : "Movable";
	case 2:
		return old ? "Movable" : "Reclaimable";
	default:
		return "Special";
	}
}
