// SPDX-License-Identifier: LGPL-2.1
/*
 * Names from a libtraceevent handle (see tep_names.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fmtlater.h"
#include "fmtprobe.h"
#include "tep_names.h"

static const char *resolve(void *priv, uint64_t addr, uint64_t *start)
{
	struct tep_handle *tep = priv;
	const char *name = tep_find_function(tep, addr);

	if (name)
		*start = tep_find_function_address(tep, addr);
	return name;
}

/* the events carrying GFP flags, the first parsable print fmt wins */
static const char *const gfp_events[] = { "mm_page_alloc", "kmalloc",
					  "kmem_cache_alloc" };

/* The next of gfp_events[] from *@i with a gfp_flags field, or NULL. */
static struct tep_event *next_gfp_event(struct tep_handle *tep, size_t *i)
{
	for (; *i < sizeof(gfp_events) / sizeof(gfp_events[0]); (*i)++) {
		struct tep_event *ev =
			tep_find_event_by_name(tep, "kmem", gfp_events[*i]);

		if (ev && tep_find_field(ev, "gfp_flags"))
			return ev;
	}
	return NULL;
}

/*
 * The GFP flags @flags as the trace's own print fmts name them: the first
 * of the events carrying them whose print fmt libtraceevent could parse
 * (2.6.32's mm_page_alloc calls page_to_pfn(), which it cannot; its
 * kmalloc has the same flag table).  Return 0 with the names in @buf.
 */
static int gfp_names(struct tep_handle *tep, uint64_t flags, char *buf,
		     size_t len)
{
	struct tep_event *ev;
	size_t i;

	for (i = 0; (ev = next_gfp_event(tep, &i)); i++) {
		if (fmt_probe(ev, "gfp_flags", flags, "gfp_flags", buf, len))
			continue;
		/* a print fmt libtraceevent could not parse prints the raw
		 * value */
		if (!flags || strpbrk(buf, "GHIJKLMNOPQRSTUVWXYZ_"))
			return 0;
	}
	return -1;
}

static const char *gfp(void *priv, uint64_t flags, char *buf, size_t len)
{
	return gfp_names(priv, flags, buf, len) ? NULL : buf;
}

static const char *comm(void *priv, int pid)
{
	kmem_comms_need(priv);
	return tep_data_comm_from_pid(priv, pid);
}

/**
 * kmem_tep_old_migratetypes - does the trace number migration types as
 * kernels before 4.4 did?
 * @tep: the trace's handle, its event formats parsed
 *
 * Linux 4.4 moved __GFP_RECLAIMABLE to bit 4 (0x10) and swapped the
 * MOVABLE and RECLAIMABLE migration types with it; before, 0x10 was
 * __GFP_WAIT.  The trace's own flag table tells which kernel it is.
 *
 * Return: 1 for the old numbering (1 = Reclaimable, 2 = Movable), 0 for
 * today's, -1 when the format does not tell (no flag table, or a print
 * fmt libtraceevent cannot parse): see page_old_migratetypes().
 */
int kmem_tep_old_migratetypes(struct tep_handle *tep)
{
	char buf[256];

	if (gfp_names(tep, 0x10, buf, sizeof(buf)))
		return -1;	/* no flag table, or none that parses */
	/* RECLAIMABLE, or another name (GFP_WAIT) */
	return strstr(buf, "RECLAIMABLE") ? 0 : 1;
}

/**
 * kmem_tep_prepare_gfp - parse the print fmt the GFP flag names come from
 * @tep: the trace's handle, its event formats parsed
 *
 * The first event gfp_names() probes, when its print fmt was left for
 * later (kmem_fmt_need()): parsing it is most of the first probe's cost
 * (2.4 M instructions for mm_page_alloc's), and a front end that waits
 * for something else meanwhile makes it ready first.  Names and answers
 * are the same either way.
 */
void kmem_tep_prepare_gfp(struct tep_handle *tep)
{
	size_t i = 0;
	struct tep_event *ev = next_gfp_event(tep, &i);

	if (ev)
		kmem_fmt_need(ev);
}

/**
 * kmem_tep_symbolizer - names for the report, from a tep handle
 * @sym: filled in (old_migratetypes: see kmem_tep_old_migratetypes(),
 *	 once the event formats are parsed)
 * @tep: the trace's handle (kept as @sym->priv)
 */
void kmem_tep_symbolizer(struct kmem_symbolizer *sym, struct tep_handle *tep)
{
	memset(sym, 0, sizeof(*sym));
	sym->resolve = resolve;
	sym->priv = tep;
	sym->gfp = gfp;
	sym->comm = comm;
}

/**
 * kmem_tep_page_geometry - page and ring-buffer page sizes of the trace
 * @tep: the trace's handle, its header parsed
 *
 * Page bytes come from the recording machine's page size (the file
 * header's, which the front ends set), else the ring buffer's sub-buffer
 * size (what the plugin has), else 4096; the sub-buffer size also says
 * where a CPU's records cross a page (stack adjacency).
 *
 * Return: both sizes, never 0.
 */
struct kmem_page_geometry kmem_tep_page_geometry(struct tep_handle *tep)
{
	struct kmem_page_geometry g;
	int sub = tep_get_sub_buffer_size(tep);

	g.subbuf_size = sub > 0 ? (unsigned int)sub : 0;
	g.page_size = (unsigned int)tep_get_page_size(tep);
	/* trace-cmd tells a plugin no page size: the ring buffer's
	 * sub-buffer is one page unless resized (Linux 6.8+) */
	if (!g.page_size)
		g.page_size = g.subbuf_size ? g.subbuf_size : 4096;
	if (!g.subbuf_size)
		g.subbuf_size = g.page_size;
	return g;
}

/**
 * kmem_tep_say_unprobed - say which print fmts were not probed
 * @tep: the trace's handle, its event formats parsed
 *
 * One line on stderr for each GFP-carrying event whose print fmt is too
 * long to probe, or was parsed and found empty (the native reader leaves
 * out one it finds damaged; a kernel's never is): its flags are then
 * shown as numbers, and __GFP_ACCOUNT is not read from them.  A print
 * fmt still left for later was never needed, and is not parsed for this.
 */
void kmem_tep_say_unprobed(struct tep_handle *tep)
{
	size_t i, len;

	for (i = 0; i < sizeof(gfp_events) / sizeof(gfp_events[0]); i++) {
		struct tep_event *ev = tep_find_event_by_name(tep, "kmem",
							      gfp_events[i]);

		len = ev ? fmt_probe_too_long(ev) : 0;
		if (len)
			fprintf(stderr,
				"kmem: kmem:%s: print fmt of %zu bytes (more than 65536) not probed: GFP flags as numbers\n",
				gfp_events[i], len);
		else if (ev && kmem_fmt_bound(ev) == SIZE_MAX &&
			 tep_find_field(ev, "gfp_flags") &&
			 (!ev->print_fmt.format || !*ev->print_fmt.format) &&
			 kmem_fmt_first_say(tep, 1u << i))
			fprintf(stderr,
				"kmem: kmem:%s: print fmt damaged (left out): "
				"GFP flags as numbers, __GFP_ACCOUNT not read "
				"from them\n",
				gfp_events[i]);
	}
}

/* page_to_pfn() and pfn_to_page() in a print fmt: printed as 0, which
 * nothing here reads (the decoders read the fields) */
static unsigned long long no_value(struct trace_seq *s,
				   unsigned long long *args)
{
	(void)s;
	(void)args;
	return 0;
}

/**
 * kmem_tep_register_functions - the kernel functions old kmem print fmts
 *	call, for libtraceevent
 * @tep: a handle whose event formats are not parsed yet
 *
 * Linux 2.6.32 to 4.x print page_to_pfn(REC->page) or
 * pfn_to_page(REC->pfn), which libtraceevent does not know: the whole
 * print fmt then fails to parse, and with it the GFP names and the
 * pageblock order that only the print fmt gives (fmtprobe.h).  Not for
 * the plugin, whose listing stays trace-cmd's own.
 */
void kmem_tep_register_functions(struct tep_handle *tep)
{
	tep_register_print_function(tep, no_value, TEP_FUNC_ARG_LONG,
				    "page_to_pfn", TEP_FUNC_ARG_PTR,
				    TEP_FUNC_ARG_VOID);
	tep_register_print_function(tep, no_value, TEP_FUNC_ARG_PTR,
				    "pfn_to_page", TEP_FUNC_ARG_LONG,
				    TEP_FUNC_ARG_VOID);
}
