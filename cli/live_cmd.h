/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The workload of trace-kmem live: COMMAND started held on a pipe, so
 * its pid can be traced before it runs a single instruction of its own.
 */
#ifndef TRACE_KMEM_LIVE_CMD_H
#define TRACE_KMEM_LIVE_CMD_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

/*
 * The signals that stop trace-kmem live as SIGINT does (the tables, the
 * instance removed; the COMMAND gets them too), and that COMMAND gets
 * back to their defaults.
 */
#define LIVE_STOP_SIGNALS                                                      \
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM

struct live_cmd {
	pid_t pid;		/* 0: none */
	int gate;		/* write end: closing it lets the command go */
	int exec_err;		/* read end: the child's errno if exec failed */
	bool exited;
	bool not_run;		/* exec failed: said already */
	int status;
};

int live_cmd_fork(struct live_cmd *c, char **argv);
int live_cmd_release(struct live_cmd *c, char **argv);
bool live_cmd_done(struct live_cmd *c);
void live_cmd_signal(struct live_cmd *c, int sig);
void live_cmd_abandon(struct live_cmd *c);
void live_cmd_report(const struct live_cmd *c, char **argv);

#endif
