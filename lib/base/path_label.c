// SPDX-License-Identifier: LGPL-2.1
/*
 * Input file labels (see path_label.h).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "path_label.h"
#include "utf8.h"

/**
 * kmem_relative_path - an absolute path as the user likely typed it
 * @abs: an absolute path
 *
 * Return: @abs past the current directory and its slash when @abs lies
 * below it, else @abs.
 */
const char *kmem_relative_path(const char *abs)
{
	char cwd[PATH_MAX];
	size_t n;

	if (!getcwd(cwd, sizeof(cwd)))
		return abs;
	n = strlen(cwd);
	if (n > 1 && !strncmp(abs, cwd, n) && abs[n] == '/')
		return abs + n + 1;
	return abs;
}

/**
 * kmem_path_label - the label of the input file @path
 * @buf: where the label goes
 * @len: size of @buf
 * @path: the file as given; kept as is if it cannot be resolved
 *
 * A control character of the name is written '?' (utf8_plain_line()):
 * the label titles tables on a terminal.
 */
void kmem_path_label(char *buf, size_t len, const char *path)
{
	char *abs = realpath(path, NULL);

	snprintf(buf, len, "%s", abs ? kmem_relative_path(abs) : path);
	free(abs);
	utf8_plain_line(buf); /* a title: no escape sequence reaches a tty */
}
