// SPDX-License-Identifier: LGPL-2.1
/*
 * libtracecmd as the reading side of the pipeline (see tracecmd_read.h):
 * tracecmd_iterate_events() in its own order, every record pushed, the
 * pages libtracecmd has mapped and read dropped behind it (pageout.h).
 *
 * What the native reader's scan of the file found damaged (inputs.c) is
 * skipped and reported as the native reader does: libtracecmd drops a
 * chunk that does not inflate without a word and hands over the
 * records it makes of a damaged page.
 */
#include <stdlib.h>

#include "buffers.h"
#include "damage.h"
#include "tracecmd_push.h"
#include "tracecmd_read.h"

struct src {
	struct tracecmd_input *h;
	const struct tdat_scan *scan;	/* or NULL */
	const struct tk_filter *filter;
	struct tk_tc_push push;		/* the checks, the pipe */
	uint64_t *read;		/* per CPU: records counted (with a scan) */
	int nr_cpus;		/* of @read */
};

static int one_record(struct tracecmd_input *h, struct tep_record *rec, int cpu,
		      void *data)
{
	struct src *src = data;
	int ret;

	(void)h;
	if (src->scan && tdat_scan_skips(src->scan, rec->offset))
		/* counted with its page or chunk; but is it going round? */
		return tk_tc_moving(&src->push, rec, cpu) < 0 ? -1 : 0;
	ret = tk_tc_push(&src->push, rec, cpu);
	if (ret > 0 && src->read && cpu >= 0 && cpu < src->nr_cpus)
		src->read[cpu]++;
	return ret < 0 ? -1 : 0;
}

static int produce(struct tk_pipe *p, void *arg)
{
	struct src *src = arg;
	const struct tk_filter *f = src->filter;

	src->push.pipe = p;
	return tracecmd_iterate_events(src->h, f->cpus, (int)f->cpus_size,
				       one_record, src);
}

/*
 * Records the scan read on the CPUs that were read and libtracecmd did
 * not hand over: it stops reading a CPU at some damaged pages and
 * chunks, and says nothing.
 */
static uint64_t unread(const struct src *src, const char *name)
{
	const struct tk_filter *f = src->filter;
	uint64_t n = 0;
	int cpu;

	for (cpu = 0; cpu < src->nr_cpus; cpu++) {
		uint64_t want = tdat_scan_records(src->scan, name, cpu);

		if (f->cpus && !CPU_ISSET_S((size_t)cpu, f->cpus_size, f->cpus))
			continue;
		if (want > src->read[cpu])
			n += want - src->read[cpu];
	}
	return n;
}

/* Memory ran out: one line.  Return: -2. */
static int nomem(const struct tk_session *s)
{
	fprintf(stderr, TK_NAME ": %s: out of memory\n", s->label);
	return -2;
}

/**
 * tk_tracecmd_run - count one buffer of a file through libtracecmd
 * @in: the file, opened by libtracecmd
 * @buffer: 0 for the top buffer, then the instances
 * @s: the session, on the buffer's tracecmd_get_tep()
 * @progress: ticked as records are counted
 *
 * Return: 0, -1 when reading failed, or -2 after one line on stderr
 * (memory ran out, or libtracecmd went round in circles on a damaged
 * page).
 */
int tk_tracecmd_run(const struct tk_input *in, int buffer,
		    struct tk_session *s, struct tk_progress *progress)
{
	struct src src = { .filter = &s->args->filter, .scan = in->scan };
	const struct tdat_damage *found = NULL;
	struct tdat_damage d = { 0 };
	const char *name = "";
	int ret;

	src.h = buffer ? in->inst[buffer - 1] : in->h;
	/* the file's formats, as the native reader found them: a format
	 * libtracecmd left out as damaged has an id (said on its own) */
	if (in->scan && tdat_scan_format_ids(in->scan))
		kmem_feed_known(&s->feed, tdat_scan_format_ids(in->scan));
	else
		kmem_feed_known_tep(&s->feed, s->tep);
	if (!s->feed.lens && kmem_feed_lens_tep(&s->feed, s->tep))
		return nomem(s);
	s->feed.misfits = 0; /* this buffer's, said after it */
	if (buffer)
		name = tk_buffer_name(in, buffer); /* as the scan names it */
	if (in->scan && name)
		found = tdat_scan_damage(in->scan, name);
	if (found) {
		src.nr_cpus = tep_get_cpus(s->tep);
		src.read = calloc((size_t)src.nr_cpus + 1, sizeof(*src.read));
		if (!src.read)
			return nomem(s);
	}
	if (tk_tc_push_init(&src.push, s->tep)) {
		free(src.read);
		return nomem(s);
	}
	ret = tk_pipeline_run(produce, &src, s, progress);
	if (ret == TK_PIPE_NOMEM) {
		tk_tc_push_release(&src.push);
		free(src.read);
		return nomem(s);
	}
	if (src.push.round_cpu >= 0) {
		tk_progress_done(progress);
		fprintf(stderr,
			TK_NAME ": %s: damaged data: libtracecmd gives the "
			"records of CPU %d from offset %#llx again and again "
			"(tracecmd_peek_data() does not leave a damaged page); "
			"not read further\n",
			s->label, src.push.round_cpu, src.push.round_offset);
		free(src.read);
		tk_tc_push_release(&src.push);
		return -2;
	}
	if (found && !ret)
		s->agg.unread_records += unread(&src, name);
	free(src.read);
	if (found)
		d = *found;
	else if (src.push.skipped) {
		d.first_cpu = src.push.first_cpu;
		d.first_offset = src.push.first_offset;
	}
	if (!d.pages && !d.chunks && !src.push.skipped) {
		d.first_cpu = s->feed.misfit_cpu; /* the first is a record */
		d.first_offset = s->feed.misfit_offset;
	}
	s->agg.skipped_records += src.push.skipped;
	s->agg.damaged_pages += d.pages;
	s->agg.damaged_chunks += d.chunks;
	if (!s->quiet) {
		tk_progress_done(progress);
		tk_say_damage(s->label, src.push.skipped + s->feed.misfits, &d,
			      s->agg.unread_records);
	}
	tk_tc_push_release(&src.push);
	return ret;
}
