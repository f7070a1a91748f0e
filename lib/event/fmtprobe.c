// SPDX-License-Identifier: LGPL-2.1
/*
 * Crafted-record probes of a trace's print formats (see fmtprobe.h).
 */
#include <stdlib.h>
#include <string.h>

#include <trace-seq.h>

#include "fmtlater.h"
#include "fmtprobe.h"

static int record_size(const struct tep_event *ev)
{
	const struct tep_format_field *f;
	int size = 0;

	for (f = ev->format.common_fields; f; f = f->next) {
		if (f->offset < 0 || f->size < 0 || f->offset > 65536 ||
		    f->size > 65536)
			return -1;
		if (f->offset + f->size > size)
			size = f->offset + f->size;
	}
	for (f = ev->format.fields; f; f = f->next) {
		if (f->offset < 0 || f->size < 0 || f->offset > 65536 ||
		    f->size > 65536)
			return -1;
		if (f->offset + f->size > size)
			size = f->offset + f->size;
	}
	return size;
}

/*
 * @v into the @size bytes at @p in the file's byte order: its low 8 bytes
 * where a number of @size would have them, any more bytes 0 (a format
 * may give a number 9 bytes: big-endian, its first byte is beyond v's).
 */
static void put_number(struct tep_handle *tep, unsigned char *p, int size,
		       unsigned long long v)
{
	int i;

	for (i = 0; i < size; i++) {
		int shift = tep_is_file_bigendian(tep) ? size - 1 - i : i;

		p[i] = shift < 8 ? (unsigned char)(v >> (8 * shift)) : 0;
	}
}

static void copy_value(const char *text, const char *key, char *out,
		       size_t len)
{
	size_t klen = strlen(key), n;
	const char *p = text;

	out[0] = '\0';
	while ((p = strstr(p, key))) {
		if ((p == text || p[-1] == ' ') && p[klen] == '=')
			break;
		p += klen;
	}
	if (!p)
		return;
	p += klen + 1;
	n = strcspn(p, " \n");
	if (n >= len)
		n = len - 1;
	memcpy(out, p, n);
	out[n] = '\0';
}

/*
 * A probe prints the whole format: one of many megabytes, once per GFP
 * bit and per distinct value shown, ran for minutes.  Past this size the
 * format is not probed (kmem_tep_say_unprobed() says so, once per input).
 */
#define FMT_PROBE_MAX (64 * 1024)

/**
 * fmt_probe_too_long - is an event's print fmt too long to be probed?
 * @event: the event type, with its print fmt from the trace
 *
 * Return: the format's length if it is more than FMT_PROBE_MAX bytes
 * (fmt_probe() then refuses it), else 0.
 */
size_t fmt_probe_too_long(struct tep_event *event)
{
	size_t len;

	/* a print fmt still to be parsed from a short text: short too */
	if (kmem_fmt_bound(event) <= FMT_PROBE_MAX)
		return 0;
	kmem_fmt_need(event);
	len = event->print_fmt.format ? strlen(event->print_fmt.format) : 0;

	return len > FMT_PROBE_MAX ? len : 0;
}

/**
 * fmt_probe - print a crafted record and read one printed value
 * @event: the event type, with its print fmt from the trace
 * @field: a field to set (NULL: all fields zero)
 * @v: its value
 * @key: the "key=" of the print fmt whose value to read
 * @out: the value as printed, e.g. "GFP_KERNEL|__GFP_ZERO"
 * @len: size of @out
 *
 * Not done for a print fmt of more than 64 KB (fmt_probe_too_long()).
 *
 * Return: 0 on success, -1 if the event lacks @field or prints no @key,
 * or its print fmt is too long to probe.
 */
int fmt_probe(struct tep_event *event, const char *field, unsigned long long v,
	      const char *key, char *out, size_t len)
{
	struct tep_format_field *type, *f = NULL;
	struct tep_record rec = { 0 };
	int size = record_size(event);
	struct trace_seq s;
	unsigned char *buf;
	int flags;

	out[0] = '\0';
	kmem_fmt_need(event);
	type = tep_find_common_field(event, "common_type");
	if (field)
		f = tep_find_field(event, field);
	if (!type || (field && !f) || size <= 0 || !len ||
	    fmt_probe_too_long(event))
		return -1;
	buf = calloc(1, (size_t)size + 8);
	if (!buf)
		return -1;
	put_number(event->tep, buf + type->offset, type->size,
		   (unsigned long long)event->id);
	if (f)
		put_number(event->tep, buf + f->offset, f->size, v);
	rec.data = buf;
	rec.size = size;
	trace_seq_init(&s);
	/* the format alone: no print handler (a plugin's, ours) sees it */
	flags = event->flags;
	event->flags |= TEP_EVENT_FL_NOHANDLE;
	tep_print_event(event->tep, &s, &rec, "%s", TEP_PRINT_INFO);
	event->flags = flags;
	trace_seq_terminate(&s);
	if (s.buffer)
		copy_value(s.buffer, key, out, len);
	trace_seq_destroy(&s);
	free(buf);
	return out[0] ? 0 : -1;
}

/**
 * fmt_pageblock_order - the pageblock order of the recording kernel
 * @extfrag: the mm_page_alloc_extfrag event type
 *
 * Its print fmt says whether a fallback "is fragmenting" (fallback
 * order below pageblock order): the first fallback order that is not
 * fragmenting is the pageblock order.
 *
 * Return: the pageblock order, or -1 if the format does not tell.
 */
int fmt_pageblock_order(struct tep_event *extfrag)
{
	char v[32];
	int order;

	if (!fmt_probe(extfrag, NULL, 0, "pageblock_order", v, sizeof(v)))
		return atoi(v);
	for (order = 0; order < 32; order++) {
		if (fmt_probe(extfrag, "fallback_order", (unsigned)order,
			      "fragmenting", v, sizeof(v)))
			return -1;
		if (!strcmp(v, "0"))
			return order;
	}
	return -1;
}

/**
 * fmt_account_bit - the gfp_flags bit that charges a memory cgroup
 * @alloc: a slab allocation event type without an "accounted" field
 *
 * Its print fmt says, where it computes "accounted" from gfp_flags
 * (kmalloc, 6.0 and later: CONFIG_MEMCG_KMEM and __GFP_ACCOUNT), which
 * bit makes it true; else which bit it names "__GFP_ACCOUNT" (4.5 and
 * later).  Up to 64 probes, once per event type.
 *
 * Return: the bit's mask, or 0 if the format tells neither.
 */
unsigned long long fmt_account_bit(struct tep_event *alloc)
{
	char v[64];
	int b;

	for (b = 0; b < 32; b++) {
		if (fmt_probe(alloc, "gfp_flags", 1ULL << b, "accounted", v,
			      sizeof(v)))
			break;		/* no "accounted" in its output */
		if (!strcmp(v, "true"))
			return 1ULL << b;
	}
	for (b = 0; b < 32; b++)
		if (!fmt_probe(alloc, "gfp_flags", 1ULL << b, "gfp_flags", v,
			       sizeof(v)) &&
		    !strcmp(v, "__GFP_ACCOUNT"))
			return 1ULL << b;
	return 0;
}
