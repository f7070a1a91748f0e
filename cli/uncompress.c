// SPDX-License-Identifier: LGPL-2.1
/*
 * Opening an input, uncompressed first when that is faster (see
 * uncompress.h).  $TRACE_KMEM_CONVERT: "always" (tests), "never", or
 * unset (files of TK_CONVERT_MIN bytes and more).  If trace-cmd is not
 * there or the copy fails (no space), the file is read as it is.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "event/tep_names.h"
#include "fault.h"
#include "uncompress.h"

/* Format 7 with a compression other than "none"? */
static bool compressed(const char *path)
{
	char head[64], *p, *end;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return false;
	n = read(fd, head, sizeof(head) - 1);
	close(fd);
	if (n < 20)
		return false;
	head[n] = '\0';
	end = head + n;
	p = head + 10;			/* magic */
	if (strcmp(p, "7"))		/* version string */
		return false;
	p += 2 + 1 + 1 + 4;		/* "7\0", endian, long size, page size */
	return p < end && *p && strcmp(p, "none");
}

static bool wanted(const char *path)
{
	const char *env = getenv("TRACE_KMEM_CONVERT");
	struct stat st;

	if (env && !strcmp(env, "never"))
		return false;
	if (!compressed(path))
		return false;
	if (env && !strcmp(env, "always"))
		return true;
	return !stat(path, &st) && st.st_size >= TK_CONVERT_MIN;
}

/* trace-cmd convert -i @path -o @out --compression none */
static int convert(const char *path, const char *out)
{
	int status, null;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		null = open("/dev/null", O_WRONLY);
		if (null >= 0) {
			dup2(null, STDOUT_FILENO);
			dup2(null, STDERR_FILENO);
		}
		execlp("trace-cmd", "trace-cmd", "convert", "-i", path, "-o",
		       out, "--compression", "none", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

/*
 * Exported by libtracecmd 1.x (trace-cmd's own tools use them) but not
 * declared in trace-cmd.h: tracecmd_open() in two steps, so that the
 * print functions of old kernels' formats are registered before the
 * formats are parsed (kmem_tep_register_functions()).
 */
struct tracecmd_input *tracecmd_alloc(const char *file, int flags);
int tracecmd_read_headers(struct tracecmd_input *handle, int state);

static struct tracecmd_input *open_file(const char *path)
{
	struct tracecmd_input *h;

	h = tracecmd_alloc(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h)
		return NULL;
	kmem_tep_register_functions(tracecmd_get_tep(h));
	if (tracecmd_read_headers(h, 0) < 0 || tracecmd_init_data(h) < 0) {
		tracecmd_close(h);
		return NULL;
	}
	return h;
}

/* An uncompressed copy of @path opened, or NULL. */
static struct tracecmd_input *open_copy(const char *path)
{
	const char *dir = getenv("TMPDIR");
	struct tracecmd_input *h = NULL;
	char tmp[4096];
	int fd;

	snprintf(tmp, sizeof(tmp), "%s/trace-kmem-XXXXXX",
		 dir && *dir ? dir : "/tmp");
	fd = mkstemp(tmp);
	if (fd < 0)
		return NULL;
	close(fd);
	if (!convert(path, tmp))
		h = open_file(tmp);
	unlink(tmp);	/* libtracecmd keeps its descriptor */
	return h;
}

/**
 * tk_open_input - open a trace.dat for reading, without plugins
 * @path: the file
 * @as_is: no uncompressed copy (a damaged file: the copy would lose what
 *         libtracecmd drops, and its record offsets would not be the
 *         file's, which the native reader's scan names)
 *
 * Return: the handle, or NULL (libtracecmd could not read it).
 */
struct tracecmd_input *tk_open_input(const char *path, bool as_is)
{
	struct tracecmd_input *h = NULL;

	if (!as_is && wanted(path)) {
		/* it takes time and the uncompressed size in $TMPDIR: said on
		 * a terminal (stderr is quiet here: the saved one) */
		tk_say_on_terminal(TK_NAME ": %s: compressed: reading an "
				   "uncompressed copy in %s (trace-cmd convert; "
				   "the native reader needs none)\n", path,
				   getenv("TMPDIR") && *getenv("TMPDIR") ?
				   getenv("TMPDIR") : "/tmp");
		h = open_copy(path);
	}
	if (!h)
		h = open_file(path);
	return h;
}
