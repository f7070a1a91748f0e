// SPDX-License-Identifier: LGPL-2.1
/*
 * The fault guard (see fault.h).  The message is prepared before the
 * risky calls; the handler only write()s it and _exit()s.
 */
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "fault.h"
#include "memlimit.h"

/* a line naming a file of up to PATH_MAX bytes, and the damage */
static char fault_msg[PATH_MAX + 512], fault_msg_mem[PATH_MAX + 700];
/* the handler's own stack: libtracecmd's endless recursion on options
 * sections that point to themselves ends in a stack overflow */
static char alt_stack[64 << 10];
static size_t fault_len, fault_len_mem;
/* once the trace is read (tk_fault_guard_report()): a fault but SIGBUS
 * is trace-kmem's own, said as such */
static char bug_msg[PATH_MAX + 256];
static volatile sig_atomic_t bug_len;
static int saved_stderr = -1;	/* while tk_stderr_quiet() */

/* The guard's line, with the memory limit's words if it was hit. */
static void say(void)
{
	bool mem = tk_memlimit_hit();
	ssize_t n = write(saved_stderr >= 0 ? saved_stderr : STDERR_FILENO,
			  mem ? fault_msg_mem : fault_msg,
			  mem ? fault_len_mem : fault_len);

	(void)n;
}

static void on_fault(int sig)
{
	ssize_t n;

	if (bug_len && sig != SIGBUS) {
		sigset_t set;

		n = write(saved_stderr >= 0 ? saved_stderr : STDERR_FILENO,
			  bug_msg, (size_t)bug_len);
		(void)n;
		/* its own status, and a core: the default action, the signal
		 * no longer blocked as it is inside its handler */
		signal(sig, SIG_DFL);
		sigemptyset(&set);
		sigaddset(&set, sig);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		raise(sig);
		_exit(128 + sig);
	}
	say();
	_exit(TK_ENV);
}

/* @line (no newline) is what the guard says, and tk_fault_say(). */
static void set_line(const char *line)
{
	snprintf(fault_msg, sizeof(fault_msg), "%.*s\n",
		 (int)sizeof(fault_msg) - 2, line);
	fault_len = strlen(fault_msg);
	/* the limit's words, if it is hit (tk_memlimit_note()) */
	tk_memlimit_hit_note(fault_msg_mem, sizeof(fault_msg_mem), fault_msg);
	fault_len_mem = strlen(fault_msg_mem);
}

/**
 * tk_fault_guard - name the file being read, or stop guarding
 * @file: the file, or NULL to restore the default actions
 */
void tk_fault_guard(const char *file)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	bug_len = 0;
	if (!file) {
		sa.sa_handler = SIG_DFL;
	} else {
		stack_t st = { .ss_sp = alt_stack, .ss_size = sizeof(alt_stack) };
		char line[sizeof(fault_msg)];

		sigaltstack(&st, NULL);	/* this thread's: libtracecmd opens here */
		sa.sa_flags = SA_ONSTACK;
		snprintf(line, sizeof(line),
			 TK_NAME ": %s: cannot read the trace (truncated or "
				 "corrupt file)",
			 file);
		set_line(line);
		sa.sa_handler = on_fault;
	}
	/* SIGFPE: a page size of 0 divides by zero in libtracecmd;
	 * SIGABRT: glibc's double-free check inside it */
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGFPE, &sa, NULL);
	sigaction(SIGABRT, &sa, NULL);
}

/* From now on a fault but SIGBUS is trace-kmem's own defect, met while
 * @doing: said as such.  @label NULL: the guard's line again. */
static void set_bug(const char *label, const char *doing)
{
	bug_len = 0;
	if (!label)
		return;
	snprintf(bug_msg, sizeof(bug_msg),
		 TK_NAME ": %s: crashed %s: a defect of trace-kmem; please "
			 "report it\n",
		 label, doing);
	bug_len = (sig_atomic_t)strlen(bug_msg);
}

/**
 * tk_fault_guard_report - the trace is read: its report is written next
 * @label: the report's input; NULL: the report is written
 *
 * A fault in between is a defect of trace-kmem, not damage in the
 * file: it is said so, and the process ends by the signal.  SIGBUS
 * still means the file shrank under its mapping (the guard's line).
 */
void tk_fault_guard_report(const char *label)
{
	set_bug(label, "writing the report, after reading the trace");
}

/**
 * tk_fault_guard_counting - the native reader's records are counted next
 * @label: the input; NULL: they are counted
 *
 * The native reader checks every size, offset and count it reads, and
 * skips and says the damage it finds; while its records are counted no
 * other library reads the file (libzstd and zlib only inflate chunks
 * it has checked).  So a fault in between is trace-kmem's own defect,
 * said so as tk_fault_guard_report() says it, not "truncated or corrupt
 * file": a test of damaged files then fails on it.  SIGBUS still means
 * the file shrank under its mapping.
 */
void tk_fault_guard_counting(const char *label)
{
	set_bug(label, "counting the records");
}

/**
 * tk_fault_test - a fault on purpose, for the tests of the guard
 * @where: the point's name
 *
 * $TRACE_KMEM_TEST_FAULT=@where raises SIGSEGV here: what the guard
 * says of a fault at each point of a run is then checked without a
 * defect to find one.
 */
void tk_fault_test(const char *where)
{
	const char *v = getenv("TRACE_KMEM_TEST_FAULT");

	if (v && !strcmp(v, where))
		raise(SIGSEGV);
}

/**
 * tk_fault_guard_line - what the guard says instead, for this file
 * @line: the whole line, without its newline
 *
 * After tk_fault_guard(file): a line that knows more of the file (the
 * damage the native reader's scan found in it).
 */
void tk_fault_guard_line(const char *line)
{
	set_line(line);
}

/**
 * tk_fault_say - say the guard's line, for a failure without a fault
 *
 * libtracecmd refused the file the guard was set for: the line it
 * would have said, with the memory limit's words if it was hit.
 */
void tk_fault_say(void)
{
	say();
}

/**
 * tk_stderr_quiet - send what a library prints on stderr to /dev/null
 * @on: true to start, false to restore stderr
 *
 * libtracecmd prints perror() and other lines of its own while opening
 * some damaged files ("mmap: Unknown error -22", "Can not mmap file"),
 * where trace-kmem says one line.  The fault guard's line still goes to
 * the real stderr.
 */
void tk_stderr_quiet(bool on)
{
	int null;

	fflush(stderr);
	if (on && saved_stderr < 0) {
		null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (null < 0)
			return;
		saved_stderr = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
		if (saved_stderr >= 0)
			dup2(null, STDERR_FILENO);
		close(null);
	} else if (!on && saved_stderr >= 0) {
		dup2(saved_stderr, STDERR_FILENO);
		close(saved_stderr);
		saved_stderr = -1;
	}
}

/**
 * tk_say_on_terminal - a line for the user at a terminal
 * @fmt: printf format of the line
 *
 * Written to the real stderr, also while tk_stderr_quiet() holds it,
 * and only when that is a terminal.
 */
void tk_say_on_terminal(const char *fmt, ...)
{
	int fd = saved_stderr >= 0 ? saved_stderr : STDERR_FILENO;
	char line[1024];
	va_list ap;
	ssize_t n;

	if (!isatty(fd))
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	n = write(fd, line, strlen(line));
	(void)n;
}
