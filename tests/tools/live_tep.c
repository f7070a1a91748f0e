// SPDX-License-Identifier: LGPL-2.1
/*
 * live_tep: does trace-kmem live's tep handle (cli/live_formats.c) read
 * this machine as libtracefs' tracefs_local_events_system() does?  The
 * same events (id, system, name, number of fields), the same long size,
 * CPUs, page size and page header, and the same function and its start for the
 * start of every 31st symbol of /proc/kallsyms and 3 and 17 bytes into
 * it.  Prints "same: ..." and exits 0, or each difference and exits 1;
 * 2 when tracefs cannot be read (not root, not mounted).
 *
 * Usage: live_tep
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracefs.h>

#include "live_formats.h"

static const char *const systems[] = { "kmem", "percpu", "ftrace", "vmalloc",
				       NULL };

static int fields(struct tep_event *e)
{
	int n = 0;
	struct tep_format_field *f;

	for (f = e->format.fields; f; f = f->next)
		n++;
	return n;
}

static int compare_events(struct tep_handle *a, struct tep_handle *b)
{
	struct tep_event **ea = tep_list_events(a, TEP_EVENT_SORT_ID);
	struct tep_event **eb = tep_list_events(b, TEP_EVENT_SORT_ID);
	int i, bad = 0;

	for (i = 0; eb && eb[i]; i++) {
		if (ea && ea[i] && ea[i]->id == eb[i]->id &&
		    !strcmp(ea[i]->system, eb[i]->system) &&
		    !strcmp(ea[i]->name, eb[i]->name) &&
		    fields(ea[i]) == fields(eb[i]))
			continue;
		printf("event %d (%s:%s) differs\n", eb[i]->id, eb[i]->system,
		       eb[i]->name);
		bad++;
	}
	if (ea && ea[i]) {
		printf("event %s:%s is not libtracefs'\n", ea[i]->system,
		       ea[i]->name);
		bad++;
	}
	printf("%d events\n", i);
	return bad;
}

static int compare_one(struct tep_handle *a, struct tep_handle *b,
		       unsigned long long x)
{
	const char *fa = tep_find_function(a, x), *fb = tep_find_function(b, x);

	if ((!fa) == (!fb) && (!fa || !strcmp(fa, fb)) &&
	    tep_find_function_address(a, x) == tep_find_function_address(b, x))
		return 0;
	printf("%llx: %s, libtracefs %s\n", x, fa ? fa : "-", fb ? fb : "-");
	return 1;
}

static int compare_symbols(struct tep_handle *a, struct tep_handle *b)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	unsigned long long addr;
	char line[512];
	int n = 0, asked = 0, bad = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx", &addr) != 1 || n++ % 31)
			continue;
		asked += 3;
		bad += compare_one(a, b, addr) + compare_one(a, b, addr + 3) +
		       compare_one(a, b, addr + 17);
	}
	fclose(f);
	printf("%d addresses of %d symbols\n", asked, n);
	return bad;
}

int main(void)
{
	struct tep_handle *a = live_local_tep(systems);
	struct tep_handle *b = tracefs_local_events_system(NULL, systems);
	int bad;

	if (!a || !b) {
		printf("tracefs cannot be read\n");
		return 2;
	}
	bad = compare_events(a, b) + compare_symbols(a, b);
	if (tep_get_long_size(a) != tep_get_long_size(b) ||
	    tep_get_cpus(a) != tep_get_cpus(b) ||
	    tep_get_page_size(a) != tep_get_page_size(b) ||
	    tep_get_header_page_size(a) != tep_get_header_page_size(b) ||
	    tep_get_header_timestamp_size(a) !=
		    tep_get_header_timestamp_size(b)) {
		printf("long size %d/%d, cpus %d/%d, page header %d/%d\n",
		       tep_get_long_size(a), tep_get_long_size(b),
		       tep_get_cpus(a), tep_get_cpus(b),
		       tep_get_header_page_size(a),
		       tep_get_header_page_size(b));
		bad++;
	}
	if (!bad)
		printf("same: events, long size %d, %d cpus, page header, "
		       "symbols\n",
		       tep_get_long_size(a), tep_get_cpus(a));
	tep_free(a);
	tep_free(b);
	return bad ? 1 : 0;
}
