// SPDX-License-Identifier: LGPL-2.1
/*
 * The layout of a version 6 trace.dat after its initial header: its
 * fixed sequence of parts, its options and the flyrecord parts of its
 * buffer instances (trace-cmd.dat.v6(5)).
 */
#include <stdlib.h>
#include <string.h>

#include "layout.h"

/* v6 instance buffers: "name" and where its flyrecord part is. */
struct v6_inst {
	uint64_t off;
	char *name;
};

/*
 * Where a buffer's "flyrecord" part ends (check_v6_ends()): after its CPU
 * table, and the clock trace-cmd writes after it since 2021 ("[local]",
 * after its length in 8 bytes), when one is there.
 */
static void v6_head(struct tdat_file *f, const struct tcur *c,
		    struct tdat_buffer *b, uint64_t base)
{
	uint64_t end = (uint64_t)(c->p - f->map) + c->pos, len;

	b->head_start = base;
	b->head_end = end;
	if (c->len - c->pos < 9)
		return;
	len = tdat_num(c->p + c->pos, 8, f->big);
	if (len && len <= 4096 && len <= c->len - c->pos - 8 &&
	    c->p[c->pos + 8] == '[')
		b->head_end = end + 8 + len;
}

/* v6: "flyrecord\0" and the offset and size of each CPU's data. */
static int v6_flyrecord(struct tdat_file *f, struct tcur *c,
			struct tdat_buffer *b)
{
	uint64_t base = (uint64_t)(c->p - f->map) + c->pos;
	const uint8_t *tag = tc_take(c, 10);
	int i;

	if (!tag)
		return tdat_fail(f, TDAT_BAD, "truncated before the CPU data");
	if (!memcmp(tag, "latency  ", 10)) {
		f->unsupported = "latency trace data";
		return TDAT_OK;
	}
	if (memcmp(tag, "flyrecord", 10))
		return tdat_fail(f, TDAT_BAD,
				 "no \"flyrecord\" where the CPU "
				 "data should start%s",
				 *b->name ? " (buffer instance)" : "");
	if ((uint64_t)f->cpus * 16 > c->len - c->pos)
		return tdat_fail(f, TDAT_BAD, "CPU data table truncated");
	b->nr_cpus = f->cpus;
	b->page_size = f->page_size;
	if (!f->cpus) {
		/* no CPU: what follows is no CPU's (check_v6_ends()) */
		v6_head(f, c, b, base);
		return TDAT_OK;
	}
	b->cpus = calloc((size_t)f->cpus, sizeof(*b->cpus));
	if (!b->cpus)
		return tdat_fail(f, TDAT_BAD, "out of memory");
	for (i = 0; i < f->cpus; i++) {
		b->cpus[i].cpu = i;
		b->cpus[i].offset = tc_num(c, 8);
		b->cpus[i].size = tc_num(c, 8);
	}
	v6_head(f, c, b, base);
	return TDAT_OK;
}

/* v6 options: a 2-byte id and a 4-byte size each, up to id 0. */
static int v6_options(struct tdat_file *f, struct tcur *c,
		      struct v6_inst **inst, int *ninst)
{
	for (;;) {
		int id = (int)tc_num(c, 2);
		uint64_t size;
		const uint8_t *p;

		if (c->bad)
			return tdat_fail(f, TDAT_BAD, "options truncated");
		if (id == OPT_DONE)
			return TDAT_OK;
		size = tc_num(c, 4);
		p = tc_take(c, size);
		if (c->bad)
			return tdat_fail(f, TDAT_BAD, "option %d truncated",
					 id);
		if (id == OPT_BUFFER) {
			struct tcur oc;
			struct v6_inst *n;
			const char *name;

			tc_init(&oc, p, (size_t)size, f->big);
			n = realloc(*inst, (*ninst + 1) * sizeof(*n));
			if (!n)
				return tdat_fail(f, TDAT_BAD, "out of memory");
			*inst = n;
			n[*ninst].off = tc_num(&oc, 8);
			name = tc_string(&oc);
			if (oc.bad || *ninst >= TDAT_MAX_BUFFERS)
				return tdat_fail(f, TDAT_BAD,
						 "BUFFER option "
						 "truncated");
			n[*ninst].name = strdup(name);
			if (!n[*ninst].name)
				return tdat_fail(f, TDAT_BAD, "out of memory");
			(*ninst)++;
			continue;
		}
		if (tdat_layout_option(f, id, p, size, NULL, NULL))
			return TDAT_BAD;
	}
}

static int v6_instances(struct tdat_file *f, struct v6_inst *inst, int n)
{
	int i, ret = TDAT_OK;

	for (i = 0; i < n && !ret; i++) {
		struct tdat_buffer *b = tdat_add_buffer(f, inst[i].name);
		struct tcur c;

		if (!b)
			return tdat_fail(f, TDAT_BAD, "out of memory");
		if (inst[i].off > f->size)
			return tdat_fail(f, TDAT_BAD,
					 "instance %s: offset "
					 "past the end of the file",
					 inst[i].name);
		tc_init(&c, f->map + inst[i].off, f->size - inst[i].off,
			f->big);
		if (c.len >= 10 && !memcmp(c.p, "options  ", 10)) {
			f->unsupported = "options inside a version 6 buffer "
					 "instance";
			return TDAT_OK;
		}
		ret = v6_flyrecord(f, &c, b);
	}
	return ret;
}

static int v6_parts(struct tdat_file *f, struct tcur *c)
{
	int ret;

	ret = tdat_header_info(f, c);
	if (!ret)
		ret = tdat_ftrace_formats(f, c);
	if (!ret)
		ret = tdat_event_formats(f, c);
	if (ret)
		return ret;
	ret = tdat_kallsyms_set(f, c, false);
	if (!ret)
		ret = tdat_printk(f, c);
	if (!ret)
		ret = tdat_cmdlines(f, c);
	return ret;
}

/**
 * tdat_read_v6 - the fixed parts of a version 6 file
 * @f: the file, its initial header read
 * @c: the cursor after the page size
 *
 * Return: TDAT_OK, or the failure.
 */
int tdat_read_v6(struct tdat_file *f, struct tcur *c)
{
	struct v6_inst *inst = NULL;
	struct tdat_buffer *top;
	const uint8_t *tag;
	int i, ninst = 0, ret;

	ret = tdat_init_buffers(f);
	if (!ret)
		ret = v6_parts(f, c);
	if (ret)
		return ret;
	f->cpus = (int)tc_num(c, 4);
	if (c->bad || f->cpus < 0 || f->cpus > TDAT_MAX_CPUS)
		return tdat_fail(f, TDAT_BAD, "CPU count missing or over %d",
				 TDAT_MAX_CPUS);
	tag = c->len - c->pos >= 10 ? c->p + c->pos : NULL;
	if (tag && !memcmp(tag, "options  ", 10)) {
		tc_take(c, 10);
		ret = v6_options(f, c, &inst, &ninst);
	}
	top = &f->buffers[0];
	if (!ret)
		ret = v6_flyrecord(f, c, top);
	if (!ret && !f->unsupported)
		ret = v6_instances(f, inst, ninst);
	for (i = 0; i < ninst; i++)
		free(inst[i].name);
	free(inst);
	return ret;
}
