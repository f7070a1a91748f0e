// SPDX-License-Identifier: LGPL-2.1
/*
 * One input's analysis (see session.h).  tk_session_record() is the
 * per-record path: an array lookup by event id, the filters, lib/'s
 * decoder and aggregator; no allocation, no formatting, no search.
 */
#include <stdlib.h>
#include <string.h>

#include "event/tep_names.h"
#include "session.h"

/*
 * Which events are ours: event id -> slot, filled once per input.  Only
 * our events' ids are mapped; densely when the largest is below
 * TK_DENSE_IDS (always, for the 2-byte common_type of every kernel so
 * far), else in a hash, so that no id in a file sizes an allocation.
 */
#define TK_DENSE_IDS 65536

static int map_events(struct tk_session *s)
{
	struct tep_event **evs = tep_list_events(s->tep, TEP_EVENT_SORT_ID);
	int i, slot, max = -1;

	for (i = 0; evs && evs[i]; i++)
		if (evs[i]->id >= 0 &&
		    kmem_slot_by_name(evs[i]->system, evs[i]->name) >= 0 &&
		    evs[i]->id > max)
			max = evs[i]->id;
	if (evs && evs[0]) {
		const struct tep_format_field *t =
			tep_find_common_field(evs[0], "common_type");

		if (t && (t->size == 2 || t->size == 4)) {
			s->type_off = (unsigned int)t->offset;
			s->type_size = (unsigned int)t->size;
			s->type_end = s->type_off + s->type_size;
			s->type_swap = tep_is_file_bigendian(s->tep) !=
				       tep_is_local_bigendian(s->tep);
		}
	}
	if (max < TK_DENSE_IDS) {
		s->nr_ids = max + 1;
		s->slot_of = malloc(s->nr_ids ? (size_t)s->nr_ids : 1);
		if (!s->slot_of)
			return -1;
		memset(s->slot_of, -1, s->nr_ids ? (size_t)s->nr_ids : 1);
	} else if (u64_index_init(&s->id_ix, 16)) {
		return -1;
	}
	for (i = 0; evs && evs[i]; i++) {
		slot = kmem_slot_by_name(evs[i]->system, evs[i]->name);
		if (slot < 0 || evs[i]->id < 0)
			continue;
		kmem_fields_init(&s->fields[slot], evs[i], slot);
		if (s->slot_of)
			s->slot_of[evs[i]->id] = (int8_t)slot;
		else if (u64_index_insert(&s->id_ix, (uint64_t)evs[i]->id,
					  (uint32_t)slot))
			return -1;
	}
	return 0;
}

/* The event id of @rec, its common_type read here (not through the
 * library: the per-record path). */
static int record_type(const struct tk_session *s,
		       const struct tep_record *rec)
{
	const char *p = (const char *)rec->data + s->type_off;
	uint16_t v16;
	uint32_t v32;

	if (s->type_size == 2) {
		memcpy(&v16, p, 2);
		return s->type_swap ? __builtin_bswap16(v16) : v16;
	}
	memcpy(&v32, p, 4);
	return (int)(s->type_swap ? __builtin_bswap32(v32) : v32);
}

/* The slot of event @id, or -1. */
static int slot_of(const struct tk_session *s, int id)
{
	uint32_t v;

	if (s->slot_of)
		return id >= 0 && id < s->nr_ids ? s->slot_of[id] : -1;
	v = u64_index_find(&s->id_ix, (uint64_t)(unsigned int)id);
	return v == U64_INDEX_NONE ? -1 : (int)v;
}

/**
 * tk_session_init - start the analysis of one input
 * @s: the session
 * @tep: the input's handle (its formats, kallsyms and comms)
 * @a: the options and filters
 * @numa: a topology, or NULL
 *
 * Return: 0, or -1 when memory ran out.
 */
int tk_session_init(struct tk_session *s, struct tep_handle *tep,
		    const struct tk_args *a, const struct kmem_numa *numa)
{
	memset(s, 0, sizeof(*s));
	s->tep = tep;
	s->args = a;
	kmem_tep_symbolizer(&s->sym, tep);
	kmem_agg_init(&s->agg);
	kmem_agg_keep_rows(&s->agg, &a->opts);
	kmem_agg_configure(&s->agg, &s->sym, a->opts.skip, stderr);
	kmem_agg_set_numa(&s->agg, numa);
	kmem_tep_page_geometry(&s->agg.page, tep);
	if (a->filter.comm && u64_index_init(&s->comm_ix, 64))
		return -1;
	return map_events(s);
}

/* Is @pid's command the --comm name?  Cached once the comm is known. */
static bool comm_matches(struct tk_session *s, int pid)
{
	uint32_t v = u64_index_find(&s->comm_ix, (uint64_t)pid);
	const char *comm;

	if (v != U64_INDEX_NONE)
		return v == 1;
	comm = tep_data_comm_from_pid(s->tep, pid);
	if (!strcmp(comm, "<...>"))
		return false;	/* unknown yet: live mode may learn it */
	v = strcmp(comm, s->args->filter.comm) ? 2 : 1;
	u64_index_insert(&s->comm_ix, (uint64_t)pid, v);
	return v == 1;
}

/**
 * tk_session_comms_changed - the tep handle learnt new comms (live)
 * @s: the session
 */
void tk_session_comms_changed(struct tk_session *s)
{
	if (!s->args->filter.comm)
		return;
	u64_index_free(&s->comm_ix);
	u64_index_init(&s->comm_ix, 64);
}

static bool wanted_task(struct tk_session *s, const struct kmem_event *ev)
{
	const struct tk_filter *f = &s->args->filter;

	if (f->pids && u64_index_find(&f->pid_ix, (uint64_t)(unsigned int)
				      ev->pid) == U64_INDEX_NONE)
		return false;
	return !f->comm || comm_matches(s, ev->pid);
}

/**
 * tk_session_record - account one record
 * @s: the session
 * @rec: the record, in time order across CPUs
 *
 * Losses count for every record of a selected CPU and time, whatever
 * its event; kmem events count when they pass the task filters too.
 */
/* The slot of a record's event, or -1 (not ours, or too short to say). */
static int record_slot(struct tk_session *s, const struct tep_record *rec)
{
	if (!s->type_end || rec->size < 0 ||
	    (unsigned int)rec->size < s->type_end)
		return -1;
	return slot_of(s, record_type(s, rec));
}

void tk_session_record(struct tk_session *s, struct tep_record *rec)
{
	const struct tk_filter *f = &s->args->filter;
	struct kmem_event ev;
	int slot;

	s->records++;
	if ((f->cpus &&
	     !CPU_ISSET_S((size_t)rec->cpu, f->cpus_size, f->cpus)) ||
	    (f->time && (rec->ts < f->start || rec->ts > f->end))) {
		s->filtered += record_slot(s, rec) >= 0;
		return;
	}
	if (rec->missed_events) {
		kmem_agg_missed(&s->agg, rec->missed_events);
		if (s->timeline)
			kmem_timeline_loss(s->timeline, rec->ts,
					   rec->missed_events);
	}
	slot = record_slot(s, rec);
	if (slot < 0)
		return;
	if (kmem_decode(&s->fields[slot], rec, &ev)) {
		s->agg.undecodable++;
		return;
	}
	if ((f->pids || f->comm) && !wanted_task(s, &ev)) {
		s->filtered++;
		return;
	}
	kmem_agg_event(&s->agg, &ev);
	if (s->timeline)
		kmem_timeline_event(s->timeline, &s->agg, &ev);
}

/**
 * tk_session_report - the end of the input: print its report
 * @s: the session
 * @outs: where it goes (opened once for all reports of the run)
 * @err: where problems go
 *
 * Return: 0, or -1 when an output file could not be written.
 */
int tk_session_report(struct tk_session *s, struct kmem_outputs *outs,
		      FILE *err)
{
	const struct tk_filter *f = &s->args->filter;
	struct kmem_input in = { .label = s->label };
	struct kmem_render_cfg rc;
	struct kmem_report_ctx r = { &s->agg, &rc, &s->sym, &in, NULL };
	char filters[64];

	snprintf(filters, sizeof(filters), "%s%s%s%s", f->time ? ", --time" : "",
		 f->pids ? ", --pid" : "", f->comm ? ", --comm" : "",
		 f->cpus ? ", --cpu" : "");
	in.filtered = s->filtered;
	in.filters = filters[0] ? filters + 2 : NULL;
	kmem_tep_finish(&s->agg, &s->sym, s->tep);
	kmem_opts_render_cfg(&s->args->opts, outs->tables.f, &rc);
	return kmem_outputs_report(&r, outs, err);
}

/**
 * tk_session_release - free the session
 * @s: the session
 */
void tk_session_release(struct tk_session *s)
{
	kmem_agg_release(&s->agg);
	if (s->args && s->args->filter.comm)
		u64_index_free(&s->comm_ix);
	if (!s->slot_of && s->id_ix.slots)
		u64_index_free(&s->id_ix);
	free(s->slot_of);
	s->slot_of = NULL;
}

/**
 * tk_merged_init - an empty merged summary
 * @m: the merged summary
 * @numa: the topology the inputs used, or NULL
 */
void tk_merged_init(struct tk_merged *m, const struct kmem_numa *numa)
{
	memset(m, 0, sizeof(*m));
	kmem_agg_init(&m->agg);
	kmem_agg_set_numa(&m->agg, numa);
}

/**
 * tk_merged_add - add a reported session's summaries
 * @m: the merged summary
 * @s: the session, after tk_session_report()
 *
 * Return: 0, or -1 when memory ran out.
 */
int tk_merged_add(struct tk_merged *m, const struct tk_session *s)
{
	const char **l = realloc(m->labels, (m->n + 1) * sizeof(*l));
	char *label = strdup(s->label);

	if (!l || !label) {
		free(label);
		if (l)
			m->labels = l;
		return -1;
	}
	m->labels = l;
	m->labels[m->n++] = label;
	kmem_agg_merge(&m->agg, &s->agg, s->sym.old_migratetypes > 0);
	return 0;
}

/**
 * tk_merged_report - print the merged summary (more than one input)
 * @m: the merged summary
 * @o: the options
 * @outs: where it goes, after the inputs' reports
 * @err: where problems go
 *
 * Return: 0, or -1 when an output file could not be written.
 */
int tk_merged_report(struct tk_merged *m, const struct kmem_opts *o,
		     struct kmem_outputs *outs, FILE *err)
{
	struct kmem_input in = { .label = "(merged)",
				 .merged = m->n, .inputs = m->labels };
	struct kmem_render_cfg rc;
	struct kmem_report_ctx r = { &m->agg, &rc, &m->sym, &in, NULL };

	kmem_opts_render_cfg(o, outs->tables.f, &rc);
	return kmem_outputs_report(&r, outs, err);
}

/**
 * tk_merged_release - free the merged summary
 * @m: the merged summary
 */
void tk_merged_release(struct tk_merged *m)
{
	int i;

	for (i = 0; i < m->n; i++)
		free((char *)m->labels[i]);
	free(m->labels);
	kmem_agg_release(&m->agg);
}
