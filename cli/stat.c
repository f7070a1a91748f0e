// SPDX-License-Identifier: LGPL-2.1
/*
 * trace-kmem stat: trace.dat files into lib/, through the native reader
 * (reader/), or through libtracecmd with --reader=libtracecmd and for the
 * files the native reader leaves to it.
 *
 * Each file's top buffer and each of its buffer instances is one input
 * with its own report, labelled "FILE" and "FILE (instance NAME)";
 * with more than one input, a merged summary follows.  Every file is
 * checked and opened before anything is printed, so a bad file costs
 * one line and exit status 2, never half a report.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <trace-cmd.h>

#include "base/path_label.h"
#include "buffers.h"
#include "fault.h"
#include "input_check.h"
#include "inputs.h"
#include "memlimit.h"
#include "merge.h"
#include "native.h"
#include "progress.h"
#include "session.h"
#include "tracecmd_read.h"

struct stat_run {
	struct tk_args *a;
	const char *path; /* the file being read */
	struct kmem_numa numa;
	bool have_numa;
	struct tk_merged merged;
	struct kmem_outputs outs;
	int reports;
	int ret;
	/* the buffers of the file being read */
	bool keep_empty;	/* report a buffer with no records too */
	int with_data;		/* buffers that had records */
	char empty[256];	/* those that had none, left out */
};

/* A buffer with no record, left out of the report: name it. */
static void note_empty(struct stat_run *run, int buffer, const char *name)
{
	size_t n = strlen(run->empty);

	snprintf(run->empty + n, sizeof(run->empty) - n, "%s%s%s",
		 n ? ", " : "", buffer ? "instance " : "the top-level buffer",
		 buffer ? name : "");
}

/*
 * One buffer: read it all, print its report.  A buffer without a
 * record is left out (noted in run->empty) unless run->keep_empty.
 */
static int analyse(struct stat_run *run, const struct tk_input *in, int buffer,
		   const char *label, const char *name)
{
	struct tdat_file *f = in->f;
	struct tracecmd_input *h = f || !buffer ? in->h : in->inst[buffer - 1];
	struct tep_handle *tep = f ? tdat_tep(f) : tracecmd_get_tep(h);
	struct tk_progress progress;
	struct tk_session s;
	bool damaged;
	int ret;

	if (tk_session_init(&s, tep, run->a,
			    run->have_numa ? &run->numa : NULL)) {
		fprintf(stderr, TK_NAME ": out of memory\n");
		tk_session_release(&s);
		return -1;
	}
	snprintf(s.label, sizeof(s.label), "%s", label);
	s.path = run->path;
	if (f) {
		s.host = tdat_host(f);
		s.release = tdat_kernel_release(f);
		tk_native_modules(&s.sym, f);
	}
	tk_progress_start(&progress, label);
	if (f)
		ret = tk_native_run(f, buffer, &s, &progress);
	else
		ret = tk_tracecmd_run(in, buffer, &s, &progress);
	tk_progress_done(&progress);
	if (ret == -1)
		fprintf(stderr, TK_NAME ": %s: error reading the records%s\n",
			label, h ? tk_memlimit_note() : "");
	/* all damaged is not empty: said, and reported (once) */
	damaged = kmem_agg_damaged(&s.agg);
	if (!ret && !s.records && !damaged && !run->keep_empty) {
		note_empty(run, buffer, name);
		tk_session_release(&s);
		return 0;
	}
	run->with_data += !ret && (s.records || damaged);
	if (!ret)
		ret = tk_session_report(&s, &run->outs, stderr);
	if (!ret) {
		run->reports++;
		ret = tk_merged_add(&run->merged, &s);
	}
	tk_session_release(&s);
	return ret;
}

static int analyse_native(struct stat_run *run, const struct tk_input *in,
			  const char *base)
{
	struct tdat_file *f = in->f;
	char label[PATH_MAX + 64];
	int i, ret = 0;

	for (i = 0; i < tdat_nr_buffers(f) && !ret; i++) {
		if (i)
			snprintf(label, sizeof(label), "%s (instance %s)", base,
				 tdat_buffer_name(f, i));
		else
			snprintf(label, sizeof(label), "%s", base);
		ret = analyse(run, in, i, label, tdat_buffer_name(f, i));
	}
	return ret;
}

/*
 * After a file's buffers: if none had a record, its top-level buffer's
 * report says so after all; else the buffers left out are named once.
 */
static int finish_file(struct stat_run *run, const struct tk_input *in,
		       const char *base)
{
	int ret = 0;

	if (!run->with_data && !run->keep_empty) {
		run->keep_empty = true;
		ret = analyse(run, in, 0, base, "");
	} else if (run->empty[0]) {
		fprintf(stderr, TK_NAME ": %s: no records in %s: left out\n",
			base, run->empty);
	}
	return ret;
}

static int analyse_file(struct stat_run *run, const struct tk_input *in,
			const char *path)
{
	const struct tk_filter *flt = &run->a->filter;
	char label[PATH_MAX + 64], base[PATH_MAX];
	int i, ret;

	run->path = path;
	kmem_path_label(base, sizeof(base), path);
	/* with filters, "no record" may be theirs: every buffer says so */
	run->keep_empty = flt->time || flt->pids || flt->comm || flt->cpus;
	run->with_data = 0;
	run->empty[0] = '\0';
	if (run->a->instance) {		/* that buffer alone */
		bool reopen;

		i = tk_buffer_pick(in, path, run->a->instance, &reopen);
		if (i < 0)
			return -1;
		run->keep_empty = true;
		snprintf(label, sizeof(label), "%s (instance %s)", base,
			 tk_buffer_name(in, i));
		return analyse(run, in, i, label, tk_buffer_name(in, i));
	}
	if (in->f) {
		ret = analyse_native(run, in, base);
		return ret ? ret : finish_file(run, in, base);
	}
	ret = analyse(run, in, 0, base, "");
	for (i = 0; i < in->ninst && !ret; i++) {
		snprintf(label, sizeof(label), "%s (instance %s)", base,
			 tk_buffer_name(in, i + 1));
		ret = analyse(run, in, i + 1, label, tk_buffer_name(in, i + 1));
	}
	return ret ? ret : finish_file(run, in, base);
}

/*
 * Can the run report more than once (several inputs, or an input's
 * buffer instances)?  Then its JSON is one document of several reports.
 */
static bool several_reports(const struct tk_args *a, const struct tk_input *h)
{
	int i;

	if (a->nr_inputs > 1)
		return true;
	if (a->instance)
		return false;
	for (i = 0; i < a->nr_inputs; i++)
		if (h[i].f ? tdat_nr_buffers(h[i].f) > 1 : h[i].ninst > 0)
			return true;
	return false;
}

/**
 * tk_stat - trace-kmem stat
 * @a: the command line
 *
 * Return: the exit status.
 */
int tk_stat(struct tk_args *a)
{
	struct stat_run run = { .a = a };
	struct tk_input *h;
	int i, ret = 0;

	if (tk_check_distinct(a->inputs, a->nr_inputs))
		return TK_USAGE;
	if (a->merge)
		return tk_stat_merged(a);
	if (a->opts.numa) {
		if (kmem_numa_load(&run.numa, a->opts.numa, stderr))
			return TK_ENV;
		run.have_numa = true;
	}
	/* outputs first: a path that cannot be written costs no reading */
	if (kmem_outputs_open(&run.outs, &a->opts, false, stderr)) {
		kmem_numa_release(&run.numa);
		return TK_ENV;
	}
	h = tk_open_inputs(a);
	if (!h) {
		kmem_outputs_discard(&run.outs);
		kmem_numa_release(&run.numa);
		return TK_ENV;
	}
	run.outs.json_several = several_reports(a, h);
	/* libtracecmd may fault on a later buffer or file: then the one
	 * line, and none of the reports before it */
	for (i = 0; i < a->nr_inputs; i++)
		if (h[i].h) {
			kmem_outputs_hold(&run.outs); /* else as it comes */
			break;
		}
	ret = tk_merged_init(&run.merged, run.have_numa ? &run.numa : NULL);
	if (ret)
		fprintf(stderr, TK_NAME ": out of memory\n");
	for (i = 0; i < a->nr_inputs && !ret; i++) {
		tk_input_guard(&h[i], a->inputs[i]);
		ret = analyse_file(&run, &h[i], a->inputs[i]);
		tk_fault_guard(NULL);
	}
	if (!ret && run.reports > 1 &&
	    tk_merged_report(&run.merged, &a->opts, &run.outs, stderr))
		ret = -1;
	else if (!ret && run.reports <= 1 &&
		 kmem_outputs_end(&run.outs, stderr))
		ret = -1;
	/* the files are put in place only when everything was written */
	if (ret)
		kmem_outputs_discard(&run.outs);
	else if (kmem_outputs_finish(&run.outs, stderr))
		ret = -1;
	for (i = 0; i < a->nr_inputs; i++)
		tk_close_input(&h[i]);
	free(h);
	tk_merged_release(&run.merged);
	kmem_numa_release(&run.numa);
	if (run.outs.broken_pipe)
		return TK_BROKEN_PIPE;
	return ret ? TK_ENV : TK_OK;
}
