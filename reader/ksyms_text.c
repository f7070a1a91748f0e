// SPDX-License-Identifier: LGPL-2.1
/*
 * The kallsyms text streamed: the plain text read where the file is
 * mapped, a window at a time (the pages read are dropped again), or the
 * compressed block decompressed through a bounded buffer.  Memory stays
 * the same whatever the section's size.  Its lines are parsed as
 * tep_parse_kallsyms() parses them, and its symbols handed on one at a
 * time (ksyms_each_symbol()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "ksyms.h"

#define KS_WINDOW (1U << 20)
#define KS_ZBUF (64U << 10)

/**
 * ksyms_slow_line - any other kallsyms line, parsed as libtraceevent does
 * @s: the line
 * @end: its end (the newline, or the end of the text)
 * @addr: set to the symbol's address
 * @type: set to its type letter
 * @name: set to where its name starts
 *
 * Any other line, through sscanf with the conversions
 * tep_parse_kallsyms() uses.
 *
 * Return: 1 for a symbol line, -1 for a line that does not parse (the
 * table ends there).
 */
int ksyms_slow_line(const char *s, const char *end, uint64_t *addr, char *type,
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

/**
 * ksyms_inflate_stream - the compressed block, through a small buffer
 * @k: the kallsyms section (its block, compression and declared size)
 * @sink: takes each decompressed piece; nonzero stops
 * @priv: for @sink
 *
 * Decompress @k's block through @sink.
 *
 * Return: 0 when the whole block decompressed into at most its declared
 * size (or @sink stopped it), TDAT_INFLATE_NOMEM when memory ran out, -1
 * otherwise: as tdat_inflate() would succeed or fail on it.
 */
int ksyms_inflate_stream(const struct tdat_kallsyms *k, sink_fn sink,
			 void *priv)
{
	uint8_t *buf = malloc(KS_ZBUF);
	uint64_t total = 0;
	int ret = -1;

	if (!buf)
		return TDAT_INFLATE_NOMEM;
	if (k->z == TDAT_Z_ZSTD) {
		ZSTD_DStream *ds = ZSTD_createDStream();
		ZSTD_inBuffer in = { k->zsrc, k->zsrclen, 0 };
		size_t left = 0;

		if (!ds) {
			ret = TDAT_INFLATE_NOMEM;
			goto out;
		}
		for (;;) {
			ZSTD_outBuffer o = { buf, KS_ZBUF, 0 };

			left = ZSTD_decompressStream(ds, &o, &in);
			if (ZSTD_isError(left)) {
				if (ZSTD_getErrorCode(left) ==
				    ZSTD_error_memory_allocation)
					ret = TDAT_INFLATE_NOMEM;
				break;
			}
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
		zr = inflateInit(&zs);
		if (zr != Z_OK) {
			if (zr == Z_MEM_ERROR)
				ret = TDAT_INFLATE_NOMEM;
			goto out;
		}
		zs.next_in = (Bytef *)(uintptr_t)k->zsrc;
		zs.avail_in = (uInt)k->zsrclen;
		do {
			zs.next_out = buf;
			zs.avail_out = KS_ZBUF;
			zr = inflate(&zs, Z_NO_FLUSH);
			if (zr == Z_MEM_ERROR)
				ret = TDAT_INFLATE_NOMEM;
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
 * [@from, @to) of a text in memory through @fn, a window at a time (the
 * pages of a file mapping dropped behind), up to a NUL.  Return: true
 * when the text ended at a NUL or @fn stopped.
 */
static bool each_window(const uint8_t *src, bool drop, size_t from, size_t to,
			int (*fn)(void *priv, const char *p, size_t n),
			void *priv)
{
	size_t at = from, n;

	while (at < to) {
		const uint8_t *p = src + at, *nul;
		int stop;

		n = to - at < KS_WINDOW ? to - at : KS_WINDOW;
		if (drop)
			tdat_populate_read(p, n);
		nul = memchr(p, '\0', n);
		stop = fn(priv, (const char *)p, nul ? (size_t)(nul - p) : n);
		if (drop)
			tdat_drop_pages(p, n);
		if (stop || nul)
			return true;
		at += n;
	}
	return false;
}

/**
 * ksyms_each_piece - the kallsyms text, in pieces
 * @k: the kallsyms section
 * @fn: takes each piece; nonzero stops
 * @priv: for @fn
 *
 * The text through @fn, in pieces, up to its end or a NUL (libtraceevent
 * reads it as a C string).
 *
 * Return: 0, or -1 if it could not be read.
 */
int ksyms_each_piece(const struct tdat_kallsyms *k,
		     int (*fn)(void *priv, const char *p, size_t n), void *priv)
{
	struct text_sink t = { .k = k, .fn = fn, .priv = priv };

	if (!ksyms_in_memory(k))
		return ksyms_inflate_stream(k, text_piece, &t);
	each_window(k->src, k->drop, 0, k->srclen, fn, priv);
	return 0;
}

/* Lines out of pieces (a line cut between two is put together), and
 * the symbols out of the lines. */
struct lines {
	line_fn quick; /* or NULL */
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
	if (!ksyms_fast_line(s, eol, &addr, &type, &name) &&
	    ksyms_slow_line(s, eol, &addr, &type, &name) < 0)
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

/*
 * The newlines of a piece, in order.  With SSE2, from a bit mask of 64
 * bytes at a time: a kallsyms line is 30 to 60 bytes, and a memchr()
 * call for each was a sixth of a pass's instructions.  Elsewhere, and
 * for the last bytes, memchr().
 */
struct nlscan {
	const char *p;
	size_t n;
	size_t at;     /* the block of mask */
	uint64_t mask; /* its newlines not yet handed out */
	bool tail;     /* no whole block left: memchr() */
};

#ifdef __SSE2__
static inline uint64_t nl_mask64(const char *s)
{
	const __m128i nl = _mm_set1_epi8('\n');
	uint64_t m = 0;
	int i;

	for (i = 0; i < 4; i++) {
		__m128i v = _mm_loadu_si128((const __m128i *)(s + 16 * i));

		m |= (uint64_t)(uint32_t)_mm_movemask_epi8(
			     _mm_cmpeq_epi8(v, nl))
		     << (16 * i);
	}
	return m;
}
#endif

static void nl_init(struct nlscan *sc, const char *p, size_t n)
{
	sc->p = p;
	sc->n = n;
	sc->at = 0;
	sc->mask = 0;
	sc->tail = true;
#ifdef __SSE2__
	if (n >= 64) {
		sc->mask = nl_mask64(p);
		sc->tail = false;
	}
#endif
}

/* The first newline at or after @from (past every one handed out). */
static inline const char *nl_next(struct nlscan *sc, const char *from)
{
#ifdef __SSE2__
	while (!sc->tail) {
		if (sc->mask) {
			size_t i = sc->at + (size_t)__builtin_ctzll(sc->mask);

			sc->mask &= sc->mask - 1;
			return sc->p + i;
		}
		if (sc->at + 128 > sc->n) {
			sc->tail = true;
			break;
		}
		sc->at += 64;
		sc->mask = nl_mask64(sc->p + sc->at);
	}
#endif
	return memchr(from, '\n', (size_t)(sc->p + sc->n - from));
}

static int lines_piece(void *priv, const char *p, size_t n)
{
	struct lines *l = priv;
	struct nlscan sc;

	nl_init(&sc, p, n);
	while (n && !l->stop) {
		const char *nl = nl_next(&sc, p);

		if (!nl)
			return carry_add(l, p, n) ? 1 : 0;
		if (l->nc) {
			if (carry_add(l, p, (size_t)(nl - p)))
				return 1;
			l->stop =
				one_line(l, l->carry, l->carry + l->nc, false);
			l->nc = 0;
		} else if (!(l->quick && l->stable && nl > p &&
			     l->quick(l->priv, p, nl))) {
			l->stop = one_line(l, p, nl, l->stable);
		}
		n -= (size_t)(nl + 1 - p);
		p = nl + 1;
	}
	return l->stop;
}

/**
 * ksyms_each_symbol - every symbol of the kallsyms text
 * @k: the kallsyms section
 * @fn: takes each symbol (see sym_fn); nonzero stops
 * @priv: for @fn
 *
 * Every symbol of the text, in the file's order, through @fn: one pass,
 * the memory of its longest line.
 *
 * Return: 0, or -1 when the text could not be read.
 */
int ksyms_each_symbol(const struct tdat_kallsyms *k, sym_fn fn, void *priv)
{
	struct lines l = { .fn = fn, .priv = priv };
	int ret;

	l.stable = ksyms_in_memory(k);
	ret = ksyms_each_piece(k, lines_piece, &l);
	if (!ret && !l.stop && l.nc)
		one_line(&l, l.carry, l.carry + l.nc, false);
	free(l.carry);
	return ret || l.oom ? -1 : 0;
}

/* ksyms_each_symbol_in() of the text at @src, its pages dropped if @drop. */
static int each_symbol_in(const uint8_t *src, bool drop, size_t from, size_t to,
			  line_fn quick, sym_fn fn, void *priv, bool *ended)
{
	struct lines l = {
		.quick = quick, .fn = fn, .priv = priv, .stable = true
	};

	*ended = each_window(src, drop, from, to, lines_piece, &l) || l.stop;
	if (!l.stop && l.nc)
		*ended |= one_line(&l, l.carry, l.carry + l.nc, false) != 0;
	free(l.carry);
	return l.oom ? -1 : 0;
}

/**
 * ksyms_each_symbol_in - the symbols of a stretch of a text in memory
 * @k: the kallsyms section, its text in memory (ksyms_in_memory())
 * @from: where the stretch starts, at a line's start
 * @to: where it ends, after a newline or at the text's end
 * @quick: takes the lines it can before they are parsed (see line_fn),
 *	or NULL
 * @fn: takes each symbol (see sym_fn); nonzero stops
 * @priv: for @fn
 * @ended: set when the text ends in the stretch: a NUL, a line that does
 *	not parse, or @fn stopped
 *
 * As ksyms_each_symbol() over [@from, @to): two threads may each take a
 * stretch of one text.
 *
 * Return: 0, or -1 when memory ran out.
 */
int ksyms_each_symbol_in(const struct tdat_kallsyms *k, size_t from, size_t to,
			 line_fn quick, sym_fn fn, void *priv, bool *ended)
{
	return each_symbol_in(k->src, k->drop, from, to, quick, fn, priv,
			      ended);
}

/**
 * ksyms_each_symbol_at - ksyms_each_symbol_in() of a text not set yet
 * @text: the text's first byte (in the held block, after its size word)
 * @from: where the stretch starts, at a line's start
 * @to: where it ends, after a newline
 * @quick: as for ksyms_each_symbol_in()
 * @fn: the same
 * @priv: the same
 * @ended: the same
 *
 * For a pass that follows the block's decompression: its bytes up to @to
 * are written and stay, though the section's text (@k->src) is set only
 * when the block is whole.
 *
 * Return: 0, or -1 when memory ran out.
 */
int ksyms_each_symbol_at(const uint8_t *text, size_t from, size_t to,
			 line_fn quick, sym_fn fn, void *priv, bool *ended)
{
	return each_symbol_in(text, false, from, to, quick, fn, priv, ended);
}
