// SPDX-License-Identifier: LGPL-2.1
/*
 * trace-kmem live's tep handle: this machine's ring-buffer page header,
 * the formats of the allocators' event systems (tracefs) and the kernel's
 * symbols (/proc/kallsyms), parsed by libtraceevent.
 *
 * What tracefs_local_events_system() gives (with the same long size and
 * number of CPUs), less what live never reads
 * (printk formats; the comms are loaded as the tasks come, live.c), and
 * with /proc/kallsyms read in one growing buffer: libtracefs reads it
 * 8 KB more at a time, a realloc() each, which AddressSanitizer's
 * allocator answers with a fresh mapping and a copy of all of it (the
 * 5 MB of a 6.18 kernel's symbols took 18 to 28 s a start, sanitized).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracefs.h>

#include "live_formats.h"

/* /proc/kallsyms reports no size: read it in buffers twice as large */
#define KALLSYMS_FIRST (1U << 20)
#define KALLSYMS_MAX (1U << 30)

/* The whole of a file whose size stat() does not tell; NUL-terminated. */
static char *read_proc(const char *path)
{
	size_t cap = KALLSYMS_FIRST, len = 0;
	char *buf = NULL, *p;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	for (;;) {
		if (!buf || len + 1 >= cap) {
			if (buf)
				cap *= 2;
			p = cap <= KALLSYMS_MAX ? realloc(buf, cap) : NULL;
			if (!p)
				goto fail;
			buf = p;
		}
		n = read(fd, buf + len, cap - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto fail;
		if (!n)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return buf;
fail:
	free(buf);
	close(fd);
	return NULL;
}

/*
 * The CPUs with a ring buffer: one past the highest per_cpu/cpuN of
 * tracefs, looked for up to the CPUs configured (further while they go
 * on, if sysconf() tells none); those configured when none is found.
 */
static int buffer_cpus(void)
{
	const char *dir = tracefs_tracing_dir();
	int conf = (int)sysconf(_SC_NPROCESSORS_CONF), cpu, n = 0;
	char path[PATH_MAX];
	struct stat st;

	for (cpu = 0; dir && (conf <= 0 || cpu < conf); cpu++) {
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d", dir, cpu);
		if (!stat(path, &st) && S_ISDIR(st.st_mode))
			n = cpu + 1;
		else if (conf <= 0)
			break;
	}
	return n ? n : conf;
}

/* The formats of the events of @system, each that parses. */
static void load_system(struct tep_handle *tep, const char *system)
{
	char **events = tracefs_system_events(NULL, system);
	size_t i;

	for (i = 0; events && events[i]; i++) {
		int size = 0;
		char *fmt = tracefs_event_file_read(NULL, system, events[i],
						    "format", &size);

		if (fmt && size > 0)
			tep_parse_event(tep, fmt, (unsigned long)size, system);
		free(fmt);
	}
	tracefs_list_free(events);
}

/**
 * live_local_tep - a tep handle of this machine's allocator events
 * @systems: the event systems to load, NULL-terminated
 *
 * The page header and the formats of @systems' events, read from tracefs
 * (events that do not parse are left out, as libtracefs leaves them), and
 * the kernel's symbols from /proc/kallsyms when it can be read (none
 * otherwise: call sites are then printed as addresses).
 *
 * Return: the handle (tep_free() it), or NULL when tracefs has no page
 * header or memory ran out.
 */
struct tep_handle *live_local_tep(const char *const *systems)
{
	struct tep_handle *tep = tep_alloc();
	char *buf;
	int size = 0;

	if (!tep)
		return NULL;
	buf = tracefs_instance_file_read(NULL, "events/header_page", &size);
	if (!buf || size <= 0) {
		free(buf);
		tep_free(tep);
		return NULL;
	}
	tep_parse_header_page(tep, buf, size, sizeof(long));
	free(buf);
	/* as libtracefs sets them: the kernel's long is the size of the page
	 * header's commit field */
	size = tep_get_header_page_size(tep);
	tep_set_long_size(tep, size > 0 ? size : (int)sizeof(long));
	tep_set_cpus(tep, buffer_cpus());
	for (; *systems; systems++)
		load_system(tep, *systems);
	buf = read_proc("/proc/kallsyms");
	if (buf)
		tep_parse_kallsyms(tep, buf);
	free(buf);
	return tep;
}
