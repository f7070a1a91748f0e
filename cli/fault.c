// SPDX-License-Identifier: LGPL-2.1
/*
 * The fault guard (see fault.h).  The message is prepared before the
 * risky calls; the handler only write()s it and _exit()s.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "fault.h"

static char fault_msg[512];
static size_t fault_len;

static void on_fault(int sig)
{
	ssize_t n = write(STDERR_FILENO, fault_msg, fault_len);

	(void)n;
	(void)sig;
	_exit(TK_ENV);
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
	if (!file) {
		sa.sa_handler = SIG_DFL;
	} else {
		snprintf(fault_msg, sizeof(fault_msg), TK_NAME ": %s: cannot "
			 "read the trace (truncated or corrupt file)\n", file);
		fault_len = strlen(fault_msg);
		sa.sa_handler = on_fault;
	}
	/* SIGFPE: a page size of 0 divides by zero in libtracecmd;
	 * SIGABRT: glibc's double-free check inside it */
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGFPE, &sa, NULL);
	sigaction(SIGABRT, &sa, NULL);
}
