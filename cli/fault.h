/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A last line of defence around libtracecmd: some damaged files make
 * it fault (libtracecmd 3.1.6 crashes in its own cleanup after finding
 * a truncated v6 file, divides by a page size of 0, frees twice).
 * While a file is being read, SIGSEGV, SIGBUS, SIGFPE and SIGABRT print
 * one line naming it and exit with status 2.  While the native reader's
 * records are counted (tk_fault_guard_counting()) and while the report
 * is written (tk_fault_guard_report()), a fault but SIGBUS is
 * trace-kmem's own defect, said as such, and ends the process by the
 * signal.
 */
#ifndef TRACE_KMEM_FAULT_H
#define TRACE_KMEM_FAULT_H

#include <stdbool.h>

void tk_fault_guard(const char *file);
void tk_fault_guard_line(const char *line);
void tk_fault_guard_report(const char *label);
void tk_fault_guard_counting(const char *label);
void tk_fault_test(const char *where);
void tk_fault_say(void);
void tk_stderr_quiet(bool on);
void tk_say_on_terminal(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

#endif
