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

/**
 * fmt_callsite - a call site as "symbol+0xoff", or its address
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
	const char *name = NULL;
	uint64_t start = 0;

	if (!raw_ip && sym && sym->resolve)
		name = sym->resolve(sym->priv, addr, &start);
	if (!name || start > addr)
		return fmt_addr(buf, addr);
	snprintf(buf, KMEM_SYM_LEN, "%s+0x%" PRIx64, name, addr - start);
	return buf;
}
