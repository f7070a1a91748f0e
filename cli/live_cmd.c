// SPDX-License-Identifier: LGPL-2.1
/*
 * The command trace-kmem live runs and follows (see live_cmd.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "live_cmd.h"

/**
 * live_cmd_fork - start @argv, held before exec
 * @c: the command
 * @argv: COMMAND [ARGS...]
 *
 * Return: 0, or -1 after a line on stderr.
 */
int live_cmd_fork(struct live_cmd *c, char **argv)
{
	static const int stop[] = { LIVE_STOP_SIGNALS };
	int gate[2], err[2], e;
	size_t i;
	char x;

	memset(c, 0, sizeof(*c));
	if (pipe2(gate, O_CLOEXEC))
		goto fail;
	if (pipe2(err, O_CLOEXEC)) {
		close(gate[0]);
		close(gate[1]);
		goto fail;
	}
	c->pid = fork();
	if (c->pid < 0) {
		c->pid = 0;
		goto fail;
	}
	if (!c->pid) {
		close(gate[1]);
		close(err[0]);
		for (i = 0; i < sizeof(stop) / sizeof(stop[0]); i++)
			signal(stop[i], SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		/* the gate closes without a byte if trace-kmem gives up */
		if (read(gate[0], &x, 1) != 1)
			_exit(127);
		close(gate[0]);
		/* nothing of ours goes with it (libtracefs opens without
		 * O_CLOEXEC); the exec error pipe is close-on-exec already */
		close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
		execvp(argv[0], argv);
		e = errno;
		if (write(err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(gate[0]);
	close(err[1]);
	c->gate = gate[1];
	c->exec_err = err[0];
	return 0;
fail:
	fprintf(stderr, TK_NAME ": cannot start '%s': %s\n", argv[0],
		strerror(errno));
	return -1;
}

/**
 * live_cmd_release - let the command run, once tracing follows it
 * @c: the command
 * @argv: for the message
 *
 * Return: 0 once it runs, or -1 after a line on stderr when exec failed.
 */
int live_cmd_release(struct live_cmd *c, char **argv)
{
	ssize_t n = write(c->gate, "g", 1);	/* fails if it died: fine */
	int e;

	(void)n;
	close(c->gate);
	c->gate = -1;
	do {
		n = read(c->exec_err, &e, sizeof(e));
	} while (n < 0 && errno == EINTR);
	close(c->exec_err);
	c->exec_err = -1;
	if (n != sizeof(e))
		return 0;	/* closed by a successful exec */
	fprintf(stderr, TK_NAME ": cannot run '%s': %s\n", argv[0],
		strerror(e));
	waitpid(c->pid, &c->status, 0);
	c->exited = true;
	c->not_run = true;
	return -1;
}

/**
 * live_cmd_done - has the command exited (reaped here)?
 * @c: the command
 *
 * Return: true once it has, or when there is none running.
 */
bool live_cmd_done(struct live_cmd *c)
{
	if (!c->pid || c->exited)
		return true;
	if (waitpid(c->pid, &c->status, WNOHANG) == c->pid)
		c->exited = true;
	return c->exited;
}

/**
 * live_cmd_signal - pass a signal on to a command still running
 * @c: the command
 * @sig: the signal
 *
 * A command still held is let go with its gate closed: it exits.
 */
void live_cmd_signal(struct live_cmd *c, int sig)
{
	if (c->gate >= 0 && c->pid) {
		close(c->gate);
		c->gate = -1;
	}
	if (c->pid && !c->exited)
		kill(c->pid, sig);
}

/**
 * live_cmd_abandon - end a command still held before exec
 * @c: the command
 *
 * When tracing could not be set up: its gate closed, it exits without
 * running, and it is reaped here, so that the ring-buffer files it
 * inherited are closed before the instance is removed.  A command let
 * go already is left alone.
 */
void live_cmd_abandon(struct live_cmd *c)
{
	if (!c->pid || c->exited || c->exec_err < 0)
		return; /* none, or let go (live_cmd_release()) */
	if (c->gate >= 0)
		close(c->gate); /* live_cmd_signal() may have */
	c->gate = -1;
	close(c->exec_err);
	c->exec_err = -1;
	while (waitpid(c->pid, &c->status, 0) < 0 && errno == EINTR)
		;
	c->exited = true;
	c->not_run = true; /* it never ran: nothing to say of it */
}

/**
 * live_cmd_report - one line when the command did not exit with 0
 * @c: the command
 * @argv: its name
 */
void live_cmd_report(const struct live_cmd *c, char **argv)
{
	if (!c->pid || !c->exited || c->not_run)
		return;
	if (WIFEXITED(c->status) && WEXITSTATUS(c->status))
		fprintf(stderr, TK_NAME ": '%s' exited with status %d\n",
			argv[0], WEXITSTATUS(c->status));
	else if (WIFSIGNALED(c->status))
		fprintf(stderr, TK_NAME ": '%s' was killed by signal %d\n",
			argv[0], WTERMSIG(c->status));
}
