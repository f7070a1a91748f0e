/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Where the tables, the JSON or the folded stacks go: stdout, another
 * open stream, or a file written atomically.  A file is written to a
 * temporary file in its directory and renamed over the path at the end,
 * so that a full disk or an error leaves the old file or none, never
 * half a file; it is opened before anything is read, so that a path that
 * cannot be written costs one line and no work.  A symlink stays one
 * (the file it points to is replaced), and a file replaced keeps its
 * mode (and, written by root, its owner).  "-", /dev/stdout,
 * /dev/stderr and /dev/fd/N go through the stream already open, and so
 * does a path naming the file that stdout or stderr already writes
 * (trace-cmd report > all.txt with output=all.txt): it is never
 * truncated under them.
 */
#ifndef KMEM_OUTFILE_H
#define KMEM_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

/* One destination. */
struct kmem_out {
	const char *path;	/* as given; NULL: not written */
	const char *what;	/* "output", "JSON", for messages */
	FILE *f;
	char *tmp;		/* renamed to path at the end, or NULL */
	char *target;		/* where a symlink at path points, or NULL */
	bool own;		/* f is ours to close */
	bool failed;		/* a write failed (said once) */
	bool broken_pipe;	/* ... because the reader went away */
};

int kmem_out_open(struct kmem_out *o, const char *path, const char *what,
		  bool append, FILE *err);
int kmem_out_check(struct kmem_out *o, FILE *err);
int kmem_out_finish(struct kmem_out *o, FILE *err);
void kmem_out_discard(struct kmem_out *o);
void kmem_out_unlink_pending(void);

#endif
