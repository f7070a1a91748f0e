// SPDX-License-Identifier: LGPL-2.1
/*
 * libFuzzer target: lib/'s decoders and aggregators on crafted records.
 *
 * The event formats in tests/formats/ (and tests/tdat/formats/, when
 * there) are parsed once into a tep handle per layout: kernel
 * generation, byte order and long size.  Each input then is
 *
 *	byte 0		the layout (modulo their number)
 *	byte 1		the report's options (see report())
 *	records		until the input ends:
 *	  selector	bits 0-4: the kmem slot (enum kmem_slot; 20 and
 *			more: no event, the payload is a lost-events
 *			count); bit 5: the CPU; bit 6: the record follows
 *			lost events; bit 7: a time jump of about a second
 *	  size		< 192: that many bytes; else 192 + (size - 192) * 16
 *			(up to 1200: kernel_stack records of 64 frames and
 *			more)
 *	  payload	the record's bytes (cut short at the end of the
 *			input)
 *
 * Each record is copied into a buffer of exactly its size, so any read
 * past it is caught by AddressSanitizer, and goes through
 * kmem_decode() and kmem_agg_event() as cli/session.c sends it.  At the
 * end the statistics are finished, merged into a second summary, both
 * rendered (tables and JSON) to /dev/null, the two documents compared
 * as trace-kmem diff compares them, and released.  Then the same
 * records go twice through the timeline, as trace-kmem plot sends them,
 * and it is drawn as SVG and JSON to /dev/null.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/agg.h"
#include "../unit/agg_util.h"
#include "event/decode.h"
#include "event/tep_names.h"
#include "feed/feed.h"
#include "fuzz_opts.h"
#include "options/config.h"
#include "options/render_cfg.h"
#include "render/diff_report.h"
#include "render/plot_svg.h"
#include "render/report.h"
#include "render/report_pprof.h"
#include "render/report_traces.h"
#include "render/report_rows.h"

#ifndef FUZZ_FORMATS
#define FUZZ_FORMATS "tests/formats"
#endif

struct layout {
	const char *files[3]; /* slab, page, more page events */
	const char *percpu;   /* per-CPU allocator events */
	int long_size;
	bool big;
	struct tep_handle *tep;
	struct kmem_fields fields[KMEM_NR_SLOTS];
	bool have[KMEM_NR_SLOTS];
};

#define PAGE_FREE "../tdat/formats/page-free-linux-6.18-x86_64.txt"
#define PCPU_OLD "percpu-linux-5.15-x86_64.txt"
#define PCPU "percpu-linux-6.18-x86_64.txt"

static struct layout layouts[] = {
	{ .files = { "linux-2.6.32-x86_64.txt",
		     "page-linux-2.6.32-x86_64.txt" },
	  .percpu = PCPU_OLD,
	  .long_size = 8 },
	{ .files = { "linux-5.15-x86_64.txt", "page-linux-6.18-x86_64.txt",
		     PAGE_FREE },
	  .percpu = PCPU_OLD,
	  .long_size = 8 },
	{ .files = { "linux-6.0-x86_64.txt", "page-linux-6.18-x86_64.txt",
		     PAGE_FREE },
	  .percpu = PCPU,
	  .long_size = 8 },
	{ .files = { "linux-6.1-ppc32.txt",
		     "../tdat/formats/page-linux-6.1-ppc32.txt" },
	  .percpu = PCPU,
	  .long_size = 4,
	  .big = true },
	{ .files = { "linux-6.18-x86_64.txt", "page-linux-6.18-x86_64.txt",
		     PAGE_FREE },
	  .percpu = PCPU,
	  .long_size = 8 },
	{ .files = { "linux-6.18-x86_64.txt", "page-linux-6.18-x86_64.txt",
		     PAGE_FREE },
	  .percpu = PCPU,
	  .long_size = 8,
	  .big = true },
	{ .files = { "synthetic-rel_loc-x86_64.txt",
		     "page-linux-6.18-x86_64.txt", PAGE_FREE },
	  .percpu = PCPU,
	  .long_size = 8 },
};

#define NR_LAYOUTS (sizeof(layouts) / sizeof(layouts[0]))

/* A few functions, for the call sites and stack frames to resolve to. */
static const struct {
	const char *name;
	unsigned long long addr;
} funcs[] = {
	{ "_stext", 0xffffffff81000000ULL },
	{ "__kmalloc_noprof", 0xffffffff81100000ULL },
	{ "kmem_cache_alloc_noprof", 0xffffffff81100400ULL },
	{ "__alloc_pages_noprof", 0xffffffff81200000ULL },
	{ "copy_process", 0xffffffff81300000ULL },
	{ "getname_flags", 0xffffffff81300800ULL },
	{ "c_start", 0xc0000000ULL },
	{ "c_func", 0xc0001000ULL },
};

static FILE *devnull;
static bool verbose; /* FUZZ_VERBOSE=1: one line per input */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *read_file(const char *name)
{
	char path[4096];
	char *buf;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/%s", FUZZ_FORMATS, name);
	f = fopen(path, "rb");
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0) {
		fclose(f);
		return NULL;
	}
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* Every "name:" block of a format file, as tests/unit/ parse them. */
static void parse_file(struct tep_handle *tep, const char *name)
{
	char *buf = read_file(name), *p, *next;

	if (!buf) {
		fprintf(stderr, "fuzz_records: no %s/%s\n", FUZZ_FORMATS, name);
		return;
	}
	for (p = buf; p && *p; p = next) {
		const char *sys;

		next = strstr(p + 1, "\nname: ");
		if (next)
			*next++ = '\0';
		sys = strstr(p, "name: kernel_stack") ? "ftrace" :
		      strstr(p, "name: percpu_") ? "percpu" : "kmem";
		tep_parse_event(tep, p, strlen(p), sys);
	}
	free(buf);
}

static void load(struct layout *l)
{
	struct tep_handle *tep = tep_alloc();
	size_t i;
	int s;

	if (!tep)
		abort();
	tep_set_long_size(tep, l->long_size);
	tep_set_page_size(tep, 4096);
	tep_set_file_bigendian(tep,
			       l->big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	tep_set_local_bigendian(tep, TEP_BIG_ENDIAN);
#else
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
#endif
	for (i = 0; i < 3 && l->files[i]; i++)
		parse_file(tep, l->files[i]);
	parse_file(tep, l->percpu);
	for (i = 0; i < sizeof(funcs) / sizeof(funcs[0]); i++)
		tep_register_function(tep, (char *)funcs[i].name, funcs[i].addr,
				      NULL);
	tep_register_comm(tep, "fuzz", 1);
	tep_register_comm(tep, "kworker/0:1", 42);
	for (s = 0; s < KMEM_NR_SLOTS; s++) {
		struct tep_event *ev = tep_find_event_by_name(
			tep, kmem_slot_system(s), kmem_slot_event_name(s));

		if (!ev)
			continue;
		kmem_fields_init(&l->fields[s], ev, s);
		l->have[s] = true;
	}
	l->tep = tep;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	size_t i;

	devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
	verbose = getenv("FUZZ_VERBOSE") != NULL;
	for (i = 0; i < NR_LAYOUTS; i++)
		load(&layouts[i]);
	return 0;
}

/* trace-kmem diff of the input's document against the merged one. */
static void diff(const struct kmem_report_ctx *r,
		 const struct kmem_report_ctx *mr, const struct kmem_opts *o,
		 uint8_t flags)
{
	struct json jb, ja, out;
	struct kmem_diff d = { .before_label = "fuzz", .after_label = "merged",
			       .by_function = flags & 4, .lines = o->lines,
			       .norm = flags % 3, .before_per = 0.5,
			       .after_per = 3 };

	json_init_tree(&jb);
	json_init_tree(&ja);
	kmem_report_json_to(r, &jb);
	kmem_report_json_to(mr, &ja);
	if (jb.root && ja.root) {
		d.before = jb.root;
		d.after = ja.root;
		kmem_diff_text(&d, devnull);
		json_init(&out, devnull);
		kmem_diff_json(&d, &out);
	}
	jt_free(jb.root);
	jt_free(ja.root);
}

/* The pprof profile and the warehouse rows of a report. */
static void pprof_and_rows(const struct kmem_report_ctx *r, uint8_t flags)
{
	const struct kmem_label labels[] = { { (char *)"host",
					       (char *)"fuzz" } };
	struct kmem_pprof *p = kmem_pprof_for_reports();

	if (!p)
		abort(); /* out of memory: not the input's doing */
	if (!kmem_pprof_add_report(p, r, flags & 1, labels, 1))
		kmem_pprof_write(p, devnull);
	kmem_pprof_free(p);
	kmem_report_rows(r, labels, 1, devnull);
}

/* stat --merge: the input added twice, as two traces; every output. */
static void merged_report(const struct kmem_agg *agg,
			  const struct kmem_symbolizer *sym,
			  const struct kmem_opts *o, uint8_t flags)
{
	struct kmem_collect_cfg cc = kmem_opts_collect_cfg(o);
	struct kmem_render_cfg rc;
	struct kmem_report_ctx r;
	struct kmem_input in;
	struct kmem_merge m;

	if (kmem_merge_init(&m, &cc, NULL, flags & 2) ||
	    kmem_merge_add(&m, agg, sym, "a", "host", NULL) ||
	    kmem_merge_add(&m, agg, sym, "b", NULL, "6.1"))
		abort(); /* out of memory: not the input's doing */
	kmem_opts_render_cfg(o, devnull, &rc);
	kmem_merged_render_cfg(&rc);
	in = (struct kmem_input){ .label = "(merged)",
				  .nr_parts = m.nr_parts,
				  .parts = m.parts };
	r = (struct kmem_report_ctx){ &m.agg, &rc, &m.sym, &in, NULL };
	kmem_report_tables(&r, devnull);
	kmem_report_json(&r, devnull);
	pprof_and_rows(&r, flags);
	kmem_merge_release(&m);
}

static void report(struct kmem_agg *agg, struct tep_handle *tep, uint8_t flags)
{
	const char *labels[] = { "fuzz" };
	struct kmem_input in = { .label = "fuzz" };
	struct kmem_input min = { .label = "(merged)",
				  .merged = 1,
				  .inputs = labels };
	struct kmem_symbolizer sym;
	struct kmem_agg merged;
	struct kmem_opts o;
	struct kmem_render_cfg rc;
	struct kmem_report_ctx r = { agg, &rc, &sym, &in, NULL };
	struct kmem_report_ctx mr = { &merged, &rc, &sym, &min, NULL };

	kmem_tep_symbolizer(&sym, tep);
	fuzz_opts(&o, flags);
	kmem_opts_render_cfg(&o, devnull, &rc);
	kmem_feed_finish(agg, &sym, tep);
	kmem_report_tables(&r, devnull);
	kmem_report_json(&r, devnull);
	pprof_and_rows(&r, flags);

	if (kmem_agg_init(&merged))
		abort(); /* out of memory: not the input's doing */
	kmem_agg_merge(&merged, agg, sym.old_migratetypes > 0);
	kmem_report_tables(&mr, devnull);
	kmem_report_json(&mr, devnull);
	diff(&r, &mr, &o, flags);
	kmem_agg_release(&merged);
	merged_report(agg, &sym, &o, flags);
	kmem_opts_release(&o);
}

/* One aggregate set up as cli/session.c sets it up. */
static void agg_start(struct kmem_agg *agg, struct kmem_symbolizer *sym,
		      struct layout *l, uint8_t flags)
{
	struct kmem_collect_cfg cc;
	struct kmem_opts o;

	kmem_tep_symbolizer(sym, l->tep);
	if (kmem_agg_init(agg))
		abort(); /* out of memory: not the input's doing */
	fuzz_opts(&o, flags);
	cc = kmem_opts_collect_cfg(&o);
	kmem_agg_keep_rows(agg, &cc);
	kmem_opts_release(&o);
	kmem_agg_configure(agg, sym, NULL, NULL, 0);
	kmem_agg_set_numa(agg, NULL);
	kmem_feed_page_geometry(agg, l->tep);
}

/* The records of @data into @agg, and @tl when not NULL. */
static void replay(const uint8_t *data, size_t size, struct layout *l,
		   struct kmem_agg *agg, struct kmem_timeline *tl)
{
	uint64_t ts = 1000000000ULL, offset[4] = { 4096, 8192, 12288, 16384 };
	struct kmem_event ev;
	size_t pos = 2;

	while (pos + 2 <= size) {
		uint8_t sel = data[pos], sz = data[pos + 1];
		size_t n = sz < 192 ? sz : 192 + (size_t)(sz - 192) * 16;
		struct tep_record rec;
		int slot = sel & 31, cpu = (sel >> 5) & 1;
		uint8_t *copy;

		pos += 2;
		if (n > size - pos)
			n = size - pos;
		copy = malloc(n ? n : 1);
		if (!copy)
			abort();
		memcpy(copy, data + pos, n);
		pos += n;
		ts += sel & 0x80 ? 1000000007ULL : 137;
		memset(&rec, 0, sizeof(rec));
		rec.ts = ts;
		rec.offset = offset[cpu];
		rec.size = (int)n;
		rec.record_size = (int)n;
		rec.data = copy;
		rec.cpu = cpu;
		rec.missed_events = sel & 0x40 ? (sz & 1 ? -1 : sz) : 0;
		offset[cpu] += (n <= 112 ? 4 : 8) + ((n + 3) & ~(size_t)3);

		if (rec.missed_events) {
			kmem_agg_missed(agg, rec.missed_events);
			if (tl)
				kmem_timeline_loss(tl, rec.ts,
						   rec.missed_events);
		}
		if (slot >= KMEM_NR_SLOTS) {
			long long lost = 0;
			size_t i;

			for (i = 0; i < n && i < 8; i++)
				lost = (long long)((uint64_t)lost << 8 |
						   copy[i]);
			kmem_agg_missed(agg, lost);
		} else if (l->have[slot]) {
			if (kmem_decode(&l->fields[slot], &rec, &ev)) {
				agg->undecodable++;
			} else {
				kmem_agg_event(agg, &ev);
				if (tl)
					kmem_timeline_event(tl, agg, &ev);
			}
		}
		free(copy);
	}
}

/*
 * trace-kmem plot's two passes over the same records, the timeline
 * written as JSON and SVG.
 */
static void plot(const uint8_t *data, size_t size, struct layout *l)
{
	struct kmem_symbolizer sym;
	struct kmem_plot_info info = { .label = "fuzz<&>" };
	bool show[KMEM_NR_ALLOC] = { false };
	struct kmem_timeline tl;
	struct kmem_agg agg;
	struct json j;
	int ok;

	agg_start(&agg, &sym, l, data[1]);
	ok = !kmem_timeline_init(&tl, &agg);
	if (ok)
		replay(data, size, l, &agg, &tl);
	kmem_feed_finish(&agg, &sym, l->tep);
	if (ok)
		kmem_timeline_end(&tl, &agg);
	kmem_agg_release(&agg);
	show[KMEM_ALLOC_SLAB] = !(data[1] & 8);
	show[KMEM_ALLOC_PAGE] = !(data[1] & 16);
	if (ok && !kmem_timeline_select(&tl, data[1] & 7, show)) {
		agg_start(&agg, &sym, l, data[1]);
		kmem_timeline_restart(&tl, &agg);
		replay(data, size, l, &agg, &tl);
		kmem_feed_finish(&agg, &sym, l->tep);
		kmem_timeline_end(&tl, &agg);
		kmem_plot_svg(devnull, &tl, &sym, &info);
		json_init(&j, devnull);
		json_open(&j, NULL, '{');
		kmem_timeline_json(&tl, &sym, 0, &j);
		json_close(&j, '}');
		kmem_agg_release(&agg);
	}
	kmem_timeline_release(&tl);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kmem_symbolizer sym;
	struct layout *l;
	struct kmem_agg agg;

	if (size < 2)
		return 0;
	l = &layouts[data[0] % NR_LAYOUTS];
	agg_start(&agg, &sym, l, data[1]);
	replay(data, size, l, &agg, NULL);
	if (verbose)
		fprintf(stderr,
			"fuzz_records: layout %d: %llu slab, %llu page "
			"events, %llu undecodable, %llu lost\n",
			(int)(l - layouts),
			(unsigned long long)agg.events[KMEM_ALLOC_SLAB],
			(unsigned long long)agg.events[KMEM_ALLOC_PAGE],
			(unsigned long long)agg.undecodable,
			(unsigned long long)agg.events_lost);
	report(&agg, l->tep, data[1]);
	kmem_agg_release(&agg);
	plot(data, size, l);
	return 0;
}
