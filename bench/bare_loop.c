// SPDX-License-Identifier: LGPL-2.1
/*
 * bare_loop - the floor for anything built on libtracecmd.
 *
 * Opens a trace.dat without plugins, iterates every record of the top
 * buffer in time order with tracecmd_iterate_events() and reads one
 * field per record: the event's first own (non-common) field, looked up
 * once per event type.  The values are summed so that the compiler
 * cannot drop the reads.  Prints the record count.  bench/run.sh times
 * trace-kmem stat against this.
 *
 * Usage: bare_loop FILE
 */
#include <stdio.h>
#include <stdlib.h>

#include <trace-cmd.h>

#define MAX_IDS 65536	/* event ids are 16 bits in the ring buffer */

struct loop {
	struct tep_handle *tep;
	unsigned long long records;
	unsigned long long sum;
	struct tep_format_field *field[MAX_IDS];
	unsigned char looked_up[MAX_IDS];
};

static struct tep_format_field *field_of(struct loop *l, int id)
{
	struct tep_event *ev;

	if (l->looked_up[id])
		return l->field[id];
	l->looked_up[id] = 1;
	ev = tep_find_event(l->tep, id);
	if (ev)
		l->field[id] = ev->format.fields;
	return l->field[id];
}

static int on_record(struct tracecmd_input *h, struct tep_record *rec,
		     int cpu, void *data)
{
	struct loop *l = data;
	struct tep_format_field *f;
	unsigned long long val;
	int id;

	(void)h;
	(void)cpu;
	l->records++;
	id = tep_data_type(l->tep, rec);
	if (id < 0 || id >= MAX_IDS)
		return 0;
	f = field_of(l, id);
	if (f && !tep_read_number_field(f, rec->data, &val))
		l->sum += val;
	return 0;
}

int main(int argc, char **argv)
{
	struct tracecmd_input *h;
	struct loop *l;
	int ret;

	if (argc != 2) {
		fprintf(stderr, "usage: %s FILE\n", argv[0]);
		return 2;
	}
	l = calloc(1, sizeof(*l));
	if (!l) {
		fprintf(stderr, "bare_loop: out of memory\n");
		return 1;
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open(argv[1], TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h) {
		fprintf(stderr, "bare_loop: %s: cannot open\n", argv[1]);
		free(l);
		return 1;
	}
	l->tep = tracecmd_get_tep(h);
	ret = tracecmd_iterate_events(h, NULL, 0, on_record, l);
	tracecmd_close(h);
	if (ret < 0) {
		fprintf(stderr, "bare_loop: %s: error reading records\n",
			argv[1]);
		free(l);
		return 1;
	}
	printf("%llu records (checksum %llx)\n", l->records, l->sum);
	free(l);
	return 0;
}
