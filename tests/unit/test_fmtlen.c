// SPDX-License-Identifier: LGPL-2.1
/*
 * How long an event's records can be, read two ways: from a format's
 * text by the reader (tdat_text_len(), what the native reader asks at an
 * event's first record) and from libtraceevent's parse of the same text
 * by lib/ (kmem_event_len(), what --reader=libtracecmd, the plugin and
 * KernelShark's plugin ask).  Both must say the same of every format of
 * tests/formats/ and, where this machine's tracefs can be read, of every
 * event it has; and hand-made texts give the lengths counted by hand.
 */
#define _GNU_SOURCE /* memmem */
#include <glob.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "event/field.h"
#include "file_util.h"
#include "internal.h"
#include "unit.h"

int unit_failed;

static const char common[] =
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;"
	"\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n";

/* The texts compared, and how many. */
static int compared;

/* @text ([@len] bytes, of @system): the reader's lengths and lib/'s. */
static void compare(const char *what, const char *text, size_t len,
		    const char *system)
{
	bool open = !strcmp(system, "ftrace") ||
		    !strncmp(system, "user_events", 11);
	struct tep_handle *tep = tep_alloc();
	struct tep_event *ev = NULL;
	uint32_t lo, hi, tlo, thi;

	tdat_text_len(text, text + len, open, &lo, &hi);
	if (!tep || tep_parse_format(tep, &ev, text, len, system) || !ev) {
		tep_free(tep);
		return; /* libtraceevent cannot read it: nothing to compare */
	}
	kmem_event_len(ev, &tlo, &thi);
	if (lo != tlo || hi != thi) {
		printf("  %s: the text says %" PRIu32 "..%" PRIu32
		       ", libtraceevent's parse %" PRIu32 "..%" PRIu32 "\n",
		       what, lo, hi, tlo, thi);
		unit_failed++;
	}
	compared++;
	tep_free(tep);
}

/* Each format of a tests/formats/ file ("name: " blocks) compared. */
static void formats_files(void)
{
	const char *top = getenv("TOP");
	char pattern[4200];
	glob_t g;
	size_t i;
	int before = compared;

	snprintf(pattern, sizeof(pattern), "%s/tests/formats/*.txt",
		 top ? top : ".");
	CHECK(glob(pattern, 0, NULL, &g) == 0);
	for (i = 0; i < g.gl_pathc; i++) {
		size_t len;
		char *buf = (char *)unit_slurp(g.gl_pathv[i], &len), *s, *next;

		CHECK(buf != NULL);
		for (s = buf; buf && s < buf + len; s = next) {
			next = memmem(s + 1, (size_t)(buf + len - s - 1),
				      "\nname: ", 7);
			next = next ? next + 1 : buf + len;
			if ((size_t)(next - s) < 6 || memcmp(s, "name: ", 6))
				continue;
			compare(g.gl_pathv[i], s, (size_t)(next - s),
				memmem(s, (size_t)(next - s), "kernel_stack",
				       12)
					? "ftrace"
					: "test");
		}
		free(buf);
	}
	/* every file holds a format both read */
	CHECK(compared - before >= (int)g.gl_pathc);
	globfree(&g);
}

/* A file that may not say its size (tracefs'), all of it. */
static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 0, n;
	char *buf = NULL, *p;

	*len = 0;
	if (!f)
		return NULL;
	do {
		if (*len == cap) {
			p = realloc(buf, cap = cap ? 2 * cap : 8192);
			if (!p)
				break;
			buf = p;
		}
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
	} while (n);
	fclose(f);
	return buf;
}

/* Every event format of this machine's tracefs, when it can be read. */
static void tracefs_formats(void)
{
	glob_t g;
	size_t i;
	int before = compared;

	if (glob("/sys/kernel/tracing/events/*/*/format", 0, NULL, &g)) {
		printf("  no tracefs here: only the files and the hand-made "
		       "texts are compared\n");
		return;
	}
	for (i = 0; i < g.gl_pathc; i++) {
		char system[256], *slash;
		size_t len;
		char *buf = read_all(g.gl_pathv[i], &len);

		if (!buf)
			continue;
		snprintf(system, sizeof(system), "%s",
			 g.gl_pathv[i] + strlen("/sys/kernel/tracing/events/"));
		slash = strchr(system, '/');
		if (slash)
			*slash = '\0';
		compare(g.gl_pathv[i], buf, len, system);
		free(buf);
	}
	printf("  %d of %zu tracefs formats compared\n", compared - before,
	       g.gl_pathc);
	globfree(&g);
}

/*
 * @fields after the common ones: the reader's lengths are @lo..@hi, and
 * libtraceevent's parse gives them too unless @damaged (libtraceevent
 * reads some lines of another shape its own way: the reader then allows
 * every length).
 */
static void hand_as(const char *fields, const char *system, uint32_t lo,
		    uint32_t hi, bool damaged)
{
	char text[2048];
	uint32_t glo, ghi;
	bool open = !strcmp(system, "ftrace") ||
		    !strncmp(system, "user_events", 11);
	int n = snprintf(text, sizeof(text), "name: t\nID: 9\n%s%s\n%s", common,
			 fields,
			 "print fmt: \"field:int x;\toffset:900;\tsize:4;\"\n");

	tdat_text_len(text, text + n, open, &glo, &ghi);
	CHECK_U64(glo, lo);
	CHECK_U64(ghi, hi);
	if (!damaged)
		compare(fields, text, (size_t)n, system);
}

static void hand(const char *fields, const char *system, uint32_t lo,
		 uint32_t hi)
{
	hand_as(fields, system, lo, hi, false);
}

static void hand_made(void)
{
	/* an int at 8: 12 bytes at least, 24 at most (16 rounded, +8) */
	hand("\tfield:int ret;\toffset:8;\tsize:4;\tsigned:1;\n", "sched", 12,
	     24);
	/* a pointer at 16: 24, 32 */
	hand("\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n"
	     "\tfield:void * p;\toffset:16;\tsize:8;\tsigned:0;\n",
	     "kmem", 24, 32);
	/* dynamic data after the struct: no longest */
	hand("\tfield:__data_loc char[] name;\toffset:8;\tsize:4;"
	     "\tsigned:0;\n",
	     "kmem", 12, UINT32_MAX);
	hand("\tfield:__rel_loc char[] name;\toffset:8;\tsize:4;"
	     "\tsigned:0;\n",
	     "kmem", 12, UINT32_MAX);
	/* an array of no size: no longest */
	hand("\tfield:int n;\toffset:8;\tsize:4;\tsigned:1;\n"
	     "\tfield:char buf[];\toffset:12;\tsize:0;\tsigned:0;\n",
	     "test", 12, UINT32_MAX);
	/* ftrace's own and user events: no longest */
	hand("\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n",
	     "ftrace", 16, UINT32_MAX);
	hand("\tfield:u32 v;\toffset:8;\tsize:4;\tsigned:0;\n",
	     "user_events_multi", 12, UINT32_MAX);
	/* the fields' end, not the last line's: fields out of order */
	hand("\tfield:u64 b;\toffset:16;\tsize:8;\tsigned:0;\n"
	     "\tfield:u32 a;\toffset:8;\tsize:4;\tsigned:0;\n",
	     "test", 24, 32);
	/* no signed: (before 2.6.32) */
	hand("\tfield:int ret;\toffset:8;\tsize:4;\n", "test", 12, 24);
	/* a line of another shape: every length */
	hand_as("\tfield:int ret;\tsize:4;\toffset:8;\tsigned:1;\n", "test", 1,
		UINT32_MAX, true);
	hand_as("\tfield:int ret;\toffset:-8;\tsize:4;\tsigned:1;\n", "test", 1,
		UINT32_MAX, true);
	/* sizes no record has (2^24 and more), both ways */
	hand("\tfield:int ret;\toffset:8;\tsize:99999999999;\tsigned:1;\n",
	     "test", 1, UINT32_MAX);
	hand("\tfield:int ret;\toffset:16777000;\tsize:4096;\tsigned:1;\n",
	     "test", 1, UINT32_MAX);
	/* no field at all (not even the common ones): every length */
	{
		static const char none[] = "name: t\nID: 9\nformat:\n\n"
					   "print fmt: \"\"\n";
		uint32_t lo, hi;

		tdat_text_len(none, none + sizeof(none) - 1, false, &lo, &hi);
		CHECK_U64(lo, 1);
		CHECK_U64(hi, UINT32_MAX);
	}
}

int main(void)
{
	RUN(hand_made);
	RUN(formats_files);
	RUN(tracefs_formats);
	printf("  %d formats compared\n", compared);
	UNIT_EXIT();
}
