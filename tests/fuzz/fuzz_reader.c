// SPDX-License-Identifier: LGPL-2.1
/*
 * libFuzzer target: reader/ on arbitrary bytes.
 *
 * Each input is opened as a trace.dat with tdat_open_mem(), wanting the
 * kmem events and ftrace:kernel_stack, with the print functions of
 * lib/tep_names.c registered and the print formats parsed when lib/ first
 * reads one, as trace-kmem stat does (cli/native.c).  Every
 * buffer is iterated (all CPUs, and once more with every other CPU left
 * out), every byte of every record is read (so that AddressSanitizer
 * sees a record reaching outside its page or chunk), the kmem records
 * go through lib/'s decoder and aggregators as a session would send
 * them, kallsyms is indexed and looked up through the tep handle, and
 * the report is rendered to /dev/null.  Then everything is released:
 * LeakSanitizer checks that nothing is left.
 *
 * The last byte of the input picks the report's options (it is nearly
 * always past the data the reader looks at).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/agg.h"
#include "event/decode.h"
#include "event/tep_names.h"
#include "feed/feed.h"
#include "fuzz_opts.h"
#include "later.h"
#include "options/config.h"
#include "options/render_cfg.h"
#include "render/report.h"
#include "tdat.h"

/* No input is worth more records than this (a 2 MB input has fewer). */
#define MAX_RECORDS 2000000
#define NR_ADDRS 16

struct ctx {
	struct tep_handle *tep;
	struct kmem_fields fields[KMEM_NR_SLOTS];
	int ids[KMEM_NR_SLOTS]; /* event id of each slot, -1: none */
	struct kmem_agg agg;
	uint64_t records;
	uint64_t pass_records; /* of this pass over a buffer */
	uint64_t digest;       /* of this pass's records */
	uint64_t sink;
	uint64_t addrs[NR_ADDRS]; /* call sites seen, for lookups */
	int naddrs;
	bool replay; /* second pass: read, do not count */
};

static FILE *devnull;
static bool verbose; /* FUZZ_VERBOSE=1: one line per input */

static bool wanted_event(const char *system, const char *name)
{
	return kmem_slot_by_name(system, name) >= 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
	verbose = getenv("FUZZ_VERBOSE") != NULL;
	return 0;
}

/* The slots of the events the file has, as cli/session.c maps them. */
static void map_events(struct ctx *c)
{
	struct tep_event **evs = tep_list_events(c->tep, TEP_EVENT_SORT_ID);
	int i, slot;

	for (i = 0; i < KMEM_NR_SLOTS; i++)
		c->ids[i] = -1;
	for (i = 0; evs && evs[i]; i++) {
		slot = kmem_slot_by_name(evs[i]->system, evs[i]->name);
		if (slot < 0 || evs[i]->id < 0)
			continue;
		kmem_fields_init(&c->fields[slot], evs[i], slot);
		c->ids[slot] = evs[i]->id;
	}
}

static int slot_of(const struct ctx *c, int id)
{
	int i;

	for (i = 0; id >= 0 && i < KMEM_NR_SLOTS; i++)
		if (c->ids[i] == id)
			return i;
	return -1;
}

static int one_record(void *priv, const struct tep_record *rec)
{
	struct ctx *c = priv;
	const volatile uint8_t *p = rec->data;
	struct kmem_event ev;
	uint64_t sum = 0;
	int i, id, slot;

	if (rec->size < 0 || (rec->size && !rec->data))
		abort();
	for (i = 0; i < rec->size; i++) /* ASan: all of it readable */
		sum += p[i];
	c->sink += sum + rec->ts + (uint64_t)rec->offset;
	c->digest = c->digest * 31 + sum + rec->ts + (uint64_t)rec->offset +
		    (uint64_t)rec->cpu * 7 + (uint64_t)rec->size +
		    (uint64_t)rec->missed_events;
	c->records++;
	if (++c->pass_records >= MAX_RECORDS)
		return 1;
	if (c->replay)
		return 0;
	if (rec->missed_events)
		kmem_agg_missed(&c->agg, rec->missed_events);
	/* libtraceevent's getters take no const record */
	id = tep_data_type(c->tep, (struct tep_record *)rec);
	tep_data_pid(c->tep, (struct tep_record *)rec);
	slot = slot_of(c, id);
	if (slot >= 0) {
		if (kmem_decode(&c->fields[slot], rec, &ev)) {
			c->agg.undecodable++;
		} else {
			kmem_agg_event(&c->agg, &ev);
			if (ev.call_site && c->naddrs < NR_ADDRS)
				c->addrs[c->naddrs++] = ev.call_site;
		}
	}
	return 0;
}

/*
 * A compressed buffer read again with its chunks inflated ahead on a
 * thread (reader/prefetch.c), with the CPUs of @set (NULL: all): the
 * same records, in the same order, and the same damage as the pass that
 * just ended (@d) with them inflated in line.  Unless the thread was not
 * made (TDAT_NO_PREFETCH), when nothing may have been handed over.
 */
static void same_ahead(struct tdat_file *f, int b, struct ctx *c,
		       const cpu_set_t *set, const struct tdat_damage *d,
		       char *why, size_t why_len)
{
	uint64_t n = c->pass_records, h = c->digest;
	struct tdat_damage d2;
	int ret;

	c->replay = true;
	c->pass_records = c->digest = 0;
	tdat_set_prefetch(f, true);
	ret = tdat_iterate(f, b, set, set ? sizeof(*set) : 0, one_record, c,
			   &d2, why, why_len);
	tdat_set_prefetch(f, false);
	if (ret == TDAT_NO_PREFETCH) {
		if (c->pass_records)
			abort();
		return;
	}
	if (c->pass_records != n || c->digest != h || d2.pages != d->pages ||
	    d2.chunks != d->chunks || d2.cut_pages != d->cut_pages ||
	    d2.cut_chunks != d->cut_chunks || d2.time_back != d->time_back ||
	    ((d->pages || d->chunks) && (d2.first_cpu != d->first_cpu ||
					 d2.first_offset != d->first_offset)) ||
	    (d->time_back &&
	     (d2.back_cpu != d->back_cpu || d2.back_offset != d->back_offset)))
		abort();
}

/* kallsyms through the tep handle, as the report resolves call sites. */
static void lookups(struct ctx *c)
{
	static const uint64_t fixed[] = {
		0,
		1,
		0xffffffff81000000ULL,
		0xffffffff81234567ULL,
		0xffffffffffffffffULL,
		0x7fffffffffffffffULL,
		0xc0000000ULL,
	};
	const char *name;
	size_t i;

	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		name = tep_find_function(c->tep, fixed[i]);
		if (name)
			c->sink += strlen(name) +
				   tep_find_function_address(c->tep, fixed[i]);
	}
	for (i = 0; i < (size_t)c->naddrs; i++) {
		name = tep_find_function(c->tep, c->addrs[i]);
		if (name)
			c->sink += strlen(name);
	}
}

static void report(struct ctx *c, struct kmem_symbolizer *sym, uint8_t flags)
{
	struct kmem_input in = { .label = "fuzz" };
	struct kmem_opts o;
	struct kmem_render_cfg rc;
	struct kmem_report_ctx r = { &c->agg, &rc, sym, &in, NULL };

	fuzz_opts(&o, flags);
	kmem_opts_render_cfg(&o, devnull, &rc);
	kmem_feed_finish(&c->agg, sym, c->tep);
	kmem_report_tables(&r, devnull);
	if (flags & 0x90)
		kmem_report_json(&r, devnull);
	kmem_opts_release(&o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char why[TDAT_WHY_LEN];
	struct kmem_collect_cfg cc;
	struct kmem_symbolizer sym;
	struct tdat_damage dmg;
	struct tdat_file *f;
	struct kmem_opts o;
	struct ctx *c;
	cpu_set_t set;
	/* as cli/native.c opens a file */
	static const struct tdat_hooks hooks = {
		.want = wanted_event,
		.prepare = kmem_tep_register_functions,
		.lazy_print_fmt = true,
		.lazy_cmdlines = true,
	};
	int ret, b, n, cpu;

	memset(why, 'x', sizeof(why));
	ret = tdat_open_mem(data, size, &hooks, &f, why, sizeof(why));
	if (!memchr(why, 0, sizeof(why)))
		abort(); /* the reason must be a C string */
	if (verbose && ret != TDAT_OK)
		fprintf(stderr, "fuzz_reader: open: %d %s\n", ret, why);
	if (ret != TDAT_OK) {
		if (f || (ret != TDAT_BAD && ret != TDAT_UNSUPPORTED) ||
		    !why[0])
			abort();
		return 0;
	}
	/* a cut file: the sentence that says what the cut took */
	memset(why, 'x', sizeof(why));
	ret = tdat_cut_note(f, why, sizeof(why));
	if (ret < 0 || ret > 2 || (ret && !memchr(why, 0, sizeof(why))))
		abort();
	if (verbose && ret)
		fprintf(stderr, "fuzz_reader: %s\n", why);
	c = calloc(1, sizeof(*c));
	if (!c)
		abort();
	c->tep = tdat_tep(f);
	if (tk_later_register(f))
		abort(); /* out of memory: not the input's doing */
	kmem_tep_symbolizer(&sym, c->tep);
	if (kmem_agg_init(&c->agg))
		abort(); /* out of memory: not the input's doing */
	fuzz_opts(&o, size ? data[size - 1] : 0);
	cc = kmem_opts_collect_cfg(&o);
	kmem_agg_keep_rows(&c->agg, &cc);
	kmem_opts_release(&o);
	kmem_agg_configure(&c->agg, &sym, NULL, NULL, 0);
	kmem_agg_set_numa(&c->agg, NULL);
	kmem_feed_page_geometry(&c->agg, c->tep);
	map_events(c);

	n = tdat_nr_buffers(f);
	if (n < 1)
		abort();
	for (b = 0; b < n; b++) {
		c->sink += strlen(tdat_buffer_name(f, b)) +
			   tdat_buffer_bytes(f, b);
		c->replay = false;
		c->pass_records = c->digest = 0;
		tdat_iterate(f, b, NULL, 0, one_record, c, &dmg, why,
			     sizeof(why));
		if (tdat_buffer_compressed(f, b))
			same_ahead(f, b, c, NULL, &dmg, why, sizeof(why));
		if (verbose)
			fprintf(stderr,
				"fuzz_reader: buffer %d \"%s\": %llu "
				"records, %llu damaged pages, %llu chunks "
				"(first: CPU %d at %#llx)\n",
				b, tdat_buffer_name(f, b),
				(unsigned long long)c->records,
				(unsigned long long)dmg.pages,
				(unsigned long long)dmg.chunks, dmg.first_cpu,
				(unsigned long long)dmg.first_offset);
		/* again, with the odd CPUs left out */
		c->replay = true;
		c->pass_records = 0;
		CPU_ZERO(&set);
		for (cpu = 0; cpu < tdat_buffer_cpus(f, b) && cpu < CPU_SETSIZE;
		     cpu += 2)
			CPU_SET(cpu, &set);
		c->digest = 0;
		tdat_iterate(f, b, &set, sizeof(set), one_record, c, &dmg, why,
			     sizeof(why));
		if (tdat_buffer_compressed(f, b))
			same_ahead(f, b, c, &set, &dmg, why, sizeof(why));
	}
	/* the full index, or the pass over the addresses counted (the
	 * others of lookups() then resolve as unannounced ones) */
	if (size && data[size - 1] & 0x80) {
		tdat_index_symbols(f);
	} else {
		size_t n;
		uint64_t *v = kmem_agg_addresses(&c->agg, &n);

		tdat_want_symbols(f, v, v ? n : 0);
		free(v);
	}
	lookups(c);
	/* a task named: the saved comms registered (lazy_cmdlines) */
	c->sink += strlen(sym.comm(sym.priv, 1));
	report(c, &sym, size ? data[size - 1] : 0);

	kmem_agg_release(&c->agg);
	tk_later_done(f);
	free(c);
	tdat_close(f);
	return 0;
}
