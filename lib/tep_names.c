// SPDX-License-Identifier: LGPL-2.1
/*
 * Names from a libtraceevent handle (see tep_names.h).
 */
#include <string.h>

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

/* An event whose print fmt names the GFP flags. */
static struct tep_event *gfp_event(struct tep_handle *tep)
{
	static const char *const names[] = { "mm_page_alloc", "kmalloc",
					     "kmem_cache_alloc" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct tep_event *ev = tep_find_event_by_name(tep, "kmem",
							      names[i]);

		if (ev && tep_find_field(ev, "gfp_flags"))
			return ev;
	}
	return NULL;
}

static const char *gfp(void *priv, uint64_t flags, char *buf, size_t len)
{
	struct tep_event *ev = gfp_event(priv);

	if (!ev || fmt_probe(ev, "gfp_flags", flags, "gfp_flags", buf, len))
		return NULL;
	/* a print fmt libtraceevent could not parse prints the raw value */
	if (flags && !strpbrk(buf, "GHIJKLMNOPQRSTUVWXYZ_"))
		return NULL;
	return buf;
}

static const char *comm(void *priv, int pid)
{
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
	struct tep_event *ev = gfp_event(tep);
	char buf[256];

	if (!ev || fmt_probe(ev, "gfp_flags", 0x10, "gfp_flags", buf,
			     sizeof(buf)))
		return -1;
	if (strstr(buf, "RECLAIMABLE"))
		return 0;
	/* a name other than RECLAIMABLE (GFP_WAIT); digits: no table */
	return strpbrk(buf, "GHIJKLMNOPQRSTUVWXYZ_") ? 1 : -1;
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
 * @st: the page statistics, before their first event
 * @tep: the trace's handle, its header parsed
 *
 * Page bytes come from the recording machine's page size; the ring
 * buffer's sub-buffer size says where a CPU's records cross a page
 * (stack adjacency).  4096 when the trace does not say.
 */
void kmem_tep_page_geometry(struct page_stats *st, struct tep_handle *tep)
{
	st->page_size = (unsigned int)tep_get_page_size(tep);
	if (!st->page_size)
		st->page_size = 4096;
	st->subbuf_size = (unsigned int)tep_get_sub_buffer_size(tep);
	if (!st->subbuf_size)
		st->subbuf_size = st->page_size;
}

/**
 * kmem_tep_finish - the end of one input's stream
 * @a: its statistics
 * @sym: its symbolizer, told the migration type numbering
 * @tep: the trace's handle
 *
 * Pending page allocations get no stack; the numbering comes from the
 * trace's GFP flag table, or from the allocations themselves.
 */
void kmem_tep_finish(struct kmem_agg *a, struct kmem_symbolizer *sym,
		     struct tep_handle *tep)
{
	kmem_agg_finish(a);
	sym->old_migratetypes = kmem_tep_old_migratetypes(tep);
	if (sym->old_migratetypes < 0)
		sym->old_migratetypes = page_old_migratetypes(&a->page.sum);
}
