// SPDX-License-Identifier: LGPL-2.1
/*
 * kshark_info FILE: what KernelShark shows for each entry of a trace,
 * through libkshark's C API and no GUI: a line "CPU TIME EVENT: INFO"
 * per entry of the kmem, percpu and ftrace systems (the info column is
 * what the libtraceevent plugins print), in KernelShark's order.
 * tests/e2e/kshark_info.sh runs it with Debian's plugin_kmem.so and with
 * ours, and compares.  With --maps it says on stderr which
 * plugin_kmem.so files the process has loaded, and which file's print
 * handler each kmem event of the trace has.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "libkshark.h"
#include "libkshark-tepdata.h"

static int wanted(const char *ev)
{
	return !strncmp(ev, "kmem/", 5) || !strncmp(ev, "percpu/", 7) ||
	       !strncmp(ev, "ftrace/", 7);
}

/* The shared object holding the print handler of each of our events. */
static void print_handlers(struct kshark_context *ctx, int sd)
{
	static const char *const evs[][2] = {
		{ "kmem", "kmalloc" },
		{ "kmem", "kmem_cache_free" },
		{ "kmem", "mm_page_alloc" },
		{ "percpu", "percpu_alloc_percpu" },
	};
	struct tep_handle *tep =
		kshark_get_tep(kshark_get_data_stream(ctx, sd));
	size_t i;

	for (i = 0; tep && i < sizeof(evs) / sizeof(evs[0]); i++) {
		struct tep_event *ev =
			tep_find_event_by_name(tep, evs[i][0], evs[i][1]);
		Dl_info dl;

		if (!ev)
			continue;
		if (ev->handler && dladdr((void *)ev->handler, &dl) &&
		    dl.dli_fname)
			fprintf(stderr, "handler %s/%s %s\n", evs[i][0],
				evs[i][1], dl.dli_fname);
		else
			fprintf(stderr, "handler %s/%s none\n", evs[i][0],
				evs[i][1]);
	}
}

/* The plugin_kmem.so files mapped into this process, on stderr. */
static void print_maps(void)
{
	char line[4096];
	FILE *f = fopen("/proc/self/maps", "r");

	while (f && fgets(line, sizeof(line), f)) {
		char *p = strchr(line, '/');

		if (p && strstr(p, "plugin_kmem.so") && strstr(line, "r-xp"))
			fprintf(stderr, "loaded %s", p);
	}
	if (f)
		fclose(f);
}

int main(int argc, char **argv)
{
	struct kshark_context *ctx = NULL;
	struct kshark_entry **rows = NULL;
	int maps = argc == 3 && !strcmp(argv[1], "--maps");
	ssize_t n, i;
	int sd;

	if (argc != 2 && !maps) {
		fprintf(stderr, "usage: kshark_info [--maps] FILE\n");
		return 1;
	}
	if (maps)
		argv++;
	if (!kshark_instance(&ctx)) {
		fprintf(stderr, "kshark_info: no libkshark context\n");
		return 2;
	}
	sd = kshark_open(ctx, argv[1]);
	if (sd < 0) {
		fprintf(stderr, "kshark_info: %s: cannot open\n", argv[1]);
		kshark_free(ctx);
		return 2;
	}
	n = kshark_load_entries(ctx, sd, &rows);
	for (i = 0; i < n; i++) {
		char *ev = kshark_get_event_name(rows[i]);
		char *info = ev && wanted(ev) ? kshark_get_info(rows[i]) : NULL;

		if (info)
			printf("%d %lld %s: %s\n", rows[i]->cpu,
			       (long long)rows[i]->ts, ev, info);
		free(info);
		free(ev);
		free(rows[i]);
	}
	free(rows);
	if (maps) {
		print_maps();
		print_handlers(ctx, sd);
	}
	kshark_close(ctx, sd);
	kshark_free(ctx);
	return n < 0 ? 2 : 0;
}
