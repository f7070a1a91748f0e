// SPDX-License-Identifier: LGPL-2.1
/*
 * trace-kmem stat through reader/ (see native.h).  Only the formats of
 * the events lib/ decodes are parsed; records reach the session straight
 * from the ring-buffer pages, with no copy and no allocation.
 */
#include <stdio.h>

#include "cli.h"
#include "decode.h"
#include "native.h"

static bool wanted_event(const char *system, const char *name)
{
	return kmem_slot_by_name(system, name) >= 0;
}

/**
 * tk_native_open - open a file with the native reader
 * @path: the file
 * @f: the handle, on TDAT_OK
 *
 * A file the native reader leaves to libtracecmd gets one line saying
 * why; a damaged one gets one line naming the damage.
 *
 * Return: TDAT_OK, TDAT_UNSUPPORTED or TDAT_BAD.
 */
int tk_native_open(const char *path, struct tdat_file **f)
{
	char why[TDAT_WHY_LEN];
	int ret = tdat_open(path, wanted_event, f, why, sizeof(why));

	if (ret == TDAT_UNSUPPORTED)
		fprintf(stderr, TK_NAME ": %s: read with libtracecmd: %s\n",
			path, why);
	else if (ret == TDAT_BAD)
		fprintf(stderr, TK_NAME ": %s: %s\n", path, why);
	return ret;
}

struct run {
	struct tk_session *s;
	struct tk_progress *progress;
};

static int one_record(void *priv, struct tep_record *rec)
{
	struct run *r = priv;

	tk_session_record(r->s, rec);
	if (!(r->s->records % TK_PROGRESS_EVERY))
		tk_progress_tick(r->progress, r->s->records);
	return 0;
}

/**
 * tk_native_run - count one buffer of a file
 * @f: the file
 * @buffer: 0 for the top buffer, then the instances
 * @s: the session, on tdat_tep(@f)
 * @progress: ticked as records are counted
 *
 * Damaged pages and chunks are skipped, counted and reported on stderr;
 * the rest of the buffer is counted.
 *
 * Return: 0, or -1 when memory ran out.
 */
int tk_native_run(struct tdat_file *f, int buffer, struct tk_session *s,
		  struct tk_progress *progress)
{
	const struct tk_filter *flt = &s->args->filter;
	struct run r = { s, progress };
	struct tdat_damage d;
	char why[TDAT_WHY_LEN] = "";
	int ret;

	ret = tdat_iterate(f, buffer, flt->cpus, flt->cpus_size, one_record,
			   &r, &d, why, sizeof(why));
	if (ret < 0)
		fprintf(stderr, TK_NAME ": %s: %s\n", s->label, why);
	if (d.pages || d.chunks) {
		tk_progress_done(progress);
		fprintf(stderr, TK_NAME ": %s: damaged data skipped: %llu "
			"ring-buffer page%s, %llu compressed chunk%s (the "
			"first on CPU %d at offset %#llx)\n", s->label,
			(unsigned long long)d.pages, d.pages == 1 ? "" : "s",
			(unsigned long long)d.chunks, d.chunks == 1 ? "" : "s",
			d.first_cpu, (unsigned long long)d.first_offset);
	}
	return ret < 0 ? -1 : 0;
}
