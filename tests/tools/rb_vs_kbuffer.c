// SPDX-License-Identifier: LGPL-2.1
/*
 * rb_vs_kbuffer FILE...: decode every ring-buffer page of uncompressed
 * trace.dat files with reader/'s page decoder and with libtraceevent's
 * kbuffer, and compare every record: offset, payload position and size,
 * timestamp, missed events.  Prints one PASS or FAIL line per file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kbuffer.h>

#include "internal.h"
#include "ringbuf.h"

static int check_page(struct kbuffer *kb, const uint8_t *page, unsigned int ps,
		      const struct tdat_file *f, unsigned long long *recs,
		      char *why, size_t len)
{
	uint8_t *copy = calloc(1, ps + 16);
	struct rb_page pg;
	struct rb_record r;
	unsigned long long ts;
	void *data;
	int ret = 0, n;

	if (!copy)
		return -1;
	memcpy(copy, page, ps);
	kbuffer_load_subbuffer(kb, copy);
	if (rb_page_load(&pg, copy, ps, f->kbuf_long, f->big)) {
		snprintf(why, len, "page header rejected");
		free(copy);
		return -1;
	}
	data = kbuffer_read_event(kb, &ts);
	for (;;) {
		n = rb_page_next(&pg, &r);
		if (n < 0) {
			snprintf(why, len, "page damaged at %u", pg.next);
			ret = -1;
			break;
		}
		if (!n || !data) {
			if (n || data) {
				snprintf(why, len, "record counts differ");
				ret = -1;
			}
			break;
		}
		if ((const uint8_t *)data != r.data ||
		    (int)r.size != kbuffer_event_size(kb) ||
		    (int)r.offset != kbuffer_curr_offset(kb) || r.ts != ts ||
		    r.missed != kbuffer_missed_events(kb)) {
			snprintf(why, len,
				 "record at %u: kbuffer %d+%d ts %llu "
				 "missed %d, reader %u+%u ts %llu missed %d",
				 r.offset, kbuffer_curr_offset(kb),
				 kbuffer_event_size(kb), ts,
				 kbuffer_missed_events(kb), r.offset, r.size,
				 (unsigned long long)r.ts, r.missed);
			ret = -1;
			break;
		}
		(*recs)++;
		data = kbuffer_next_event(kb, &ts);
	}
	free(copy);
	return ret;
}

static int check_file(const char *path)
{
	char why[TDAT_WHY_LEN] = "";
	unsigned long long pages = 0, recs = 0;
	struct tdat_file *f;
	int b, i, bad = 0;

	if (tdat_open(path, NULL, &f, why, sizeof(why))) {
		printf("FAIL rb-vs-kbuffer:%s: %s\n", path, why);
		return 1;
	}
	for (b = 0; b < f->nr_buffers && !bad; b++) {
		const struct tdat_buffer *buf = &f->buffers[b];
		struct kbuffer *kb;

		if (buf->compressed) {
			printf("FAIL rb-vs-kbuffer:%s: compressed\n", path);
			tdat_close(f);
			return 1;
		}
		kb = kbuffer_alloc(
			f->kbuf_long == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
			f->big ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
		for (i = 0; i < buf->nr_cpus && !bad; i++) {
			const struct tdat_cpu *c = &buf->cpus[i];
			uint64_t off;

			for (off = 0; off + buf->page_size <= c->size && !bad;
			     off += buf->page_size, pages++)
				bad = check_page(kb, f->map + c->offset + off,
						 buf->page_size, f, &recs, why,
						 sizeof(why));
		}
		kbuffer_free(kb);
	}
	tdat_close(f);
	if (bad || !recs) {
		printf("FAIL rb-vs-kbuffer:%s: %s\n", path,
		       bad ? why : "no records");
		return 1;
	}
	printf("PASS rb-vs-kbuffer:%s: %llu pages, %llu records identical\n",
	       path, pages, recs);
	return 0;
}

int main(int argc, char **argv)
{
	int i, bad = 0;

	for (i = 1; i < argc; i++)
		bad |= check_file(argv[i]);
	return bad;
}
