// SPDX-License-Identifier: LGPL-2.1
/*
 * UTF-8 validation (see utf8.h), after Unicode's table 3-7 of well-formed
 * byte sequences: no overlong forms, no surrogates, nothing past
 * U+10FFFF.
 */
#include <stdio.h>

#include "utf8.h"

static int cont(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

/**
 * utf8_seq - the well-formed UTF-8 sequence at @s, if one starts there
 * @s: bytes, NUL-terminated, *@s not NUL
 * @cp: set to its code point when there is one
 *
 * Reads no further than the NUL: a truncated sequence stops there.
 *
 * Return: its length (1 to 4), or 0 if the byte at @s starts no
 * well-formed sequence (a stray continuation byte, an overlong form, a
 * surrogate, a truncated sequence, 0xf5 to 0xff).
 */
int utf8_seq(const char *s, uint32_t *cp)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned char lo = 0x80, hi = 0xbf;
	int n, i;
	uint32_t v;

	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	}
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		n = 2;
		v = p[0] & 0x1f;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		n = 3;
		v = p[0] & 0x0f;
		if (p[0] == 0xe0)
			lo = 0xa0;	/* overlong below */
		else if (p[0] == 0xed)
			hi = 0x9f;	/* surrogates above */
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		n = 4;
		v = p[0] & 0x07;
		if (p[0] == 0xf0)
			lo = 0x90;	/* overlong below */
		else if (p[0] == 0xf4)
			hi = 0x8f;	/* past U+10FFFF above */
	} else {
		return 0;	/* continuation, 0xc0, 0xc1, 0xf5..0xff */
	}
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (i = 1; i < n; i++) {
		if (!cont(p[i]))
			return 0;	/* the NUL ends it here too */
		v = v << 6 | (p[i] & 0x3f);
	}
	*cp = v;
	return n;
}

/**
 * utf8_put_xml - a string as XML character data or an attribute value
 * @out: where to write
 * @s: the string (a trace's bytes), NUL-terminated
 * @max: at most this many characters of @s, then an ellipsis (U+2026)
 *
 * Valid UTF-8 is kept and markup escaped (&amp; &lt; &gt; &quot;
 * &apos;); a byte that starts no valid sequence, and a character XML 1.0
 * forbids or a control character (C0, DEL, C1, U+FFFE, U+FFFF), are each
 * U+FFFD.  The SVG writer's (lib/plot_svg.c).
 */
void utf8_put_xml(FILE *out, const char *s, size_t max)
{
	size_t n = 0;
	uint32_t cp;
	int len;

	for (; *s && n < max; s += len ? len : 1, n++) {
		len = utf8_seq(s, &cp);
		if (!len || cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ||
		    cp == 0xfffe || cp == 0xffff)
			fputs(UTF8_REPLACEMENT, out);
		else if (cp == '&')
			fputs("&amp;", out);
		else if (cp == '<')
			fputs("&lt;", out);
		else if (cp == '>')
			fputs("&gt;", out);
		else if (cp == '"')
			fputs("&quot;", out);
		else if (cp == '\'')
			fputs("&apos;", out);
		else
			fwrite(s, 1, (size_t)len, out);
	}
	if (*s)
		fputs("\u2026", out);
}

/**
 * utf8_put_folded - a name as a frame of a folded stack
 * @out: where to write
 * @s: the name (a trace's bytes), NUL-terminated
 *
 * Valid UTF-8 kept, U+FFFD for each byte that starts no valid sequence;
 * ';' (the frames' separator) is ':' and a control character (C0, DEL)
 * '_', so a line stays FRAME;FRAME... COUNT.  The folded writer's
 * (lib/folded.c).
 */
void utf8_put_folded(FILE *out, const char *s)
{
	uint32_t cp;
	int len;

	for (; *s; s += len ? len : 1) {
		len = utf8_seq(s, &cp);
		if (!len)
			fputs(UTF8_REPLACEMENT, out);
		else if (cp == ';')
			fputc(':', out);
		else if (cp < 0x20 || cp == 0x7f)
			fputc('_', out);
		else
			fwrite(s, 1, (size_t)len, out);
	}
}

/**
 * utf8_plain_line - a trace's string made fit for one line of text
 * @s: changed in place: each control character (utf8_is_control())
 *	becomes '?'
 *
 * For the text reports: a symbol, cache or command name from a trace
 * must not break its line or drive the terminal.  The documents keep
 * the bytes and escape them their own way.
 */
void utf8_plain_line(char *s)
{
	for (; *s; s++)
		if (utf8_is_control((unsigned char)*s))
			*s = '?';
}
