// SPDX-License-Identifier: LGPL-2.1
/*
 * The page allocator tables' columns (cols.h): per call site and per
 * page frame, each declared once for text, JSON and CSV.  Their
 * callbacks read the page statistics (struct page_stats) as the table's
 * priv; with PAGE_COLS_LIVE in the table's mode only what is live at the
 * end is shown, and a call site's hits and bytes are its live ones.
 */
#include <inttypes.h>
#include <stddef.h>
#include <string.h>

#include "base/numfmt.h"
#include "report_page.h"
#include "sort.h"

static bool live_only(const struct cols_ctx *c)
{
	return c->mode & PAGE_COLS_LIVE;
}

static const char *callsite_of(const struct cols_ctx *c, char *buf, uint64_t cs)
{
	if (cs == PAGE_NO_STACK)
		return strcpy(buf, "(no stack)");
	return fmt_callsite(buf, c->sym, cs, c->raw_ip);
}

/* Per call site: the members of its JSON object, in order. */
enum {
	S_CALLSITE,
	S_ADDRESS,
	S_HITS,
	S_BYTES,
	S_ORDER,
	S_MIGTYPE,
	S_GFP,
	S_GFP_VALUE,
	S_LIVE_COUNT,
	S_LIVE_BYTES,
};

#define SITE(m) COL_NUM64(struct page_site, m)
#define SITE32(m) COL_NUMI32(struct page_site, m)

static const char *site_callsite(const struct cols_ctx *c, const void *row,
				 char *buf)
{
	return callsite_of(c, buf, ((const struct page_site *)row)->callsite);
}

static uint64_t site_hits(const struct cols_ctx *c, const void *row)
{
	const struct page_site *s = row;

	return live_only(c) ? s->live_count : s->hits;
}

static uint64_t site_bytes(const struct cols_ctx *c, const void *row)
{
	const struct page_site *s = row;

	return live_only(c) ? s->live_bytes : s->bytes;
}

static const char *site_migtype(const struct cols_ctx *c, const void *row,
				char *buf)
{
	(void)buf;
	return migratetype_name(c->sym,
				((const struct page_site *)row)->migratetype);
}

static const char *site_gfp(const struct cols_ctx *c, const void *row,
			    char *buf)
{
	return fmt_gfp(buf, KMEM_SYM_LEN, c->sym,
		       ((const struct page_site *)row)->gfp);
}

static bool site_hidden(const struct cols_ctx *c, const void *row)
{
	return live_only(c) && !((const struct page_site *)row)->live_count;
}

static const struct col_field site_fields[] = {
	[S_CALLSITE] = { .key = "callsite",
			 .type = CF_STR,
			 .str = site_callsite },
	[S_ADDRESS] = { .key = "address",
			.type = CF_SITE_ADDR,
			.a = SITE(callsite) },
	[S_HITS] = { .key = "hits", .type = CF_U64, .a = COL_NUMFN(site_hits) },
	[S_BYTES] = { .key = "bytes",
		      .type = CF_U64,
		      .a = COL_NUMFN(site_bytes) },
	[S_ORDER] = { .key = "order", .type = CF_I64, .a = SITE32(order) },
	[S_MIGTYPE] = { .key = "migratetype",
			.type = CF_STR,
			.str = site_migtype },
	[S_GFP] = { .key = "gfp", .type = CF_STR, .str = site_gfp },
	[S_GFP_VALUE] = { .key = "gfp_value", .type = CF_ADDR, .a = SITE(gfp) },
	[S_LIVE_COUNT] = { .key = "live_count",
			   .type = CF_U64,
			   .a = SITE(live_count),
			   .known = cols_page_frees_known },
	[S_LIVE_BYTES] = { .key = "live_bytes",
			   .type = CF_U64,
			   .a = SITE(live_bytes),
			   .known = cols_page_frees_known },
};

static const struct col_text site_cols[] = {
	{ "Total alloc/Size", TBL_PAIR, CT_TOTAL_SIZE, S_BYTES, S_HITS, NULL,
	  2 },
	{ "Hits", TBL_RIGHT, CT_COUNT, S_HITS, COL_NOFIELD, NULL, 3 },
	{ "Order", TBL_RIGHT, CT_INT, S_ORDER, COL_NOFIELD, NULL, 4 },
	{ "Migration type", TBL_LEFT, CT_STR, S_MIGTYPE, COL_NOFIELD, NULL, 5 },
	{ "GFP flags", TBL_FOLD, CT_STR, S_GFP, COL_NOFIELD, NULL, 6 },
	{ "Callsite", TBL_LEFT, CT_STR, S_CALLSITE, COL_NOFIELD, NULL, 1 },
};

static const struct col_sort site_sorts[] = {
	{ SORT_CALLSITE, SITE(callsite) },
	{ SORT_BYTES, COL_NUMFN(site_bytes) },
	{ SORT_HIT, COL_NUMFN(site_hits) },
	{ SORT_ORDER, SITE32(order) },
	{ SORT_MIGTYPE, SITE32(migratetype) },
	{ SORT_GFP, SITE(gfp) },
	{ SORT_LIVE, SITE(live_bytes) },
};

const struct cols_def page_site_cols = {
	COLS_DEF(site_fields, site_cols, site_sorts, struct page_site),
	.skip = site_hidden,
};

/*
 * What a page frame's last allocation was: its call site row's, or when
 * that row could not be made (out of memory), its size only.
 */
struct pfn_info {
	uint64_t callsite, gfp;
	int order, migratetype;
};

static void pfn_info(const struct cols_ctx *c, const void *row,
		     struct pfn_info *in)
{
	const struct page_stats *st = c->priv;
	const struct page_obj *p = &((const struct page_obj_row *)row)->o;
	const struct page_site *s;

	if (p->site == U64_INDEX_NONE) {
		in->callsite = PAGE_NO_STACK;
		in->gfp = 0;
		in->order = p->border;
		in->migratetype = -1;
		return;
	}
	s = &st->sites[p->site];
	in->callsite = s->callsite;
	in->gfp = s->gfp;
	in->order = s->order;
	in->migratetype = s->migratetype;
}

/* Per page frame: the members of its JSON object, in order. */
enum {
	P_PFN,
	P_HITS,
	P_BYTES,
	P_FREES,
	P_ORDER,
	P_MIGTYPE,
	P_GFP,
	P_CALLSITE,
	P_LIVE,
};

#define PFN64(m) COL_NUM64(struct page_obj_row, m)
#define PFN32(m) COL_NUM32(struct page_obj_row, m)

static const void *pfn_row(const struct cols_ctx *c, uint32_t idx)
{
	return page_row_at(c->priv, idx);
}

static uint64_t pfn_live(const struct cols_ctx *c, const void *row)
{
	(void)c;
	return ((const struct page_obj_row *)row)->o.flags & PAGE_OBJ_LIVE;
}

/* Its bytes now (live only), or all allocated there. */
static uint64_t pfn_bytes(const struct cols_ctx *c, const void *row)
{
	const struct page_obj_row *p = row;

	return live_only(c) ? page_obj_bytes(c->priv, &p->o) : p->bytes;
}

static uint64_t pfn_live_bytes(const struct cols_ctx *c, const void *row)
{
	const struct page_obj_row *p = row;

	return pfn_live(c, row) ? page_obj_bytes(c->priv, &p->o) : 0;
}

static uint64_t pfn_order(const struct cols_ctx *c, const void *row)
{
	struct pfn_info in;

	pfn_info(c, row, &in);
	return (uint64_t)in.order;
}

static uint64_t pfn_migtype(const struct cols_ctx *c, const void *row)
{
	struct pfn_info in;

	pfn_info(c, row, &in);
	return (uint64_t)in.migratetype;
}

static uint64_t pfn_gfp_value(const struct cols_ctx *c, const void *row)
{
	struct pfn_info in;

	pfn_info(c, row, &in);
	return in.gfp;
}

static uint64_t pfn_site(const struct cols_ctx *c, const void *row)
{
	struct pfn_info in;

	pfn_info(c, row, &in);
	return in.callsite;
}

static const char *pfn_callsite(const struct cols_ctx *c, const void *row,
				char *buf)
{
	return callsite_of(c, buf, pfn_site(c, row));
}

static const char *pfn_migname(const struct cols_ctx *c, const void *row,
			       char *buf)
{
	(void)buf;
	return migratetype_name(c->sym, (int)pfn_migtype(c, row));
}

static const char *pfn_gfp(const struct cols_ctx *c, const void *row, char *buf)
{
	return fmt_gfp(buf, KMEM_SYM_LEN, c->sym, pfn_gfp_value(c, row));
}

/* Bytes and the mean size: a live frame holds one allocation. */
static const char *pfn_total(const struct cols_ctx *c, const void *row,
			     char *buf)
{
	const struct page_obj_row *p = row;

	return fmt_total_size(buf, pfn_bytes(c, row),
			      live_only(c) ? 1 : p->hits);
}

static bool pfn_hidden(const struct cols_ctx *c, const void *row)
{
	return live_only(c) && !pfn_live(c, row);
}

static const struct col_field pfn_fields[] = {
	[P_PFN] = { .key = "pfn", .type = CF_ADDR, .a = PFN64(o.pfn) },
	[P_HITS] = { .key = "hits", .type = CF_U64, .a = PFN32(hits) },
	[P_BYTES] = { .key = "bytes",
		      .type = CF_U64,
		      .a = COL_NUMFN(pfn_bytes) },
	[P_FREES] = { .key = "frees",
		      .type = CF_U64,
		      .a = PFN32(frees),
		      .known = cols_page_frees_known },
	[P_ORDER] = { .key = "order",
		      .type = CF_I64,
		      .a = COL_NUMFN(pfn_order) },
	[P_MIGTYPE] = { .key = "migratetype",
			.type = CF_STR,
			.str = pfn_migname },
	[P_GFP] = { .key = "gfp", .type = CF_STR, .str = pfn_gfp },
	[P_CALLSITE] = { .key = "callsite",
			 .type = CF_STR,
			 .str = pfn_callsite },
	[P_LIVE] = { .key = "live",
		     .type = CF_BOOL,
		     .a = COL_NUMFN(pfn_live),
		     .known = cols_page_frees_known },
};

static const struct col_text pfn_cols[] = {
	{ "PFN", TBL_LEFT, CT_ADDR, P_PFN, COL_NOFIELD, NULL, 1 },
	{ "Total alloc/Size", TBL_PAIR, CT_STR, P_BYTES, COL_NOFIELD, pfn_total,
	  3 },
	{ "Hits", TBL_RIGHT, CT_COUNT, P_HITS, COL_NOFIELD, NULL, 4 },
	{ "Order", TBL_RIGHT, CT_INT, P_ORDER, COL_NOFIELD, NULL, 5 },
	{ "Migration type", TBL_LEFT, CT_STR, P_MIGTYPE, COL_NOFIELD, NULL, 6 },
	{ "GFP flags", TBL_FOLD, CT_STR, P_GFP, COL_NOFIELD, NULL, 7 },
	{ "Callsite", TBL_LEFT, CT_STR, P_CALLSITE, COL_NOFIELD, NULL, 2 },
};

static const struct col_sort pfn_sorts[] = {
	{ SORT_PAGE, PFN64(o.pfn) },
	{ SORT_CALLSITE, COL_NUMFN(pfn_site) },
	{ SORT_BYTES, COL_NUMFN(pfn_bytes) },
	{ SORT_HIT, PFN32(hits) },
	{ SORT_ORDER, COL_NUMFN(pfn_order) },
	{ SORT_MIGTYPE, COL_NUMFN(pfn_migtype) },
	{ SORT_GFP, COL_NUMFN(pfn_gfp_value) },
	{ SORT_LIVE, COL_NUMFN(pfn_live_bytes) },
};

/* Page frames in the order of their first allocation (entry order). */
const struct cols_def page_pfn_cols = {
	COLS_DEF(pfn_fields, pfn_cols, pfn_sorts, struct page_obj_row),
	.row = pfn_row,
	.skip = pfn_hidden,
};
