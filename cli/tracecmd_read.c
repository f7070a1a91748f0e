// SPDX-License-Identifier: LGPL-2.1
/*
 * libtracecmd as the reading side of the pipeline (see tracecmd_read.h):
 * tracecmd_iterate_events() in its own order, every record pushed, the
 * pages libtracecmd has mapped and read dropped behind it (pageout.h).
 */
#include "extent.h"
#include "pageout.h"
#include "tracecmd_read.h"

struct src {
	struct tracecmd_input *h;
	const struct tk_filter *filter;
	struct tk_pageout pageout;
	struct tk_pipe *pipe;
	int max_size;		/* no record is larger than a page */
	unsigned int page;	/* nor runs past its page: kmem_page_bound() */
	uint64_t skipped;	/* records of impossible sizes or extents */
	int first_cpu;		/* where the first of them was */
	unsigned long long first_offset;
};

static int one_record(struct tracecmd_input *h, struct tep_record *rec, int cpu,
		      void *data)
{
	struct src *src = data;

	(void)h;
	/*
	 * libtracecmd hands over sizes like -4 from damaged pages, and
	 * records that run past the end of their page (of its buffer)
	 */
	if (rec->size < 0 || rec->size > src->max_size ||
	    !kmem_record_in_page(rec, src->page)) {
		if (!src->skipped++) {
			src->first_cpu = cpu;
			src->first_offset = rec->offset;
		}
		return 0;
	}
	if (tk_pipe_push(src->pipe, rec))
		return -1;
	tk_pageout_record(&src->pageout, cpu, rec->data);
	return 0;
}

static int produce(struct tk_pipe *p, void *arg)
{
	struct src *src = arg;
	const struct tk_filter *f = src->filter;

	src->pipe = p;
	return tracecmd_iterate_events(src->h, f->cpus, (int)f->cpus_size,
				       one_record, src);
}

/**
 * tk_tracecmd_run - count one libtracecmd handle (a buffer of a file)
 * @h: the handle
 * @s: the session, on tracecmd_get_tep(@h)
 * @progress: ticked as records are counted
 *
 * Return: 0, or -1 when reading failed or memory ran out.
 */
int tk_tracecmd_run(struct tracecmd_input *h, struct tk_session *s,
		    struct tk_progress *progress)
{
	struct src src = { .h = h, .filter = &s->args->filter };
	int page = tep_get_sub_buffer_size(s->tep);
	int ret;

	src.max_size = page > 0 ? page : 1 << 20;
	src.page = kmem_page_bound(s->tep);
	if (tk_pageout_init(&src.pageout, tep_get_cpus(s->tep)))
		return -1;
	ret = tk_pipeline_run(produce, &src, s, progress);
	s->agg.skipped_records += src.skipped;
	if (src.skipped && !s->quiet) {
		tk_progress_done(progress);
		fprintf(stderr,
			TK_NAME ": %s: damaged data skipped: %llu record%s of "
			"impossible sizes (the first on CPU %d at offset "
			"%#llx)\n",
			s->label, (unsigned long long)src.skipped,
			src.skipped == 1 ? "" : "s", src.first_cpu,
			src.first_offset);
	}
	tk_pageout_release(&src.pageout);
	return ret;
}
