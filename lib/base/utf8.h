/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * UTF-8 validation for the writers (JSON, SVG, folded stacks): a
 * trace's strings (cache names, comms, symbols, file names) are bytes,
 * the documents they go into must be valid UTF-8.  Each writer keeps a
 * valid sequence, writes UTF8_REPLACEMENT (U+FFFD) for each byte that
 * starts none, and escapes what its format needs.  The text tables and
 * lines write a control character as '?' (utf8_plain_line()).
 */
#ifndef KMEM_UTF8_H
#define KMEM_UTF8_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* U+FFFD REPLACEMENT CHARACTER, encoded */
#define UTF8_REPLACEMENT "\xef\xbf\xbd"

/* A control character (C0 or DEL): never written to a line of text. */
static inline int utf8_is_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

int utf8_seq(const char *s, uint32_t *cp);
void utf8_plain_line(char *s);
void utf8_put_xml(FILE *out, const char *s, size_t max);
void utf8_put_folded(FILE *out, const char *s);

#endif
