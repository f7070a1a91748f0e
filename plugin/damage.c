// SPDX-License-Identifier: LGPL-2.1
/*
 * What libtracecmd does not say about a damaged file, found by the
 * native reader (reader/) at the first record of ours trace-cmd prints.
 *
 * trace-cmd reads through libtracecmd, which drops a compressed chunk
 * that does not inflate without a word, hands over what it finds in a
 * damaged page, and may stop reading a CPU there.  So, when statistics
 * are wanted, the input the plugin was loaded for is scanned with the
 * native reader's checks before its first record of ours is counted
 * (or at the end, when there was none): its damaged pages and chunks
 * are counted into the report's WARNING, the records trace-cmd prints
 * from them are left out of the statistics, and the records of our
 * events that the scan read and trace-cmd never printed are reported as
 * unread (unless trace-cmd was asked to leave records out: -F, --cpu
 * and the like).
 * An event format of ours that libtracecmd left out as damaged (its
 * records listed as [UNKNOWN EVENT]) is said in one line on stderr; the
 * records of an event id no format in the file has (a format's ID
 * damaged) are counted into the report.
 * A file the native reader cannot read is not scanned; when it refuses
 * one as damaged, one line on stderr says so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "event/tep_names.h"
#include "feed/loop.h"
#include "plugin.h"

static bool wanted(const char *system, const char *name)
{
	return kmem_slot_by_name(system, name) >= 0;
}

/* What the scan tells records apart with. */
struct scan_ids {
	/* its ids mapped, those without a format marked: by the file's
	 * formats when the scan reads them, by trace-cmd's handle when it
	 * borrows it (@borrowed) */
	struct kmem_feed feed;
	bool borrowed;
	/* with trace-cmd's handle: the records of each id it has no format
	 * for, told apart once the file's formats are read (say_left_out());
	 * NULL: none yet */
	uint32_t *per_id;
	bool per_id_failed; /* out of memory for it */
	bool unknown;	    /* a record of an id without a format was seen */
};

#define KNOWN_IDS 65536 /* every id of a 2-byte common_type */

/*
 * A record of an id without a format.  With the scan's own formats (the
 * file's), counted into the report now; with trace-cmd's handle, counted
 * by id: a format libtracecmd left out as damaged has an id too.
 */
static void note_unknown(struct scan_ids *s, const struct tep_record *rec)
{
	int id = kmem_feed_type(&s->feed, rec);

	s->unknown = true;
	if (!s->borrowed) {
		kmem_feed_no_format(&s->feed, rec);
		return;
	}
	if (!s->per_id && !s->per_id_failed) {
		s->per_id = calloc(KNOWN_IDS, sizeof(*s->per_id));
		s->per_id_failed = !s->per_id;
	}
	if (s->per_id && id >= 0 && id < KNOWN_IDS &&
	    s->per_id[id] < UINT32_MAX)
		s->per_id[id]++;
}

/*
 * The records our print handlers count: every kmem event's, but stacks;
 * by the slot of the record's event id (@priv: struct scan_ids).  A
 * record of an id without a format is noted (note_unknown()): no one can
 * read it (trace-cmd lists it as unknown), and it may be one of ours.
 */
static bool counted(void *priv, const struct tep_record *rec)
{
	struct scan_ids *s = priv;
	int slot = kmem_feed_slot(&s->feed, rec);

	if (slot == KMEM_FEED_NO_FORMAT)
		note_unknown(s, rec);
	else if (slot < 0)
		kmem_feed_other(&s->feed, rec);
	return slot >= 0 && slot != KMEM_SLOT_KERNEL_STACK;
}

/*
 * The records of ids trace-cmd has no format for (@s->per_id) that no
 * format of the file (@f's) has either, into the report: the lowest id
 * first.  The others are of a format libtracecmd left out as damaged,
 * which say_left_out() says.
 */
static void count_unknown(const struct scan_ids *s, struct tdat_file *f,
			  struct kmem_agg *agg)
{
	const uint8_t *ids = tdat_format_ids(f);
	int id;

	for (id = 0; s->per_id && id < KNOWN_IDS; id++) {
		if (!s->per_id[id] || (ids && ids[id / 8] & (1u << (id % 8))))
			continue;
		kmem_agg_unknown(agg, id, s->per_id[id]);
	}
}

/*
 * Say an event format of ours that the native reader left out as
 * damaged, as libtracecmd leaves it out without a word (its records are
 * listed as [UNKNOWN EVENT] and never reach us).  @f: the file, its
 * formats read; NULL: read them now, and count the records of @s's ids
 * without a format that the file has none for either into @agg.
 */
static void say_left_out(struct tdat_file *f, const char *path,
			 const struct scan_ids *s, struct kmem_agg *agg)
{
	struct tdat_hooks hooks = { .want = wanted,
				    .no_kallsyms = true,
				    .no_print_fmt = true,
				    .lazy_cmdlines = true };
	struct tdat_file *own = NULL;
	char why[TDAT_WHY_LEN];

	if (!f && tdat_open(path, &hooks, &own, why, sizeof(why)) != TDAT_OK)
		return;
	if (tdat_formats_note(f ? f : own, why, sizeof(why)))
		fprintf(stderr, "kmem: %s: %s\n", path, why);
	if (own && s)
		count_unknown(s, own, agg);
	if (s && s->per_id_failed)
		fprintf(stderr,
			"kmem: %s: out of memory: records of event ids "
			"without a format not counted\n",
			path);
	if (own)
		tdat_close(own);
}

/**
 * plugin_damage_defer - name the input to scan
 * @kp: the plugin state (statistics wanted)
 * @path: the input, or "" when it is not known
 *
 * The plugin loads before libtracecmd reads the event formats; the scan
 * waits for them (plugin_damage_scan()).  Without a file, or memory for
 * its name, nothing is scanned: the statistics are libtracecmd's.
 */
void plugin_damage_defer(struct kmem_plugin *kp, const char *path)
{
	if (*path)
		kp->scan_path = strdup(path);
}

/**
 * plugin_damage_scan - scan the input for damage, once
 * @kp: the plugin state, its input named by plugin_damage_defer()
 * @borrow: trace-cmd has read the event formats and printed a record of
 *	ours: its handle tells our records apart
 *
 * Without @borrow (no record of ours was printed: trace-cmd may have
 * stopped on damaged formats) the native reader reads the formats (only
 * the fields of ours) and its own handle does.  A format that may be
 * ours, damaged and left out (libtracecmd leaves it out without a word,
 * and its records never reach the plugin), is said in one line on
 * stderr: read then, or, with @borrow, when the scan meets a record of
 * an id trace-cmd has no format for (reading the formats costs 12.5 M
 * instructions on a 50,000-record trace: more than the rest of the
 * plugin's overhead).  A file the native reader cannot read is not
 * scanned; one it refuses as damaged is said, in one line on stderr.
 */
void plugin_damage_scan(struct kmem_plugin *kp, bool borrow)
{
	struct tdat_hooks hooks = { .want = wanted,
				    .no_kallsyms = true,
				    .no_print_fmt = true,
				    .no_formats = borrow,
				    .lazy_cmdlines = true };
	const struct tdat_damage *d;
	char *path = kp->scan_path;
	struct scan_ids *ids;
	char why[TDAT_WHY_LEN];
	struct tdat_file *f;
	int ret, no_lens;
	bool cut;

	if (!path)
		return;
	kp->scan_path = NULL;
	ret = tdat_open(path, &hooks, &f, why, sizeof(why));
	if (ret != TDAT_OK) {
		/* damage the native reader refuses (a CPU table pointing
		 * two CPUs at one place): libtracecmd reads on, unchecked */
		if (ret == TDAT_BAD) {
			fprintf(stderr,
				"kmem: %s: %s; the statistics are "
				"libtracecmd's reading, unchecked\n",
				path, why);
			snprintf(kp->unchecked, sizeof(kp->unchecked), "%s",
				 why);	/* and in the report */
		}
		free(path);
		return;
	}
	if (!borrow)
		say_left_out(f, path, NULL, NULL);
	if (tdat_cmdlines_note(f, why, sizeof(why)))
		fprintf(stderr, "kmem: %s: %s\n", path, why);
	cut = tdat_cut_note(f, why, sizeof(why)) != 0;
	ids = calloc(1, sizeof(*ids));
	if (ids &&
	    !kmem_feed_init(&ids->feed, borrow ? kp->tep : tdat_tep(f), NULL,
			    KMEM_FEED_MAP_IDS | KMEM_FEED_SLOTS_ONLY)) {
		/* the ids without a format: trace-cmd's (the file's formats
		 * were not read), or the file's (into the report now) */
		ids->borrowed = borrow;
		if (borrow) {
			kmem_feed_known_tep(&ids->feed, kp->tep);
			no_lens = kmem_feed_lens_tep(&ids->feed, kp->tep);
		} else {
			kmem_feed_known(&ids->feed, tdat_format_ids(f));
			no_lens = kmem_feed_lens(&ids->feed, tdat_format_len_of,
						 f);
			ids->feed.agg = &kp->agg;
		}
		if (no_lens)
			fprintf(stderr,
				"kmem: %s: out of memory: records of other "
				"events not held to their formats' lengths\n",
				path);
		kp->scan = tdat_scan(f, counted, ids);
		/* records of other events their formats do not fit */
		if (borrow)
			kp->agg.skipped_records += ids->feed.misfits;
	}
	tdat_close(f);
	if (ids && ids->unknown && borrow) /* only then are they read */
		say_left_out(NULL, path, ids, &kp->agg);
	if (ids) {
		kmem_feed_release(&ids->feed);
		free(ids->per_id);
	}
	free(ids);
	free(path);
	if (!kp->scan) { /* memory ran out */
		fprintf(stderr,
			"%s: %s: out of memory: damage in it not looked for\n",
			kmem_prog, kp->label);
		return;
	}
	d = tdat_scan_damage(kp->scan, NULL);
	kp->healthy = !cut && !d->pages && !d->chunks && !d->cut_pages &&
		      !d->cut_chunks;
	kp->nr_cpus = tdat_scan_cpus(kp->scan);
	kp->seen = calloc((size_t)kp->nr_cpus + 1, sizeof(*kp->seen));
	if (!kp->seen)
		plugin_damage_release(kp);
}

/**
 * plugin_damage_finish - the damage into the statistics, before the report
 * @kp: the plugin state
 * @elsewhere: another plugin printed some of our events
 */
void plugin_damage_finish(struct kmem_plugin *kp, bool elsewhere)
{
	const struct tdat_damage *d;
	int cpu;

	if (!kp->scan)
		return;
	d = tdat_scan_damage(kp->scan, NULL);
	kp->agg.damaged_pages += d->pages;
	kp->agg.damaged_chunks += d->chunks;
	if (elsewhere || plugin_args_filtered())
		return;
	for (cpu = 0; cpu < kp->nr_cpus; cpu++) {
		uint64_t want = tdat_scan_records(kp->scan, NULL, cpu);

		if (want > kp->seen[cpu])
			kp->agg.unread_records += want - kp->seen[cpu];
	}
}

/**
 * plugin_damage_release - forget the scan
 * @kp: the plugin state
 */
void plugin_damage_release(struct kmem_plugin *kp)
{
	tdat_scan_free(kp->scan);
	free(kp->seen);
	free(kp->scan_path);
	kp->scan_path = NULL;
	kp->scan = NULL;
	kp->seen = NULL;
	kp->nr_cpus = 0;
}
