// SPDX-License-Identifier: LGPL-2.1
/*
 * The full index of kallsyms, the fallback when lookups come
 * unannounced: every symbol sorted as tep_parse_kallsyms() sorts them,
 * 24 bytes a symbol, no allocation a line, a name copied out only when
 * it is first asked for.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ksyms.h"

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->line > y->line ? -1 : x->line < y->line;
}

/*
 * Sort by address, and at one address the last line first.  kallsyms is
 * nearly always sorted already: then reversing each run of one address
 * is enough (O(n)); otherwise qsort.
 */
static void sort_syms(struct ksym *syms, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++)
		if (syms[i].addr < syms[i - 1].addr)
			break;
	if (i < n) {
		qsort(syms, n, sizeof(*syms), ksym_cmp);
		return;
	}
	for (i = 0; i < n; i = j) {
		size_t a, b;

		for (j = i + 1; j < n && syms[j].addr == syms[i].addr; j++)
			;
		for (a = i, b = j - 1; a < b; a++, b--) {
			struct ksym t = syms[a];

			syms[a] = syms[b];
			syms[b] = t;
		}
	}
}

/* The full text in memory, for the index. */
static int copy_piece(void *priv, const char *p, size_t n)
{
	struct tdat_kallsyms *k = priv;

	memcpy(k->owned + k->len, p, n);
	k->len += n;
	return 0;
}

static int load_text(struct tdat_kallsyms *k)
{
	if (k->z == TDAT_Z_NONE || k->hold) {
		k->text = (const char *)k->src;
		k->len = k->src ? strnlen(k->text, k->srclen) : 0;
		return 0;
	}
	k->owned = malloc(k->tsize ? (size_t)k->tsize : 1);
	if (!k->owned)
		return -1;
	k->len = 0;
	if (ksyms_each_piece(k, copy_piece, k))
		return -1;
	k->text = (const char *)k->owned;
	return 0;
}

static int build(struct tdat_kallsyms *k)
{
	const char *s, *end, *eol, *name;
	size_t cap = 4096, lines = 0;
	struct ksym *syms;
	uint64_t addr;
	char type;
	int ok;

	if (load_text(k))
		return -1;
	s = k->text;
	end = k->text + k->len;
	k->syms = malloc(cap * sizeof(*k->syms));
	if (!k->syms)
		return -1;
	for (; s < end; s = eol + 1) {
		eol = memchr(s, '\n', (size_t)(end - s));
		if (!eol)
			eol = end;
		if (eol == s)
			continue; /* strtok_r skips empty lines */
		ok = ksyms_fast_line(s, eol, &addr, &type, &name);
		if (!ok && ksyms_slow_line(s, eol, &addr, &type, &name) < 0)
			break;
		lines++;
		if (*name == '$' || type == 'A' || type == 'a')
			continue;
		if (k->count + 1 >= cap) {
			syms = realloc(k->syms, 2 * cap * sizeof(*syms));
			if (!syms)
				return -1;
			k->syms = syms;
			cap *= 2;
		}
		k->syms[k->count].addr = addr;
		k->syms[k->count].line = (uint32_t)lines;
		k->syms[k->count].name = (uint32_t)(name - k->text);
		k->syms[k->count].copy = NULL;
		k->syms[k->count].mod = NULL;
		k->count++;
	}
	sort_syms(k->syms, k->count);
	memset(&k->syms[k->count], 0, sizeof(*k->syms));
	return 0;
}

/**
 * ksyms_ensure_index - build the index once
 * @k: the kallsyms section, its lock held
 *
 * When the index cannot be built (memory ran out: the text was checked
 * when the file was opened), it is empty: lookups then find no symbol,
 * and tdat_kallsyms_failed() says so.
 */
void ksyms_ensure_index(struct tdat_kallsyms *k)
{
	if (k->indexed)
		return;
	ksyms_join(k);
	if (build(k)) {
		free(k->syms);
		k->syms = NULL;
		k->count = 0;
		k->failed = true;
	}
	k->indexed = true;
}

/**
 * tdat_index_symbols - index every symbol of kallsyms now
 * @f: the file
 *
 * Lookups are then answered from the index, whatever addresses they are
 * for, at 24 bytes a symbol (and the whole text, when it is
 * compressed): for callers that cannot say beforehand which addresses
 * they will look up (tdat_want_symbols()).  Safe to call on one thread
 * while another looks symbols up.
 */
void tdat_index_symbols(struct tdat_file *f)
{
	struct tdat_kallsyms *k = f->ksyms;

	if (!k)
		return;
	pthread_mutex_lock(&k->lock);
	ksyms_ensure_index(k);
	pthread_mutex_unlock(&k->lock);
}

/* libtraceevent's rule: at the symbol, or between it and the next. */
static int ksym_find(const void *key, const void *elem)
{
	const struct ksym *k = key, *e = elem;

	if (k->addr == e->addr || (k->addr > e->addr && k->addr < e[1].addr))
		return 0;
	return k->addr < e->addr ? -1 : 1;
}

/* The symbol's name, copied once; NULL (and @k->failed) without memory. */
static char *name_of(struct tdat_kallsyms *k, struct ksym *e)
{
	const char *s = k->text + e->name, *p = s;

	while (p < k->text + k->len && !isspace((unsigned char)*p))
		p++;
	if (!e->copy) {
		e->copy = strndup(s, (size_t)(p - s));
		if (!e->copy)
			k->failed = true;
	}
	return e->copy;
}

/* The module after a symbol's name ("\t[mod]"), "" for none. */
static const char *mod_of(const struct tdat_kallsyms *k, struct ksym *e)
{
	const char *end = k->text + k->len, *p = k->text + e->name, *q;

	if (e->mod)
		return e->mod;
	while (p < end && !isspace((unsigned char)*p))
		p++;
	while (p < end && *p != '\n' && isspace((unsigned char)*p))
		p++;
	q = p < end && *p == '[' ? memchr(p, ']', (size_t)(end - p)) : NULL;
	if (q && q > p + 1 && !memchr(p, '\n', (size_t)(q - p)))
		e->mod = strndup(p + 1, (size_t)(q - p - 1));
	else
		e->mod = strdup("");
	return e->mod;
}

/**
 * ksyms_index_module - the module of an address's symbol in the index
 * @k: the kallsyms section, indexed (ksyms_ensure_index())
 * @addr: the address
 *
 * Return: the module's name (@k keeps it), NULL for the kernel itself,
 * no symbol, or memory that ran out.
 */
const char *ksyms_index_module(struct tdat_kallsyms *k, uint64_t addr)
{
	struct ksym key = { .addr = addr }, *e;
	const char *m;

	if (!k->syms || !k->count)
		return NULL;
	e = bsearch(&key, k->syms, k->count, sizeof(*e), ksym_find);
	m = e ? mod_of(k, e) : NULL;
	return m && *m ? m : NULL;
}

/**
 * ksyms_index_lookup - an address looked up in the index
 * @k: the kallsyms section, indexed (ksyms_ensure_index())
 * @addrp: the address; set to its symbol's address when it has one
 *
 * Return: the symbol's name (@k keeps it), or NULL.
 */
char *ksyms_index_lookup(struct tdat_kallsyms *k, unsigned long long *addrp)
{
	struct ksym key = { .addr = *addrp }, *e;

	if (!k->syms || !k->count)
		return NULL;
	e = bsearch(&key, k->syms, k->count, sizeof(*e), ksym_find);
	if (!e)
		return NULL;
	*addrp = e->addr;
	return name_of(k, e);
}
