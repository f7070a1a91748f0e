// SPDX-License-Identifier: LGPL-2.1
/*
 * Event formats a kernel could have written, and damaged ones: each
 * layout below is kmalloc's of Linux 6.18 x86_64 (or of a 32-bit
 * machine) with one number changed, as a damaged file changes it; the
 * changed formats make kmalloc's records undecodable, the kernels' own
 * do not.
 */
#include <stdio.h>
#include <string.h>

#include <event-parse.h>

#include "decode_util.h"
#include "event/fmtsound.h"
#include "unit.h"

/* Linux 6.18 x86_64's kmalloc; %s: the fields after common_pid. */
#define KMALLOC_HEAD                                                           \
	"name: kmalloc\nID: 658\nformat:\n"                                    \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;"      \
	"\tsigned:0;\n"                                                        \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
#define KMALLOC_TAIL                                                           \
	"\nprint fmt: \"call_site=%%pS ptr=%%p\", (void *)REC->call_site, "    \
	"REC->ptr\n"

static const char *const fields_6_18[] = {
	"\tfield:unsigned long call_site;\toffset:8;\tsize:8;\tsigned:0;\n",
	"\tfield:const void * ptr;\toffset:16;\tsize:8;\tsigned:0;\n",
	"\tfield:size_t bytes_req;\toffset:24;\tsize:8;\tsigned:0;\n",
	"\tfield:size_t bytes_alloc;\toffset:32;\tsize:8;\tsigned:0;\n",
	"\tfield:unsigned long gfp_flags;\toffset:40;\tsize:8;\tsigned:0;\n",
	"\tfield:int node;\toffset:48;\tsize:4;\tsigned:1;\n",
	"\tfield:bool accounted;\toffset:52;\tsize:1;\tsigned:0;\n",
};
#define NR_FIELDS (sizeof(fields_6_18) / sizeof(fields_6_18[0]))

/*
 * kmalloc's format with field @which (-1: none) given as @repl, parsed
 * into a fresh handle of a 64-bit little-endian machine.
 */
static struct tep_handle *kmalloc_with(int which, const char *repl)
{
	struct tep_handle *tep = new_tep(8, false);
	char text[2048];
	size_t i, n;

	if (!tep)
		return NULL;
	n = (size_t)snprintf(text, sizeof(text), KMALLOC_HEAD);
	for (i = 0; i < NR_FIELDS; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s",
				      (int)i == which ? repl : fields_6_18[i]);
	n += (size_t)snprintf(text + n, sizeof(text) - n, KMALLOC_TAIL);
	parse_one(tep, text, n);
	return tep;
}

/* Is kmalloc of @tep sound, and are its records decoded? */
static void expect(struct tep_handle *tep, bool sound, const char *what)
{
	struct tep_event *ev = tep_find_event_by_name(tep, "kmem", "kmalloc");
	struct kmem_fields f;
	bool fields = true;

	CHECK(ev != NULL);
	if (!ev)
		return;
	kmem_fields_init(&f, ev, KMEM_SLOT_KMALLOC);
	fields = kmem_field_sound(f.call_site) && kmem_field_sound(f.ptr) &&
		 kmem_field_sound(f.bytes_req) &&
		 kmem_field_sound(f.bytes_alloc) &&
		 kmem_field_sound(f.gfp_flags) && kmem_field_sound(f.node) &&
		 kmem_field_sound(f.accounted);
	if ((kmem_format_sound(ev) && fields) != sound || f.usable != sound) {
		printf("  %s: sound %d, fields %d, usable %d; wanted %d\n",
		       what, kmem_format_sound(ev), fields, f.usable, sound);
		unit_failed++;
	}
}

static void test_kernels(void)
{
	struct tep_handle *tep = kmalloc_with(-1, NULL);

	if (tep) /* as Linux 6.18 x86_64 writes it */
		expect(tep, true, "6.18");
	tep_free(tep);
	/* i686: an 8-byte number 4-aligned (a u64 after an int) */
	tep = kmalloc_with(
		6, "\tfield:u64 accounted;\toffset:52;\tsize:8;\tsigned:0;\n");
	if (tep)
		expect(tep, true, "u64 at 52");
	tep_free(tep);
	/* every format of the kernels in tests/formats */
	/* a dynamic field's word, an array of its count of numbers */
	tep = kmalloc_with(6, "\tfield:__data_loc char[] name;\toffset:52;"
			      "\tsize:4;\tsigned:0;\n");
	if (tep)
		expect(tep, true, "a dynamic field at 52");
	tep_free(tep);
	tep = kmalloc_with(
		6, "\tfield:u32 vals[4];\toffset:52;\tsize:16;\tsigned:0;\n");
	if (tep)
		expect(tep, true, "an array of 4 u32 at 52");
	tep_free(tep);
	tep = load_formats("linux-6.1-ppc32.txt", 4, true);
	if (tep) {
		struct tep_event *ev =
			tep_find_event_by_name(tep, "kmem", "kmalloc");

		CHECK(ev && kmem_format_sound(ev));
		CHECK(ev && kmem_field_sound(tep_find_field(ev, "call_site")));
	}
	tep_free(tep);
}

static void test_damaged(void)
{
	static const struct {
		int which;
		const char *field, *what;
	} cases[] = {
		{ 1,
		  "\tfield:const void * ptr;\toffset:17;\tsize:8;\tsigned:0;\n",
		  "ptr at 17: not aligned" },
		{ 2,
		  "\tfield:size_t bytes_req;\toffset:1;\tsize:8;\tsigned:0;\n",
		  "bytes_req at 1: over the common fields" },
		{ 1,
		  "\tfield:const void * ptr;\toffset:32;\tsize:8;\tsigned:0;\n",
		  "ptr at 32: after bytes_req's place, over bytes_alloc" },
		{ 0,
		  "\tfield:unsigned long "
		  "call_site;\toffset:8;\tsize:1;\tsigned:0;\n",
		  "call_site of 1 byte: an unsigned long" },
		{ 5, "\tfield:int node;\toffset:48;\tsize:2;\tsigned:1;\n",
		  "node of 2 bytes: an int" },
		{ 4,
		  "\tfield:unsigned long "
		  "gfp_flags;\toffset:40;\tsize:16;\tsigned:0;\n",
		  "gfp_flags of 16 bytes, over node" },
		{ 6,
		  "\tfield:__data_loc char[] name;\toffset:53;\tsize:4;"
		  "\tsigned:0;\n",
		  "a dynamic field's word at 53: not aligned" },
		{ 6,
		  "\tfield:__data_loc char[] name;\toffset:52;\tsize:8;"
		  "\tsigned:0;\n",
		  "a dynamic field's word of 8 bytes" },
		{ 6, "\tfield:u32 vals[4];\toffset:52;\tsize:12;\tsigned:0;\n",
		  "an array of 4 u32 in 12 bytes" },
		{ 6, "\tfield:u32 vals[4];\toffset:54;\tsize:16;\tsigned:0;\n",
		  "an array of u32 at 54: not aligned" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tep_handle *tep =
			kmalloc_with(cases[i].which, cases[i].field);

		if (tep)
			expect(tep, false, cases[i].what);
		tep_free(tep);
	}
}

int main(int argc, char **argv)
{
	(void)argc;
	find_formats_dir(argv[0]);
	RUN(test_kernels);
	RUN(test_damaged);
	UNIT_EXIT();
}
