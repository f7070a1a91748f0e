// SPDX-License-Identifier: LGPL-2.1
/*
 * The event format files of the kmem decoding tests (tests/formats/, see
 * the README there), parsed into a tep handle as the trace would carry
 * them.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "decode_util.h"
#include "unit.h"

/* ------------------------------------------------------------------ */
/* Format files                                                        */

static char formats_dir[4096];

static bool dir_has_formats(const char *dir)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/linux-6.18-x86_64.txt", dir);
	f = fopen(path, "r");
	if (!f)
		return false;
	fclose(f);
	return true;
}

/**
 * find_formats_dir - where the format files are: $TOP/tests/formats
 * (tests/run.sh), ./tests/formats, or next to argv[0]
 * @argv0: the test program's argv[0]
 */
void find_formats_dir(const char *argv0)
{
	const char *top = getenv("TOP");
	const char *slash;

	if (top) {
		snprintf(formats_dir, sizeof(formats_dir), "%s/tests/formats",
			 top);
		if (dir_has_formats(formats_dir))
			return;
	}
	snprintf(formats_dir, sizeof(formats_dir), "tests/formats");
	if (dir_has_formats(formats_dir))
		return;
	slash = strrchr(argv0, '/');
	snprintf(formats_dir, sizeof(formats_dir), "%.*s/../../tests/formats",
		 slash ? (int)(slash - argv0) : 1, slash ? argv0 : ".");
}

static char *read_text(const char *name)
{
	char path[4400];
	char *buf;
	long len;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", formats_dir, name);
	f = fopen(path, "rb");
	if (!f) {
		printf("  cannot open %s\n", path);
		return NULL;
	}
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)len + 1);
	if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[len] = '\0';
	fclose(f);
	return buf;
}

static bool host_big_endian(void)
{
	const uint16_t one = 1;

	return *(const unsigned char *)&one == 0;
}

/**
 * new_tep - an empty tep handle for a traced machine
 * @long_size: its long, in bytes
 * @big_endian: its byte order
 *
 * Return: the handle, or NULL.
 */
struct tep_handle *new_tep(int long_size, bool big_endian)
{
	struct tep_handle *tep = tep_alloc();

	if (!tep)
		return NULL;
	tep_set_long_size(tep, long_size);
	tep_set_file_bigendian(tep, big_endian ? TEP_BIG_ENDIAN :
						 TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, host_big_endian() ? TEP_BIG_ENDIAN :
							 TEP_LITTLE_ENDIAN);
	return tep;
}

/**
 * parse_one - parse one event format given as a string; counts a failure
 * if bad
 * @tep: the handle it goes into
 * @text: the format
 * @len: its length
 */
void parse_one(struct tep_handle *tep, const char *text, size_t len)
{
	enum tep_errno err = tep_parse_event(tep, text, len, "kmem");

	if (err) {
		char msg[128];

		tep_strerror(tep, err, msg, sizeof(msg));
		printf("  tep_parse_event: %s in:\n%.*s\n", msg,
		       (int)(len > 200 ? 200 : len), text);
		unit_failed++;
	}
}

/**
 * load_formats - a tep handle with every event of a format file
 * @file: its name in tests/formats
 * @long_size: the traced machine's long, in bytes
 * @big_endian: its byte order
 *
 * Return: the handle (tep_free() it), or NULL after counting a failure.
 */
struct tep_handle *load_formats(const char *file, int long_size,
				bool big_endian)
{
	struct tep_handle *tep;
	char *text = read_text(file);
	char *p, *next;

	if (!text) {
		unit_failed++;
		return NULL;
	}
	tep = new_tep(long_size, big_endian);
	for (p = text; tep && *p; p = next) {
		next = strstr(p, "\nname: ");
		next = next ? next + 1 : p + strlen(p);
		parse_one(tep, p, (size_t)(next - p));
	}
	free(text);
	return tep;
}
