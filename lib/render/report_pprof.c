// SPDX-License-Identifier: LGPL-2.1
/*
 * Reports as a pprof profile (see report_pprof.h): the JSON document of
 * a report, made in memory, read back row by row.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "alloc/registry.h"
#include "analysis/agg.h"
#include "analysis/folded.h"
#include "base/jtree.h"
#include "recorded.h"
#include "report_pprof.h"

/* The sample types, in the order of each sample's values. */
enum {
	PP_ALLOC_OBJECTS,
	PP_ALLOC_SPACE,
	PP_INUSE_OBJECTS,
	PP_INUSE_SPACE,
	PP_WASTED_SPACE,
	PP_NR_TYPES
};

/* The frames of a stack kept, from the innermost. */
#define KMEM_PPROF_MAX_FRAMES 128

/* The kernel's mapping: the first kmem_pprof_for_reports() adds. */
#define KERNEL_MAPPING 1

/* The labels of a sample: the user's, trace, allocator, cache, order,
 * bytes, migratetype, gfp. */
#define USER_LABELS 32
#define MAX_LABELS (USER_LABELS + 7)

/**
 * kmem_pprof_for_reports - an empty profile with kmem's sample types
 *	and the kernel's mapping
 *
 * Return: the profile (kmem_pprof_free()), NULL when out of memory.
 */
struct kmem_pprof *kmem_pprof_for_reports(void)
{
	static const char *const types[PP_NR_TYPES][2] = {
		[PP_ALLOC_OBJECTS] = { "alloc_objects", "count" },
		[PP_ALLOC_SPACE] = { "alloc_space", "bytes" },
		[PP_INUSE_OBJECTS] = { "inuse_objects", "count" },
		[PP_INUSE_SPACE] = { "inuse_space", "bytes" },
		[PP_WASTED_SPACE] = { "wasted_space", "bytes" },
	};
	struct kmem_pprof *p = kmem_pprof_new();
	int t;

	if (!p)
		return NULL;
	for (t = 0; t < PP_NR_TYPES; t++)
		if (kmem_pprof_add_type(p, types[t][0], types[t][1],
					t == PP_ALLOC_SPACE) != t)
			goto fail;
	if (kmem_pprof_mapping(p, 0, UINT64_MAX, "[kernel.kallsyms]") !=
	    KERNEL_MAPPING)
		goto fail;
	return p;
fail:
	kmem_pprof_free(p);
	return NULL;
}

static int64_t clamp(uint64_t v)
{
	return v > INT64_MAX ? INT64_MAX : (int64_t)v;
}

/* A member of a row as a number: 0 when missing or null. */
static int64_t num(const struct jt_node *row, const char *key)
{
	const struct jt_node *n = jt_get(row, key);

	if (!n || !jt_is_num(n))
		return 0;
	if (n->type == JT_U64)
		return clamp(n->v.u);
	if (n->type == JT_I64)
		return n->v.i;
	return (int64_t)jt_num(n);
}

static const char *str(const struct jt_node *row, const char *key)
{
	const struct jt_node *n = jt_get(row, key);

	return n && n->type == JT_STR ? n->v.s : NULL;
}

/* The mapping of an address: its symbol's module's, or the kernel's. */
static uint64_t mapping_of(struct kmem_pprof *p,
			   const struct kmem_symbolizer *sym, uint64_t addr)
{
	const char *mod = addr && sym && sym->module
				  ? sym->module(sym->mod_priv, addr)
				  : NULL;
	char file[128];

	if (!mod)
		return KERNEL_MAPPING;
	snprintf(file, sizeof(file), "[%s]", mod);
	return kmem_pprof_mapping(p, 0, UINT64_MAX, file);
}

/*
 * A row's location: "sym+0xoff" is function sym, line off; anything
 * else ("0xffffffff81234567" unresolved or raw-ip=, "(no stack)") is a
 * function of that name, line 0.
 */
static uint64_t row_location(struct kmem_pprof *p,
			     const struct kmem_symbolizer *sym,
			     const struct jt_node *row)
{
	const char *cs = str(row, "callsite"), *addr = str(row, "address");
	const char *plus = cs ? strstr(cs, "+0x") : NULL;
	char fn[256];
	int64_t line = 0;
	uint64_t a;

	if (!cs)
		cs = "(unknown)";
	snprintf(fn, sizeof(fn), "%s", cs);
	if (plus && (size_t)(plus - cs) < sizeof(fn)) {
		fn[plus - cs] = '\0';
		line = (int64_t)strtoull(plus + 3, NULL, 16);
	}
	a = addr ? strtoull(addr, NULL, 16) : 0;
	return kmem_pprof_location(p, mapping_of(p, sym, a), a, fn, line);
}

/* A string label, when the row has the member. */
static size_t label_str(struct kmem_pprof_label *l, const char *key,
			const char *value)
{
	if (!value)
		return 0;
	*l = (struct kmem_pprof_label){ .key = key, .str = value };
	return 1;
}

/* A slab row's bytes allocated beyond those requested, 0 for others. */
static int64_t row_wasted(const struct jt_node *row)
{
	int64_t space = num(row, "bytes_alloc"), req = num(row, "bytes_req");

	return jt_get(row, "bytes_req") && space > req ? space - req : 0;
}

/* What the call-site rows of an allocator waste in all. */
static int64_t rows_wasted(const struct jt_node *sites)
{
	int64_t sum = 0;
	size_t i;

	for (i = 0; i < sites->n; i++)
		sum += row_wasted(sites->kids[i]);
	return sum;
}

/* The samples of one allocator's call-site rows. */
static int add_rows(struct kmem_pprof *p, const struct kmem_symbolizer *sym,
		    const struct jt_node *sites,
		    struct kmem_pprof_label *labels, size_t nr_common)
{
	size_t i;

	for (i = 0; i < sites->n; i++) {
		const struct jt_node *row = sites->kids[i];
		const struct jt_node *order = jt_get(row, "order");
		int64_t v[PP_NR_TYPES];
		size_t nl = nr_common;
		char order_s[24];
		uint64_t loc;

		v[PP_ALLOC_OBJECTS] = num(row, "hits");
		v[PP_ALLOC_SPACE] = jt_get(row, "bytes_alloc")
					    ? num(row, "bytes_alloc")
					    : num(row, "bytes");
		v[PP_INUSE_OBJECTS] = num(row, "live_count");
		v[PP_INUSE_SPACE] = num(row, "live_bytes");
		v[PP_WASTED_SPACE] = row_wasted(row);
		nl += label_str(&labels[nl], "cache", str(row, "cache"));
		if (order && jt_is_num(order)) {
			snprintf(order_s, sizeof(order_s), "%" PRId64,
				 num(row, "order"));
			nl += label_str(&labels[nl], "order", order_s);
		}
		/* as Go's heap profiles: the size of an object */
		if (v[PP_ALLOC_OBJECTS] > 0)
			labels[nl++] = (struct kmem_pprof_label){
				.key = "bytes",
				.num = v[PP_ALLOC_SPACE] / v[PP_ALLOC_OBJECTS],
				.unit = "bytes"
			};
		nl += label_str(&labels[nl], "migratetype",
				str(row, "migratetype"));
		nl += label_str(&labels[nl], "gfp", str(row, "gfp"));
		loc = row_location(p, sym, row);
		if (!loc || kmem_pprof_sample(p, &loc, 1, v, labels, nl))
			return -1;
	}
	return 0;
}

/* Which allocators have kernel stacks: a stack of more than one frame. */
static void with_stacks(const struct kmem_folded *f, bool stk[KMEM_NR_ALLOC])
{
	size_t i;

	memset(stk, 0, KMEM_NR_ALLOC * sizeof(bool));
	if (!f->on || !f->live)
		return;
	for (i = 0; i < f->nr; i++)
		if (f->stacks[i].n > 1 && f->stacks[i].id < KMEM_NR_ALLOC)
			stk[f->stacks[i].id] = true;
}

/* A frame's location: its function and offset, or its address. */
static uint64_t frame_location(struct kmem_pprof *p,
			       const struct kmem_symbolizer *sym, uint64_t addr)
{
	const char *name = NULL;
	uint64_t start = 0;
	char buf[32];

	if (!addr)
		return kmem_pprof_location(p, KERNEL_MAPPING, 0, "(no stack)",
					   0);
	if (sym && sym->resolve)
		name = sym->resolve(sym->priv, addr, &start);
	if (!name || start > addr) {
		snprintf(buf, sizeof(buf), "0x%" PRIx64, addr);
		return kmem_pprof_location(p, KERNEL_MAPPING, addr, buf, 0);
	}
	return kmem_pprof_location(p, mapping_of(p, sym, addr), addr, name,
				   (int64_t)(addr - start));
}

/* The samples of one allocator's kernel stacks, innermost frame first. */
static int add_stacks(struct kmem_pprof *p, const struct kmem_report_ctx *r,
		      unsigned int id, struct kmem_pprof_label *labels,
		      size_t nr_common)
{
	const struct kmem_folded *f = &r->agg->folded;
	uint64_t locs[KMEM_PPROF_MAX_FRAMES];
	/* frees not recorded: what is live is unknown, 0 here */
	bool inuse = kmem_recorded(r, kmem_allocs[id].free_kind);
	size_t i, k;

	for (i = 0; i < f->nr; i++) {
		const struct folded_stack *s = &f->stacks[i];
		int64_t v[PP_NR_TYPES] = { 0 };
		size_t n = s->n < KMEM_PPROF_MAX_FRAMES ? s->n
							: KMEM_PPROF_MAX_FRAMES;
		size_t nl = nr_common;

		if (s->id != id || !s->hits)
			continue;
		for (k = 0; k < n; k++)
			if (!(locs[k] = frame_location(p, r->sym,
						       f->frames[s->off + k])))
				return -1;
		v[PP_ALLOC_OBJECTS] = clamp(s->hits);
		v[PP_ALLOC_SPACE] = clamp(s->bytes);
		v[PP_INUSE_OBJECTS] = inuse ? clamp(s->live_hits) : 0;
		v[PP_INUSE_SPACE] = inuse ? clamp(s->live_bytes) : 0;
		labels[nl++] =
			(struct kmem_pprof_label){ .key = "bytes",
						   .num = v[PP_ALLOC_SPACE] /
							  v[PP_ALLOC_OBJECTS],
						   .unit = "bytes" };
		if (kmem_pprof_sample(p, locs, n, v, labels, nl))
			return -1;
	}
	return 0;
}

/* "LABEL: what: N" for each of the stream's counts that is not 0. */
static int damage_comments(struct kmem_pprof *p, const char *label,
			   const struct kmem_agg *a)
{
	char text[512];
	int i, ret = 0;

	for (i = 0; i < KMEM_NR_STREAM_COUNTS; i++)
		if (kmem_stream_count(a, i)) {
			snprintf(text, sizeof(text), "%s: %s: %" PRIu64, label,
				 kmem_stream_counts[i].key,
				 kmem_stream_count(a, i));
			ret |= kmem_pprof_comment(p, text);
		}
	return ret;
}

/*
 * An input's comments ("trace: FILE", its host, kernel and damage) and
 * its time span.
 */
static int trace_comments(struct kmem_pprof *p, const char *label,
			  const char *host, const char *release,
			  const struct kmem_agg *a)
{
	char text[512];
	int ret;

	snprintf(text, sizeof(text), "trace: %s", label);
	ret = kmem_pprof_comment(p, text);
	ret |= damage_comments(p, label, a);
	if (host) {
		snprintf(text, sizeof(text), "%s: host: %s", label, host);
		ret |= kmem_pprof_comment(p, text);
	}
	if (release) {
		snprintf(text, sizeof(text), "%s: kernel release: %s", label,
			 release);
		ret |= kmem_pprof_comment(p, text);
	}
	if (a->last_ts)
		kmem_pprof_span(p, clamp(a->first_ts), clamp(a->last_ts));
	return ret;
}

/**
 * kmem_pprof_add_report - add a report's call-site rows as samples
 * @p: the profile (kmem_pprof_for_reports())
 * @r: the report, not a merged summary (a merged report's inputs each
 *	have their comments and span)
 * @several: the profile holds several reports: each sample is labelled
 *	trace=its input's name
 * @labels: labels for every sample (checked by the options)
 * @nr_labels: how many, up to 32
 *
 * Return: 0, or -1 when memory ran out (the profile cannot be written).
 */
int kmem_pprof_add_report(struct kmem_pprof *p, const struct kmem_report_ctx *r,
			  bool several, const struct kmem_label *labels,
			  size_t nr_labels)
{
	struct kmem_pprof_label l[MAX_LABELS];
	char text[512];
	const char *label = r->in->label;
	struct kmem_render_cfg cfg = *r->cfg;
	struct kmem_report_ctx only_sites = *r;
	bool stk[KMEM_NR_ALLOC];
	struct json j;
	size_t nl = 0, i;
	int ret, id;

	/* the call-site tables, whichever the JSON would hold */
	cfg.json_tables = 1u << KMEM_T_CALLER;
	only_sites.cfg = &cfg;
	json_init_tree(&j);
	kmem_report_json_to(&only_sites, &j);
	if (j.oom || !j.root) {
		jt_free(j.root);
		return -1;
	}
	for (i = 0; i < nr_labels && i < USER_LABELS; i++)
		l[nl++] = (struct kmem_pprof_label){ .key = labels[i].key,
						     .str = labels[i].value };
	if (several)
		l[nl++] = (struct kmem_pprof_label){ .key = "trace",
						     .str = label };
	if (r->in->nr_parts) {
		ret = 0;
		for (i = 0; i < (size_t)r->in->nr_parts; i++) {
			const struct kmem_merge_part *pt = &r->in->parts[i];

			ret |= trace_comments(p, pt->label, pt->host,
					      pt->release, &pt->head);
		}
	} else {
		ret = trace_comments(p, label, r->in->host, r->in->release,
				     r->agg);
	}
	if (r->in->filters) {
		int n = snprintf(text, sizeof(text), "%s: filtered by %s",
				 label, r->in->filters);

		if (r->in->filtered && n > 0 && (size_t)n < sizeof(text))
			snprintf(text + n, sizeof(text) - (size_t)n,
				 " (%" PRIu64 " kmem records left out)",
				 r->in->filtered);
		ret |= kmem_pprof_comment(p, text);
	}
	with_stacks(&r->agg->folded, stk);
	for (id = 0; !ret && id < KMEM_NR_ALLOC; id++) {
		const struct jt_node *a = jt_get(j.root, kmem_allocs[id].name);
		const struct jt_node *sites = a ? jt_get(a, "callsites") : NULL;
		const struct jt_node *complete =
			a ? jt_get(a, "complete") : NULL;

		if (!sites || sites->type != JT_ARR)
			continue;
		if (complete && complete->type == JT_BOOL && !complete->v.b) {
			snprintf(text, sizeof(text),
				 "%s: %s: incomplete (the JSON's \"complete\" "
				 "is false)",
				 label, kmem_allocs[id].name);
			ret |= kmem_pprof_comment(p, text);
		}
		if (!kmem_recorded(r, kmem_allocs[id].free_kind)) {
			snprintf(
				text, sizeof(text),
				"%s: %s: inuse_objects and inuse_space "
				"unknown (its frees were not recorded): 0 here",
				label, kmem_allocs[id].name);
			ret |= kmem_pprof_comment(p, text);
		}
		l[nl] = (struct kmem_pprof_label){
			.key = "allocator", .str = kmem_allocs[id].name
		};
		if (!stk[id]) {
			ret |= add_rows(p, r->sym, sites, l, nl + 1);
			continue;
		}
		snprintf(text, sizeof(text), "%s: %s: samples by kernel stack",
			 label, kmem_allocs[id].name);
		ret |= kmem_pprof_comment(p, text);
		if (rows_wasted(sites)) {
			snprintf(text, sizeof(text),
				 "%s: %s: wasted_space is kept by call site, "
				 "not by stack: %" PRId64 " bytes in all",
				 label, kmem_allocs[id].name,
				 rows_wasted(sites));
			ret |= kmem_pprof_comment(p, text);
		}
		ret |= add_stacks(p, r, (unsigned int)id, l, nl + 1);
	}
	jt_free(j.root);
	return ret;
}
