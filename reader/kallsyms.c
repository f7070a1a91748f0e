// SPDX-License-Identifier: LGPL-2.1
/*
 * kallsyms left where the file has it, and resolved through the tep
 * handle's function resolver.
 *
 * The answers are libtraceevent's (tep_parse_kallsyms() and its lookup)
 * for every address: the same lines are symbols (types 'A'/'a' and names
 * starting with '$' are left out; the first line that does not parse
 * ends the table; the text ends at a NUL), the same order among symbols
 * at one address (the last registered, i.e. the first in the file,
 * sorts first), the same binary search.
 *
 * Memory follows the symbols asked for, not the section: once a front
 * end knows which addresses its report names (tdat_want_symbols()), one
 * pass over the text keeps, for each gap between two of them, the
 * highest symbol in it, and for each, the symbols exactly there; the
 * text is read where the file is mapped (its pages dropped behind the
 * pass) or decompressed through a small buffer.  A compressed section
 * of up to KS_HOLD bytes is held decompressed until then instead, so
 * that it is decompressed once (trace-kmem stat announces the frames of
 * kernel stacks too: it chooses page call sites after counting).
 * Lookups nobody announced get a pass of their own, the first few; past
 * that (a front end looking frames up while counting, as plot does),
 * every symbol is indexed as before: 24 bytes a symbol, no allocation a
 * line, a name copied out only when it is first asked for.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <zlib.h>
#include <zstd.h>

#include "internal.h"

struct ksym {
	uint64_t addr;
	uint32_t line; /* the line's number, for the order */
	uint32_t name; /* offset of the name in the text */
	char *copy;    /* the name, once asked for */
};

/* One address resolved: its symbol's address and name, or no name. */
struct kres {
	uint64_t key;
	uint64_t start;
	char *name;
};

struct tdat_kallsyms {
	/* the plain text: where the file is mapped, or in hold */
	const uint8_t *src;
	size_t srclen;
	/* a compressed section: its block */
	enum tdat_compress z;
	const uint8_t *zsrc;
	size_t zsrclen;
	uint8_t *hold;	/* the block decompressed, until lookups are known */
	bool big;	/* the block's byte order (its size word) */
	bool drop;	/* src is a file mapping: drop pages once read */
	uint64_t zsize; /* the block's declared decompressed size */
	uint64_t tsize; /* the text's size as the file says it */
	pthread_mutex_t lock; /* lookups may come from two threads */
	/* the addresses asked for, sorted, with their answers */
	struct kres *res;
	size_t nres, capres;
	bool wanted;	     /* tdat_want_symbols() was called */
	bool reading;	     /* records are being read: no more probes */
	unsigned int misses; /* lookups of addresses not asked for */
	/* the full index, the fallback when lookups come unannounced */
	bool indexed;
	const char *text;
	size_t len;
	uint8_t *owned;	   /* the text, when decompressed */
	struct ksym *syms; /* count + 1: a sentinel of address 0 */
	size_t count;
};

/* hex digit values + 1; 0: not a hex digit */
#define H(c, v) [c] = (v) + 1
static const unsigned char hex_tab[256] = {
	H('0', 0),  H('1', 1),	H('2', 2),  H('3', 3),	H('4', 4),  H('5', 5),
	H('6', 6),  H('7', 7),	H('8', 8),  H('9', 9),	H('a', 10), H('b', 11),
	H('c', 12), H('d', 13), H('e', 14), H('f', 15), H('A', 10), H('B', 11),
	H('C', 12), H('D', 13), H('E', 14), H('F', 15),
};
#undef H

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

	while (s < end && (d = hex_tab[(unsigned char)*s])) {
		if (++n > 16)
			return 0;
		v = v << 4 | (uint64_t)(d - 1);
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

/*
 * The text streamed: the plain text read where the file is mapped, a
 * window at a time (the pages read are dropped again), or the compressed
 * block decompressed through a bounded buffer.  Memory stays the same
 * whatever the section's size.
 */
#define KS_WINDOW (1U << 20)
#define KS_ZBUF (64U << 10)

/* A piece of the decompressed block; return nonzero to stop. */
typedef int (*sink_fn)(void *priv, const uint8_t *p, size_t n);

/* Drop the pages of [@from, @to) of the file mapping: read again from
 * the page cache if needed, not counted in our memory meanwhile. */
static void drop_pages(const uint8_t *from, const uint8_t *to)
{
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t a = ((uintptr_t)from + pg - 1) & ~(pg - 1);
	uintptr_t b = (uintptr_t)to & ~(pg - 1);

	if (b > a)
		madvise((void *)a, b - a, MADV_DONTNEED);
}

/*
 * Decompress @k's block through @sink.  Return 0 when the whole block
 * decompressed into at most its declared size (or @sink stopped it), -1
 * otherwise: as tdat_inflate() would succeed or fail on it.
 */
static int inflate_stream(const struct tdat_kallsyms *k, sink_fn sink,
			  void *priv)
{
	uint8_t *buf = malloc(KS_ZBUF);
	uint64_t total = 0;
	int ret = -1;

	if (!buf)
		return -1;
	if (k->z == TDAT_Z_ZSTD) {
		ZSTD_DStream *ds = ZSTD_createDStream();
		ZSTD_inBuffer in = { k->zsrc, k->zsrclen, 0 };
		size_t left = 0;

		if (!ds)
			goto out;
		for (;;) {
			ZSTD_outBuffer o = { buf, KS_ZBUF, 0 };

			left = ZSTD_decompressStream(ds, &o, &in);
			if (ZSTD_isError(left))
				break;
			total += o.pos;
			if (total > k->zsize)
				break;
			if (o.pos && sink(priv, buf, o.pos)) {
				ret = 0;
				break;
			}
			if (in.pos == in.size && o.pos < KS_ZBUF) {
				/* every frame complete; no input is none */
				ret = left && k->zsrclen ? -1 : 0;
				break;
			}
		}
		ZSTD_freeDStream(ds);
	} else if (k->z == TDAT_Z_ZLIB && k->zsrclen <= UINT32_MAX) {
		z_stream zs;
		int zr;

		memset(&zs, 0, sizeof(zs));
		if (inflateInit(&zs) != Z_OK)
			goto out;
		zs.next_in = (Bytef *)(uintptr_t)k->zsrc;
		zs.avail_in = (uInt)k->zsrclen;
		do {
			zs.next_out = buf;
			zs.avail_out = KS_ZBUF;
			zr = inflate(&zs, Z_NO_FLUSH);
			if (zr != Z_OK && zr != Z_STREAM_END)
				break;
			total += KS_ZBUF - zs.avail_out;
			if (total > k->zsize)
				break;
			if (sink(priv, buf, KS_ZBUF - zs.avail_out)) {
				ret = 0;
				break;
			}
			if (zr == Z_STREAM_END)
				ret = 0;
		} while (zr == Z_OK);
		inflateEnd(&zs);
	}
out:
	free(buf);
	return ret;
}

/* The text of a decompressed block: after its size word, that many
 * bytes, up to a NUL. */
struct text_sink {
	const struct tdat_kallsyms *k;
	uint8_t head[4];
	uint64_t seen;					/* bytes of the block */
	int (*fn)(void *priv, const char *p, size_t n); /* nonzero: stop */
	void *priv;
};

static int text_piece(void *priv, const uint8_t *p, size_t n)
{
	struct text_sink *t = priv;
	uint64_t end = 4 + t->k->tsize;
	const uint8_t *nul;

	while (n && t->seen < 4) {
		t->head[t->seen++] = *p++;
		n--;
	}
	if (!n || !t->fn)
		return 0;
	if (t->seen >= end)
		return 1;
	if (n > end - t->seen)
		n = (size_t)(end - t->seen);
	t->seen += n;
	nul = memchr(p, '\0', n);
	if (nul)
		n = (size_t)(nul - p);
	return t->fn(t->priv, (const char *)p, n) || nul || t->seen >= end;
}

/*
 * The text through @fn, in pieces, up to its end or a NUL (libtraceevent
 * reads it as a C string).  Return 0, or -1 if it could not be read.
 */
static int each_piece(const struct tdat_kallsyms *k,
		      int (*fn)(void *priv, const char *p, size_t n),
		      void *priv)
{
	struct text_sink t = { .k = k, .fn = fn, .priv = priv };
	size_t at = 0, n;

	if (k->z != TDAT_Z_NONE && !k->hold)
		return inflate_stream(k, text_piece, &t);
	while (at < k->srclen) {
		const uint8_t *p = k->src + at, *nul;
		int stop;

		n = k->srclen - at < KS_WINDOW ? k->srclen - at : KS_WINDOW;
		nul = memchr(p, '\0', n);
		stop = fn(priv, (const char *)p, nul ? (size_t)(nul - p) : n);
		if (k->drop)
			drop_pages(p, p + n);
		if (stop || nul)
			break;
		at += n;
	}
	return 0;
}

/*
 * A symbol of the text, its name up to white space before @eol, which
 * stays where it is until the pass ends when @stable (else only during
 * the call); return nonzero to stop.
 */
typedef int (*sym_fn)(void *priv, uint64_t addr, const char *name,
		      const char *eol, bool stable);

/* isspace() in the C locale, which the tools run in */
static inline bool ks_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static size_t name_len(const char *name, const char *eol)
{
	const char *p = name;

	while (p < eol && !ks_space(*p))
		p++;
	return (size_t)(p - name);
}

/* Lines out of pieces (a line cut between two is put together), and
 * the symbols out of the lines. */
struct lines {
	sym_fn fn;
	void *priv;
	bool stable; /* the pieces stay where they are during the pass */
	char *carry;
	size_t nc, cap;
	bool stop, oom;
};

/* One line, as build() takes it: nonzero when the table ends. */
static int one_line(struct lines *l, const char *s, const char *eol,
		    bool stable)
{
	const char *name;
	uint64_t addr;
	char type;

	if (eol == s)
		return 0; /* strtok_r skips empty lines */
	if (!fast_line(s, eol, &addr, &type, &name) &&
	    slow_line(s, eol, &addr, &type, &name) < 0)
		return 1;
	if (*name == '$' || type == 'A' || type == 'a')
		return 0;
	return l->fn(l->priv, addr, name, eol, stable);
}

static int carry_add(struct lines *l, const char *p, size_t n)
{
	if (l->nc + n > l->cap) {
		size_t cap = l->cap ? l->cap : 256;
		char *c;

		while (cap < l->nc + n)
			cap *= 2;
		c = realloc(l->carry, cap);
		if (!c) {
			l->oom = l->stop = true;
			return -1;
		}
		l->carry = c;
		l->cap = cap;
	}
	memcpy(l->carry + l->nc, p, n);
	l->nc += n;
	return 0;
}

static int lines_piece(void *priv, const char *p, size_t n)
{
	struct lines *l = priv;

	while (n && !l->stop) {
		const char *nl = memchr(p, '\n', n);

		if (!nl)
			return carry_add(l, p, n) ? 1 : 0;
		if (l->nc) {
			if (carry_add(l, p, (size_t)(nl - p)))
				return 1;
			l->stop =
				one_line(l, l->carry, l->carry + l->nc, false);
			l->nc = 0;
		} else {
			l->stop = one_line(l, p, nl, l->stable);
		}
		n -= (size_t)(nl + 1 - p);
		p = nl + 1;
	}
	return l->stop;
}

/*
 * Every symbol of the text, in the file's order, through @fn: one pass,
 * the memory of its longest line.  Return 0, or -1 when the text could
 * not be read.
 */
static int each_symbol(const struct tdat_kallsyms *k, sym_fn fn, void *priv)
{
	struct lines l = { .fn = fn, .priv = priv };
	int ret;

	l.stable = k->z == TDAT_Z_NONE || k->hold;
	ret = each_piece(k, lines_piece, &l);
	if (!ret && !l.stop && l.nc)
		one_line(&l, l.carry, l.carry + l.nc, false);
	free(l.carry);
	return ret || l.oom ? -1 : 0;
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
	if (each_piece(k, copy_piece, k))
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

/* Lookups are known: the held text goes (unless the index uses it). */
static void unhold(struct tdat_kallsyms *k)
{
	if (!k->hold || k->indexed)
		return;
	free(k->hold);
	k->hold = NULL;
	k->src = NULL;
	k->srclen = 0;
}

/* Build the index once (the lock held). */
static void ensure_index(struct tdat_kallsyms *k)
{
	if (k->indexed)
		return;
	if (build(k)) {
		free(k->syms);
		k->syms = NULL;
		k->count = 0;
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
	ensure_index(k);
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

static char *name_of(const struct tdat_kallsyms *k, struct ksym *e)
{
	const char *s = k->text + e->name, *p = s;

	while (p < k->text + k->len && !isspace((unsigned char)*p))
		p++;
	if (!e->copy)
		e->copy = strndup(s, (size_t)(p - s));
	return e->copy;
}

static char *index_lookup(struct tdat_kallsyms *k, unsigned long long *addrp)
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

/*
 * Resolving a sorted set of addresses in one pass, as the index would:
 * for each gap between two wanted addresses, the highest symbol in it
 * (the first line of that address: the index sorts the last line first
 * and answers an address between two symbols with the last of a run);
 * for each wanted address, the symbols exactly there (how many, the
 * first one's name) and how many symbols lie below it.
 */
struct slot {
	uint64_t below; /* symbols in the gap below this address */
	uint64_t at;	/* symbols at it */
	uint64_t best;	/* the gap's highest symbol */
	bool have_best;
	const char *best_name, *best_eol; /* its name, in the text or: */
	char *buf;			  /* a copy (the buffer is reused) */
	size_t buf_cap;
	char *at_name; /* the first symbol at the address */
};

struct pass {
	const uint64_t *want;
	size_t n;
	struct slot *slots; /* n + 1: the last gap is above the last */
	uint64_t total;	    /* symbols */
	uint64_t max;	    /* the highest */
	size_t last;	    /* the slot of the last symbol */
	bool oom;
};

static size_t lower_bound(const uint64_t *v, size_t n, uint64_t x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static char *put_name(char **buf, size_t *cap, const char *s, size_t n)
{
	if (n + 1 > *cap) {
		char *b = realloc(*buf, n + 1);

		if (!b)
			return NULL;
		*buf = b;
		*cap = n + 1;
	}
	memcpy(*buf, s, n);
	(*buf)[n] = '\0';
	return *buf;
}

static int pass_sym(void *priv, uint64_t addr, const char *name,
		    const char *eol, bool stable)
{
	struct pass *ps = priv;
	size_t i = ps->last;
	struct slot *sl;

	/* sorted text: most symbols fall where the last one did */
	if (!((i == ps->n || addr < ps->want[i]) &&
	      (!i || addr > ps->want[i - 1])))
		i = ps->last = lower_bound(ps->want, ps->n, addr);
	sl = &ps->slots[i];
	if (!ps->total || addr > ps->max)
		ps->max = addr;
	ps->total++;
	if (i < ps->n && ps->want[i] == addr) {
		if (!sl->at++) {
			sl->at_name = strndup(name, name_len(name, eol));
			ps->oom |= !sl->at_name;
		}
		return ps->oom;
	}
	sl->below++;
	if (i < ps->n && (!sl->have_best || addr > sl->best)) {
		if (!stable) {
			size_t len = name_len(name, eol);

			name = put_name(&sl->buf, &sl->buf_cap, name, len);
			if (!name) {
				ps->oom = true;
				return 1;
			}
			eol = name + len;
		}
		sl->best_name = name;
		sl->best_eol = eol;
		sl->best = addr;
		sl->have_best = true;
	}
	return 0;
}

/*
 * Which of @run symbols at one address the index's bsearch() gives: the
 * index has @rank symbols below them and @total in all.  The real
 * bsearch() over a stand-in array, so that the answer is libc's.
 */
struct runpos {
	uint64_t rank, run;
};

static int run_cmp(const void *key, const void *elem)
{
	const struct runpos *r = key;
	uint64_t i = (uint64_t)((uintptr_t)elem - (uintptr_t)1);

	if (i < r->rank)
		return 1;
	return i < r->rank + r->run ? 0 : -1;
}

static uint64_t run_pick(uint64_t rank, uint64_t run, uint64_t total)
{
	struct runpos r = { rank, run };
	const char *e = bsearch(&r, (const void *)(uintptr_t)1, (size_t)total,
				1, run_cmp);

	/* the run is sorted last line first: its k-th is line run-1-k */
	return e ? run - 1 - ((uint64_t)((uintptr_t)e - 1) - rank) : 0;
}

/* The n-th symbol at one address (second pass, for duplicates). */
struct nth {
	uint64_t addr, n, seen;
	char *name;
	bool oom;
};

static int nth_sym(void *priv, uint64_t addr, const char *name, const char *eol,
		   bool stable)
{
	struct nth *t = priv;

	(void)stable;
	if (addr != t->addr || t->seen++ != t->n)
		return 0;
	t->name = strndup(name, name_len(name, eol));
	t->oom = !t->name;
	return 1;
}

static size_t res_pos(const struct tdat_kallsyms *k, uint64_t key)
{
	size_t lo = 0, hi = k->nres;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->res[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Insert @r into @k's sorted answers. */
static int add_result(struct tdat_kallsyms *k, const struct kres *r)
{
	size_t i;

	if (k->nres == k->capres) {
		size_t cap = k->capres ? 2 * k->capres : 64;
		struct kres *v = realloc(k->res, cap * sizeof(*v));

		if (!v)
			return -1;
		k->res = v;
		k->capres = cap;
	}
	i = res_pos(k, r->key);
	memmove(&k->res[i + 1], &k->res[i], (k->nres - i) * sizeof(*k->res));
	k->res[i] = *r;
	k->nres++;
	return 0;
}

/*
 * Answer the sorted, distinct addresses @want[@n], none answered yet,
 * in one pass over the text (and one more for each address that is
 * exactly where several symbols are, when the index would not give the
 * first of them).
 */
static int resolve_set(struct tdat_kallsyms *k, const uint64_t *want, size_t n)
{
	struct pass ps = { .want = want, .n = n };
	const char *below = NULL, *below_eol = NULL;
	uint64_t below_addr = 0, rank = 0;
	int ret = -1;
	size_t i;

	ps.slots = calloc(n + 1, sizeof(*ps.slots));
	if (!ps.slots)
		return -1;
	if (each_symbol(k, pass_sym, &ps) || ps.oom)
		goto out;
	for (i = 0; i < n; i++) {
		struct slot *sl = &ps.slots[i];
		struct kres r = { .key = want[i] };

		rank += sl->below;
		if (sl->have_best) {
			below = sl->best_name;
			below_eol = sl->best_eol;
			below_addr = sl->best;
		}
		if (sl->at) {
			uint64_t nth = run_pick(rank, sl->at, ps.total);
			struct nth t = { .addr = want[i], .n = nth };

			r.start = want[i];
			if (!nth) {
				r.name = strdup(sl->at_name);
			} else if (!each_symbol(k, nth_sym, &t) && !t.oom) {
				r.name = t.name;
			}
			if (!r.name)
				goto out;
			/* above it, the first line at the address */
			below = sl->at_name;
			below_eol = below + strlen(below);
			below_addr = want[i];
			rank += sl->at;
		} else if (below && ps.max > want[i]) {
			r.start = below_addr;
			r.name = strndup(below, name_len(below, below_eol));
			if (!r.name)
				goto out;
		}
		if (add_result(k, &r)) {
			free(r.name);
			goto out;
		}
	}
	ret = 0;
out:
	for (i = 0; i <= n; i++) {
		free(ps.slots[i].buf);
		free(ps.slots[i].at_name);
	}
	free(ps.slots);
	return ret;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Lookups of addresses nobody announced: the first few get a pass each
 * (memory stays small); more, or any before tdat_want_symbols(), and
 * the caller looks up as it goes (plot's stack frames): the
 * index is built then.
 */
#define KS_MISSES 8

/*
 * The format probes of a session's start (lib/fmtprobe.c) print every
 * field of a made-up record of zeros but the one probed, and read back
 * the probed "key=value": the function name libtraceevent prints for a
 * call site of 0 there is never read (kallsyms names hold no white
 * space, and every kernel's print fmt has "call_site=" before it).
 * Before any record is read and before tdat_want_symbols(), address 0
 * therefore gets no symbol and no pass of its own: it is resolved with
 * the others, once they are known.
 */
static bool probe_lookup(const struct tdat_kallsyms *k, uint64_t key)
{
	return !key && !k->wanted && !k->reading && !k->indexed;
}

static char *resolve(void *priv, unsigned long long *addrp, char **modp)
{
	struct tdat_kallsyms *k = priv;
	uint64_t key = *addrp;
	char *name = NULL;
	size_t i = 0;

	if (modp)
		*modp = NULL;
	pthread_mutex_lock(&k->lock);
	if (probe_lookup(k, key)) {
		pthread_mutex_unlock(&k->lock);
		return NULL;
	}
	if (!k->indexed) {
		i = res_pos(k, key);
		if (i == k->nres || k->res[i].key != key) {
			k->misses++;
			if ((!k->wanted && k->misses > 1) ||
			    k->misses > KS_MISSES || resolve_set(k, &key, 1))
				ensure_index(k);
			else
				i = res_pos(k, key);
		}
	}
	if (k->indexed) {
		name = index_lookup(k, addrp);
	} else if (k->res[i].name) {
		name = k->res[i].name;
		*addrp = k->res[i].start;
	}
	pthread_mutex_unlock(&k->lock);
	return name;
}

/**
 * tdat_kallsyms_reading - records are being read
 * @f: the file
 *
 * Lookups from now on are the caller's own, not format probes: address
 * 0 resolves as any other (see probe_lookup()).
 */
void tdat_kallsyms_reading(struct tdat_file *f)
{
	struct tdat_kallsyms *k = f->ksyms;

	if (!k)
		return;
	pthread_mutex_lock(&k->lock);
	k->reading = true;
	pthread_mutex_unlock(&k->lock);
}

/**
 * tdat_want_symbols - the addresses that will be looked up
 * @f: the file
 * @addrs: addresses (any order, repeats allowed)
 * @n: their number
 *
 * They are resolved in one pass over the kallsyms text, and lookups of
 * them are answered from what that pass kept: memory in proportion to
 * the addresses, not to the section.  Other addresses still resolve
 * (see resolve()).  May be called again with more.
 *
 * Return: 0, or -1 when memory ran out (lookups then fall back on the
 * index).
 */
int tdat_want_symbols(struct tdat_file *f, const uint64_t *addrs, size_t n)
{
	struct tdat_kallsyms *k = f->ksyms;
	uint64_t *v;
	size_t i, m = 0;
	int ret = 0;

	if (!k)
		return 0;
	v = malloc((n + 1) * sizeof(*v));
	if (!v)
		return -1;
	pthread_mutex_lock(&k->lock);
	k->wanted = true;
	if (k->indexed)
		goto out;
	/* 0 too: libtraceevent prints a call site of 0 in format probes */
	memcpy(v, addrs, n * sizeof(*v));
	v[n] = 0;
	qsort(v, n + 1, sizeof(*v), cmp_u64);
	for (i = 0; i <= n; i++) {
		size_t at = res_pos(k, v[i]);

		if ((m && v[m - 1] == v[i]) ||
		    (at < k->nres && k->res[at].key == v[i]))
			continue;
		v[m++] = v[i];
	}
	if (m && resolve_set(k, v, m)) {
		ensure_index(k);
		ret = -1;
	}
	unhold(k);
out:
	pthread_mutex_unlock(&k->lock);
	free(v);
	return ret;
}

/* The decompressed block's size and its first four bytes. */
struct check {
	uint64_t total;
	uint8_t head[4];
};

static int check_piece(void *priv, const uint8_t *p, size_t n)
{
	struct check *ck = priv;

	for (; n && ck->total < 4; n--)
		ck->head[ck->total++] = *p++;
	ck->total += n;
	return 0;
}

/*
 * A compressed block of up to this much is decompressed once, when the
 * file is opened, and held until the lookups are known (then parsed twice
 * in memory); a larger one is decompressed through a small buffer each
 * time it is read.
 */
#define KS_HOLD (16U << 20)

static int check_block(struct tdat_file *f, struct tdat_kallsyms *k)
{
	struct check ck = { 0 };

	/* as tdat_section_block() and the size word would be checked */
	if (inflate_stream(k, check_piece, &ck))
		return tdat_fail(f, TDAT_BAD,
				 "a compressed section does not decompress");
	k->tsize = tdat_num(ck.head, 4, k->big);
	if (ck.total < 4 || k->tsize > ck.total - 4)
		return tdat_fail(f, TDAT_BAD, "kallsyms truncated");
	return TDAT_OK;
}

static int hold_block(struct tdat_file *f, struct tdat_kallsyms *k)
{
	uint8_t *buf = malloc(k->zsize ? (size_t)k->zsize : 1);
	size_t len;
	struct tcur c;

	if (!buf)
		return tdat_fail(f, TDAT_BAD, "out of memory");
	if (tdat_inflate(f, k->zsrc, k->zsrclen, buf, (size_t)k->zsize, &len)) {
		free(buf);
		return tdat_fail(f, TDAT_BAD,
				 "a compressed section does not decompress");
	}
	k->hold = buf;
	tc_init(&c, buf, len, k->big);
	k->tsize = tc_num(&c, 4);
	k->src = tc_take(&c, k->tsize);
	k->srclen = (size_t)k->tsize;
	if (c.bad)
		return tdat_fail(f, TDAT_BAD, "kallsyms truncated");
	return TDAT_OK;
}

/**
 * tdat_kallsyms_set - keep where the kallsyms text is, resolve through it
 * @f: the file (its tep handle gets the resolver)
 * @c: the cursor at the section's content: its size word and the text,
 *	or, when @z, the compressed block's sizes
 * @z: the section is compressed
 *
 * Nothing is copied: the text is read where the file is mapped, or
 * decompressed again, each time symbols are resolved.  A compressed block
 * is decompressed once here (through a small buffer) so that damage is
 * found now, as when it was kept.
 *
 * Return: TDAT_OK, or TDAT_BAD after saying why.
 */
int tdat_kallsyms_set(struct tdat_file *f, struct tcur *c, bool z)
{
	struct tdat_kallsyms *k;
	uint64_t zsize = 0, size;
	const uint8_t *p;
	int ret;

	tdat_kallsyms_release(f);
	if (z) {
		if (tdat_section_head(f, c, &p, &zsize, &size))
			return TDAT_BAD;
	} else {
		size = tc_num(c, 4);
		p = tc_take(c, size);
		if (c->bad)
			return tdat_fail(f, TDAT_BAD, "kallsyms truncated");
	}
	k = calloc(1, sizeof(*k));
	if (!k)
		return tdat_fail(f, TDAT_BAD, "out of memory");
	pthread_mutex_init(&k->lock, NULL);
	f->ksyms = k;
	k->big = f->big;
	k->tsize = size;
	if (!z) {
		k->src = p;
		k->srclen = (size_t)size;
		k->drop = f->owned;
	} else {
		k->z = f->compress;
		k->zsrc = p;
		k->zsrclen = (size_t)zsize;
		k->zsize = size;
		ret = size <= KS_HOLD ? hold_block(f, k) : check_block(f, k);
		if (ret)
			return ret;
	}
	if (tep_set_function_resolver(f->tep, resolve, k))
		return tdat_fail(f, TDAT_BAD, "out of memory");
	return TDAT_OK;
}

/**
 * tdat_kallsyms_bytes - the size of the kallsyms text
 * @f: the file
 *
 * Return: the size the file gives its kallsyms text, or 0.
 */
uint64_t tdat_kallsyms_bytes(const struct tdat_file *f)
{
	return f->ksyms ? f->ksyms->tsize : 0;
}

/**
 * tdat_kallsyms_release - drop the answers, the index and the names
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
	for (i = 0; i < k->nres; i++)
		free(k->res[i].name);
	free(k->res);
	for (i = 0; k->syms && i < k->count; i++)
		free(k->syms[i].copy);
	free(k->syms);
	free(k->owned);
	free(k->hold);
	pthread_mutex_destroy(&k->lock);
	free(k);
	f->ksyms = NULL;
}
