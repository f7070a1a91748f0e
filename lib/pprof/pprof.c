// SPDX-License-Identifier: LGPL-2.1
/*
 * A pprof profile in memory, written with protobuf-c and zlib (see
 * pprof.h).
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/hashtab.h"
#include "base/strtab.h"
#include "pprof.h"
#include "pprof/profile.pb-c.h"

struct pp_loc {
	uint64_t mapping, addr, fn; /* fn: a function's id */
	int64_t line;
};

struct pp_map {
	uint64_t start, limit;
	int64_t file;
};

struct pp_sample {
	size_t loc_off, nr_locs;   /* in kmem_pprof.locs_of */
	size_t lab_off, nr_labels; /* in kmem_pprof.labels */
	size_t val_off;		   /* in kmem_pprof.values */
};

struct pp_label {
	int64_t key, str, num, unit;
};

struct kmem_pprof {
	bool oom;
	struct strtab strs;	 /* the string table; [0] = "" */
	int64_t *fn_name;	 /* function id - 1 -> its name */
	size_t nr_fns, cap_fns;
	struct u64_index fn_ix; /* a name's string -> fn_name[] */
	struct pp_loc *locs;	/* location id - 1 -> location */
	size_t nr_locs, cap_locs;
	struct u64_index loc_ix; /* a location's hash -> locs[] */
	struct pp_map *maps;	 /* mapping id - 1 -> mapping */
	size_t nr_maps, cap_maps;
	int64_t type[KMEM_PPROF_MAX_TYPES], unit[KMEM_PPROF_MAX_TYPES];
	size_t nr_types;
	int64_t default_type;
	struct pp_sample *samples;
	size_t nr_samples, cap_samples;
	uint64_t *locs_of; /* the samples' stacks */
	size_t nr_locs_of, cap_locs_of;
	int64_t *values; /* nr_types per sample */
	size_t nr_values, cap_values;
	struct pp_label *labels;
	size_t nr_labels, cap_labels;
	int64_t *comments;
	size_t nr_comments, cap_comments;
	bool has_span;
	int64_t start_ns, duration_ns;
};

/* Room for @more elements past @len (doubling as often as needed), or
 * oom. */
static bool room(struct kmem_pprof *p, void *arr, size_t *cap, size_t len,
		 size_t more, size_t elem)
{
	if (more > SIZE_MAX / 2 - len)
		p->oom = true;
	while (!p->oom && len + more > *cap)
		if (kmem_grow_array(arr, cap, *cap, elem))
			p->oom = true;
	return !p->oom;
}

/* @s's index in the string table, added if new; -1: out of memory. */
static int64_t str_id(struct kmem_pprof *p, const char *s)
{
	uint32_t i = p->oom ? U64_INDEX_NONE : strtab_id(&p->strs, s);

	if (i == U64_INDEX_NONE) {
		p->oom = true;
		return -1;
	}
	return i;
}

/**
 * kmem_pprof_new - an empty profile
 *
 * Return: the profile, to kmem_pprof_free(), or NULL when out of memory.
 */
struct kmem_pprof *kmem_pprof_new(void)
{
	struct kmem_pprof *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	if (strtab_init(&p->strs) || u64_index_init(&p->fn_ix, 64) ||
	    u64_index_init(&p->loc_ix, 64) || str_id(p, "") != 0) {
		kmem_pprof_free(p);
		return NULL;
	}
	return p;
}

/**
 * kmem_pprof_free - free a profile
 * @p: the profile, or NULL
 */
void kmem_pprof_free(struct kmem_pprof *p)
{
	if (!p)
		return;
	strtab_release(&p->strs);
	u64_index_free(&p->fn_ix);
	u64_index_free(&p->loc_ix);
	free(p->fn_name);
	free(p->locs);
	free(p->maps);
	free(p->samples);
	free(p->locs_of);
	free(p->values);
	free(p->labels);
	free(p->comments);
	free(p);
}

/**
 * kmem_pprof_add_type - add a sample type, before the first sample
 * @p: the profile
 * @type: its name, "alloc_space"
 * @unit: its unit, "bytes"
 * @is_default: the type a viewer shows first
 *
 * Return: the type's index in each sample's values, or -1 when out of
 * memory, past KMEM_PPROF_MAX_TYPES or after a sample.
 */
int kmem_pprof_add_type(struct kmem_pprof *p, const char *type,
			const char *unit, bool is_default)
{
	int64_t t = str_id(p, type), u = str_id(p, unit);

	if (t < 0 || u < 0 || p->nr_types >= KMEM_PPROF_MAX_TYPES ||
	    p->nr_samples)
		return -1;
	if (is_default)
		p->default_type = t;
	p->type[p->nr_types] = t;
	p->unit[p->nr_types] = u;
	return (int)p->nr_types++;
}

/**
 * kmem_pprof_mapping - the id of a mapping (the kernel's text, a module),
 *	added if new
 * @p: the profile
 * @start: its first address
 * @limit: the address past its last
 * @file: its name, "[kernel.kallsyms]", "[ext4]"
 *
 * Return: its id (from 1; the same for the same three), 0 when out of
 * memory.
 */
uint64_t kmem_pprof_mapping(struct kmem_pprof *p, uint64_t start,
			    uint64_t limit, const char *file)
{
	int64_t f = str_id(p, file);
	size_t i;

	if (f < 0)
		return 0;
	for (i = 0; i < p->nr_maps; i++) /* a few: the kernel, modules */
		if (p->maps[i].file == f && p->maps[i].start == start &&
		    p->maps[i].limit == limit)
			return i + 1;
	if (!room(p, &p->maps, &p->cap_maps, p->nr_maps, 1, sizeof(*p->maps)))
		return 0;
	p->maps[p->nr_maps] = (struct pp_map){ start, limit, f };
	return ++p->nr_maps;
}

/* The id of the function named @name, added if new; 0: out of memory. */
static uint64_t fn_id(struct kmem_pprof *p, const char *name)
{
	int64_t s = str_id(p, name);
	uint32_t i;

	if (s < 0)
		return 0;
	i = u64_index_find(&p->fn_ix, (uint64_t)s);
	if (i != U64_INDEX_NONE)
		return (uint64_t)i + 1;
	if (!room(p, &p->fn_name, &p->cap_fns, p->nr_fns, 1, sizeof(int64_t)) ||
	    u64_index_insert(&p->fn_ix, (uint64_t)s, (uint32_t)p->nr_fns)) {
		p->oom = true;
		return 0;
	}
	p->fn_name[p->nr_fns] = s;
	return ++p->nr_fns;
}

/**
 * kmem_pprof_location - the id of a code location, added if new
 * @p: the profile
 * @mapping: its mapping's id, 0: none
 * @addr: its address, 0: none known
 * @function: the function it is in ("kmalloc_trace"), or what stands
 *	for one ("(no stack)")
 * @line: its line: trace-kmem gives the offset in the function
 *
 * Return: the location's id (from 1), 0 when out of memory.
 */
uint64_t kmem_pprof_location(struct kmem_pprof *p, uint64_t mapping,
			     uint64_t addr, const char *function, int64_t line)
{
	struct pp_loc l = { mapping, addr, fn_id(p, function), line };
	uint64_t key[4] = { mapping, addr, l.fn, (uint64_t)line };
	uint64_t h = u64s_hash(key, 4);
	size_t pos = SIZE_MAX;
	uint32_t i;

	if (!l.fn)
		return 0;
	while ((i = u64_index_next(&p->loc_ix, h, &pos)) != U64_INDEX_NONE)
		if (!memcmp(&p->locs[i], &l, sizeof(l)))
			return (uint64_t)i + 1;
	if (!room(p, &p->locs, &p->cap_locs, p->nr_locs, 1, sizeof(l)) ||
	    u64_index_insert(&p->loc_ix, h, (uint32_t)p->nr_locs)) {
		p->oom = true;
		return 0;
	}
	p->locs[p->nr_locs] = l;
	return ++p->nr_locs;
}

/**
 * kmem_pprof_sample - add a sample
 * @p: the profile, its types added
 * @locs: its stack, innermost first (kmem_pprof_location() ids)
 * @nr_locs: how many
 * @values: one per type, in the order they were added
 * @labels: its labels
 * @nr_labels: how many
 *
 * Return: 0, or -1 when out of memory (or a location id is 0).
 */
int kmem_pprof_sample(struct kmem_pprof *p, const uint64_t *locs,
		      size_t nr_locs, const int64_t *values,
		      const struct kmem_pprof_label *labels, size_t nr_labels)
{
	struct pp_sample s = { p->nr_locs_of, nr_locs, p->nr_labels, nr_labels,
			       p->nr_values };
	size_t i;

	for (i = 0; i < nr_locs; i++)
		if (!locs[i])
			return -1;
	if (!room(p, &p->samples, &p->cap_samples, p->nr_samples, 1,
		  sizeof(s)) ||
	    !room(p, &p->locs_of, &p->cap_locs_of, p->nr_locs_of, nr_locs,
		  sizeof(uint64_t)) ||
	    !room(p, &p->values, &p->cap_values, p->nr_values, p->nr_types,
		  sizeof(int64_t)) ||
	    !room(p, &p->labels, &p->cap_labels, p->nr_labels, nr_labels,
		  sizeof(struct pp_label)))
		return -1;
	for (i = 0; i < nr_labels; i++) {
		const struct kmem_pprof_label *l = &labels[i];
		struct pp_label *to = &p->labels[p->nr_labels + i];

		to->key = str_id(p, l->key);
		to->str = l->str ? str_id(p, l->str) : 0;
		to->num = l->str ? 0 : l->num;
		to->unit = !l->str && l->unit ? str_id(p, l->unit) : 0;
		if (to->key < 0 || to->str < 0 || to->unit < 0)
			return -1;
	}
	memcpy(p->locs_of + p->nr_locs_of, locs, nr_locs * sizeof(*locs));
	memcpy(p->values + p->nr_values, values, p->nr_types * sizeof(*values));
	p->nr_locs_of += nr_locs;
	p->nr_values += p->nr_types;
	p->nr_labels += nr_labels;
	p->samples[p->nr_samples++] = s;
	return 0;
}

/**
 * kmem_pprof_comment - add a comment ("trace: a.dat")
 * @p: the profile
 * @text: the comment
 *
 * Return: 0, or -1 when out of memory.
 */
int kmem_pprof_comment(struct kmem_pprof *p, const char *text)
{
	int64_t s = str_id(p, text);

	if (s < 0 || !room(p, &p->comments, &p->cap_comments, p->nr_comments, 1,
			   sizeof(int64_t)))
		return -1;
	p->comments[p->nr_comments++] = s;
	return 0;
}

/**
 * kmem_pprof_span - add a trace's time to the profile's
 * @p: the profile
 * @start_ns: the trace's first record
 * @end_ns: its last
 *
 * As go tool pprof -proto merges profiles: time_nanos is the earliest
 * start, duration_nanos the sum of the spans (traces of several
 * machines, or boots, share no clock).
 */
void kmem_pprof_span(struct kmem_pprof *p, int64_t start_ns, int64_t end_ns)
{
	if (end_ns < start_ns)
		end_ns = start_ns;
	if (!p->has_span || start_ns < p->start_ns)
		p->start_ns = start_ns;
	if (end_ns - start_ns > INT64_MAX - p->duration_ns)
		p->duration_ns = INT64_MAX;
	else
		p->duration_ns += end_ns - start_ns;
	p->has_span = true;
}

/**
 * kmem_pprof_nr_samples - how many samples a profile has
 * @p: the profile
 *
 * Return: the number of samples added.
 */
size_t kmem_pprof_nr_samples(const struct kmem_pprof *p)
{
	return p->nr_samples;
}

/* The messages of a profile, pointing into it, for protobuf-c. */
struct pp_msgs {
	Perftools__Profiles__ValueType types[KMEM_PPROF_MAX_TYPES];
	Perftools__Profiles__ValueType *type_ptr[KMEM_PPROF_MAX_TYPES];
	Perftools__Profiles__Sample *samples, **sample_ptr;
	Perftools__Profiles__Label *labels, **label_ptr;
	Perftools__Profiles__Mapping *maps, **map_ptr;
	Perftools__Profiles__Location *locs, **loc_ptr;
	Perftools__Profiles__Line *lines, **line_ptr;
	Perftools__Profiles__Function *fns, **fn_ptr;
};

static void msgs_free(struct pp_msgs *m)
{
	free(m->samples);
	free(m->sample_ptr);
	free(m->labels);
	free(m->label_ptr);
	free(m->maps);
	free(m->map_ptr);
	free(m->locs);
	free(m->loc_ptr);
	free(m->lines);
	free(m->line_ptr);
	free(m->fns);
	free(m->fn_ptr);
}

static int msgs_alloc(struct pp_msgs *m, const struct kmem_pprof *p)
{
	size_t ns = p->nr_samples, nl = p->nr_labels, nm = p->nr_maps;
	size_t nc = p->nr_locs, nf = p->nr_fns;

	/* one more of each: calloc(0) may be NULL */
	m->samples = calloc(ns + 1, sizeof(*m->samples));
	m->sample_ptr = calloc(ns + 1, sizeof(*m->sample_ptr));
	m->labels = calloc(nl + 1, sizeof(*m->labels));
	m->label_ptr = calloc(nl + 1, sizeof(*m->label_ptr));
	m->maps = calloc(nm + 1, sizeof(*m->maps));
	m->map_ptr = calloc(nm + 1, sizeof(*m->map_ptr));
	m->locs = calloc(nc + 1, sizeof(*m->locs));
	m->loc_ptr = calloc(nc + 1, sizeof(*m->loc_ptr));
	m->lines = calloc(nc + 1, sizeof(*m->lines));
	m->line_ptr = calloc(nc + 1, sizeof(*m->line_ptr));
	m->fns = calloc(nf + 1, sizeof(*m->fns));
	m->fn_ptr = calloc(nf + 1, sizeof(*m->fn_ptr));
	return m->samples && m->sample_ptr && m->labels && m->label_ptr &&
			       m->maps && m->map_ptr && m->locs && m->loc_ptr &&
			       m->lines && m->line_ptr && m->fns && m->fn_ptr
		       ? 0
		       : -1;
}

/* The profile message of @p, its parts in @m. */
static void msgs_fill(struct pp_msgs *m, const struct kmem_pprof *p,
		      Perftools__Profiles__Profile *pr)
{
	size_t i;

	for (i = 0; i < p->nr_types; i++) {
		perftools__profiles__value_type__init(&m->types[i]);
		m->types[i].type = p->type[i];
		m->types[i].unit = p->unit[i];
		m->type_ptr[i] = &m->types[i];
	}
	for (i = 0; i < p->nr_labels; i++) {
		perftools__profiles__label__init(&m->labels[i]);
		m->labels[i].key = p->labels[i].key;
		m->labels[i].str = p->labels[i].str;
		m->labels[i].num = p->labels[i].num;
		m->labels[i].num_unit = p->labels[i].unit;
		m->label_ptr[i] = &m->labels[i];
	}
	for (i = 0; i < p->nr_samples; i++) {
		const struct pp_sample *s = &p->samples[i];
		Perftools__Profiles__Sample *to = &m->samples[i];

		perftools__profiles__sample__init(to);
		to->n_location_id = s->nr_locs;
		to->location_id = p->locs_of + s->loc_off;
		to->n_value = p->nr_types;
		to->value = p->values + s->val_off;
		to->n_label = s->nr_labels;
		to->label = m->label_ptr + s->lab_off;
		m->sample_ptr[i] = to;
	}
	for (i = 0; i < p->nr_maps; i++) {
		perftools__profiles__mapping__init(&m->maps[i]);
		m->maps[i].id = i + 1;
		m->maps[i].memory_start = p->maps[i].start;
		m->maps[i].memory_limit = p->maps[i].limit;
		m->maps[i].filename = p->maps[i].file;
		m->maps[i].has_functions = true;
		m->map_ptr[i] = &m->maps[i];
	}
	for (i = 0; i < p->nr_locs; i++) {
		perftools__profiles__line__init(&m->lines[i]);
		m->lines[i].function_id = p->locs[i].fn;
		m->lines[i].line = p->locs[i].line;
		m->line_ptr[i] = &m->lines[i];
		perftools__profiles__location__init(&m->locs[i]);
		m->locs[i].id = i + 1;
		m->locs[i].mapping_id = p->locs[i].mapping;
		m->locs[i].address = p->locs[i].addr;
		m->locs[i].n_line = 1;
		m->locs[i].line = &m->line_ptr[i];
		m->loc_ptr[i] = &m->locs[i];
	}
	for (i = 0; i < p->nr_fns; i++) {
		perftools__profiles__function__init(&m->fns[i]);
		m->fns[i].id = i + 1;
		m->fns[i].name = m->fns[i].system_name = p->fn_name[i];
		m->fn_ptr[i] = &m->fns[i];
	}
	pr->n_sample_type = p->nr_types;
	pr->sample_type = m->type_ptr;
	pr->n_sample = p->nr_samples;
	pr->sample = m->sample_ptr;
	pr->n_mapping = p->nr_maps;
	pr->mapping = m->map_ptr;
	pr->n_location = p->nr_locs;
	pr->location = m->loc_ptr;
	pr->n_function = p->nr_fns;
	pr->function = m->fn_ptr;
	pr->n_string_table = p->strs.n;
	pr->string_table = p->strs.s;
	pr->n_comment = p->nr_comments;
	pr->comment = p->comments;
	pr->time_nanos = p->start_ns;
	pr->duration_nanos = p->duration_ns;
	pr->default_sample_type = p->default_type;
}

/* @len bytes of @buf gzip-compressed to @out. */
static int gzip_to(const uint8_t *buf, size_t len, FILE *out)
{
	unsigned char chunk[65536];
	z_stream z = { 0 };
	int ret = 0, zr;

	/* 15 + 16: a gzip header and trailer, as pprof expects */
	if (deflateInit2(&z, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	z.next_in = (unsigned char *)buf;
	do {
		size_t take = len > UINT32_MAX ? UINT32_MAX : len;

		z.avail_in = (uInt)take;
		len -= take;
		do {
			z.next_out = chunk;
			z.avail_out = sizeof(chunk);
			zr = deflate(&z, len ? Z_NO_FLUSH : Z_FINISH);
			if (zr == Z_STREAM_ERROR ||
			    fwrite(chunk, 1, sizeof(chunk) - z.avail_out,
				   out) != sizeof(chunk) - z.avail_out)
				ret = -1;
		} while (!ret && z.avail_out == 0);
	} while (!ret && len);
	deflateEnd(&z);
	return ret;
}

/**
 * kmem_pprof_write - write a profile, gzip-compressed
 * @p: the profile
 * @out: where to
 *
 * Return: 0, or -1 when memory ran out (now or while the profile was
 * built) or a write failed.
 */
int kmem_pprof_write(const struct kmem_pprof *p, FILE *out)
{
	Perftools__Profiles__Profile pr = PERFTOOLS__PROFILES__PROFILE__INIT;
	struct pp_msgs m = { 0 };
	uint8_t *buf = NULL;
	size_t len;
	int ret = -1;

	if (p->oom || msgs_alloc(&m, p))
		goto out;
	msgs_fill(&m, p, &pr);
	len = perftools__profiles__profile__get_packed_size(&pr);
	buf = malloc(len ? len : 1);
	if (!buf)
		goto out;
	perftools__profiles__profile__pack(&pr, buf);
	ret = gzip_to(buf, len, out);
out:
	free(buf);
	msgs_free(&m);
	return ret;
}
