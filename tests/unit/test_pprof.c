// SPDX-License-Identifier: LGPL-2.1
/*
 * The pprof writer: a profile built by hand, written, then read back with
 * zlib and protobuf-c's decoder: the string table starts with "", each
 * string, function and location is there once, the samples keep their
 * stacks, values and labels, the span is widened, the default type and
 * the comments are those given.
 *
 *   test_pprof [--write PATH]   also leave the profile at PATH (for
 *                               go tool pprof in tests/e2e/pprof.sh)
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "pprof/pprof.h"
#include "pprof/profile.pb-c.h"
#include "unit.h"

static const char *write_to;

static struct kmem_pprof *hand_profile(void)
{
	struct kmem_pprof *p = kmem_pprof_new();
	struct kmem_pprof_label l[3] = {
		{ .key = "allocator", .str = "slab" },
		{ .key = "bytes", .num = 64, .unit = "bytes" },
		{ .key = "host", .str = "a" },
	};
	uint64_t stack[2];
	int64_t v1[2] = { 3, 192 }, v2[2] = { 1, 4096 };

	CHECK(p != NULL);
	CHECK(kmem_pprof_add_type(p, "alloc_objects", "count", false) == 0);
	CHECK(kmem_pprof_add_type(p, "alloc_space", "bytes", true) == 1);
	CHECK_U64(kmem_pprof_mapping(p, 0, UINT64_MAX, "[kernel.kallsyms]"), 1);
	stack[0] = kmem_pprof_location(p, 1, 0xffffffff81000010ULL,
				       "kmalloc_trace", 0x10);
	stack[1] = kmem_pprof_location(p, 1, 0xffffffff81000100ULL,
				       "do_sys_open", 0x20);
	CHECK_U64(stack[0], 1);
	CHECK_U64(stack[1], 2);
	/* the same location again: the same id; a function again: one */
	CHECK_U64(kmem_pprof_location(p, 1, 0xffffffff81000010ULL,
				      "kmalloc_trace", 0x10),
		  1);
	CHECK_U64(kmem_pprof_location(p, 1, 0xffffffff81000018ULL,
				      "kmalloc_trace", 0x18),
		  3);
	CHECK(kmem_pprof_sample(p, stack, 2, v1, l, 3) == 0);
	stack[0] = 3;
	CHECK(kmem_pprof_sample(p, stack, 1, v2, l, 1) == 0);
	/* a sample of location 0 (none) is refused */
	stack[0] = 0;
	CHECK(kmem_pprof_sample(p, stack, 1, v2, l, 1) == -1);
	/* no type after the first sample */
	CHECK(kmem_pprof_add_type(p, "late", "count", false) == -1);
	CHECK(kmem_pprof_comment(p, "trace: a.dat") == 0);
	kmem_pprof_span(p, 5000, 9000);
	kmem_pprof_span(p, 1000, 2000); /* widens the start only */
	CHECK_U64(kmem_pprof_nr_samples(p), 2);
	return p;
}

/* The file's bytes, gunzipped. */
static uint8_t *gunzip_file(FILE *f, size_t *len)
{
	gzFile gz;
	uint8_t *buf = malloc(1 << 20);
	int n;

	rewind(f);
	gz = gzdopen(dup(fileno(f)), "rb");
	if (!gz || !buf) {
		free(buf);
		return NULL;
	}
	n = gzread(gz, buf, 1 << 20);
	gzclose(gz);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	*len = (size_t)n;
	return buf;
}

/* @p written to a temporary file, freed, and read back (NULL: failed). */
static Perftools__Profiles__Profile *round_trip(struct kmem_pprof *p)
{
	Perftools__Profiles__Profile *pr = NULL;
	FILE *f = tmpfile();
	size_t len = 0;
	uint8_t *buf;

	CHECK(f != NULL);
	if (!f) {
		kmem_pprof_free(p);
		return NULL;
	}
	CHECK(kmem_pprof_write(p, f) == 0);
	kmem_pprof_free(p);
	buf = gunzip_file(f, &len);
	fclose(f);
	CHECK(buf != NULL);
	if (buf)
		pr = perftools__profiles__profile__unpack(NULL, len, buf);
	free(buf);
	CHECK(pr != NULL);
	return pr;
}

static const char *s_of(const Perftools__Profiles__Profile *pr, int64_t i)
{
	return i >= 0 && (size_t)i < pr->n_string_table ? pr->string_table[i]
							: "(bad index)";
}

static void test_round_trip(void)
{
	struct kmem_pprof *p = hand_profile();
	Perftools__Profiles__Profile *pr;
	Perftools__Profiles__Sample *s;
	size_t i, j, nr_kmalloc = 0;

	if (write_to) {
		FILE *w = fopen(write_to, "wb");

		CHECK(w && kmem_pprof_write(p, w) == 0 && !fclose(w));
	}
	pr = round_trip(p);
	if (!pr)
		return;
	CHECK_STR(s_of(pr, 0), "");
	for (i = 1; i < pr->n_string_table; i++)
		for (j = i + 1; j < pr->n_string_table; j++)
			CHECK(strcmp(pr->string_table[i], pr->string_table[j]));
	CHECK_U64(pr->n_sample_type, 2);
	CHECK_STR(s_of(pr, pr->sample_type[0]->type), "alloc_objects");
	CHECK_STR(s_of(pr, pr->sample_type[0]->unit), "count");
	CHECK_STR(s_of(pr, pr->sample_type[1]->type), "alloc_space");
	CHECK_STR(s_of(pr, pr->default_sample_type), "alloc_space");
	CHECK_U64(pr->time_nanos, 1000);
	CHECK_U64(pr->duration_nanos, 5000);
	CHECK_U64(pr->n_comment, 1);
	CHECK_STR(s_of(pr, pr->comment[0]), "trace: a.dat");
	CHECK_U64(pr->n_mapping, 1);
	CHECK_STR(s_of(pr, pr->mapping[0]->filename), "[kernel.kallsyms]");
	CHECK_U64(pr->n_function, 2);
	for (i = 0; i < pr->n_function; i++)
		nr_kmalloc += !strcmp(s_of(pr, pr->function[i]->name),
				      "kmalloc_trace");
	CHECK_U64(nr_kmalloc, 1);
	CHECK_U64(pr->n_location, 3);
	CHECK_U64(pr->location[2]->address, 0xffffffff81000018ULL);
	CHECK_U64(pr->location[2]->n_line, 1);
	CHECK_U64(pr->location[2]->line[0]->line, 0x18);
	CHECK_STR(
		s_of(pr, pr->function[pr->location[2]->line[0]->function_id - 1]
				 ->name),
		"kmalloc_trace");
	CHECK_U64(pr->n_sample, 2);
	s = pr->sample[0];
	CHECK_U64(s->n_location_id, 2);
	CHECK_U64(s->location_id[0], 1);
	CHECK_U64(s->location_id[1], 2);
	CHECK_U64(s->n_value, 2);
	CHECK_U64(s->value[0], 3);
	CHECK_U64(s->value[1], 192);
	CHECK_U64(s->n_label, 3);
	CHECK_STR(s_of(pr, s->label[0]->key), "allocator");
	CHECK_STR(s_of(pr, s->label[0]->str), "slab");
	CHECK_STR(s_of(pr, s->label[1]->key), "bytes");
	CHECK_U64(s->label[1]->num, 64);
	CHECK_STR(s_of(pr, s->label[1]->num_unit), "bytes");
	CHECK_U64(s->label[1]->str, 0);
	CHECK_STR(s_of(pr, s->label[2]->str), "a");
	s = pr->sample[1];
	CHECK_U64(s->n_location_id, 1);
	CHECK_U64(s->location_id[0], 3);
	CHECK_U64(s->value[1], 4096);
	CHECK_U64(s->n_label, 1);
	perftools__profiles__profile__free_unpacked(pr, NULL);
}

/* A stack longer than the arrays' first capacity, twice: all kept. */
static void test_long_stacks(void)
{
	struct kmem_pprof *p = kmem_pprof_new();
	uint64_t stack[300];
	int64_t v = 1;
	size_t i;

	CHECK(p != NULL);
	CHECK(kmem_pprof_add_type(p, "alloc_objects", "count", true) == 0);
	for (i = 0; i < 300; i++) {
		char fn[32];

		snprintf(fn, sizeof(fn), "f%zu", i);
		stack[i] = kmem_pprof_location(p, 0, 0x1000 + i, fn, 0);
		CHECK_U64(stack[i], i + 1);
	}
	CHECK(kmem_pprof_sample(p, stack, 300, &v, NULL, 0) == 0);
	CHECK(kmem_pprof_sample(p, stack + 1, 299, &v, NULL, 0) == 0);
	CHECK_U64(kmem_pprof_nr_samples(p), 2);
	kmem_pprof_free(p);
}

/* An empty profile is a valid one: no samples. */
static void test_empty(void)
{
	struct kmem_pprof *p = kmem_pprof_new();
	Perftools__Profiles__Profile *pr;

	CHECK(p != NULL);
	if (!p)
		return;
	pr = round_trip(p);
	if (pr) {
		CHECK_U64(pr->n_sample, 0);
		CHECK_U64(pr->n_string_table, 1);
		perftools__profiles__profile__free_unpacked(pr, NULL);
	}
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--write"))
		write_to = argv[2];
	RUN(test_round_trip);
	RUN(test_long_stacks);
	RUN(test_empty);
	UNIT_EXIT();
}
