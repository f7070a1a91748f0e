// SPDX-License-Identifier: LGPL-2.1
/*
 * trace-kmem live: kmem statistics of this machine, as it runs.
 *
 * The events are enabled in a tracefs instance of our own,
 * "trace-kmem-PID", so the top-level buffer and other people's tracing
 * are left alone; its per-CPU buffers are read every 100 ms and fed to
 * the same session code as a trace.dat, nothing is written to disk.
 * With a COMMAND, set_event_pid and options/event-fork follow it and its
 * children.  The tables are printed when the command exits, after -d,
 * or at the first SIGINT (SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 and
 * SIGALRM too: LIVE_STOP_SIGNALS).  The instance is
 * removed on every way out but SIGKILL, and an instance left by a
 * killed trace-kmem is removed by the next one.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <tracefs.h>

#include "alloc/registry.h"
#include "event/events.h"
#include "event/tep_names.h"
#include "live_cmd.h"
#include "live_formats.h"
#include "live_read.h"
#include "render/report.h"

#define INSTANCE_PREFIX "trace-kmem-"
#define ROUND_NS 100000000L /* 100 ms between reads */

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

struct live {
	struct tk_args *a;
	struct tracefs_instance *inst;
	struct tep_handle *tep;
	struct tk_session s;
	bool session;
	struct live_reader reader;
	struct kmem_numa numa;
	struct live_cmd cmd;
	bool trigger; /* stacktrace trigger set */
	struct kmem_outputs outs;
	bool outs_open;
	struct utsname uts; /* this machine: the report's host and release */
};

static int env_error(const char *what, const char *fix)
{
	fprintf(stderr, TK_NAME ": %s; %s\n", what, fix);
	return -1;
}

static void handle_signals(void)
{
	static const int stop[] = { LIVE_STOP_SIGNALS };

	tk_catch_signals(on_signal, stop, sizeof(stop) / sizeof(stop[0]));
	signal(SIGPIPE, SIG_IGN);
}

/* "trace-kmem-PID": its pid, else 0 */
static long instance_pid(const char *name)
{
	size_t n = strlen(INSTANCE_PREFIX);
	char *end;
	long pid;

	if (strncmp(name, INSTANCE_PREFIX, n) || !name[n])
		return 0;
	pid = strtol(name + n, &end, 10);
	return *end || pid <= 0 ? 0 : pid;
}

/*
 * Instances of trace-kmem processes that are gone (killed with -9).
 * (No regex for tracefs_instances(): libtracefs 1.6 leaks it.)
 */
static void remove_stale_instances(void)
{
	char **names = tracefs_instances(NULL);
	int i;

	for (i = 0; names && names[i]; i++) {
		long pid = instance_pid(names[i]);
		struct tracefs_instance *in;

		if (!pid || !kill((pid_t)pid, 0) || errno != ESRCH)
			continue;
		in = tracefs_instance_alloc(NULL, names[i]);
		if (!in)
			continue;
		tracefs_event_file_write(in, "kmem", "mm_page_alloc", "trigger",
					 "!stacktrace");
		tracefs_instance_destroy(in);
		tracefs_instance_free(in);
	}
	tracefs_list_free(names);
}

static int check_environment(void)
{
	const char *dir = tracefs_tracing_dir();

	if (!dir || access(dir, F_OK))
		return env_error("tracefs is not mounted",
				 "mount it with 'mount -t tracefs nodev "
				 "/sys/kernel/tracing'");
	if (access(dir, W_OK) || geteuid())
		return env_error("live tracing needs root",
				 "run trace-kmem live as root (or with sudo)");
	return 0;
}

static int load_formats(struct live *l)
{
	const char *systems[KMEM_NR_SLOTS + 1];

	kmem_events_systems(systems, KMEM_NR_SLOTS + 1);
	l->tep = live_local_tep(systems);
	if (!l->tep ||
	    (!tep_find_event_by_name(l->tep, "kmem", "kmalloc") &&
	     !tep_find_event_by_name(l->tep, "kmem", "mm_page_alloc")))
		return env_error("the kmem trace events are missing",
				 "use a kernel with CONFIG_TRACEPOINTS and "
				 "the kmem events (events/kmem in tracefs)");
	return 0;
}

/* Enable the live events of allocator @a this kernel has; how many it
 * had (the event table's, lib/event/events.c). */
static int enable_events(struct live *l, enum kmem_alloc_id a)
{
	enum kmem_slot slots[KMEM_NR_SLOTS];
	int i, n = 0, nr;

	nr = kmem_events_select(a, KMEM_EVF_LIVE, slots, KMEM_NR_SLOTS);
	for (i = 0; i < nr; i++) {
		const struct kmem_event_def *d = &kmem_event_defs[slots[i]];

		if (!tep_find_event_by_name(l->tep, d->system, d->name))
			continue;
		if (tracefs_event_enable(l->inst, d->system, d->name))
			return -1;
		n++;
	}
	return n;
}

/*
 * The event systems of the allocators' events, for a message: "check
 * events/kmem, events/percpu ... in tracefs" (kernel_stack's ftrace is
 * no allocator's).
 */
static void systems_hint(char *buf, size_t len)
{
	const char *sys[KMEM_NR_SLOTS + 1];
	int i, k, n, nr = 0, at = 0;

	n = kmem_events_systems(sys, KMEM_NR_SLOTS + 1);
	for (i = 0; i < n; i++) {
		for (k = 0; k < KMEM_NR_SLOTS; k++)
			if (kmem_event_defs[k].alloc < KMEM_NR_ALLOC &&
			    !strcmp(kmem_event_defs[k].system, sys[i]))
				break;
		if (k < KMEM_NR_SLOTS)
			sys[nr++] = sys[i];
	}
	at = snprintf(buf, len, "check ");
	for (i = 0; i < nr && at >= 0 && (size_t)at < len; i++) {
		const char *sep = i + 1 < nr ? ", " : " and ";

		at += snprintf(buf + at, len - at, "%sevents/%s", i ? sep : "",
			       sys[i]);
	}
	if (at >= 0 && (size_t)at < len)
		snprintf(buf + at, len - at, " in tracefs");
}

/*
 * Is an allocator's events' absence an error?  Those of an allocator
 * whose events came with a later kernel (kmem_allocs[].since) only when
 * it is selected; the others' when it is shown.
 */
static bool required(const struct kmem_opts *o, enum kmem_alloc_id id)
{
	if (kmem_allocs[id].since)
		return o->allocator[id];
	return kmem_opts_allocator(o, o->allocator[id]);
}

static int set_events(struct live *l)
{
	const struct kmem_opts *o = &l->a->opts;
	int n[KMEM_NR_ALLOC] = { 0 };
	char what[160], fix[160];
	unsigned int id;

	for (id = 0; id < KMEM_NR_ALLOC; id++) {
		if (kmem_opts_allocator(o, o->allocator[id]))
			n[id] = enable_events(l, id);
		if (n[id] < 0) {
			systems_hint(fix, sizeof(fix));
			return env_error("cannot enable the kmem events", fix);
		}
	}
	for (id = 0; id < KMEM_NR_ALLOC; id++) {
		const struct kmem_alloc_desc *d = &kmem_allocs[id];
		enum kmem_slot first = KMEM_SLOT_KMALLOC;

		if (n[id] || !required(o, id))
			continue;
		/* its first live event names them */
		kmem_events_select(id, KMEM_EVF_LIVE, &first, 1);
		snprintf(what, sizeof(what),
			 "the %s events (%s:%s ...) are missing", d->title,
			 kmem_event_defs[first].system,
			 kmem_event_defs[first].name);
		snprintf(fix, sizeof(fix), "use a kernel that has them%s%s%s",
			 d->since ? " (" : "", d->since ? d->since : "",
			 d->since ? " or later)" : "");
		return env_error(what, fix);
	}
	if (!l->a->stacks)
		return 0;
	if (!n[KMEM_ALLOC_PAGE] ||
	    !tep_find_event_by_name(l->tep, "ftrace", "kernel_stack"))
		return env_error("-T needs kmem:mm_page_alloc and "
				 "ftrace:kernel_stack",
				 "use a kernel with CONFIG_STACKTRACE");
	if (tracefs_event_file_write(l->inst, "kmem", "mm_page_alloc",
				     "trigger", "stacktrace") < 0)
		return env_error("cannot set the stacktrace trigger on "
				 "kmem:mm_page_alloc",
				 "check events/kmem/mm_page_alloc/trigger");
	l->trigger = true;
	return 0;
}

/* With a command: its pid, and its children as they fork. */
static int follow_command(struct live *l)
{
	char buf[32];

	if (!l->cmd.pid)
		return 0;
	snprintf(buf, sizeof(buf), "%d", (int)l->cmd.pid);
	if (tracefs_instance_file_write(l->inst, "set_event_pid", buf) < 0 ||
	    tracefs_option_enable(l->inst, TRACEFS_OPTION_EVENT_FORK))
		return env_error("cannot follow the command (set_event_pid, "
				 "options/event-fork)",
				 "check tracefs");
	return 0;
}

static int create_instance(struct live *l)
{
	char name[64];

	snprintf(name, sizeof(name), INSTANCE_PREFIX "%d", (int)getpid());
	l->inst = tracefs_instance_create(name);
	if (!l->inst)
		return env_error("cannot create a tracefs instance",
				 "check that tracefs has an instances "
				 "directory");
	tracefs_trace_off(l->inst);
	if (tracefs_instance_set_buffer_size(l->inst, l->a->buffer_kb, -1) < 0)
		return env_error("cannot size the ring buffer",
				 "try a smaller --buffer-size");
	return 0;
}

/* Stop, take what is left, remove the instance: every way out. */
static void stop_tracing(struct live *l)
{
	if (!l->inst)
		return;
	tracefs_trace_off(l->inst);
	if (l->session && l->reader.cpus)
		live_reader_round(&l->reader, &l->s);
	live_reader_close(&l->reader);
	if (l->trigger)
		tracefs_event_file_write(l->inst, "kmem", "mm_page_alloc",
					 "trigger", "!stacktrace");
	tracefs_event_disable(l->inst, NULL, NULL);
	if (tracefs_instance_destroy(l->inst))
		fprintf(stderr,
			TK_NAME ": cannot remove the tracefs instance "
				"%s: %s (remove it with rmdir)\n",
			tracefs_instance_get_name(l->inst), strerror(errno));
	tracefs_instance_free(l->inst);
	l->inst = NULL;
}

static int setup(struct live *l)
{
	struct tk_args *a = l->a;

	if (check_environment())
		return -1;
	/* outputs before tracing: a bad path costs no recording */
	if (kmem_outputs_open(&l->outs, &a->opts, false, stderr))
		return -1;
	l->outs_open = true;
	if (load_formats(l))
		return -1;
	remove_stale_instances();
	if (a->opts.numa && kmem_numa_load(&l->numa, a->opts.numa, stderr))
		return -1;
	if (tk_session_init(&l->s, l->tep, a, a->opts.numa ? &l->numa : NULL))
		return env_error("out of memory", "trace fewer events");
	l->session = true;
	if (!uname(&l->uts)) {
		l->s.host = l->uts.nodename;
		l->s.release = l->uts.release;
	}
	l->s.sym.old_migratetypes = kmem_tep_old_migratetypes(l->tep);
	if (a->command)
		snprintf(l->s.label, sizeof(l->s.label), "live: %s",
			 a->command[0]);
	else
		snprintf(l->s.label, sizeof(l->s.label), "live: all tasks");
	if (create_instance(l))
		return -1;
	if (live_reader_open(&l->reader, l->inst, l->tep, &a->filter,
			     a->buffer_kb))
		return env_error("cannot open the per-CPU ring buffers",
				 "check tracefs (per_cpu/cpuN/trace_pipe_raw)");
	kmem_agg_set_subbuf(&l->s.agg, (unsigned int)l->reader.page_size);
	if (a->command && live_cmd_fork(&l->cmd, a->command))
		return -1;
	if (follow_command(l) || set_events(l))
		return -1;
	if (stop_signal)
		return -1;
	if (tracefs_trace_on(l->inst))
		return env_error("cannot turn tracing on", "check tracefs");
	if (a->command && live_cmd_release(&l->cmd, a->command))
		return -1;
	return 0;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/*
 * --interval: the tables so far, titled with their number and the time
 * since tracing began; on a terminal, in place of the last ones, else
 * one after the other (the title's blank line between them).
 */
static void print_interval(struct live *l, int n, double elapsed)
{
	char label[sizeof(l->s.label) + 64];
	struct kmem_input in = { .label = label,
				 .all_tasks = tk_session_all_tasks(&l->s) };
	struct kmem_symbolizer sym = l->s.sym;
	struct kmem_render_cfg rc;
	struct kmem_report_ctx r = { &l->s.agg, &rc, &sym, &in, NULL };
	const struct page_stats *pst =
		kmem_agg_stats(&l->s.agg, KMEM_ALLOC_PAGE);

	snprintf(label, sizeof(label), "%s, snapshot %d at %.1f s", l->s.label,
		 n, elapsed);
	if (sym.old_migratetypes < 0)
		sym.old_migratetypes = page_old_migratetypes(&pst->sum);
	if (isatty(STDOUT_FILENO))
		fputs("\033[H\033[2J", stdout);
	kmem_opts_render_cfg(&l->a->opts, stdout, &rc);
	kmem_report_tables(&r, stdout);
	if ((fflush(stdout) || ferror(stdout)) && errno == EPIPE)
		l->outs.broken_pipe = true; /* stops run() */
}

static int run(struct live *l)
{
	const struct tk_args *a = l->a;
	struct timespec round = { 0, ROUND_NS };
	double start = now_s(), next = start + a->interval;
	int snapshots = 0;

	while (!stop_signal) {
		nanosleep(&round, NULL);
		if (live_reader_round(&l->reader, &l->s) < 0)
			return env_error("out of memory", "trace fewer events");
		if (a->filter.comm) {
			tracefs_load_cmdlines(NULL, l->tep);
			tk_session_comms_changed(&l->s);
		}
		if (a->command && live_cmd_done(&l->cmd))
			break;
		if (a->duration && now_s() - start >= a->duration)
			break;
		if (a->interval && now_s() >= next) {
			print_interval(l, ++snapshots, now_s() - start);
			next += a->interval;
			if (l->outs.broken_pipe)
				break;
		}
	}
	return 0;
}

static void release(struct live *l)
{
	if (l->session)
		tk_session_release(&l->s);
	kmem_numa_release(&l->numa);
	if (l->tep)
		tep_free(l->tep);
}

/**
 * tk_live - trace-kmem live
 * @a: the command line
 *
 * Return: the exit status: 0 when the tables were printed (also after
 * SIGINT), 2 when the environment cannot trace, 128 + the signal after
 * SIGTERM or SIGHUP.
 */
int tk_live(struct tk_args *a)
{
	struct live l = { .a = a };
	int ret = TK_OK;

	l.cmd.gate = l.cmd.exec_err = -1;
	if (a->stacks &&
	    !kmem_opts_allocator(&a->opts,
				 a->opts.allocator[KMEM_ALLOC_PAGE])) {
		fprintf(stderr,
			TK_NAME ": -T follows page allocations, and "
				"the page allocator is not selected; add "
				"--page\n");
		return TK_USAGE;
	}
	handle_signals();
	if (setup(&l) || run(&l))
		ret = TK_ENV;
	if (stop_signal)
		live_cmd_signal(&l.cmd, stop_signal);
	live_cmd_abandon(&l.cmd); /* not let go: setup failed */
	stop_tracing(&l);
	if (l.cmd.pid && !l.cmd.exited)
		live_cmd_done(&l.cmd);
	if (ret == TK_OK || (stop_signal && l.session)) {
		tracefs_load_cmdlines(NULL, l.tep);
		if (tk_session_report(&l.s, &l.outs, stderr) ||
		    kmem_outputs_finish(&l.outs, stderr))
			ret = TK_ENV;
		else if (stop_signal && stop_signal != SIGINT)
			ret = 128 + stop_signal;
		else
			ret = TK_OK;
	}
	live_cmd_report(&l.cmd, a->command);
	if (l.outs_open)
		kmem_outputs_discard(&l.outs); /* finished, or nothing */
	release(&l);
	return l.outs.broken_pipe ? TK_BROKEN_PIPE : ret;
}
