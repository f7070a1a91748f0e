// SPDX-License-Identifier: LGPL-2.1
/*
 * reader/ksyms.h's line parse: ksyms_hex8() (eight digits at once)
 * against ksyms_hex_tab[] (one at a time), for every byte value in
 * every position, and ksyms_fast_line() on the shapes kallsyms lines
 * have and on those it must leave to the slow parse.
 */
#include <stdlib.h>

#include "ksyms.h"
#include "unit.h"

/* The table's answer: the value of 8 digits, or -1 for a non-digit. */
static int64_t by_table(const char *s)
{
	uint64_t v = 0;
	int i, d;

	for (i = 0; i < 8; i++) {
		d = ksyms_hex_tab[(unsigned char)s[i]];
		if (!d)
			return -1;
		v = v << 4 | (uint64_t)(d - 1);
	}
	return (int64_t)v;
}

static void test_every_byte(void)
{
	char s[8];
	uint32_t got;
	int pos, c, bad = 0;

	for (pos = 0; pos < 8; pos++)
		for (c = 0; c < 256; c++) {
			bool ok;

			memcpy(s, "9aF03bC7", 8);
			s[pos] = (char)c;
			ok = ksyms_hex8(s, &got);
			if (ok != (by_table(s) >= 0) ||
			    (ok && got != (uint32_t)by_table(s)))
				bad++;
		}
	CHECK_U64(bad, 0);
}

static void test_random(void)
{
	static const char pool[] = "0123456789abcdefABCDEF g:";
	char s[8];
	uint32_t got;
	int i, k, bad = 0, good = 0;

	srand(7);
	for (i = 0; i < 200000; i++) {
		bool ok;

		for (k = 0; k < 8; k++)
			s[k] = pool[rand() % (i % 3 ? 22 : 25)];
		ok = ksyms_hex8(s, &got);
		good += ok;
		if (ok != (by_table(s) >= 0) ||
		    (ok && got != (uint32_t)by_table(s)))
			bad++;
	}
	CHECK_U64(bad, 0);
	CHECK(good > 100000);
}

static void test_lines(void)
{
	static const struct {
		const char *line;
		int fast;
		uint64_t addr;
		const char *name;
	} t[] = {
		{ "ffffffff81000000 T _stext", 1, 0xffffffff81000000ULL,
		  "_stext" },
		{ "FFFFFFFFC0A00010 t ext4_alloc\t[ext4]", 1,
		  0xffffffffc0a00010ULL, "ext4_alloc\t[ext4]" },
		{ "c0100000 T _text", 1, 0xc0100000ULL, "_text" },
		{ "0000000000000000 A fixed_percpu_data", 1, 0,
		  "fixed_percpu_data" },
		{ "1234 t short", 1, 0x1234, "short" },
		{ "ffffffff8100000g T bad", 0, 0, NULL },
		{ "ffffffff810000000 T seventeen", 0, 0, NULL },
		{ "ffffffff81000000  T two_spaces", 0, 0, NULL },
		{ "ffffffff81000000 T", 0, 0, NULL },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		const char *s = t[i].line, *name = NULL;
		uint64_t addr = 0;
		char type = 0;
		int r = ksyms_fast_line(s, s + strlen(s), &addr, &type, &name);

		CHECK_U64(r, t[i].fast);
		if (r && t[i].fast) {
			CHECK_U64(addr, t[i].addr);
			CHECK(!strcmp(name, t[i].name));
		}
	}
}

int main(void)
{
	RUN(test_every_byte);
	RUN(test_random);
	RUN(test_lines);
	UNIT_EXIT();
}
