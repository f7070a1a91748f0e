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
	/* kmem_out_hold(): what goes to @shown is kept in @held (@f, a
	 * memory stream) until kmem_out_finish() */
	FILE *shown;
	char *held;
	size_t held_len;
};

int kmem_out_open(struct kmem_out *o, const char *path, const char *what,
		  bool append, FILE *err);
int kmem_out_check(struct kmem_out *o, FILE *err);
int kmem_out_finish(struct kmem_out *o, FILE *err);
void kmem_out_discard(struct kmem_out *o);
int kmem_out_hold(struct kmem_out *o);

/**
 * kmem_out_stream - the stream a destination shows its output on
 * @o: the destination
 *
 * Return: where it goes (stdout for one held by kmem_out_hold(): a
 * terminal's width is still that terminal's).
 */
static inline FILE *kmem_out_stream(const struct kmem_out *o)
{
	return o->shown ? o->shown : o->f;
}
void kmem_out_unlink_pending(void);

#endif
