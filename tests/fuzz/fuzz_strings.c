// SPDX-License-Identifier: LGPL-2.1
/*
 * libFuzzer target: the string writers of issue 20 (JSON, SVG, folded
 * stacks; the project writes no CSV) with arbitrary bytes.
 *
 * The whole input, cut at each NUL into strings (up to 64), goes
 * through:
 *
 * - utf8_seq() (lib/utf8.c), compared at every position with the
 *   table-free decoder below;
 * - json_str() (lib/json.c) as a key and as a value of a document
 *   written to memory: the document must be valid UTF-8 (checked by
 *   that decoder, not lib/utf8.c), hold only strings and JSON's
 *   punctuation outside them, no unescaped control character or quote
 *   in a string, and each string must read back as its input with
 *   U+FFFD for each byte that starts no well-formed sequence;
 * - utf8_put_xml() (the SVG writer's text and attributes), at most a
 *   number of characters the string's first byte picks: valid UTF-8,
 *   no '<', '>', '"', '\'', no '&' but of the five entities, no
 *   character XML 1.0 forbids, no control character, and reading the
 *   entities back gives the input with U+FFFD for each bad byte and
 *   each such character, cut with U+2026;
 * - utf8_put_folded() (lib/folded.c's frames): valid UTF-8, no ';', no
 *   control character, and otherwise the input with U+FFFD for each
 *   bad byte.
 *
 * Anything else abort()s.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "base/utf8.h"

/* --- a strict UTF-8 decoder, independent of lib/utf8.c ----------- */

/*
 * The length of the well-formed sequence at p[0..n), or 0: decode the
 * code point with the lead byte's count of continuation bytes, then
 * refuse overlong forms, surrogates and anything past U+10FFFF.
 */
static int dec(const unsigned char *p, size_t n, uint32_t *cp)
{
	uint32_t v;
	int len, i;

	if (!n)
		return 0;
	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	}
	if ((p[0] & 0xe0) == 0xc0) {
		len = 2;
		v = p[0] & 0x1f;
	} else if ((p[0] & 0xf0) == 0xe0) {
		len = 3;
		v = p[0] & 0x0f;
	} else if ((p[0] & 0xf8) == 0xf0) {
		len = 4;
		v = p[0] & 0x07;
	} else {
		return 0;
	}
	if ((size_t)len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (p[i] & 0x3f);
	}
	if ((len == 2 && v < 0x80) || (len == 3 && v < 0x800) ||
	    (len == 4 && v < 0x10000))
		return 0;	/* overlong */
	if ((v >= 0xd800 && v <= 0xdfff) || v > 0x10ffff)
		return 0;
	*cp = v;
	return len;
}

/* utf8_seq() must agree with dec() at every position of s (NUL-terminated) */
static void check_seq(const char *s, size_t n)
{
	uint32_t a, b;
	size_t i;
	int la, lb;

	for (i = 0; i < n; i++) {
		a = b = 0;
		la = utf8_seq(s + i, &a);
		lb = dec((const unsigned char *)s + i, n - i, &b);
		if (la != lb || (la && a != b)) {
			fprintf(stderr, "utf8_seq at %zu: %d U+%04X, expected %d U+%04X\n",
				i, la, a, lb, b);
			abort();
		}
	}
}

/* --- the JSON document --------------------------------------------- */

static int hex(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static void put_cp(char *out, size_t *len, uint32_t cp)
{
	unsigned char *o = (unsigned char *)out + *len;

	if (cp < 0x80) {
		o[0] = (unsigned char)cp;
		*len += 1;
	} else if (cp < 0x800) {
		o[0] = (unsigned char)(0xc0 | cp >> 6);
		o[1] = (unsigned char)(0x80 | (cp & 0x3f));
		*len += 2;
	} else if (cp < 0x10000) {
		o[0] = (unsigned char)(0xe0 | cp >> 12);
		o[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		o[2] = (unsigned char)(0x80 | (cp & 0x3f));
		*len += 3;
	} else {
		o[0] = (unsigned char)(0xf0 | cp >> 18);
		o[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
		o[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		o[3] = (unsigned char)(0x80 | (cp & 0x3f));
		*len += 4;
	}
}

/* what a JSON string of s must decode to: U+FFFD for each bad byte */
static char *expected(const char *s, size_t n, size_t *len)
{
	char *e = malloc(3 * n + 1);
	uint32_t cp;
	size_t i = 0;
	int l;

	if (!e)
		abort();
	*len = 0;
	while (i < n) {
		l = dec((const unsigned char *)s + i, n - i, &cp);
		if (!l) {
			put_cp(e, len, 0xfffd);
			i++;
			continue;
		}
		put_cp(e, len, cp);
		i += (size_t)l;
	}
	return e;
}

static void bad(const char *why, const char *doc, size_t at)
{
	fprintf(stderr, "JSON: %s at byte %zu of:\n%s\n", why, at, doc);
	abort();
}

/*
 * Read the JSON string starting at doc[*i] (the opening quote) into
 * out (decoded; \uXXXX must be below U+0020 or U+007F, as put_string()
 * writes them, so no surrogate pairs), checking every byte.
 */
static void read_string(const char *doc, size_t n, size_t *i, char *out,
			size_t *len)
{
	const unsigned char *p = (const unsigned char *)doc;
	uint32_t cp;
	size_t j = *i + 1;
	int l, k, h, v;

	*len = 0;
	for (;;) {
		if (j >= n)
			bad("unterminated string", doc, j);
		if (p[j] == '"')
			break;
		if (p[j] < 0x20)
			bad("unescaped control character", doc, j);
		if (p[j] == '\\') {
			if (j + 1 >= n)
				bad("truncated escape", doc, j);
			switch (p[j + 1]) {
			case '"': case '\\': case '/':
				out[(*len)++] = (char)p[j + 1];
				break;
			case 'n':
				out[(*len)++] = '\n';
				break;
			case 't':
				out[(*len)++] = '\t';
				break;
			case 'r':
				out[(*len)++] = '\r';
				break;
			case 'b':
				out[(*len)++] = '\b';
				break;
			case 'f':
				out[(*len)++] = '\f';
				break;
			case 'u':
				if (j + 6 > n)
					bad("truncated \\u", doc, j);
				for (v = 0, k = 2; k < 6; k++) {
					h = hex(p[j + k]);
					if (h < 0)
						bad("bad \\u", doc, j);
					v = v << 4 | h;
				}
				if (v >= 0xd800 && v <= 0xdfff)
					bad("surrogate escape", doc, j);
				put_cp(out, len, (uint32_t)v);
				j += 4;
				break;
			default:
				bad("bad escape", doc, j);
			}
			j += 2;
			continue;
		}
		l = dec(p + j, n - j, &cp);
		if (!l)
			bad("invalid UTF-8", doc, j);
		memcpy(out + *len, p + j, (size_t)l);
		*len += (size_t)l;
		j += (size_t)l;
	}
	*i = j + 1;
}

/* the next string of the document, after doc[*i]; false at its end */
static bool next_string(const char *doc, size_t n, size_t *i)
{
	const unsigned char *p = (const unsigned char *)doc;

	for (; *i < n; (*i)++) {
		if (p[*i] == '"')
			return true;
		if (p[*i] >= 0x80 || (p[*i] < 0x20 && p[*i] != '\n'))
			bad("stray byte outside a string", doc, *i);
		if (!strchr("{}[]:, \n", p[*i]))
			bad("unexpected character", doc, *i);
	}
	return false;
}

static void check_json(const char **strs, const size_t *lens, int nstr)
{
	struct json j;
	char *doc = NULL, *got, *want;
	size_t n = 0, i = 0, glen, wlen;
	FILE *f;
	int k, m;

	f = open_memstream(&doc, &n);
	if (!f)
		abort();
	json_init(&j, f);
	json_open(&j, NULL, '{');
	for (k = 0; k < nstr; k++) {
		json_str(&j, strs[k], strs[k]);	/* as key and value */
	}
	json_open(&j, "list", '[');
	for (k = 0; k < nstr; k++)
		json_str(&j, NULL, strs[k]);
	json_close(&j, ']');
	json_close(&j, '}');
	if (fclose(f))
		abort();
	if (strlen(doc) != n)
		bad("a NUL in the document", doc, strlen(doc));

	/* a decoded string is no longer than its text in the document */
	got = malloc(n + 1);
	if (!got)
		abort();
	/* the strings in order: key, value per string; "list"; the values */
	m = 0;
	while (next_string(doc, n, &i)) {
		read_string(doc, n, &i, got, &glen);
		if (m < 2 * nstr) {
			k = m / 2;
		} else if (m == 2 * nstr) {
			if (glen != 4 || memcmp(got, "list", 4))
				bad("\"list\" expected", doc, i);
			m++;
			continue;
		} else {
			k = m - 2 * nstr - 1;
		}
		if (k >= nstr)
			bad("a string too many", doc, i);
		want = expected(strs[k], lens[k], &wlen);
		if (glen != wlen || memcmp(got, want, glen))
			bad("a string differs from its input", doc, i);
		free(want);
		m++;
	}
	if (m != 3 * nstr + 1)
		bad("strings missing", doc, i);
	free(got);
	free(doc);
}

/* --- SVG text (utf8_put_xml) and folded frames (utf8_put_folded) --- */

static char *write_mem(const char *s, size_t max, bool xml, size_t *n)
{
	char *doc = NULL;
	FILE *f;

	f = open_memstream(&doc, n);
	if (!f)
		abort();
	if (xml)
		utf8_put_xml(f, s, max);
	else
		utf8_put_folded(f, s);
	if (fclose(f))
		abort();
	return doc;
}

static void bad_text(const char *what, const char *why, const char *doc,
		     size_t at)
{
	fprintf(stderr, "%s: %s at byte %zu of:\n%s\n", what, why, at, doc);
	abort();
}

/* what utf8_put_xml(s, max) must read back as, entities decoded */
static char *expected_xml(const char *s, size_t n, size_t max, size_t *len)
{
	char *e = malloc(3 * n + 4);
	uint32_t cp;
	size_t i = 0, k = 0;
	int l;

	if (!e)
		abort();
	*len = 0;
	for (; i < n && k < max; k++) {
		l = dec((const unsigned char *)s + i, n - i, &cp);
		if (!l || cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ||
		    cp == 0xfffe || cp == 0xffff)
			put_cp(e, len, 0xfffd);
		else
			put_cp(e, len, cp);
		i += l ? (size_t)l : 1;
	}
	if (i < n)
		put_cp(e, len, 0x2026);
	return e;
}

static void check_xml(const char *s, size_t n, size_t max)
{
	static const char *const ent[] = { "&amp;", "&lt;", "&gt;", "&quot;",
					   "&apos;" };
	static const char ch[] = "&<>\"'";
	size_t dlen, i = 0, glen = 0, wlen;
	char *doc = write_mem(s, max, true, &dlen), *got, *want;
	const unsigned char *p = (const unsigned char *)doc;
	uint32_t cp;
	int l, k;

	got = malloc(dlen + 1);
	if (!got)
		abort();
	while (i < dlen) {
		if (p[i] == '&') {
			for (k = 0; k < 5; k++)
				if (!strncmp(doc + i, ent[k], strlen(ent[k])))
					break;
			if (k == 5)
				bad_text("SVG", "a bare '&'", doc, i);
			got[glen++] = ch[k];
			i += strlen(ent[k]);
			continue;
		}
		if (strchr("<>\"'", p[i]) && p[i])
			bad_text("SVG", "unescaped markup", doc, i);
		l = dec(p + i, dlen - i, &cp);
		if (!l)
			bad_text("SVG", "invalid UTF-8", doc, i);
		if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0xfffe ||
		    cp == 0xffff)
			bad_text("SVG", "a control or forbidden character",
				 doc, i);
		memcpy(got + glen, doc + i, (size_t)l);
		glen += (size_t)l;
		i += (size_t)l;
	}
	want = expected_xml(s, n, max, &wlen);
	if (glen != wlen || memcmp(got, want, glen))
		bad_text("SVG", "the text differs from its input", doc, 0);
	free(want);
	free(got);
	free(doc);
}

static void check_folded(const char *s, size_t n)
{
	size_t dlen, i = 0, wlen = 0;
	char *doc = write_mem(s, 0, false, &dlen), *want;
	const unsigned char *p = (const unsigned char *)doc;
	uint32_t cp;
	int l;

	want = malloc(3 * n + 1);
	if (!want)
		abort();
	while (i < dlen) {
		l = dec(p + i, dlen - i, &cp);
		if (!l)
			bad_text("folded", "invalid UTF-8", doc, i);
		if (cp == ';' || cp < 0x20 || cp == 0x7f)
			bad_text("folded", "a separator or control character",
				 doc, i);
		i += (size_t)l;
	}
	for (i = 0; i < n;) {
		l = dec((const unsigned char *)s + i, n - i, &cp);
		if (!l)
			cp = 0xfffd;
		else if (cp == ';')
			cp = ':';
		else if (cp < 0x20 || cp == 0x7f)
			cp = '_';
		put_cp(want, &wlen, cp);
		i += l ? (size_t)l : 1;
	}
	if (dlen != wlen || memcmp(doc, want, dlen))
		bad_text("folded", "the frame differs from its input", doc, 0);
	free(want);
	free(doc);
}

static void strings(const uint8_t *d, size_t n)
{
	const char *strs[64];
	size_t lens[64];
	char *s;
	size_t i, start = 0;
	int nstr = 0;

	s = malloc(n + 1);
	if (!s)
		abort();
	memcpy(s, d, n);
	s[n] = 0;
	/* the input cut at each NUL: up to 64 strings */
	for (i = 0; i <= n && nstr < 64; i++) {
		if (s[i])
			continue;
		strs[nstr] = s + start;
		lens[nstr++] = i - start;
		check_seq(s + start, i - start);
		/* at most 0 to 63 characters, or all (a first byte 0xff) */
		check_xml(s + start, i - start,
			  i > start && (unsigned char)s[start] != 0xff
				  ? (unsigned char)s[start] % 64
				  : (size_t)-1);
		check_folded(s + start, i - start);
		start = i + 1;
	}
	check_json(strs, lens, nstr);
	free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	strings(d, n);
	return 0;
}
