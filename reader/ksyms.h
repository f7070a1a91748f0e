/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * What the kallsyms files of reader/ share: the section's state
 * (kallsyms.c sets it up and releases it), the text streamed and parsed
 * (ksyms_text.c), the full index (ksyms_index.c) and the one-pass
 * resolution of the addresses asked for (ksyms_resolve.c).  See
 * kallsyms.c for how they fit together.
 */
#ifndef TDAT_KSYMS_H
#define TDAT_KSYMS_H

#include <ctype.h>
#include <pthread.h>

#include "internal.h"

struct ksym {
	uint64_t addr;
	uint32_t line; /* the line's number, for the order */
	uint32_t name; /* offset of the name in the text */
	char *copy;    /* the name, once asked for */
	char *mod;     /* its module, once asked for ("" for none) */
};

/* One address resolved: its symbol's address and name, or no name. */
struct kres {
	uint64_t key;
	uint64_t start;
	char *name;
	char *mod; /* its module ("[mod]" after the name), or NULL */
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
	/* hold's decompression, on a thread while the file is opened */
	pthread_t inflater;
	bool inflating;	 /* started, not joined yet */
	int inflate_err; /* KS_INFLATE_*: what the thread found */
	/* how far the thread is, for a pass that follows it (prog_lock) */
	pthread_mutex_t prog_lock;
	pthread_cond_t prog_cond;
	size_t inflated; /* bytes of hold written, final */
	bool steps_off;	 /* no (more) progress is told: inflated stays */
	bool stepped;	 /* ... and the block was whole in steps */
	bool following;	 /* a pass reads what is told */
	size_t followed; /* text bytes a pass took while following */
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
	bool failed; /* it could not be built: memory ran out */
	const char *text;
	size_t len;
	uint8_t *owned;	   /* the text, when decompressed */
	struct ksym *syms; /* count + 1: a sentinel of address 0 */
	size_t count;
};

/* A piece of the decompressed block; return nonzero to stop. */
typedef int (*sink_fn)(void *priv, const uint8_t *p, size_t n);

/*
 * A symbol of the text, its name up to white space before @eol, which
 * stays where it is until the pass ends when @stable (else only during
 * the call); return nonzero to stop.
 */
/*
 * A line taken whole before it is parsed, when its caller can (the
 * line from @s to @eol, in a text that stays put during the pass);
 * false: it is parsed and goes to the sym_fn.
 */
typedef bool (*line_fn)(void *priv, const char *s, const char *eol);

typedef int (*sym_fn)(void *priv, uint64_t addr, const char *name,
		      const char *eol, bool stable);

/* hex digit values + 1; 0: not a hex digit */
#define H(c, v) [c] = (v) + 1
static const unsigned char ksyms_hex_tab[256] = {
	H('0', 0),  H('1', 1),	H('2', 2),  H('3', 3),	H('4', 4),  H('5', 5),
	H('6', 6),  H('7', 7),	H('8', 8),  H('9', 9),	H('a', 10), H('b', 11),
	H('c', 12), H('d', 13), H('e', 14), H('f', 15), H('A', 10), H('B', 11),
	H('C', 12), H('D', 13), H('E', 14), H('F', 15),
};
#undef H

/* White space as isspace() has it in the C locale (trace-kmem sets no
 * other), without its table lookup through a function call. */
static inline bool ks_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/**
 * ksyms_hex8 - eight hex digits read at once (SWAR)
 * @s: the digits, most significant first (8 readable bytes)
 * @out: set to their value
 *
 * Every byte is checked to be 0-9, a-f or A-F, as ksyms_hex_tab[]
 * would; a kallsyms address is 16 digits (8 on 32-bit kernels), so a
 * line's address is two calls instead of sixteen table lookups.
 *
 * Return: true with *@out set, false when a byte is not a hex digit.
 */
static inline bool ksyms_hex8(const char *s, uint32_t *out)
{
	const uint64_t ones = 0x0101010101010101ULL, high = 0x80 * ones;
	uint64_t x, y, digit, alpha;

	memcpy(&x, s, sizeof(x));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x); /* the first digit in the lowest byte */
#endif
	if (x & high)
		return false;
	/* no carry between bytes: each is below 0x80 */
	digit = (x + (0x80 - '0') * ones) & ~(x + (0x80 - '9' - 1) * ones);
	y = x | 0x20 * ones; /* A-F as a-f */
	alpha = (y + (0x80 - 'a') * ones) & ~(y + (0x80 - 'f' - 1) * ones);
	if (((digit | alpha) & high) != high)
		return false;
	x = (x & 0x0f * ones) + ((alpha & high) >> 7) * 9;
	/* byte 0 is the most significant digit: pair, then pair again */
	x = ((x & 0x000f000f000f000fULL) << 4) |
	    ((x >> 8) & 0x000f000f000f000fULL);
	x = ((x & 0x000000ff000000ffULL) << 8) |
	    ((x >> 16) & 0x000000ff000000ffULL);
	x = ((x & 0xffffULL) << 16) | ((x >> 32) & 0xffffULL);
	*out = (uint32_t)x;
	return true;
}

/**
 * ksyms_fast_line - a kallsyms line of the common shape, parsed by hand
 * @s: the line
 * @end: its end (the newline, or the end of the text)
 * @addr: set to the symbol's address
 * @type: set to its type letter
 * @name: set to where its name starts
 *
 * The common line "ADDR T NAME..." parsed by hand (inline: the
 * streaming pass and the index both parse every line with it).
 *
 * Return: 1 with the fields set, 0 when the line is not of that simple
 * shape (then ksyms_slow_line() decides, as sscanf would).
 */
static inline int ksyms_fast_line(const char *s, const char *end,
				  uint64_t *addr, char *type, const char **name)
{
	uint64_t v = 0;
	uint32_t hi, lo;
	int n = 0, d;

	/* the common addresses, 16 or 8 digits, eight at a time */
	if (end - s >= 20 && s[16] == ' ' && ksyms_hex8(s, &hi) &&
	    ksyms_hex8(s + 8, &lo)) {
		v = (uint64_t)hi << 32 | lo;
		n = 16;
		s += 16;
	} else if (end - s >= 12 && s[8] == ' ' && ksyms_hex8(s, &lo)) {
		v = lo;
		n = 8;
		s += 8;
	}
	while (s < end && (d = ksyms_hex_tab[(unsigned char)*s])) {
		if (++n > 16)
			return 0;
		v = v << 4 | (uint64_t)(d - 1);
		s++;
	}
	if (!n || end - s < 4 || s[0] != ' ' || ks_space(s[1]) || s[2] != ' ' ||
	    ks_space(s[3]))
		return 0;
	*addr = v;
	*type = s[1];
	*name = s + 3;
	return 1;
}

/* ksyms_text.c: the text, streamed and parsed */
int ksyms_slow_line(const char *s, const char *end, uint64_t *addr, char *type,
		    const char **name);
int ksyms_inflate_stream(const struct tdat_kallsyms *k, sink_fn sink,
			 void *priv);
int ksyms_each_piece(const struct tdat_kallsyms *k,
		     int (*fn)(void *priv, const char *p, size_t n),
		     void *priv);
int ksyms_each_symbol(const struct tdat_kallsyms *k, sym_fn fn, void *priv);
int ksyms_each_symbol_in(const struct tdat_kallsyms *k, size_t from, size_t to,
			 line_fn quick, sym_fn fn, void *priv, bool *ended);
int ksyms_each_symbol_at(const uint8_t *text, size_t from, size_t to,
			 line_fn quick, sym_fn fn, void *priv, bool *ended);

/* Is the text in memory (mapped, or held decompressed)?  Then names
 * found in a pass stay where they are. */
static inline bool ksyms_in_memory(const struct tdat_kallsyms *k)
{
	return k->z == TDAT_Z_NONE || k->hold;
}

/* ksyms_index.c: every symbol indexed */
void ksyms_ensure_index(struct tdat_kallsyms *k);
void ksyms_join(struct tdat_kallsyms *k);
bool ksyms_inflate_wait(struct tdat_kallsyms *k, size_t seen, size_t *avail);
void ksyms_inflate_leave(struct tdat_kallsyms *k);
void ksyms_hold_free(struct tdat_kallsyms *k);
char *ksyms_index_lookup(struct tdat_kallsyms *k, unsigned long long *addrp);
const char *ksyms_index_module(struct tdat_kallsyms *k, uint64_t addr);

/* ksyms_resolve.c: the addresses asked for, resolved in one pass */
char *ksyms_resolve(void *priv, unsigned long long *addrp, char **modp);

#endif
