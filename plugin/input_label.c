// SPDX-License-Identifier: LGPL-2.1
/*
 * Which trace file is trace-cmd opening?
 *
 * libtraceevent hands a plugin only the tep handle, not the file it
 * belongs to.  trace-cmd loads the plugins right after opening each
 * input and keeps earlier inputs open, so at load time the open trace
 * files (by their magic) are the inputs so far, the newest on the
 * highest descriptor.
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/path_label.h"
#include "base/utf8.h"
#include "input_label.h"

static const char trace_magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c',
				    'i', 'n', 'g' };

static int is_trace_file(int fd, char *path, size_t len)
{
	char link[64], magic[sizeof(trace_magic)];
	struct stat st;
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, len - 1);
	if (n <= 0)
		return 0;
	path[n] = '\0';
	if (fstat(fd, &st) || !S_ISREG(st.st_mode))
		return 0;
	if (pread(fd, magic, sizeof(magic), 0) != (ssize_t)sizeof(magic))
		return 0;
	return !memcmp(magic, trace_magic, sizeof(magic));
}

/**
 * input_label - name and position of the trace file being opened
 * @buf: set to the file's label ("(unknown input)" if none is found)
 * @len: size of @buf
 * @file: set to the file's path ("" if none is found)
 * @file_len: size of @file
 *
 * Return: how many trace files are open (1 for the first input), at
 * least 1.
 */
int input_label(char *buf, size_t len, char *file, size_t file_len)
{
	char path[PATH_MAX];
	struct dirent *d;
	int best = -1, count = 0;
	DIR *dir;

	snprintf(buf, len, "(unknown input)");
	snprintf(file, file_len, "%s", "");
	dir = opendir("/proc/self/fd");
	if (!dir)
		return 1;
	while ((d = readdir(dir))) {
		int fd = atoi(d->d_name);

		if (fd <= 2 || fd == dirfd(dir))
			continue;
		if (!is_trace_file(fd, path, sizeof(path)))
			continue;
		count++;
		if (fd > best) {
			best = fd;
			snprintf(buf, len, "%s", kmem_relative_path(path));
			utf8_plain_line(buf); /* no escape to a tty */
			snprintf(file, file_len, "%s", path);
		}
	}
	closedir(dir);
	return count ? count : 1;
}
