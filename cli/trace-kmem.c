// SPDX-License-Identifier: LGPL-2.1
/*
 * trace-kmem: the standalone front end of the kmem statistics.
 *
 *   trace-kmem stat [OPTIONS] [FILE...]     tables of trace.dat files
 *   trace-kmem live [OPTIONS] [-- COMMAND]  tables of this machine, now
 *   trace-kmem topology                     the CPU/memory -> node map
 *   trace-kmem plot [OPTIONS] [FILE]        live memory over time, SVG
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/msg.h"
#include "cli.h"
#include "env.h"
#include "base/outfile.h"
#include "options/output.h"

/*
 * A closed stdin, stdout or stderr (>&-) gets /dev/null opened read-only
 * on it: a file opened later (--json=a.json) would otherwise take that
 * descriptor and receive the tables or the warnings, while a write to
 * the closed stream still fails (EBADF) and is said as before.
 */
static void hold_std_fds(void)
{
	int fd;

	for (fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF &&
		    open("/dev/null", O_RDONLY) != fd)
			_exit(TK_ENV);
}

/* ^C (or TERM, HUP) before the outputs are in place: no temporary file
 * is left beside them, then the signal ends the process as it would. */
static void on_stop(int sig)
{
	kmem_out_unlink_pending();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void stop_cleanly(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

	tk_catch_signals(on_stop, sigs, sizeof(sigs) / sizeof(sigs[0]));
}

int main(int argc, char **argv)
{
	struct tk_args a;
	int ret;

	hold_std_fds();
	/* a closed pipe is an EPIPE to notice, not a death mid-cleanup */
	signal(SIGPIPE, SIG_IGN);
	kmem_prog = TK_NAME;	/* lib/'s messages start "trace-kmem:" */
	ret = tk_parse_args(&a, argc, argv);
	if (ret) { /* a usage error, or --help/--version done */
		tk_args_release(&a);
		return ret > 0 ? TK_OK : a.oom ? TK_ENV : TK_USAGE;
	}
	tk_env_check();
	/* no output over an input: the trace would be lost */
	if (kmem_outputs_spare(&a.opts, a.inputs, a.nr_inputs, stderr)) {
		tk_args_release(&a);
		return TK_ENV;
	}
	if (a.cmd != TK_LIVE) /* live ends on them, with its tables */
		stop_cleanly();
	switch (a.cmd) {
	case TK_LIVE:
		ret = tk_live(&a);
		break;
	case TK_TOPOLOGY:
		ret = tk_topology(&a);
		break;
	case TK_DIFF:
		ret = tk_diff(&a);
		break;
	case TK_PLOT:
		ret = tk_plot(&a);
		break;
	default:
		ret = tk_stat(&a);
		break;
	}
	tk_args_release(&a);
	return ret;
}
