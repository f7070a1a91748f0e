// SPDX-License-Identifier: LGPL-2.1
/*
 * rec_digest FILE: the records of every buffer of a trace.dat, read by
 * reader/ (trace-kmem's native reader) and by libtracecmd, one line per
 * buffer and reader:
 *
 *   native BUFFER: N records, M out of order, damage D, digest HEX
 *   libtracecmd BUFFER: N records, digest HEX
 *
 * BUFFER is "top" or the instance's name.  The digest is a sum over the
 * records of a hash of each one's timestamp, CPU, size and payload
 * bytes: the same records give the same digest in any order (CPUs whose
 * records share a timestamp may be merged either way).  M counts the
 * native records older than the record before them; D the pages and
 * chunks the native reader could not trust.  tests/e2e/wild.sh compares
 * the lines of the two readers.  A file the native reader refuses is
 * not handed to libtracecmd, whose tracecmd_open() crashes on some of
 * them (a cut file).  Exit status 0, or 1 when a reader failed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd.h>

#include "tdat.h"

struct digest {
	uint64_t records;
	uint64_t sum;
	uint64_t back;
	unsigned long long last_ts;
};

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v;
	h *= 0x100000001b3ULL;
	return h ^ (h >> 29);
}

static void add(struct digest *d, unsigned long long ts, int cpu,
		const void *data, int size)
{
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ULL;
	int i;

	h = mix(h, ts);
	h = mix(h, (uint64_t)(unsigned int)cpu);
	h = mix(h, (uint64_t)(unsigned int)size);
	for (i = 0; i < size; i++)
		h = mix(h, p[i]);
	d->sum += h;
	if (d->records && ts < d->last_ts)
		d->back++;
	d->last_ts = ts;
	d->records++;
}

static int native_rec(void *priv, const struct tep_record *rec)
{
	add(priv, rec->ts, rec->cpu, rec->data, rec->size);
	return 0;
}

static int native(const char *path)
{
	char why[TDAT_WHY_LEN];
	struct tdat_file *f;
	int i, ret = 0;

	if (tdat_open(path, NULL, &f, why, sizeof(why))) {
		printf("native: cannot open: %s\n", why);
		return 2;
	}
	for (i = 0; i < tdat_nr_buffers(f); i++) {
		struct tdat_damage dmg;
		struct digest d = { 0 };
		const char *name = i ? tdat_buffer_name(f, i) : "top";

		if (tdat_iterate(f, i, NULL, 0, native_rec, &d, &dmg, why,
				 sizeof(why)) < 0) {
			printf("native %s: %s\n", name, why);
			ret = 1;
			continue;
		}
		printf("native %s: %llu records, %llu out of order, damage "
		       "%llu, digest %016llx\n",
		       name, (unsigned long long)d.records,
		       (unsigned long long)d.back,
		       (unsigned long long)(dmg.pages + dmg.chunks +
					    dmg.cut_pages + dmg.cut_chunks),
		       (unsigned long long)d.sum);
	}
	tdat_close(f);
	return ret;
}

static int lib_rec(struct tracecmd_input *h, struct tep_record *rec, int cpu,
		   void *priv)
{
	(void)h;
	add(priv, rec->ts, cpu, rec->data, rec->size);
	return 0;
}

static int lib_buffer(struct tracecmd_input *h, const char *name)
{
	struct digest d = { 0 };

	if (tracecmd_iterate_events(h, NULL, 0, lib_rec, &d) < 0) {
		printf("libtracecmd %s: error reading the records\n", name);
		return 1;
	}
	printf("libtracecmd %s: %llu records, digest %016llx\n", name,
	       (unsigned long long)d.records, (unsigned long long)d.sum);
	return 0;
}

static int libtracecmd(const char *path)
{
	struct tracecmd_input *h, *b;
	int i, ret;

	tracecmd_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h) {
		printf("libtracecmd: cannot open\n");
		return 1;
	}
	ret = lib_buffer(h, "top");
	for (i = 0; i < tracecmd_buffer_instances(h); i++) {
		const char *name = tracecmd_buffer_instance_name(h, i);

		b = tracecmd_buffer_instance_handle(h, i);
		if (!b) {
			printf("libtracecmd %s: cannot open\n", name);
			ret = 1;
			continue;
		}
		ret |= lib_buffer(b, name);
		tracecmd_close(b);
	}
	tracecmd_close(h);
	return ret;
}

int main(int argc, char **argv)
{
	int ret;

	if (argc != 2) {
		fprintf(stderr, "usage: %s FILE\n", argv[0]);
		return 2;
	}
	ret = native(argv[1]);
	if (ret == 2) { /* libtracecmd crashes on some files we refuse */
		printf("libtracecmd: not tried\n");
		return 1;
	}
	ret |= libtracecmd(argv[1]);
	return ret;
}
