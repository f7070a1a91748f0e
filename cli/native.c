// SPDX-License-Identifier: LGPL-2.1
/*
 * trace-kmem stat through reader/ (see native.h).  Only the formats of
 * the events lib/ decodes are parsed; records reach the session straight
 * from the ring-buffer pages, with no copy and no allocation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "damage.h"
#include "event/decode.h"
#include "event/tep_names.h"
#include "fault.h"
#include "feed/feed.h"
#include "later.h"
#include "native.h"
#include "pipeline.h"

static bool wanted_event(const char *system, const char *name)
{
	return kmem_slot_by_name(system, name) >= 0;
}

static const struct tdat_hooks hooks = {
	.want = wanted_event,
	.prepare = kmem_tep_register_functions,
	.lazy_print_fmt = true,
	.lazy_cmdlines = true,
};

/**
 * tk_native_open - open a file with the native reader
 * @path: the file
 * @f: the handle, on TDAT_OK
 * @late: its kallsyms may still be decompressed on return; the caller
 *	calls tk_native_ready() before its first output
 *
 * A file the native reader leaves to libtracecmd gets why in @left
 * (the caller says it, once libtracecmd reads the file or not); a
 * damaged one gets one line naming the damage; a version 7 file cut
 * short, read up to the cut, one line saying where it was cut and what
 * that lost.
 *
 * Return: TDAT_OK, TDAT_UNSUPPORTED or TDAT_BAD.
 */
int tk_native_open(const char *path, struct tdat_file **f, bool late,
		   char *left, size_t len)
{
	struct tdat_hooks h = hooks;
	char why[TDAT_WHY_LEN];
	int ret;

	h.late_kallsyms = late;
	ret = tdat_open(path, &h, f, why, sizeof(why));
	if (ret == TDAT_OK && tk_later_register(*f)) {
		tdat_close(*f);
		*f = NULL;
		snprintf(why, sizeof(why), "out of memory");
		ret = TDAT_BAD;
	}

	if (ret == TDAT_OK && tdat_cut_note(*f, why, sizeof(why)))
		fprintf(stderr, TK_NAME ": %s: %s\n", path, why);
	if (ret == TDAT_OK && tdat_formats_note(*f, why, sizeof(why)))
		fprintf(stderr, TK_NAME ": %s: %s\n", path, why);
	if (ret == TDAT_OK && tdat_cmdlines_note(*f, why, sizeof(why)))
		fprintf(stderr, TK_NAME ": %s: %s\n", path, why);
	if (ret == TDAT_UNSUPPORTED)
		snprintf(left, len, "%s", why);
	else if (ret == TDAT_BAD)
		fprintf(stderr, TK_NAME ": %s: %s\n", path, why);
	return ret;
}

/**
 * tk_native_ready - the end of a late opening (tk_native_open())
 * @f: the file
 * @path: its name, for the message
 *
 * Return: 0, or -1 after one line naming the damage found.
 */
int tk_native_ready(struct tdat_file *f, const char *path)
{
	char why[TDAT_WHY_LEN];

	if (tdat_ready(f, why, sizeof(why)) == TDAT_OK)
		return 0;
	fprintf(stderr, TK_NAME ": %s: %s\n", path, why);
	return -1;
}

/*
 * libtracecmd parses every symbol of kallsyms into libtraceevent (a
 * name, a list entry and a sorted array entry each): about four times
 * the section's size.  Real ones are 5 to 20 MB.
 */
#define TK_LIBTRACECMD_KALLSYMS (64ULL << 20)

/**
 * tk_native_validate - check a file before libtracecmd gets it
 * @path: the file
 * @scan: set to where its data is damaged (tdat_scan()), or NULL when the
 *        native reader cannot read the file (valid for libtracecmd only)
 *
 * libtracecmd trusts sizes, counts and offsets that it reads (it divides
 * by a page size of 0, allocates what a CPU id says, reads past a
 * buffer); what the native reader finds damaged is refused here with its
 * one line, and libtracecmd never sees it.  So is a version 7 file cut
 * short where trace data or options were lost (libtracecmd refuses it
 * or reads nothing); one that lost only the names after its options
 * gets the native reader's line, and goes on to libtracecmd.  So is a
 * kallsyms section over TK_LIBTRACECMD_KALLSYMS: libtracecmd cannot be
 * told to resolve only the symbols a report prints, as the native
 * reader does.  Damaged pages and chunks, which libtracecmd reads as
 * garbage or drops without a word, are left in @scan for its reader to
 * skip and report.
 *
 * Return: 0 (valid, or valid but for libtracecmd only), or -1 after one
 * line on stderr.
 */
int tk_native_validate(const char *path, struct tdat_scan **scan)
{
	char why[TDAT_WHY_LEN];
	struct tdat_file *f;
	int ret = tdat_open(path, &hooks, &f, why, sizeof(why));

	*scan = NULL;
	if (ret == TDAT_OK) {
		int cut = tdat_cut_note(f, why, sizeof(why));

		if (cut == 1)
			fprintf(stderr, TK_NAME ": %s: %s\n", path, why);
		if (tdat_formats_note(f, why, sizeof(why)))
			fprintf(stderr, TK_NAME ": %s: %s\n", path, why);
		if (tdat_cmdlines_note(f, why, sizeof(why)))
			fprintf(stderr, TK_NAME ": %s: %s\n", path, why);
		if (cut == 2) {
			size_t n = strlen(why);

			snprintf(why + n, sizeof(why) - n,
				 "; libtracecmd cannot read it, the native "
				 "reader (without --reader=libtracecmd) reads "
				 "what is left");
			ret = TDAT_BAD;
		} else if (tdat_check_chunks(f, why, sizeof(why))) {
			ret = TDAT_BAD;
		}
	}
	if (ret == TDAT_OK &&
	    tdat_kallsyms_bytes(f) > TK_LIBTRACECMD_KALLSYMS) {
		snprintf(why, sizeof(why),
			 "kallsyms of %llu MB: libtracecmd would hold about "
			 "4 times that (refused over %llu MB); read it with "
			 "--reader=native",
			 (unsigned long long)(tdat_kallsyms_bytes(f) >> 20),
			 (unsigned long long)(TK_LIBTRACECMD_KALLSYMS >> 20));
		ret = TDAT_BAD;
	}
	if (ret == TDAT_OK) {
		*scan = tdat_scan(f, NULL, NULL);
		if (!*scan) {
			snprintf(why, sizeof(why), "out of memory");
			ret = TDAT_BAD;
		}
	}
	tdat_close(f);
	if (ret != TDAT_BAD)
		return 0;
	fprintf(stderr, TK_NAME ": %s: %s\n", path, why);
	return -1;
}

/**
 * tk_native_check_aligned - what libtracecmd's records need, unvalidated
 * @path: the file
 *
 * With the checks off ($TRACE_KMEM_VALIDATE=never), a file the native
 * reader can open still has its CPU data's alignment checked
 * (tdat_check_aligned()): without it the extent check of libtracecmd's
 * records cannot be made, and neither the fault guard nor the memory
 * bound sees a read past a page.  A file it cannot open goes on.
 *
 * Return: 0, or -1 after one line on stderr.
 */
int tk_native_check_aligned(const char *path)
{
	struct tdat_hooks h = hooks;
	char why[TDAT_WHY_LEN];
	struct tdat_file *f;
	int ret;

	h.keep_unaligned = true;
	ret = tdat_open(path, &h, &f, why, sizeof(why));
	ret = ret == TDAT_OK && tdat_check_aligned(f, why, sizeof(why));
	tdat_close(f);
	if (!ret)
		return 0;
	fprintf(stderr, TK_NAME ": %s: %s\n", path, why);
	return -1;
}

struct src {
	struct tdat_file *f;
	int buffer;
	const struct tk_filter *filter;
	struct tk_pipe *pipe;
	struct tdat_damage damage;
	char why[TDAT_WHY_LEN];
};

static int one_record(void *priv, const struct tep_record *rec)
{
	struct src *src = priv;

	return tk_pipe_push(src->pipe, rec);
}

/* The buffer's records, each to @fn(@priv, record). */
static int iterate(struct src *src, tdat_record_fn fn, void *priv)
{
	const struct tk_filter *flt = src->filter;

	return tdat_iterate(src->f, src->buffer, flt->cpus, flt->cpus_size, fn,
			    priv, &src->damage, src->why, sizeof(src->why));
}

static int produce(struct tk_pipe *p, void *arg)
{
	struct src *src = arg;

	src->pipe = p;
	return iterate(src, one_record, src);
}

/*
 * The call sites and frames the report may name, and the frames of the
 * page stacks whose call sites are chosen now, resolved in one pass over
 * kallsyms: memory for them, not for every symbol of the file.
 */
static void want_symbols(struct tdat_file *f, struct kmem_agg *agg)
{
	size_t n;
	uint64_t *v = kmem_agg_addresses(agg, &n);

	tdat_want_symbols(f, v, v ? n : 0);
	free(v);
	kmem_agg_resolve_callsites(agg);
}

static uint64_t file_done(const void *f)
{
	return tdat_done(f);
}

static const char *module_of(void *f, uint64_t addr)
{
	return tdat_symbol_module(f, addr);
}

/**
 * tk_native_modules - module names for a symbolizer, from the file's
 *	kallsyms ("[mod]" after a module's symbols)
 * @sym: the symbolizer of a session reading @f
 * @f: the file
 */
void tk_native_modules(struct kmem_symbolizer *sym, struct tdat_file *f)
{
	sym->module = module_of;
	sym->mod_priv = f;
}

/**
 * tk_native_run - count one buffer of a file
 * @f: the file
 * @buffer: 0 for the top buffer, then the instances
 * @s: the session, on tdat_tep(@f)
 * @progress: ticked as records are counted
 *
 * Two CPUs share the work: the reader inflates a compressed buffer's
 * chunks ahead on the second and the records are counted where they lie
 * (tdat_set_prefetch()), or reads an uncompressed one on the second and
 * hands copies over (pipeline.h); a buffer with little data is read and
 * counted on one (tk_pipeline_small()).  Damaged pages and chunks are skipped,
 * counted and reported on stderr; the rest of the buffer is counted.  A file
 * opened late (@s->path set) is made ready (tk_native_ready()) after counting,
 * before anything is said.
 *
 * Return: 0, -1 when memory ran out, or -2 when the file turned out
 * damaged (said).
 */
int tk_native_run(struct tdat_file *f, int buffer, struct tk_session *s,
		  struct tk_progress *progress)
{
	struct src src = { .f = f,
			   .buffer = buffer,
			   .filter = &s->args->filter };
	const struct tdat_damage *d = &src.damage;
	bool compressed = tdat_buffer_compressed(f, buffer);
	bool here = tk_pipeline_one_thread() ||
		    tk_pipeline_small(tdat_buffer_bytes(f, buffer), compressed);
	int ret;

	tk_progress_of(progress, file_done, f, tdat_buffer_bytes(f, buffer));
	kmem_feed_known(&s->feed, tdat_format_ids(f));
	if (kmem_feed_lens(&s->feed, tdat_format_len_of, f))
		return -1;
	s->feed.misfits = 0; /* this buffer's, said after it */
	/* no frame looked up while counting: all of them after, at once */
	kmem_agg_defer_callsites(&s->agg);
	/* a fault from here to the end of counting is ours, not the file's */
	tk_fault_guard_counting(s->label);
	tk_fault_test("count");
	/*
	 * On one thread, or compressed data: the reader inflates the chunks
	 * ahead on the second CPU (tdat_set_prefetch()), and the records are
	 * counted where they lie, uncopied.  Uncompressed data, or chunks
	 * whose buffers ahead would take too much memory: read on the second
	 * CPU, counted here (pipeline.h).
	 */
	ret = TDAT_NO_PREFETCH;
	if (here || compressed) {
		tdat_set_prefetch(f, !here);
		s->progress = progress;
		ret = iterate(&src, tk_session_count_fn(s), s);
		s->progress = NULL;
		tdat_set_prefetch(f, false);
	}
	if (ret == TDAT_NO_PREFETCH)
		ret = tk_pipeline_run(produce, &src, s, progress);
	else
		ret = ret < 0 ? -1 : 0;
	tk_fault_guard_counting(NULL);
	/*
	 * The symbols first: their pass follows a kallsyms section still
	 * being inflated (a small trace is counted before it is done).  A
	 * late opening ends then: the records were counted meanwhile, and
	 * nothing is said before a damaged kallsyms is.  What the report
	 * will parse is parsed first, while that section may still be.
	 */
	kmem_feed_prepare(&s->agg, s->tep);
	want_symbols(f, &s->agg);
	if (s->path && tk_native_ready(f, s->path))
		return -2;
	/* what a cut took: said when the file was opened, counted here */
	s->agg.damaged_pages += d->pages + d->cut_pages;
	s->agg.damaged_chunks += d->chunks + d->cut_chunks;
	if (ret < 0)
		fprintf(stderr, TK_NAME ": %s: %s\n", s->label,
			src.why[0] ? src.why : "out of memory");
	if (!s->quiet &&
	    (d->pages || d->chunks || d->time_back || s->feed.misfits)) {
		struct tdat_damage say = *d;

		if (!d->pages && !d->chunks) { /* the first is a record */
			say.first_cpu = s->feed.misfit_cpu;
			say.first_offset = s->feed.misfit_offset;
		}
		tk_progress_done(progress);
		tk_say_damage(s->label, s->feed.misfits, &say, 0);
	}
	return ret < 0 ? -1 : 0;
}
