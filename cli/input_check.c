// SPDX-License-Identifier: LGPL-2.1
/*
 * Before libtracecmd sees a file: is it there, a file (not a pipe),
 * readable, non-empty and a trace-cmd data file, and given once?  One
 * line naming the file and the problem.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "input_check.h"

static const char trace_magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c',
				    'i', 'n', 'g' };
static const char perf_magic[] = "PERFILE2";

/* Does the file on @fd start with trace.dat's magic?  Reads it. */
static bool trace_magic_at(int fd)
{
	char head[sizeof(trace_magic)];

	return read(fd, head, sizeof(head)) == (ssize_t)sizeof(head) &&
	       !memcmp(head, trace_magic, sizeof(head));
}

/**
 * tk_is_trace - does @path start as a trace.dat does?  (No message.)
 * @path: the file; opened without waiting (a FIFO)
 *
 * Return: true if it opens and begins with trace.dat's magic.
 */
bool tk_is_trace(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK);
	bool yes;

	if (fd < 0)
		return false;
	yes = trace_magic_at(fd);
	close(fd);
	return yes;
}

/*
 * What is wrong with @path before it is opened, or NULL when it is a
 * regular file (or cannot be stat()ed: open() says why).  A trace.dat is
 * read with seeks, and opened more than once: a pipe would be opened
 * again after its writer has gone (and wait for ever), a device or a
 * socket read as a stream.  stat() does not wait as open() on a FIFO
 * does.
 */
static const char *not_a_file(const char *path)
{
	struct stat st;

	if (!strcmp(path, "-"))
		return "standard input is not read: a trace.dat is read "
		       "with seeks; give its file";
	if (stat(path, &st) || S_ISREG(st.st_mode))
		return NULL; /* said below, with open()'s error */
	if (S_ISDIR(st.st_mode))
		return "is a directory, not a trace-cmd data file";
	if (S_ISFIFO(st.st_mode))
		return "a pipe, not a file: a trace.dat is read with seeks; "
		       "save it to a file first";
	if (S_ISSOCK(st.st_mode))
		return "a socket, not a trace-cmd data file";
	return "a device, not a trace-cmd data file";
}

/**
 * tk_check_input - can @path be a trace.dat?
 * @path: the file
 *
 * Return: 0, or -1 after one line on stderr.
 */
int tk_check_input(const char *path)
{
	char magic[sizeof(perf_magic) - 1];
	const char *why = not_a_file(path);
	struct stat st;
	ssize_t n;
	int fd;

	if (why) {
		fprintf(stderr, TK_NAME ": %s: %s\n", path, why);
		return -1;
	}
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, TK_NAME ": %s: %s\n", path,
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!st.st_size)
		why = "empty file, not a trace-cmd data file";
	if (!why) {
		n = pread(fd, magic, sizeof(magic), 0);
		if (n == (ssize_t)sizeof(magic) &&
		    !memcmp(magic, perf_magic, sizeof(magic)))
			why = "a perf.data file, not a trace-cmd data file "
			      "(try perf kmem stat)";
		else if (!trace_magic_at(fd))
			why = "not a trace-cmd data file (bad magic)";
	}
	close(fd);
	if (why) {
		fprintf(stderr, TK_NAME ": %s: %s\n", path, why);
		return -1;
	}
	return 0;
}

/**
 * tk_check_distinct - is each file given once?
 * @paths: the files of a report that sums them (stat's, a --merge group)
 * @n: how many
 *
 * A trace given twice, under one name or two (a link, ./x and x), would
 * be counted twice in the summed report; one line names it.  Files that
 * cannot be looked at are left to tk_check_input().
 *
 * Return: 0, or -1 after the line.
 */
int tk_check_distinct(const char **paths, int n)
{
	struct stat a, b;
	int i, k;

	for (i = 1; i < n; i++) {
		if (stat(paths[i], &a))
			continue;
		for (k = 0; k < i; k++) {
			if (stat(paths[k], &b) || a.st_dev != b.st_dev ||
			    a.st_ino != b.st_ino)
				continue;
			if (!strcmp(paths[i], paths[k]))
				fprintf(stderr,
					TK_NAME ": %s: given twice; give each "
						"trace once\n",
					paths[i]);
			else
				fprintf(stderr,
					TK_NAME ": %s and %s are the same "
						"file; give each trace once\n",
					paths[k], paths[i]);
			return -1;
		}
	}
	return 0;
}
