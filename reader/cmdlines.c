// SPDX-License-Identifier: LGPL-2.1
/*
 * The saved command lines ("PID COMM" a line) into the tep handle, read
 * as tep_parse_saved_cmdlines() reads them, without its sscanf() a line:
 * that was 13.5 M of the 94 M instructions trace-kmem stat spent on a
 * trace of 6,597 events (callgrind), on its critical path.  The same
 * lines register the same comms in the same order; the same line ends
 * the table:
 *
 *  - lines are the runs of characters between newlines (strtok_r(): an
 *    empty line is no line), up to the first NUL;
 *  - "%d": white space, an optional sign, decimal digits (at least one);
 *    a value beyond a long ends the table (strtol()'s ERANGE), one beyond
 *    an int is truncated to it, as glibc's scanf stores a long into an
 *    int;
 *  - " ": any white space;
 *  - "%m[^\n]": the rest of the line, at least one character, or the
 *    table ends.
 *
 * With &tdat_hooks.lazy_cmdlines the text is kept until tdat_comms():
 * 6.1 M of the 66.9 M instructions of trace-kmem stat on a v6 trace
 * whose table was full (6,552 comms) went to registering them, and a
 * default report names no task.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* isspace() of the C locale; no newline reaches it */
static bool space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/*
 * "%d" at *@pp: its value in *@pid, *@pp past it.  Return: false when
 * there is no number or it is beyond a long.
 */
static bool read_pid(const char **pp, const char *end, int *pid)
{
	const char *p = *pp;
	unsigned long long v = 0;
	unsigned long long most = (unsigned long long)LONG_MAX;
	bool neg = false;

	while (p < end && space(*p))
		p++;
	if (p < end && (*p == '+' || *p == '-')) {
		neg = *p == '-';
		p++;
	}
	if (p == end || *p < '0' || *p > '9')
		return false;
	if (neg)
		most++; /* LONG_MIN */
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		unsigned int d = (unsigned int)(*p - '0');

		if (v > (most - d) / 10)
			return false;
		v = v * 10 + d;
	}
	/* a long, stored into an int: its low 32 bits */
	*pid = (int)(unsigned int)(neg ? 0 - v : v);
	*pp = p;
	return true;
}

/**
 * tdat_parse_cmdlines - register the comms of a saved_cmdlines text
 * @tep: the handle
 * @text: the text, NUL-terminated
 *
 * Return: 0, or -1 when a line ended the table early or memory ran out
 * (as tep_parse_saved_cmdlines(); the lines before it are registered).
 */
int tdat_parse_cmdlines(struct tep_handle *tep, const char *text)
{
	const char *p = text, *end = text + strlen(text);
	char stack[64], *comm;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *q;
		size_t len;
		int pid;

		if (!eol)
			eol = end;
		if (eol == p) { /* an empty line */
			p++;
			continue;
		}
		q = p;
		if (!read_pid(&q, eol, &pid))
			return -1;
		while (q < eol && space(*q))
			q++;
		if (q == eol)
			return -1;
		/* q < eol <= end; the bound said for GCC 14's ASan build */
		len = (size_t)(eol - q);
		if (len >= (size_t)PTRDIFF_MAX)
			return -1;
		comm = len < sizeof(stack) ? stack : malloc(len + 1);
		if (!comm)
			return -1;
		memcpy(comm, q, len);
		comm[len] = '\0';
		tep_register_comm(tep, comm, pid);
		if (comm != stack)
			free(comm);
		p = eol;
	}
	return 0;
}

/**
 * tdat_comms - register the saved command lines now, if left for later
 * @f: the file, opened with &tdat_hooks.lazy_cmdlines (else nothing to do)
 *
 * The comms the file saved go into tdat_tep(@f) as they would have at
 * its opening; their text is freed.  Calling it again does nothing.  Not
 * thread-safe: the caller serializes it with its other uses of the
 * handle.
 *
 * Return: 0, or -1 when a line ended the table early or memory ran out
 * (as at the opening, which says nothing of it either).
 */
int tdat_comms(struct tdat_file *f)
{
	char *text = f->cmdlines;
	int ret;

	if (!text)
		return 0;
	f->cmdlines = NULL;
	ret = tdat_parse_cmdlines(f->tep, text);
	free(text);
	return ret;
}
