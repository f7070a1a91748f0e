// SPDX-License-Identifier: LGPL-2.1
/*
 * trace-kmem stat: trace.dat files through libtracecmd into lib/.
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

#include <trace-cmd.h>

#include "fault.h"
#include "input_check.h"
#include "pipeline.h"
#include "uncompress.h"
#include "path_label.h"
#include "progress.h"
#include "session.h"

struct stat_run {
	struct tk_args *a;
	struct kmem_numa numa;
	bool have_numa;
	struct tk_merged merged;
	int reports;
	int ret;
};

/* One buffer: read it all, print its report. */
static int analyse(struct stat_run *run, struct tracecmd_input *h,
		   const char *label)
{
	struct tk_progress progress;
	struct tk_session s;
	int ret;

	if (tk_session_init(&s, tracecmd_get_tep(h), run->a,
			    run->have_numa ? &run->numa : NULL)) {
		fprintf(stderr, TK_NAME ": out of memory\n");
		tk_session_release(&s);
		return -1;
	}
	snprintf(s.label, sizeof(s.label), "%s", label);
	tk_progress_start(&progress, label);
	ret = tk_pipeline_run(h, &s, &progress);
	tk_progress_done(&progress);
	if (ret < 0)
		fprintf(stderr, TK_NAME ": %s: error reading the records\n",
			label);
	else if (tk_session_report(&s, ++run->reports, stderr))
		ret = -1;
	else if (tk_merged_add(&run->merged, &s))
		ret = -1;
	tk_session_release(&s);
	return ret;
}

static int analyse_file(struct stat_run *run, struct tracecmd_input *h,
			const char *path)
{
	char label[PATH_MAX + 64], base[PATH_MAX];
	int i, n, ret;

	kmem_path_label(base, sizeof(base), path);
	ret = analyse(run, h, base);
	n = tracecmd_buffer_instances(h);
	for (i = 0; i < n && !ret; i++) {
		struct tracecmd_input *ih = tracecmd_buffer_instance_handle(h, i);

		snprintf(label, sizeof(label), "%s (instance %s)", base,
			 tracecmd_buffer_instance_name(h, i));
		if (!ih) {
			fprintf(stderr, TK_NAME ": %s: cannot read this buffer"
					"\n", label);
			return -1;
		}
		ret = analyse(run, ih, label);
		tracecmd_close(ih);
	}
	return ret;
}

/* Check and open every input first: a bad one stops before any output. */
static struct tracecmd_input **open_all(const struct tk_args *a)
{
	struct tracecmd_input **h = calloc((size_t)a->nr_inputs, sizeof(*h));
	int i;

	if (!h)
		return NULL;
	tracecmd_set_loglevel(TEP_LOG_NONE);
	for (i = 0; i < a->nr_inputs; i++) {
		if (tk_check_input(a->inputs[i]))
			goto fail;
		tk_fault_guard(a->inputs[i]);
		h[i] = tk_open_input(a->inputs[i]);
		tk_fault_guard(NULL);
		if (!h[i]) {
			fprintf(stderr, TK_NAME ": %s: cannot read the trace "
					"(truncated or corrupt file)\n",
				a->inputs[i]);
			goto fail;
		}
	}
	return h;
fail:
	while (i-- > 0)
		tracecmd_close(h[i]);
	free(h);
	return NULL;
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
	struct tracecmd_input **h;
	int i, ret = 0;

	if (a->opts.numa) {
		if (kmem_numa_load(&run.numa, a->opts.numa, stderr))
			return TK_ENV;
		run.have_numa = true;
	}
	h = open_all(a);
	if (!h) {
		kmem_numa_release(&run.numa);
		return TK_ENV;
	}
	tk_merged_init(&run.merged, run.have_numa ? &run.numa : NULL);
	for (i = 0; i < a->nr_inputs && !ret; i++) {
		tk_fault_guard(a->inputs[i]);
		ret = analyse_file(&run, h[i], a->inputs[i]);
		tk_fault_guard(NULL);
	}
	if (!ret && run.reports > 1 &&
	    tk_merged_report(&run.merged, &a->opts, ++run.reports, stderr))
		ret = -1;
	for (i = 0; i < a->nr_inputs; i++)
		tracecmd_close(h[i]);
	free(h);
	tk_merged_release(&run.merged);
	kmem_numa_release(&run.numa);
	return ret ? TK_ENV : TK_OK;
}
