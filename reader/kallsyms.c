// SPDX-License-Identifier: LGPL-2.1
/*
 * kallsyms kept as the file has it, indexed on the first lookup, and
 * resolved through the tep handle's function resolver.
 *
 * The index gives the same answers as libtraceevent's own function map
 * (tep_parse_kallsyms() and its lookup) for every address: the same
 * lines are symbols (types 'A'/'a' and names starting with '$' are
 * left out; the first line that does not parse ends the table), the
 * same order among symbols at one address (the last registered, i.e.
 * the first in the file, sorts first), the same binary search.  It
 * costs 24 bytes a symbol and no allocation a line; a name is copied
 * out only when it is first asked for.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct ksym {
	uint64_t addr;
	uint32_t line; /* the line's number, for the order */
	uint32_t name; /* offset of the name in the text */
	char *copy;    /* the name, once asked for */
};

struct tdat_kallsyms {
	const char *text;
	size_t len;
	uint8_t *owned;	      /* the text, when decompressed */
	pthread_mutex_t lock; /* the index may be built on another thread */
	bool indexed;
	struct ksym *syms; /* count + 1: a sentinel of address 0 */
	size_t count;
};

static int hexval(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	ch |= 0x20;
	return ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
}

/*
 * The common line "ADDR T NAME..." parsed by hand.  Return 1 with the
 * fields set, 0 when the line is not of that simple shape (then
 * slow_line() decides, as sscanf would).
 */
static int fast_line(const char *s, const char *end, uint64_t *addr, char *type,
		     const char **name)
{
	uint64_t v = 0;
	int n = 0, d;

	while (s < end && (d = hexval((unsigned char)*s)) >= 0) {
		if (++n > 16)
			return 0;
		v = v << 4 | (uint64_t)d;
		s++;
	}
	if (!n || end - s < 4 || s[0] != ' ' || isspace((unsigned char)s[1]) ||
	    s[2] != ' ' || isspace((unsigned char)s[3]))
		return 0;
	*addr = v;
	*type = s[1];
	*name = s + 3;
	return 1;
}

/*
 * Any other line, through sscanf with the conversions
 * tep_parse_kallsyms() uses.  Return 1 for a symbol line, -1 for a
 * line that does not parse (the table ends there).
 */
static int slow_line(const char *s, const char *end, uint64_t *addr, char *type,
		     const char **name)
{
	char buf[512], *line = buf;
	size_t len = (size_t)(end - s);
	unsigned long long a;
	int start = 0, stop = 0, n;

	if (len >= sizeof(buf)) {
		line = malloc(len + 1);
		if (!line)
			return -1;
	}
	memcpy(line, s, len);
	line[len] = '\0';
	n = sscanf(line, "%16llx %c %n%*s%n", &a, type, &start, &stop);
	if (line != buf)
		free(line);
	if (n != 2 || !stop)
		return -1;
	*addr = a;
	*name = s + start;
	return 1;
}

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

static int build(struct tdat_kallsyms *k)
{
	const char *s = k->text, *end = k->text + k->len, *eol, *name;
	size_t cap = 4096, lines = 0;
	struct ksym *syms;
	uint64_t addr;
	char type;
	int ok;

	k->syms = malloc(cap * sizeof(*k->syms));
	if (!k->syms)
		return -1;
	for (; s < end; s = eol + 1) {
		eol = memchr(s, '\n', (size_t)(end - s));
		if (!eol)
			eol = end;
		if (eol == s)
			continue; /* strtok_r skips empty lines */
		ok = fast_line(s, eol, &addr, &type, &name);
		if (!ok && slow_line(s, eol, &addr, &type, &name) < 0)
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
		k->count++;
	}
	sort_syms(k->syms, k->count);
	memset(&k->syms[k->count], 0, sizeof(*k->syms));
	return 0;
}

/* Build the index once, whichever thread asks first. */
static void ensure_index(struct tdat_kallsyms *k)
{
	if (__atomic_load_n(&k->indexed, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&k->lock);
	if (!k->indexed) {
		if (build(k)) {
			free(k->syms);
			k->syms = NULL;
			k->count = 0;
		}
		__atomic_store_n(&k->indexed, true, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&k->lock);
}

/**
 * tdat_index_symbols - build the kallsyms index now
 * @f: the file
 *
 * Otherwise it is built on the first lookup.  Safe to call on one
 * thread while another looks symbols up.
 */
void tdat_index_symbols(struct tdat_file *f)
{
	if (f->ksyms)
		ensure_index(f->ksyms);
}

/* libtraceevent's rule: at the symbol, or between it and the next. */
static int ksym_find(const void *key, const void *elem)
{
	const struct ksym *k = key, *e = elem;

	if (k->addr == e->addr || (k->addr > e->addr && k->addr < e[1].addr))
		return 0;
	return k->addr < e->addr ? -1 : 1;
}

static char *name_of(const struct tdat_kallsyms *k, struct ksym *e)
{
	const char *s = k->text + e->name, *p = s;

	while (p < k->text + k->len && !isspace((unsigned char)*p))
		p++;
	if (!e->copy)
		e->copy = strndup(s, (size_t)(p - s));
	return e->copy;
}

static char *resolve(void *priv, unsigned long long *addrp, char **modp)
{
	struct tdat_kallsyms *k = priv;
	struct ksym key = { .addr = *addrp }, *e;

	ensure_index(k);
	if (!k->syms || !k->count)
		return NULL;
	e = bsearch(&key, k->syms, k->count, sizeof(*e), ksym_find);
	if (!e)
		return NULL;
	*addrp = e->addr;
	if (modp)
		*modp = NULL;
	return name_of(k, e);
}

/**
 * tdat_kallsyms_set - keep the kallsyms text and resolve through it
 * @f: the file (its tep handle gets the resolver)
 * @text: the text of /proc/kallsyms, not NUL-terminated
 * @len: its length
 * @owned: the buffer holding @text when it is ours to free, or NULL
 *
 * Return: TDAT_OK, or TDAT_BAD when memory ran out.
 */
int tdat_kallsyms_set(struct tdat_file *f, const uint8_t *text, size_t len,
		      uint8_t *owned)
{
	struct tdat_kallsyms *k;

	tdat_kallsyms_release(f);
	k = calloc(1, sizeof(*k));
	if (!k) {
		free(owned);
		return tdat_fail(f, TDAT_BAD, "out of memory");
	}
	k->text = (const char *)text;
	/* libtraceevent reads it as a C string: up to a NUL */
	k->len = text ? strnlen(k->text, len) : 0;
	k->owned = owned;
	pthread_mutex_init(&k->lock, NULL);
	f->ksyms = k;
	if (tep_set_function_resolver(f->tep, resolve, k))
		return tdat_fail(f, TDAT_BAD, "out of memory");
	return TDAT_OK;
}

/**
 * tdat_kallsyms_release - drop the text, the index and the names
 * @f: the file
 */
void tdat_kallsyms_release(struct tdat_file *f)
{
	struct tdat_kallsyms *k = f->ksyms;
	size_t i;

	if (!k)
		return;
	if (f->tep)
		tep_reset_function_resolver(f->tep);
	for (i = 0; k->syms && i < k->count; i++)
		free(k->syms[i].copy);
	free(k->syms);
	free(k->owned);
	pthread_mutex_destroy(&k->lock);
	free(k);
	f->ksyms = NULL;
}
