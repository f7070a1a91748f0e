// SPDX-License-Identifier: LGPL-2.1
/*
 * Output destinations (see output.h).
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/msg.h"
#include "output.h"
#include "render/report_pprof.h"

/*
 * The profile holds the reports of one run: appended to (only the
 * plugin's later inputs are), it is written again, with the last input's.
 */
static int open_pprof(struct kmem_outputs *outs, const struct kmem_opts *o,
		      bool append, FILE *err)
{
	if (!strcmp(o->pprof, "-") && isatty(STDOUT_FILENO)) {
		/* gzip data on a terminal: garbage, and maybe escapes */
		fprintf(err,
			"%s: pprof=-: a gzip profile is not written to a "
			"terminal (give a file, or redirect stdout)\n",
			kmem_prog);
		return -1;
	}
	if (append)
		fprintf(err,
			"%s: pprof=%s holds the last input's profile only "
			"(trace-kmem stat --pprof takes several traces)\n",
			kmem_prog, o->pprof);
	if (kmem_out_open(&outs->pprof, o->pprof, "pprof profile", false, err))
		return -1;
	outs->profile = kmem_pprof_for_reports();
	if (!outs->profile) {
		fprintf(err, "%s: out of memory for the pprof profile\n",
			kmem_prog);
		return -1;
	}
	return 0;
}

/* Does the existing file @path name the same file as @st? */
static bool same_file(const char *path, const struct stat *st)
{
	struct stat o;

	return !stat(path, &o) && S_ISREG(o.st_mode) &&
	       o.st_dev == st->st_dev && o.st_ino == st->st_ino;
}

/**
 * kmem_outputs_spare - refuse an output that names an input file, or
 *	another output's
 * @o: the options: output=, json=, csv=, folded=, pprof=, rows=
 * @inputs: the input files
 * @n: their number
 * @err: where a refusal is said
 *
 * An output file is written beside its path and renamed over it at the
 * end (or appended to): over an input, the trace would be lost
 * (trace-kmem stat -o trace.dat trace.dat), or over another output's.
 * Paths are compared as files (device and inode), so another name of
 * the same file is caught too; "-" (stdout) may be given twice.
 *
 * Return: 0, or -1 after one line on @err.
 */
int kmem_outputs_spare(const struct kmem_opts *o, const char *const *inputs,
		       int n, FILE *err)
{
	const struct {
		const char *path, *what;
	} outs[] = {
		{ o->output, "output" }, { o->json, "json" },
		{ o->csv, "csv" },	 { o->folded, "folded" },
		{ o->pprof, "pprof" },	 { o->rows, "rows" },
	};
	struct stat st;
	size_t k, l;
	int i;

	/* two outputs to one file: one would be renamed over the other */
	for (k = 0; k < sizeof(outs) / sizeof(outs[0]); k++)
		for (l = k + 1; outs[k].path && strcmp(outs[k].path, "-") &&
				l < sizeof(outs) / sizeof(outs[0]);
		     l++)
			if (outs[l].path &&
			    (!strcmp(outs[k].path, outs[l].path) ||
			     (!stat(outs[k].path, &st) &&
			      same_file(outs[l].path, &st)))) {
				fprintf(err,
					"%s: %s and %s both name '%s': one "
					"would replace the other\n",
					kmem_prog, outs[k].what, outs[l].what,
					outs[k].path);
				return -1;
			}
	for (i = 0; i < n; i++) {
		if (!inputs[i] || stat(inputs[i], &st) || !S_ISREG(st.st_mode))
			continue;
		for (k = 0; k < sizeof(outs) / sizeof(outs[0]); k++)
			if (outs[k].path && same_file(outs[k].path, &st)) {
				fprintf(err,
					"%s: %s '%s' is the input file '%s': "
					"it would be overwritten\n",
					kmem_prog, outs[k].what, outs[k].path,
					inputs[i]);
				return -1;
			}
	}
	return 0;
}

/**
 * kmem_outputs_open - open what the options send the report to
 * @outs: filled in
 * @o: the options: stat (tables to stdout or output=), json=, csv=
 * @append: add to the files (a later input of the same run)
 * @err: where a failure is said
 *
 * json=- (or csv=-, folded=-, pprof=-, rows=-) replaces the tables on
 * stdout unless output= is given.
 *
 * Return: 0, or -1 after one line on @err (nothing is left open).
 */
int kmem_outputs_open(struct kmem_outputs *outs, const struct kmem_opts *o,
		      bool append, FILE *err)
{
	memset(outs, 0, sizeof(*outs));
	bool json_out = o->json && !strcmp(o->json, "-");
	bool csv_out = o->csv && !strcmp(o->csv, "-");
	bool folded_out = o->folded && !strcmp(o->folded, "-");
	bool pprof_out = o->pprof && !strcmp(o->pprof, "-");
	bool rows_out = o->rows && !strcmp(o->rows, "-");
	bool tables =
		!json_out && !csv_out && !folded_out && !pprof_out && !rows_out;

	if (o->stat && (o->output || tables) &&
	    kmem_out_open(&outs->tables, o->output ? o->output : "-", "output",
			  append, err))
		return -1;
	if (o->json && kmem_out_open(&outs->json, o->json, "JSON", append,
				     err)) {
		kmem_out_discard(&outs->tables);
		return -1;
	}
	if (o->csv && kmem_out_open(&outs->csv, o->csv, "CSV", append, err)) {
		kmem_out_discard(&outs->tables);
		kmem_out_discard(&outs->json);
		return -1;
	}
	if (o->folded && kmem_out_open(&outs->folded, o->folded,
				       "folded stacks", append, err)) {
		kmem_out_discard(&outs->tables);
		kmem_out_discard(&outs->json);
		kmem_out_discard(&outs->csv);
		return -1;
	}
	if (o->pprof && open_pprof(outs, o, append, err)) {
		kmem_outputs_discard(outs);
		return -1;
	}
	if (o->rows &&
	    kmem_out_open(&outs->rows, o->rows, "rows", append, err)) {
		kmem_outputs_discard(outs);
		return -1;
	}
	outs->pprof_labels = o->pprof_labels;
	outs->nr_pprof_labels = o->nr_pprof_labels;
	return 0;
}

/* The profile written, the file renamed into place; or dropped. */
static int finish_pprof(struct kmem_outputs *outs, FILE *err)
{
	int ret = 0;

	if (!outs->pprof.path)
		return 0;
	if (outs->profile && kmem_pprof_write(outs->profile, outs->pprof.f) &&
	    !ferror(outs->pprof.f)) {
		fprintf(err, "%s: out of memory writing the pprof profile %s\n",
			kmem_prog, outs->pprof.path);
		kmem_out_discard(&outs->pprof);
		ret = -1;
	} else {
		ret = kmem_out_finish(&outs->pprof, err);
	}
	kmem_pprof_free(outs->profile);
	outs->profile = NULL;
	return ret;
}

/**
 * kmem_outputs_finish - close both destinations, renaming into place
 * @outs: the destinations
 * @err: where a failure is said
 *
 * Return: 0, or -1 when one could not be written.
 */
int kmem_outputs_finish(struct kmem_outputs *outs, FILE *err)
{
	int ret;

	kmem_outputs_note(outs);
	ret = finish_pprof(outs, err);
	ret |= kmem_out_finish(&outs->tables, err);
	ret |= kmem_out_finish(&outs->folded, err);
	ret |= kmem_out_finish(&outs->csv, err);
	ret |= kmem_out_finish(&outs->rows, err);
	return kmem_out_finish(&outs->json, err) | ret;
}

/**
 * kmem_outputs_hold - keep what goes to stdout until the end
 * @outs: the destinations, open, nothing written yet
 *
 * kmem_out_hold() of the one destination on stdout: for a run whose
 * reading may yet fail half-way, stdout gets all of its output or none.
 * Two on stdout (output=- and csv=-) are written as they come, each
 * report's parts in turn, as an unheld run writes them.
 *
 * Return: 0, or -1 when memory ran out (then written as it comes).
 */
int kmem_outputs_hold(struct kmem_outputs *outs)
{
	struct kmem_out *d[] = { &outs->tables, &outs->json, &outs->csv,
				 &outs->folded, &outs->rows };
	struct kmem_out *on = NULL;
	size_t i;

	for (i = 0; i < sizeof(d) / sizeof(d[0]); i++) {
		if (!d[i]->path || d[i]->f != stdout)
			continue;
		if (on)
			return 0;
		on = d[i];
	}
	return on ? kmem_out_hold(on) : 0;
}

/**
 * kmem_outputs_note - remember a closed pipe in @outs->broken_pipe
 * @outs: the destinations
 */
void kmem_outputs_note(struct kmem_outputs *outs)
{
	if (outs->tables.f && !outs->tables.failed &&
	    (fflush(outs->tables.f) || ferror(outs->tables.f)) &&
	    errno == EPIPE)
		outs->tables.broken_pipe = true;
	outs->broken_pipe |= outs->tables.broken_pipe ||
			     outs->json.broken_pipe || outs->csv.broken_pipe ||
			     outs->folded.broken_pipe ||
			     outs->pprof.broken_pipe || outs->rows.broken_pipe;
}

/**
 * kmem_outputs_discard - drop both destinations
 * @outs: the destinations
 */
void kmem_outputs_discard(struct kmem_outputs *outs)
{
	kmem_outputs_note(outs);
	kmem_out_discard(&outs->tables);
	kmem_out_discard(&outs->json);
	kmem_out_discard(&outs->csv);
	kmem_out_discard(&outs->folded);
	kmem_out_discard(&outs->pprof);
	kmem_out_discard(&outs->rows);
	kmem_pprof_free(outs->profile);
	outs->profile = NULL;
}
