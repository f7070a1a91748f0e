/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Call-site names: "symbol+0xoff" from the kallsyms a front end has, or
 * the address.
 */
#ifndef KMEM_SYMBOLS_H
#define KMEM_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Resolve @addr: return the name of the function containing it and set
 * *@start to the function's address, or return NULL.
 */
typedef const char *(*kmem_resolve_fn)(void *priv, uint64_t addr,
				       uint64_t *start);

/*
 * What a front end knows about the trace beyond its events: symbols,
 * the trace's own GFP flag names, process names, and which migration
 * type numbering the recording kernel used.
 */
struct kmem_symbolizer {
	kmem_resolve_fn resolve;	/* NULL: addresses only */
	void *priv;
	/* GFP flags as the trace prints them; NULL: hex */
	const char *(*gfp)(void *priv, uint64_t gfp, char *buf, size_t len);
	/* the command name of a pid; NULL: none */
	const char *(*comm)(void *priv, int pid);
	/* before Linux 4.4: 1 = Reclaimable, 2 = Movable (swapped since) */
	int old_migratetypes;
	/* the module an address's symbol is in (NULL: the kernel, or
	 * not known); NULL: no module names */
	const char *(*module)(void *mod_priv, uint64_t addr);
	void *mod_priv;
	/* call sites are whole functions: named without an offset */
	bool functions_only;
	/* call sites of several traces: names, their numbers no address */
	bool merged;
};

#define KMEM_SYM_LEN 256

char *fmt_callsite(char *buf, const struct kmem_symbolizer *sym,
		   uint64_t addr, int raw_ip);
char *fmt_addr(char *buf, uint64_t addr);
char *fmt_gfp(char *buf, size_t len, const struct kmem_symbolizer *sym,
	      uint64_t gfp);
const char *migratetype_name(const struct kmem_symbolizer *sym, int mt);

#endif
