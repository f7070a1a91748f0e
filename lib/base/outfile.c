// SPDX-License-Identifier: LGPL-2.1
/*
 * Output files written atomically (see outfile.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "msg.h"
#include "outfile.h"

/* N of "/dev/fd/N" or "/proc/self/fd/N", else -1. */
static int fd_of_path(const char *path)
{
	const char *p = NULL;
	char *end;
	long n;

	if (!strncmp(path, "/dev/fd/", 8))
		p = path + 8;
	else if (!strncmp(path, "/proc/self/fd/", 14))
		p = path + 14;
	if (!p || *p < '0' || *p > '9')
		return -1;
	n = strtol(p, &end, 10);
	return *end || n > 1 << 20 ? -1 : (int)n;
}

/*
 * The stream already writing @path: stdout or stderr by name, or the
 * file that one of them writes; else NULL.
 */
static FILE *open_stream_of(const char *path)
{
	struct stat st, s1;
	int fd = fd_of_path(path);

	if (!strcmp(path, "-") || !strcmp(path, "/dev/stdout") || fd == 1)
		return stdout;
	if (!strcmp(path, "/dev/stderr") || fd == 2)
		return stderr;
	if (fd >= 0 || stat(path, &st))
		return NULL;
	for (fd = 1; fd <= 2; fd++)
		if (!fstat(fd, &s1) && S_ISREG(s1.st_mode) &&
		    s1.st_dev == st.st_dev && s1.st_ino == st.st_ino)
			return fd == 1 ? stdout : stderr;
	return NULL;
}

/* /dev/fd/N for N >= 3: a stream on a copy of the descriptor (opening
 * the name would truncate what it writes). */
static FILE *open_fd(const char *path)
{
	int fd = fd_of_path(path), d;
	FILE *f;

	if (fd < 3)
		return NULL;
	d = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (d < 0)
		return NULL;
	f = fdopen(d, "a");
	if (!f)
		close(d);
	return f;
}

/*
 * The temporary files not yet renamed into place, for a front end's
 * signal handler (kmem_out_unlink_pending()): their paths, or NULL.
 */
#define MAX_PENDING 16
static char *volatile pending[MAX_PENDING];

static void pend(char *tmp, bool on)
{
	int i;

	for (i = 0; i < MAX_PENDING; i++)
		if (on ? !pending[i] : pending[i] == tmp) {
			pending[i] = on ? tmp : NULL;
			return;
		}
}

/**
 * kmem_out_unlink_pending - remove the temporary files of the outputs
 * @void: none
 *
 * For a signal handler that ends the process (^C during trace-kmem
 * stat): the files that would have been renamed into place are removed,
 * the outputs' old files stay as they were.  Async-signal-safe.
 */
void kmem_out_unlink_pending(void)
{
	int i;

	for (i = 0; i < MAX_PENDING; i++)
		if (pending[i])
			unlink(pending[i]);
}

/*
 * A temporary file beside @path: "DIR/.NAME.XXXXXX", with the mode a new
 * file gets, or an existing file's mode and (as root) owner: replacing a
 * private report must not make it world-readable.
 */
static FILE *open_tmp(const char *path, char **tmp)
{
	struct stat old;
	const char *slash = strrchr(path, '/');
	size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
	mode_t um;
	FILE *f;
	int fd;

	*tmp = malloc(strlen(path) + 16);
	if (!*tmp)
		return NULL;
	memcpy(*tmp, path, dir);
	sprintf(*tmp + dir, ".%s.XXXXXX", path + dir);
	fd = mkostemp(*tmp, O_CLOEXEC);
	if (fd < 0) {
		free(*tmp);
		*tmp = NULL;
		return NULL;
	}
	/* the mode a new file gets, not mkstemp's 0600; or the old file's */
	um = umask(0);
	umask(um);
	if (!stat(path, &old) && S_ISREG(old.st_mode)) {
		fchmod(fd, old.st_mode & 07777);
		if (!geteuid() && fchown(fd, old.st_uid, old.st_gid))
			fchmod(fd, old.st_mode & 0777 & ~um);
	} else {
		fchmod(fd, 0666 & ~um);
	}
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(*tmp);
		free(*tmp);
		*tmp = NULL;
	}
	return f;
}

/**
 * kmem_out_open - open a destination before anything is written to it
 * @o: filled in
 * @path: the path, "-" or a /dev/fd name
 * @what: what goes there ("output", "JSON"), for messages
 * @append: add to the file as it is (a later input of the same run)
 * @err: where a failure is said
 *
 * Return: 0, or -1 after one line on @err.
 */
int kmem_out_open(struct kmem_out *o, const char *path, const char *what,
		  bool append, FILE *err)
{
	struct stat st;

	memset(o, 0, sizeof(*o));
	o->path = path;
	o->what = what;
	o->f = open_stream_of(path);
	if (o->f)
		return 0;
	o->own = true;
	if (fd_of_path(path) >= 0)
		o->f = open_fd(path);
	else if (append || (!stat(path, &st) && !S_ISREG(st.st_mode)))
		o->f = fopen(path, append ? "ae" : "we");	/* a device */
	else {
		/* a symlink stays one: the file it points to is replaced */
		if (!lstat(path, &st) && S_ISLNK(st.st_mode))
			o->target = realpath(path, NULL);
		o->f = open_tmp(o->target ? o->target : path, &o->tmp);
		if (o->tmp)
			pend(o->tmp, true);
	}
	if (!o->f) {
		fprintf(err, "%s: cannot write %s '%s': %s\n", kmem_prog, what,
			path, strerror(errno));
		free(o->target);
		o->target = NULL;
		o->path = NULL;
		return -1;
	}
	return 0;
}

/**
 * kmem_out_hold - keep what goes to stdout until the end
 * @o: a destination, open, nothing written to it yet
 *
 * For a reading that may yet fail half-way (libtracecmd faulting on a
 * later buffer or file, the process then ending on one line): stdout
 * gets all of the output or none of it.  A file is renamed into place at
 * the end already.
 *
 * Return: 0, or -1 when memory ran out (the output then goes out as it
 * is written).
 */
int kmem_out_hold(struct kmem_out *o)
{
	FILE *m;

	if (!o->path || o->f != stdout)
		return 0;
	m = open_memstream(&o->held, &o->held_len);
	if (!m)
		return -1;
	o->shown = o->f;
	o->f = m;
	o->own = true;
	return 0;
}

/* A held destination's output, to the stream it shows on. */
static void release_held(struct kmem_out *o)
{
	bool ok = !fclose(o->f);

	o->f = o->shown;
	o->own = false;
	o->shown = NULL;
	if (ok && o->held_len)
		fwrite(o->held, 1, o->held_len, o->f);
	else if (!ok)
		o->failed = true; /* out of memory: nothing shown */
	free(o->held);
	o->held = NULL;
}

/**
 * kmem_out_check - has everything written so far reached the file?
 * @o: the destination
 * @err: where a failure is said (once)
 *
 * A closed pipe (EPIPE, with SIGPIPE ignored) is not said: the front end
 * ends quietly, as cat does (kmem_outputs.broken_pipe).
 *
 * Return: 0, or -1 after one line on @err.
 */
int kmem_out_check(struct kmem_out *o, FILE *err)
{
	if (!o->path || o->failed)
		return o->failed ? -1 : 0;
	if (!fflush(o->f) && !ferror(o->f))
		return 0;
	o->failed = true;
	/* a reader that went away (| head): quiet, as cat is */
	if (errno == EPIPE)
		o->broken_pipe = true;
	else
		fprintf(err, "%s: error writing %s '%s': %s\n", kmem_prog,
			o->what, o->path, strerror(errno ? errno : EIO));
	return -1;
}

/**
 * kmem_out_finish - everything written: close, and rename into place
 * @o: the destination (nothing happens when it was not opened)
 * @err: where a failure is said
 *
 * Return: 0, or -1 after one line on @err (the temporary file is gone,
 * an older file at the path is left as it was).
 */
int kmem_out_finish(struct kmem_out *o, FILE *err)
{
	int ret = 0, e;

	if (!o->path)
		return 0;
	if (o->shown && !o->failed)
		release_held(o);
	if (o->failed) {
		kmem_out_discard(o);
		return -1;
	}
	if (fflush(o->f) || ferror(o->f))
		ret = -1;
	e = errno;
	if (ret && e == EPIPE) {
		kmem_out_discard(o);
		return -1;	/* quiet: see kmem_out_check() */
	}
	if (o->own && fclose(o->f) && !ret) {
		ret = -1;
		e = errno;
	}
	if (!ret && o->tmp && rename(o->tmp, o->target ? o->target : o->path)) {
		ret = -1;
		e = errno;
	}
	if (ret) {
		fprintf(err, "%s: error writing %s '%s': %s\n", kmem_prog,
			o->what, o->path, strerror(e ? e : EIO));
		if (o->tmp)
			unlink(o->tmp);
	}
	pend(o->tmp, false);
	free(o->tmp);
	free(o->target);
	memset(o, 0, sizeof(*o));
	return ret;
}

/**
 * kmem_out_discard - drop a destination: nothing is put in place
 * @o: the destination
 */
void kmem_out_discard(struct kmem_out *o)
{
	if (o->path && o->own)
		fclose(o->f);
	free(o->held);
	if (o->tmp) {
		pend(o->tmp, false);
		unlink(o->tmp);
		free(o->tmp);
	}
	free(o->target);
	memset(o, 0, sizeof(*o));
}
