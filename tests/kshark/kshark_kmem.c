// SPDX-License-Identifier: LGPL-2.1
/*
 * kshark_kmem PLUGIN FILE: load a trace through libkshark's C API with
 * the KernelShark plugin PLUGIN (plugin-kmem.so) enabled, as the GUI
 * does but with no window, and print what the plugin registered:
 *
 *   ALLOCATOR pairs N pingpong N leaks N leak_bytes N live_bytes N
 *	(slab, page, percpu, and vmalloc when it has a link, leak or
 *	live byte; live_bytes: the curve at the last entry)
 *   records N
 *   link_errors N	links whose two entries libkshark itself says are
 *			not an allocation and a later free of one address
 *   leak_errors N	leaks whose entry is no allocation
 *   leak_sum ALLOCATOR N	the bytes of its leaks, added up here (the
 *			allocators of the first lines)
 *   describe TEXT	what double-clicking the first links and leaks
 *			says, for the first three of each allocator
 *   describe_errors N	of all of them, those whose CPU of the free or
 *			lifetime in ns is not what the entries say
 *   site ALLOCATOR ADDRESS live_bytes N peak_bytes N
 *			the curve of each of the three call sites the
 *			dialog offers first, chosen as its Apply does:
 *			its last value and its highest
 *   again ALLOCATOR pairs N ...
 *			the first lines again, after that (the trace read
 *			from the file again, not from the copies kept)
 *
 * tests/e2e/kshark_plugin.sh compares these with trace-kmem stat --json.
 *
 * kshark_kmem --load PLUGIN|none FILE: only what KernelShark does before
 * it first draws, timed by bench/run.sh: load the entries, with the
 * plugin enabled (and its follow pass run) or without; prints
 * "entries N".
 *
 * kshark_kmem --reload PLUGIN FILE: as without it, after loading the
 * entries, drawing (the follow pass) and loading them again, as
 * KernelShark does when plugins or streams change.
 *
 * kshark_kmem --draw=N PLUGIN FILE: what draw.cpp draws from, over a
 * view from the first entry to the last cut in N bins:
 *
 *   curve TEXT		what the dialog says of each allocator's curve
 *			(kmem_ks_describe_curve())
 *   bin CPU B allocs N pingpong N longest_ns N
 *			each bin with links (kmem_ks_bins()): the links
 *			that start there, those freed on another CPU, and
 *			the lifetime of the longest lived
 *   bins CPU allocs N pingpong N peak N
 *			their sums over the CPU's bins, and the largest
 */
#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmem_ks.h"
#include "libkshark.h"
#include "libkshark-plugin.h"

static const char *const names[KMEM_NR_ALLOC] = {
	[KMEM_ALLOC_SLAB] = "slab",
	[KMEM_ALLOC_PAGE] = "page",
	[KMEM_ALLOC_PERCPU] = "percpu",
	[KMEM_ALLOC_VMALLOC] = "vmalloc",
};

/* the plugin's functions for tools, found with dlsym() */
static int (*describe)(const struct kmem_ks_ctx *ks,
		       const struct kmem_ks_pair *p, char *buf, size_t len);
static const struct kmem_ks_pair *(*find)(const struct kmem_ks_ctx *ks,
					  const struct kshark_entry *e);
static int (*choose)(int sd, uint64_t call_site, uint32_t allocator);
static int (*describe_curve)(const struct kmem_ks_ctx *ks, unsigned int which,
			     char *buf, size_t len);
static uint32_t (*bins_of)(const struct kmem_ks_pair *const *in, size_t n,
			   const struct kmem_ks_view *v,
			   struct kmem_ks_bin *out);

/* Is @e an allocation (@alloc) or a free of allocator @a? */
static int is_kind(const struct kshark_entry *e, int a, int alloc)
{
	char *ev = kshark_get_event_name(e);
	int ok = 0;

	if (!ev)
		return 0;
	if (a == KMEM_ALLOC_SLAB)
		ok = alloc ? !strncmp(ev, "kmem/kmalloc", 12) ||
				     !strncmp(ev, "kmem/kmem_cache_alloc", 21)
			   : !strcmp(ev, "kmem/kfree") ||
				     !strcmp(ev, "kmem/kmem_cache_free");
	else if (a == KMEM_ALLOC_PAGE)
		ok = alloc ? !strcmp(ev, "kmem/mm_page_alloc")
			   : !strcmp(ev, "kmem/mm_page_free") ||
				     !strcmp(ev, "kmem/mm_page_free_direct") ||
				     !strcmp(ev, "kmem/mm_pagevec_free");
	else if (a == KMEM_ALLOC_PERCPU)
		ok = !strcmp(ev, alloc ? "percpu/percpu_alloc_percpu"
				       : "percpu/percpu_free_percpu");
	else
		ok = !strcmp(ev, alloc ? "vmalloc/alloc_vmap_area"
				       : "vmalloc/free_vmap_area_noflush");
	free(ev);
	return ok;
}

/* The address an entry (an allocation: @alloc) names, read by libkshark
 * (-1: none). */
static int64_t address(const struct kshark_entry *e, int a, int alloc)
{
	static const char *const fields[] = { "ptr", "pfn", "page" };
	int64_t v;
	size_t i;

	if (a == KMEM_ALLOC_VMALLOC)
		return kshark_read_event_field_int(
			       e, alloc ? "addr" : "va_start", &v)
			       ? -1
			       : v;
	if (a != KMEM_ALLOC_PAGE)
		return kshark_read_event_field_int(e, "ptr", &v) ? -1 : v;
	for (i = 1; i < 3; i++)
		if (!kshark_read_event_field_int(e, fields[i], &v))
			return v;
	return -1;
}

static int link_ok(const struct kmem_ks_pair *p)
{
	int a = (int)p->allocator;

	return is_kind(p->alloc, a, 1) && is_kind(p->free, a, 0) &&
	       p->alloc->ts <= p->free->ts &&
	       address(p->alloc, a, 1) == address(p->free, a, 0) &&
	       address(p->alloc, a, 1) != -1;
}

/* Does the description say the free's CPU and the lifetime in ns? */
static int describe_ok(const struct kmem_ks_ctx *ks,
		       const struct kmem_ks_pair *p, char *buf, size_t len)
{
	char want[96];
	int64_t life;

	describe(ks, p, buf, len);
	if (p->free) {
		life = p->free->ts - p->alloc->ts;
		snprintf(want, sizeof(want), "freed on CPU %d", p->free->cpu);
	} else {
		life = ks->end_ts - p->alloc->ts;
		snprintf(want, sizeof(want), "never freed in the trace");
	}
	if (!strstr(buf, want))
		return 0;
	snprintf(want, sizeof(want), "(%" PRId64 " ns)", life);
	return strstr(buf, want) != NULL;
}

/*
 * Is allocator @a printed: slab, page and percpu always (the outputs
 * tests/golden/identity.sha256 keeps), a later one when it has a link,
 * a leak or live bytes.
 */
static int shown_alloc(const struct kmem_ks_ctx *ks, int a)
{
	return a <= KMEM_ALLOC_PERCPU || ks->counts.pairs[a] ||
	       ks->counts.leaks[a] || ks->counts.live_bytes[a];
}

static void print_counts(const struct kmem_ks_ctx *ks, const char *prefix)
{
	int a;

	for (a = 0; a < KMEM_NR_ALLOC; a++)
		if (shown_alloc(ks, a))
			printf("%s%s pairs %" PRIu64 " pingpong %" PRIu64
			       " leaks %" PRIu64 " leak_bytes %" PRIu64
			       " live_bytes %" PRIu64 "\n",
			       prefix, names[a], ks->counts.pairs[a],
			       ks->counts.pingpong[a], ks->counts.leaks[a],
			       ks->counts.leak_bytes[a],
			       ks->counts.live_bytes[a]);
}

static void report(const struct kmem_ks_ctx *ks)
{
	uint64_t link_err = 0, leak_err = 0, desc_err = 0;
	uint64_t sum[KMEM_NR_ALLOC] = { 0 };
	unsigned int shown[2][KMEM_NR_ALLOC] = { { 0 } };
	char buf[1024];
	size_t i;
	int a, cpu;

	print_counts(ks, "");
	printf("records %" PRIu64 "\n", ks->counts.records);
	for (cpu = 0; cpu < ks->n_cpus; cpu++)
		for (i = 0; i < ks->links[cpu].n; i++) {
			const struct kmem_ks_pair *p = &ks->links[cpu].p[i];

			link_err += !link_ok(p);
			desc_err += !describe_ok(ks, p, buf, sizeof(buf));
			if (shown[0][p->allocator]++ < 3)
				printf("describe %s\n", buf);
		}
	for (cpu = 0; cpu < ks->n_cpus; cpu++)
		for (i = 0; i < ks->leaks[cpu].n; i++) {
			const struct kmem_ks_pair *p = &ks->leaks[cpu].p[i];

			leak_err += !is_kind(p->alloc, (int)p->allocator, 1) ||
				    find(ks, p->alloc) != p;
			sum[p->allocator] += p->bytes;
			desc_err += !describe_ok(ks, p, buf, sizeof(buf));
			if (shown[1][p->allocator]++ < 3)
				printf("describe %s\n", buf);
		}
	for (cpu = 0; cpu < ks->n_cpus; cpu++)
		for (i = 0; i < ks->links[cpu].n; i++)
			link_err += find(ks, ks->links[cpu].p[i].alloc) !=
				    &ks->links[cpu].p[i];
	printf("link_errors %" PRIu64 "\nleak_errors %" PRIu64 "\n", link_err,
	       leak_err);
	for (a = 0; a < KMEM_NR_ALLOC; a++)
		if (shown_alloc(ks, a))
			printf("leak_sum %s %" PRIu64 "\n", names[a], sum[a]);
	printf("describe_errors %" PRIu64 "\n", desc_err);
}

/* The curves of the first call sites the dialog offers. */
static void report_sites(const struct kmem_ks_ctx *ks)
{
	size_t i, n = ks->nr_sites < 3 ? ks->nr_sites : 3;
	struct kmem_ks_site s[3];

	memcpy(s, ks->sites, n * sizeof(*s)); /* remade by choose() */
	for (i = 0; i < n; i++) {
		const struct kmem_ks_series *c = &ks->site_live;

		if (choose(ks->sd, s[i].call_site, s[i].allocator)) {
			printf("site_error %#" PRIx64 "\n", s[i].call_site);
			continue;
		}
		printf("site %s %#" PRIx64 " live_bytes %" PRIu64
		       " peak_bytes %" PRIu64 "\n",
		       names[s[i].allocator], s[i].call_site,
		       c->n ? c->p[c->n - 1].bytes : 0, c->max);
	}
	/* followed again from the file, as after the dialog's Apply */
	if (n)
		print_counts(ks, "again ");
}

/* --draw: the view of the whole trace in @n_bins bins, as draw.cpp sees it */
static int report_draw(const struct kmem_ks_ctx *ks, int64_t min, int64_t max,
		       int n_bins)
{
	struct kmem_ks_view v = { .min = min, .max = max, .n_bins = n_bins };
	const struct kmem_ks_pair **in;
	struct kmem_ks_bin *bins;
	char buf[1024];
	unsigned int a;
	int cpu, b;

	v.bin_size = (max - min) / n_bins + 1;
	for (a = 0; a <= KMEM_NR_ALLOC; a++)
		if (describe_curve(ks, a, buf, sizeof(buf)))
			printf("curve %s\n", buf);
	bins = calloc((size_t)n_bins, sizeof(*bins));
	if (!bins)
		return 2;
	for (cpu = 0; cpu < ks->n_cpus; cpu++) {
		const struct kmem_ks_list *l = &ks->links[cpu];
		uint64_t allocs = 0, pingpong = 0;
		uint32_t peak;
		size_t i;

		in = calloc(l->n + 1, sizeof(*in));
		if (!in) {
			free(bins);
			return 2;
		}
		for (i = 0; i < l->n; i++)
			in[i] = &l->p[i];
		peak = bins_of(in, l->n, &v, bins);
		for (b = 0; b < n_bins; b++) {
			const struct kmem_ks_bin *o = &bins[b];

			if (!o->allocs)
				continue;
			allocs += o->allocs;
			pingpong += o->pingpong;
			printf("bin %d %d allocs %u pingpong %u longest_ns "
			       "%" PRId64 "\n",
			       cpu, b, o->allocs, o->pingpong,
			       o->longest->free->ts - o->longest->alloc->ts);
		}
		printf("bins %d allocs %" PRIu64 " pingpong %" PRIu64
		       " peak %u\n",
		       cpu, allocs, pingpong, peak);
		free(in);
	}
	free(bins);
	return 0;
}

int main(int argc, char **argv)
{
	const struct kmem_ks_ctx *(*get)(int);
	struct kshark_context *ctx = NULL;
	struct kshark_entry **rows = NULL;
	struct kshark_plugin_list *pl;
	struct kshark_dpi_list *dpi;
	struct kshark_data_stream *stream;
	const struct kmem_ks_ctx *ks;
	int load = argc == 4 && !strcmp(argv[1], "--load");
	int reload = argc == 4 && !strcmp(argv[1], "--reload");
	int draw = argc == 4 && !strncmp(argv[1], "--draw=", 7)
			   ? atoi(argv[1] + 7)
			   : 0;
	ssize_t n, i;
	int sd, ret = 0;

	if ((argc != 3 && !load && !reload && !draw) || draw < 0) {
		fprintf(stderr, "usage: kshark_kmem [--load|--reload|--draw=N] "
				"PLUGIN FILE\n");
		return 1;
	}
	if (load || reload || draw)
		argv++;
	if (!kshark_instance(&ctx))
		return 2;
	sd = kshark_open(ctx, argv[2]);
	if (sd < 0) {
		fprintf(stderr, "kshark_kmem: %s: cannot open\n", argv[2]);
		kshark_free(ctx);
		return 2;
	}
	stream = kshark_get_data_stream(ctx, sd);
	if (load && !strcmp(argv[1], "none")) {
		n = kshark_load_entries(ctx, sd, &rows);
		printf("entries %zd\n", n);
		goto out;
	}
	pl = kshark_register_plugin(ctx, "kmem", argv[1]);
	if (!pl || !pl->process_interface) {
		fprintf(stderr, "kshark_kmem: %s: not a KernelShark plugin\n",
			argv[1]);
		kshark_free(ctx);
		return 2;
	}
	dpi = kshark_register_plugin_to_stream(stream, pl->process_interface,
					       true);
	kshark_handle_dpi(stream, dpi, KSHARK_PLUGIN_INIT);
	n = kshark_load_entries(ctx, sd, &rows);
	*(void **)&get = dlsym(pl->handle, "kmem_ks_stream");
	if (reload && n >= 0 && get && get(sd)) {
		for (i = 0; i < n; i++)
			free(rows[i]);
		free(rows);
		rows = NULL;
		n = kshark_load_entries(ctx, sd, &rows);
	}
	*(void **)&describe = dlsym(pl->handle, "kmem_ks_describe");
	*(void **)&find = dlsym(pl->handle, "kmem_ks_find");
	*(void **)&choose = dlsym(pl->handle, "kmem_ks_choose_site");
	*(void **)&describe_curve = dlsym(pl->handle, "kmem_ks_describe_curve");
	*(void **)&bins_of = dlsym(pl->handle, "kmem_ks_bins");
	ks = n >= 0 && get && describe && find && choose ? get(sd) : NULL;
	if (ks && load)
		printf("entries %zd\n", n);
	else if (ks && draw)
		ret = describe_curve && bins_of && n > 0
			      ? report_draw(ks, rows[0]->ts, rows[n - 1]->ts,
					    draw)
			      : 3;
	else if (ks) {
		report(ks);
		report_sites(ks);
	} else
		ret = 3;
out:
	for (i = 0; i < n; i++)
		free(rows[i]);
	free(rows);
	kshark_close(ctx, sd);
	kshark_free(ctx);
	return ret;
}
