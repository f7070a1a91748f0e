// SPDX-License-Identifier: LGPL-2.1
/*
 * UTF-8 validation (lib/utf8.c) on hand-made byte strings, and the JSON
 * writer's strings made of them.
 */
#include <stdlib.h>

#include "base/json.h"
#include "base/utf8.h"
#include "unit.h"

/* the length utf8_seq() gives the sequence at @s, its code point in @cp */
static int seq(const char *s, uint32_t *cp)
{
	*cp = 0xdeadbeef;
	return utf8_seq(s, cp);
}

static void test_valid(void)
{
	uint32_t cp;

	CHECK_U64(seq("A", &cp), 1);
	CHECK_U64(cp, 'A');
	CHECK_U64(seq("\x01", &cp), 1);	/* control: valid UTF-8 */
	CHECK_U64(cp, 1);
	CHECK_U64(seq("\x7f", &cp), 1);
	CHECK_U64(seq("\xc2\x80", &cp), 2);	/* lowest 2-byte */
	CHECK_U64(cp, 0x80);
	CHECK_U64(seq("\xc3\xa9", &cp), 2);	/* é */
	CHECK_U64(cp, 0xe9);
	CHECK_U64(seq("\xdf\xbf", &cp), 2);
	CHECK_U64(cp, 0x7ff);
	CHECK_U64(seq("\xe0\xa0\x80", &cp), 3);	/* lowest 3-byte */
	CHECK_U64(cp, 0x800);
	CHECK_U64(seq("\xe2\x82\xac", &cp), 3);	/* € */
	CHECK_U64(cp, 0x20ac);
	CHECK_U64(seq("\xed\x9f\xbf", &cp), 3);	/* below the surrogates */
	CHECK_U64(cp, 0xd7ff);
	CHECK_U64(seq("\xee\x80\x80", &cp), 3);	/* above them */
	CHECK_U64(cp, 0xe000);
	CHECK_U64(seq("\xef\xbf\xbf", &cp), 3);
	CHECK_U64(cp, 0xffff);
	CHECK_U64(seq("\xf0\x90\x80\x80", &cp), 4);	/* lowest 4-byte */
	CHECK_U64(cp, 0x10000);
	CHECK_U64(seq("\xf4\x8f\xbf\xbf", &cp), 4);	/* highest */
	CHECK_U64(cp, 0x10ffff);
}

static void test_invalid(void)
{
	uint32_t cp;

	CHECK_U64(seq("\xe5", &cp), 0);		/* lead byte, then the end */
	CHECK_U64(seq("\xe5x", &cp), 0);
	CHECK_U64(seq("\xff", &cp), 0);
	CHECK_U64(seq("\xfe", &cp), 0);
	CHECK_U64(seq("\xf5\x80\x80\x80", &cp), 0);	/* past U+10FFFF */
	CHECK_U64(seq("\xf4\x90\x80\x80", &cp), 0);	/* U+110000 */
	CHECK_U64(seq("\x80", &cp), 0);		/* stray continuation */
	CHECK_U64(seq("\xbf", &cp), 0);
	CHECK_U64(seq("\xc0\xaf", &cp), 0);	/* overlong '/' */
	CHECK_U64(seq("\xc1\xbf", &cp), 0);	/* overlong DEL */
	CHECK_U64(seq("\xe0\x80\xaf", &cp), 0);	/* overlong '/', 3 bytes */
	CHECK_U64(seq("\xe0\x9f\xbf", &cp), 0);	/* overlong U+07FF */
	CHECK_U64(seq("\xf0\x80\x80\xaf", &cp), 0);	/* overlong, 4 bytes */
	CHECK_U64(seq("\xf0\x8f\xbf\xbf", &cp), 0);	/* overlong U+FFFF */
	CHECK_U64(seq("\xed\xa0\x80", &cp), 0);	/* U+D800 */
	CHECK_U64(seq("\xed\xbf\xbf", &cp), 0);	/* U+DFFF */
	CHECK_U64(seq("\xe2\x82", &cp), 0);	/* truncated by the end */
	CHECK_U64(seq("\xe2\x82x", &cp), 0);	/* ... by an ASCII byte */
	CHECK_U64(seq("\xf0\x9f\x98", &cp), 0);
	CHECK_U64(seq("\xc3\xc3\xa9", &cp), 0);	/* a lead byte, not a cont. */
	CHECK_U64(cp, 0xdeadbeef);		/* untouched when invalid */
}

static char *json_of(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json j;

	json_init(&j, f);
	json_open(&j, NULL, '[');
	json_str(&j, NULL, s);
	json_close(&j, ']');
	fclose(f);
	return buf;
}

#define CHECK_JSON(in, want)                                                \
	do {                                                                \
		char *b_ = json_of(in);                                     \
		CHECK_STR(b_, "[\n  \"" want "\"\n]\n");                    \
		free(b_);                                                   \
	} while (0)

#define FFFD UTF8_REPLACEMENT

static void test_json_strings(void)
{
	CHECK_JSON("kmalloc-64", "kmalloc-64");
	CHECK_JSON("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
		   "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	CHECK_JSON("a\xe5" "b", "a" FFFD "b");
	CHECK_JSON("\xff\xfe", FFFD FFFD);
	CHECK_JSON("\xc0\xaf", FFFD FFFD);		/* one per byte */
	CHECK_JSON("\xed\xa0\x80", FFFD FFFD FFFD);
	CHECK_JSON("x\xe2\x82", "x" FFFD FFFD);
	CHECK_JSON("\xe2\x82\"", FFFD FFFD "\\\"");
	CHECK_JSON("\x01\x1b\t\n\x7f", "\\u0001\\u001b\\u0009\\n\x7f");
	CHECK_JSON("\"\\/", "\\\"\\\\/");
}

int main(void)
{
	RUN(test_valid);
	RUN(test_invalid);
	RUN(test_json_strings);
	UNIT_EXIT();
}
