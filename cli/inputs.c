// SPDX-License-Identifier: LGPL-2.1
/*
 * The trace.dat files of a command line, checked and opened before
 * anything is read or printed: by the native reader, or by libtracecmd
 * (--reader=libtracecmd, and the files the native reader leaves to it)
 * under the memory limit and the fault guard.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/utf8.h"
#include "damage.h"
#include "fault.h"
#include "input_check.h"
#include "inputs.h"
#include "later.h"
#include "memlimit.h"
#include "uncompress.h"

/* The bytes of every input (libtracecmd may map them). */
static unsigned long long inputs_size(const struct tk_args *a)
{
	unsigned long long n = 0;
	struct stat st;
	int i;

	for (i = 0; i < a->nr_inputs; i++)
		if (!stat(a->inputs[i], &st) && st.st_size > 0)
			n += (unsigned long long)st.st_size;
	return n;
}

/* $TRACE_KMEM_VALIDATE=never: libtracecmd gets files unchecked (tests
 * of the fault guard) */
static bool no_validation(void)
{
	const char *v = getenv("TRACE_KMEM_VALIDATE");

	return v && !strcmp(v, "never");
}

/* Did the native reader's scan find damage in the data? */
static bool damaged(const struct tdat_scan *scan)
{
	const struct tdat_damage *d = scan ? tdat_scan_damage(scan, NULL) :
					     NULL;

	return d && (d->pages || d->chunks);
}

/* libtracecmd leaves the machine's page size out of the tep: the file's */
static void set_page_size(struct tracecmd_input *h, unsigned int page_size)
{
	struct tep_handle *tep = tracecmd_get_tep(h);

	if (!tep_get_page_size(tep))
		tep_set_page_size(tep, (int)page_size);
}

/*
 * libtracecmd: the file's buffer instances opened too, before any report
 * is printed (a damaged instance used to fail after the top buffer's),
 * and every handle given the file's page size.
 */
static int open_instances(struct tk_input *in, const char *path)
{
	int i, n = tracecmd_buffer_instances(in->h);
	unsigned int page_size = tdat_header_page_size(path);

	set_page_size(in->h, page_size);
	if (n <= 0)
		return 0;
	in->inst = calloc((size_t)n, sizeof(*in->inst));
	in->names = calloc((size_t)n, sizeof(*in->names));
	if (!in->inst || !in->names)
		goto oom;
	/* said in titles and lines, as the native reader says them */
	for (; in->nnames < n; in->nnames++) {
		const char *name =
			tracecmd_buffer_instance_name(in->h, in->nnames);

		in->names[in->nnames] = strdup(name ? name : "");
		if (!in->names[in->nnames])
			goto oom;
		utf8_plain_line(in->names[in->nnames]);
	}
	for (i = 0; i < n; i++) {
		/* opens the instance's CPU data as tracecmd_init_data() does:
		 * its perror() lines on damage are not trace-kmem's line */
		tk_stderr_quiet(true);
		in->inst[i] = tracecmd_buffer_instance_handle(in->h, i);
		tk_stderr_quiet(false);
		if (!in->inst[i]) {
			/* the damage the scan found, as for the top buffer */
			if (damaged(in->scan))
				tk_fault_say();
			else
				fprintf(stderr,
					TK_NAME ": %s: cannot read buffer "
						"instance %s\n",
					path, in->names[i]);
			return -1;
		}
		set_page_size(in->inst[i], page_size);
		in->ninst++;
	}
	return 0;
oom:
	fprintf(stderr, TK_NAME ": %s: out of memory\n", path);
	return -1;
}

/**
 * tk_close_input - close one input
 * @in: the input
 */
void tk_close_input(struct tk_input *in)
{
	int i;

	for (i = 0; i < in->ninst; i++)
		tracecmd_close(in->inst[i]);
	free(in->inst);
	in->inst = NULL;
	in->ninst = 0;
	for (i = 0; i < in->nnames; i++)
		free(in->names[i]);
	free(in->names);
	in->names = NULL;
	in->nnames = 0;
	if (in->h)
		tracecmd_close(in->h);
	if (in->h && in->left_note) /* read: said once, at the end */
		fputs(in->left_note, stderr);
	free(in->left_note);
	free(in->left_fault);
	in->left_note = in->left_fault = NULL;
	tk_later_done(in->f);
	tdat_close(in->f);
	tdat_scan_free(in->scan);
	in->scan = NULL;
	in->h = NULL;
	in->f = NULL;
}

/* @in's lines for a file the native reader left to libtracecmd (@why). */
static int left_lines(struct tk_input *in, const char *path, const char *why)
{
	if (asprintf(&in->left_note,
		     TK_NAME ": %s: read with libtracecmd: %s\n", path,
		     why) < 0) {
		in->left_note = NULL;
		return -1;
	}
	if (asprintf(&in->left_fault,
		     TK_NAME ": %s: cannot read the trace: %s, and "
			     "libtracecmd fails on it",
		     path, why) < 0) {
		in->left_fault = NULL;
		return -1;
	}
	return 0;
}

/**
 * tk_input_guard - guard the reading of an input against faults
 * @in: the input
 * @path: its file
 *
 * tk_fault_guard(@path); a file the native reader left to libtracecmd
 * gets the line that says both why and that libtracecmd fails on it, as
 * when it was opened.
 */
void tk_input_guard(const struct tk_input *in, const char *path)
{
	tk_fault_guard(path);
	if (in->left_fault)
		tk_fault_guard_line(in->left_fault);
}

/*
 * One file for trace-kmem stat: its kallsyms is decompressed while the
 * session is set up and the records counted; tk_native_run() calls
 * tk_native_ready() after counting, before anything is said.  Several
 * files are all checked whole before the first one's report.
 */
static bool late_open(const struct tk_args *a)
{
	return a->cmd == TK_STAT && a->nr_inputs == 1 && !a->merge &&
	       !a->instance;
}

/**
 * tk_open_inputs - check and open every input, before any output
 * @a: the command line
 *
 * A bad input costs one line on stderr and stops (for trace-kmem stat
 * of one file, a damaged kallsyms section is found by tk_native_ready(),
 * before any output).
 *
 * Return: an array of a->nr_inputs inputs (tk_close_input() each, then
 * free() it), or NULL.
 */
struct tk_input *tk_open_inputs(const struct tk_args *a)
{
	struct tk_input *h = calloc((size_t)a->nr_inputs, sizeof(*h));
	int i;

	if (!h) {
		fprintf(stderr, TK_NAME ": out of memory\n");
		return NULL;
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	for (i = 0; i < a->nr_inputs; i++) {
		char left[TDAT_WHY_LEN] = "";

		if (tk_check_input(a->inputs[i]))
			goto fail;
		if (!a->libtracecmd) {
			int ret = tk_native_open(a->inputs[i], &h[i].f,
						 late_open(a), left,
						 sizeof(left));

			if (ret == TDAT_OK)
				continue;
			if (ret == TDAT_BAD)
				goto fail;
		} else if (no_validation() ?
				   tk_native_check_aligned(a->inputs[i]) :
				   tk_native_validate(a->inputs[i], &h[i].scan)) {
			goto fail;
		}
		if (tk_memlimit_apply(inputs_size(a)))
			goto fail;
		tk_fault_guard(a->inputs[i]);
		if (damaged(h[i].scan)) {
			char line[PATH_MAX + 512];

			tk_refused_line(line, sizeof(line), a->inputs[i],
					tdat_scan_damage(h[i].scan, NULL));
			tk_fault_guard_line(line);
		}
		if (left[0] && left_lines(&h[i], a->inputs[i], left)) {
			fprintf(stderr, TK_NAME ": out of memory\n");
			tk_fault_guard(NULL);
			i++;
			goto fail;
		}
		if (h[i].left_fault) /* left to libtracecmd: if it fails too */
			tk_fault_guard_line(h[i].left_fault);
		tk_stderr_quiet(true);
		h[i].h = tk_open_input(a->inputs[i], damaged(h[i].scan));
		tk_stderr_quiet(false);
		if (!h[i].h) {
			tk_fault_guard(NULL);
			tk_fault_say();
			goto fail;
		}
		if (open_instances(&h[i], a->inputs[i])) {
			tk_fault_guard(NULL);
			i++;
			goto fail;
		}
		tk_fault_guard(NULL);
	}
	return h;
fail:
	if (i < a->nr_inputs) { /* validated, not opened */
		tdat_scan_free(h[i].scan);
		free(h[i].left_note);
		free(h[i].left_fault);
	}
	while (i-- > 0) {
		free(h[i].left_note); /* not read: nothing to say of it */
		h[i].left_note = NULL;
		tk_close_input(&h[i]);
	}
	free(h);
	return NULL;
}

