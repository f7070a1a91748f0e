/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Call-site names: "symbol+0xoff" from the kallsyms a front end has, or
 * the address.
 */
#ifndef KMEM_SYMBOLS_H
#define KMEM_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Resolve @addr: return the name of the function containing it and set
 * *@start to the function's address, or return NULL.
 */
typedef const char *(*kmem_resolve_fn)(void *priv, uint64_t addr,
				       uint64_t *start);

struct kmem_symbolizer {
	kmem_resolve_fn resolve;	/* NULL: addresses only */
	void *priv;
};

#define KMEM_SYM_LEN 256

char *fmt_callsite(char *buf, const struct kmem_symbolizer *sym,
		   uint64_t addr, int raw_ip);
char *fmt_addr(char *buf, uint64_t addr);

#endif
