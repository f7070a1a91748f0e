// SPDX-License-Identifier: LGPL-2.1
/*
 * reader/cmdlines.c against libtraceevent itself: each text is read by
 * tep_parse_saved_cmdlines() into one handle and by tdat_parse_cmdlines()
 * into another; both must say the same (return value, and the comm and
 * registration of every pid the texts can name).  The texts are the
 * ways a line can end the table or be read oddly: signs, white space,
 * values beyond an int and beyond a long, no comm, empty lines, a NUL,
 * duplicates, a long comm.
 */
#include <limits.h>
#include <stdlib.h>

#include <event-parse.h>

#include "internal.h"
#include "unit.h"

static const struct {
	const char *name;
	const char *text;
	size_t len; /* 0: strlen */
} texts[] = {
	{ "plain", "1 init\n2 kthreadd\n3 ksoftirqd/0\n", 0 },
	{ "white", "  12   comm with  spaces \n\n\n13\tx\r\n\v\f16 vt\n", 0 },
	{ "signs", "+5 plus\n-7 neg\n", 0 },
	{ "idle", "0 swapper\n1 init\n", 0 },
	{ "beyond-int", "99999999999 big\n4 after\n", 0 },
	{ "beyond-long", "99999999999999999999 huge\n5 never\n", 0 },
	{ "long-edges",
	  "9223372036854775807 max\n-9223372036854775808 min\n"
	  "-9223372036854775809 over\n6 never\n",
	  0 },
	{ "no-comm", "7\n8 never\n", 0 },
	{ "space-only-comm", "9 \n10 never\n", 0 },
	{ "no-number", "abc\n11 never\n", 0 },
	{ "lone-sign", "- 12\n13 never\n", 0 },
	{ "glued", "12x comm\n0x1f hex\n", 0 },
	/* the NUL ends the text: what follows it is never read */
	{ "nul", "13 a\0" "14 hidden\n", sizeof("13 a\0" "14 hidden\n") - 1 },
	{ "duplicates", "15 first\n15 second\n15 third\n", 0 },
	{ "long-comm",
	  "17 "
	  "a-comm-longer-than-any-kernel-comm-and-longer-than-the-stack-"
	  "buffer-of-the-reader-itself-0123456789\n",
	  0 },
	{ "empty", "", 0 },
	{ "newlines", "\n\n\n", 0 },
	{ "blank", "   ", 0 },
	{ "no-newline-at-end", "18 last", 0 },
	{ "leading-zeros", "0000019 zeros\n-0 negzero\n", 0 },
};

static const int pids[] = {
	0,	    1,	     2,	      3,  4,
	5,	    6,	     7,	      8,  9,
	10,	    11,	     12,      13, 14,
	15,	    16,	     17,      18, 19,
	-7,	    INT_MAX, INT_MIN, -1, (int)(unsigned int)99999999999ULL,
	1410065407, 31,
};

static struct tep_handle *parsed(const char *text, size_t len, bool ours,
				 int *ret)
{
	struct tep_handle *tep = tep_alloc();
	char *copy = malloc(len + 1);

	memcpy(copy, text, len);
	copy[len] = '\0';
	*ret = ours ? tdat_parse_cmdlines(tep, copy)
		    : tep_parse_saved_cmdlines(tep, copy);
	free(copy);
	return tep;
}

static void same_as_libtraceevent(void)
{
	size_t i, j;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		size_t len =
			texts[i].len ? texts[i].len : strlen(texts[i].text);
		int r_lib, r_ours;
		struct tep_handle *lib =
			parsed(texts[i].text, len, false, &r_lib);
		struct tep_handle *ours =
			parsed(texts[i].text, len, true, &r_ours);

		if (r_lib != r_ours) {
			printf("  %s: returned %d, libtraceevent %d\n",
			       texts[i].name, r_ours, r_lib);
			unit_failed++;
		}
		for (j = 0; j < sizeof(pids) / sizeof(pids[0]); j++) {
			const char *a = tep_data_comm_from_pid(lib, pids[j]);
			const char *b = tep_data_comm_from_pid(ours, pids[j]);

			if (strcmp(a, b) ||
			    tep_is_pid_registered(lib, pids[j]) !=
				    tep_is_pid_registered(ours, pids[j])) {
				printf("  %s: pid %d: \"%s\", libtraceevent "
				       "\"%s\"\n",
				       texts[i].name, pids[j], b, a);
				unit_failed++;
			}
		}
		tep_free(lib);
		tep_free(ours);
	}
}

/* The checks above can fail: a text the two read differently. */
static void registers_what_it_reads(void)
{
	int ret;
	struct tep_handle *t = parsed("21 one\n-3 two words\n", 20, true, &ret);

	CHECK(ret == 0);
	CHECK_STR(tep_data_comm_from_pid(t, 21), "one");
	CHECK_STR(tep_data_comm_from_pid(t, -3), "two words");
	CHECK_STR(tep_data_comm_from_pid(t, 22), "<...>");
	tep_free(t);
	t = parsed("23 a\n24\n25 c\n", 13, true, &ret);
	CHECK(ret == -1);
	CHECK_STR(tep_data_comm_from_pid(t, 23), "a");
	CHECK_STR(tep_data_comm_from_pid(t, 25), "<...>");
	tep_free(t);
}

int main(void)
{
	RUN(same_as_libtraceevent);
	RUN(registers_what_it_reads);
	UNIT_EXIT();
}
