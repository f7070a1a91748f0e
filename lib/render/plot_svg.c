// SPDX-License-Identifier: LGPL-2.1
/*
 * The timeline as SVG (see plot_svg.h).  Lines are steps: a value holds
 * until the next point, as live memory does between events.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/numfmt.h"
#include "base/utf8.h"
#include "plot_svg.h"
#include "views.h"

/*
 * The canvas, in SVG user units: a panel per allocator drawn, one under
 * the other, each with its own bytes axis and its legend on its right;
 * the time axis under the last.  One panel keeps the whole height.
 */
#define W 1280
#define X0 96.0
#define X1 860.0
#define TOP 72.0	/* the first panel's top, one panel */
#define TOP_PANELS 88.0 /* ... several: room for its title */
#define PANEL_H 488.0	/* one panel's height, alone */
#define PANELS_H 250.0	/* ... among several */
#define PANEL_GAP 40.0	/* between panels: the next one's title */
#define BOTTOM 80.0	/* under the last: the time axis */
#define LEGEND_X 884
#define NAME_MAX_CHARS 36

static const char *const palette[] = {
	"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
	"#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#8c8c8c",
};

#define NR_COLOURS (sizeof(palette) / sizeof(palette[0]))
#define LOSS_COLOUR "#d0021b"

/* 10^@n, for small @n (no libm for the plugin's sake) */
static double pow10i(int n)
{
	double v = 1;

	while (n-- > 0)
		v *= 10;
	return v;
}

/* A step of 1, 2 or 5 times a power of ten, giving about @n ticks. */
static double nice_step(double range, int n)
{
	double raw = range / n, mag = 1, norm;

	if (!(raw > 0) || raw > 1e18)
		return raw > 1e18 ? raw : 1;
	while (mag * 10 <= raw)
		mag *= 10;
	while (mag > raw)
		mag /= 10;
	norm = raw / mag;
	return (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
}

/* "12,345.5": thousands separated, @dec decimals. */
static char *fmt_tick(char *buf, double v, int dec)
{
	uint64_t scale = (uint64_t)pow10i(dec);
	uint64_t all = (uint64_t)(v * (double)scale + 0.5);
	uint64_t ip = all / scale, fp = all % scale;
	size_t n;

	fmt_count(buf, ip);
	if (dec > 0) {
		n = strlen(buf);
		if (n + 1 + (size_t)dec >= NUMFMT_LEN)
			return buf;
		buf[n + 1 + dec] = '\0';
		for (; dec > 0; dec--, fp /= 10)
			buf[n + dec] = (char)('0' + fp % 10);
		buf[n] = '.';
	}
	return buf;
}

/* Decimals a tick of @step needs (at most 6: within NUMFMT_LEN). */
static int decimals_of(double step)
{
	int d = 0;

	while (d < 6 && step * pow10i(d) < 0.999)
		d++;
	return d;
}

struct scale {
	double unit;		/* ns or bytes per axis unit */
	const char *name;
	uint64_t lo, hi;	/* the data range drawn */
};

/* One allocator's panel: its plot area and bytes scale. */
struct panel {
	double top, bottom;
	struct scale y;
	size_t total; /* its allocator's line in tl->lines */
	size_t rows;  /* legend rows */
};

static double sx(const struct scale *x, uint64_t t)
{
	double span = (double)(x->hi - x->lo);

	return X0 + (span > 0 ? (double)(t - x->lo) / span : 0) * (X1 - X0);
}

static double sy(const struct panel *p, uint64_t v)
{
	return p->bottom - (double)v / (double)p->y.hi * (p->bottom - p->top);
}

static void time_unit(struct scale *x)
{
	uint64_t span = x->hi - x->lo;

	if (span >= 10000000000ULL) {
		x->unit = 1e9;
		x->name = "s";
	} else if (span >= 10000000ULL) {
		x->unit = 1e6;
		x->name = "ms";
	} else if (span >= 10000ULL) {
		x->unit = 1e3;
		x->name = "\u00b5s";
	} else {
		x->unit = 1;
		x->name = "ns";
	}
}

static void byte_unit(struct scale *y)
{
	if (y->hi >= 10ULL << 30) {
		y->unit = 1 << 30;
		y->name = "GiB";
	} else if (y->hi >= 10ULL << 20) {
		y->unit = 1 << 20;
		y->name = "MiB";
	} else if (y->hi >= 10ULL << 10) {
		y->unit = 1 << 10;
		y->name = "KiB";
	} else {
		y->unit = 1;
		y->name = "bytes";
	}
}

/*
 * An axis's grid lines, tick labels and title in panel @p: the time
 * axis (@x true; its labels and title only under the last panel, @last),
 * or the panel's bytes axis.
 */
static void axis(FILE *out, const struct scale *sc, bool x,
		 const struct panel *p, bool last)
{
	bool low = p->bottom - p->top < 300; /* fewer bytes ticks */
	double range = (double)(sc->hi - sc->lo) / sc->unit;
	double step = nice_step(range, x ? 8 : low ? 4 : 6);
	double v, at;
	int dec = decimals_of(step);
	char buf[NUMFMT_LEN];

	fprintf(out, "<g class=\"%s\" font-size=\"12\" text-anchor=\"%s\" "
		     "fill=\"#333\">\n", x ? "x-axis" : "y-axis",
		x ? "middle" : "end");
	for (v = 0; v <= range * (1 + 1e-9); v += step) {
		double f = range > 0 ? v / range : 0;

		at = x ? X0 + f * (X1 - X0)
		       : p->bottom - f * (p->bottom - p->top);
		fprintf(out,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			"y2=\"%.1f\" stroke=\"#e3e3e3\"/>\n",
			x ? at : X0, x ? p->top : at, x ? at : X1,
			x ? p->bottom : at);
		if (!x || last)
			fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n",
				x ? at : X0 - 8, x ? p->bottom + 18 : at + 4,
				fmt_tick(buf, v, dec));
		if (range <= 0)
			break;
	}
	if (x && last)
		fprintf(out,
			"<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\">"
			"time since the first event (%s)</text>\n",
			(X0 + X1) / 2, p->bottom + 42, sc->name);
	else if (!x)
		fprintf(out,
			"<text transform=\"translate(22 %.1f) "
			"rotate(-90)\" font-size=\"13\" text-anchor=\""
			"middle\">live memory (%s)</text>\n",
			(p->top + p->bottom) / 2, sc->name);
	fprintf(out, "</g>\n");
}

struct style {
	const char *colour;
	double width;
	const char *dash;	/* NULL: solid */
};

static struct style style_of(const struct kmem_tl_line *l, size_t nth)
{
	const struct kmem_alloc_view *v = &kmem_alloc_views[l->alloc];
	struct style s = { palette[nth % NR_COLOURS], 1.6, v->site_dash };

	if (l->kind == KMEM_TL_TOTAL)
		return (struct style){ v->plot_colour, 2.6, v->plot_dash };
	if (nth >= NR_COLOURS)
		s.dash = v->site_dash_more;
	return s;
}

static void stroke(FILE *out, const struct style *s)
{
	fprintf(out, "fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\"",
		s->colour, s->width);
	if (s->dash)
		fprintf(out, " stroke-dasharray=\"%s\"", s->dash);
}

/* @series: the line's index among the JSON's "series" */
static void line_path(FILE *out, const struct kmem_tl_line *l,
		      const struct style *st, size_t series,
		      const struct scale *x, const struct panel *p,
		      uint64_t (*pt)[2])
{
	size_t i, n = kmem_timeline_points(l, pt);

	fprintf(out, "<path class=\"line\" data-series=\"%zu\" ", series);
	stroke(out, st);
	fprintf(out, " stroke-linejoin=\"round\" d=\"M%.1f %.1f", sx(x, x->lo),
		sy(p, 0));
	for (i = 0; i < n; i++)
		fprintf(out, "H%.1fV%.1f", sx(x, pt[i][0]), sy(p, pt[i][1]));
	fprintf(out, "H%.1f\"/>\n", sx(x, x->hi));
}

/* Legend rows: two lines of text each, or one when there are many. */
static double row_height(const struct panel *p)
{
	double room = p->bottom - p->top - 8;

	return p->rows * 36.0 <= room ? 36.0 : room / (double)p->rows;
}

static void legend_entry(FILE *out, double ly, double rh,
			 const struct style *st, const char *name,
			 const char *what, uint64_t peak)
{
	char buf[NUMFMT_LEN];

	fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" ",
		LEGEND_X, ly, LEGEND_X + 26, ly);
	stroke(out, st);
	fprintf(out, "/>\n<text x=\"%d\" y=\"%.1f\" font-size=\"12.5\">",
		LEGEND_X + 34, ly + 4);
	utf8_put_xml(out, name, NAME_MAX_CHARS);
	if (rh < 30) {
		fprintf(out, " <tspan fill=\"#666\" font-size=\"11\">peak "
			     "%s</tspan></text>\n", fmt_count(buf, peak));
		return;
	}
	fprintf(out, "</text>\n<text x=\"%d\" y=\"%.1f\" font-size=\"11\" "
		     "fill=\"#666\">%s, peak %s bytes</text>\n",
		LEGEND_X + 34, ly + 19, what, fmt_count(buf, peak));
}

static void loss_legend(FILE *out, double ly, double rh,
			const struct kmem_plot_info *info)
{
	char buf[NUMFMT_LEN];

	fprintf(out, "<path d=\"M%d %.1fl-5 -8h10z\" fill=\"" LOSS_COLOUR
		     "\"/>\n<text x=\"%d\" y=\"%.1f\" font-size=\"12.5\">"
		     "ring buffer lost events</text>\n",
		LEGEND_X + 13, ly + 4, LEGEND_X + 34, ly + 4);
	if (rh < 30)
		return;
	fprintf(out, "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" "
		     "fill=\"#666\">%s events%s</text>\n", LEGEND_X + 34,
		ly + 19, fmt_count(buf, info->lost),
		info->lost_unknown ? ", and more of unknown count" : "");
}

/* The marks of lost events across panel @p (a title on each). */
static void losses(FILE *out, const struct kmem_timeline *tl,
		   const struct scale *x, const struct panel *p)
{
	char buf[NUMFMT_LEN];
	size_t i;

	if (!tl->losses)
		return;
	fprintf(out, "<g class=\"lost\" stroke=\"" LOSS_COLOUR "\" "
		     "fill=\"" LOSS_COLOUR "\">\n");
	for (i = 0; i < KMEM_TL_BUCKETS; i++) {
		const struct kmem_tl_loss *l = &tl->losses[i];
		double px = sx(x, l->ts);

		if (!l->events && !l->unknown)
			continue;
		fprintf(out, "<g><title>ring buffer lost ");
		if (l->events)
			fprintf(out, "%s events", fmt_count(buf, l->events));
		if (l->events && l->unknown)
			fprintf(out, ", and ");
		if (l->unknown)
			fprintf(out, "events %s time%s (count unknown)",
				fmt_count(buf, l->unknown),
				l->unknown == 1 ? "" : "s");
		fprintf(out,
			"</title><line x1=\"%.1f\" y1=\"%.1f\" "
			"x2=\"%.1f\" y2=\"%.1f\" stroke-width=\"1.2\" "
			"stroke-dasharray=\"3 3\"/><path d=\"M%.1f %.1f"
			"l-5 -8h10z\" stroke=\"none\"/></g>\n",
			px, p->top, px, p->bottom, px, p->top);
	}
	fprintf(out, "</g>\n");
}

static bool any_loss(const struct kmem_timeline *tl)
{
	size_t i;

	for (i = 0; tl->losses && i < KMEM_TL_BUCKETS; i++)
		if (tl->losses[i].events || tl->losses[i].unknown)
			return true;
	return false;
}

static void header(FILE *out, const struct kmem_timeline *tl,
		   const struct kmem_plot_info *info, double h)
{
	char a[NUMFMT_LEN], d[NUMFMT_LEN];

	fprintf(out,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%.0f\" viewBox=\"0 0 %d %.0f\" font-family=\"DejaVu "
		"Sans, Verdana, Helvetica, Arial, sans-serif\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n"
		"<text x=\"20\" y=\"30\" font-size=\"19\" font-weight=\"bold\">"
		"Live kernel memory: ",
		W, h, W, h);
	utf8_put_xml(out, info->label, 120);
	fprintf(out, "</text>\n<text x=\"20\" y=\"52\" font-size=\"12.5\" "
		     "fill=\"#555\">%s kmem events from %llu.%06llu s on; "
		     "each line drawn through the lowest, highest and last "
		     "value of each of %d spans of %s</text>\n",
		fmt_count(a, info->events),
		(unsigned long long)(tl->start / 1000000000ULL),
		(unsigned long long)(tl->start % 1000000000ULL / 1000),
		KMEM_TL_BUCKETS, fmt_duration(d, tl->span_ns));
}

/*
 * A panel per allocator line drawn, in allocator order, its scale from
 * its own lines' peaks.  Return: how many (at most KMEM_NR_ALLOC).
 */
static size_t layout(const struct kmem_timeline *tl, struct panel *p)
{
	size_t i, k, n = 0;
	double h;

	for (i = 0; i < tl->nr_totals && n < KMEM_NR_ALLOC; i++) {
		if (!tl->lines[i].spans)
			continue;
		p[n] = (struct panel){ .total = i,
				       .rows = 1,
				       .y = { .hi = tl->lines[i].peak } };
		for (k = 0; k < tl->nr_drawn; k++) {
			const struct kmem_tl_line *l = &tl->lines[tl->drawn[k]];

			if (l->alloc != tl->lines[i].alloc)
				continue;
			p[n].rows++;
			if (l->peak > p[n].y.hi)
				p[n].y.hi = l->peak;
		}
		if (!p[n].y.hi)
			p[n].y.hi = 1;
		p[n].y.hi += p[n].y.hi / 20; /* room above the peak */
		byte_unit(&p[n].y);
		n++;
	}
	h = n > 1 ? PANELS_H : PANEL_H;
	for (i = 0; i < n; i++) {
		p[i].top = (n > 1 ? TOP_PANELS : TOP) + i * (h + PANEL_GAP);
		p[i].bottom = p[i].top + h;
	}
	if (n && any_loss(tl))
		p[0].rows++;
	return n;
}

/* Panel @p: its frame, axes, lines (call sites under the total) and
 * legend; @first draws the legend of lost events, @last the time axis. */
static void draw_panel(FILE *out, const struct kmem_timeline *tl,
		       const struct kmem_symbolizer *sym,
		       const struct kmem_plot_info *info, const struct scale *x,
		       const struct panel *p, bool first, bool last,
		       uint64_t (*pt)[2])
{
	const struct kmem_tl_line *t = &tl->lines[p->total], *l;
	char name[KMEM_SYM_LEN], peak[NUMFMT_LEN];
	double rh = row_height(p), ly = p->top + 8;
	size_t i, n = 0, series = 0, mine[KMEM_TL_MAX_SITES];
	struct style st;

	/* its call sites, among those drawn; coloured in their order */
	for (i = 0; i < tl->nr_drawn && n < KMEM_TL_MAX_SITES; i++)
		if (tl->lines[tl->drawn[i]].alloc == t->alloc)
			mine[n++] = i;

	fprintf(out,
		"<g class=\"panel\" data-allocator=\"%s\" "
		"data-y-max=\"%" PRIu64 "\">\n",
		kmem_allocs[t->alloc].name, p->y.hi);
	if (p->top > TOP)
		fprintf(out,
			"<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\" "
			"font-weight=\"bold\">%s <tspan font-weight=\""
			"normal\" fill=\"#555\">(peak %s bytes)</tspan>"
			"</text>\n",
			X0, p->top - 9, kmem_allocs[t->alloc].title,
			fmt_count(peak, t->peak));
	axis(out, &p->y, false, p, false);
	axis(out, x, true, p, last);
	fprintf(out,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		"height=\"%.1f\" fill=\"none\" stroke=\"#999\"/>\n",
		X0, p->top, X1 - X0, p->bottom - p->top);
	losses(out, tl, x, p);
	fprintf(out, "<g class=\"plot\">\n");
	/* call sites first, the total over them; series: the JSON's order */
	for (i = 0; i < tl->nr_totals; i++)
		series += tl->lines[i].spans != NULL;
	for (i = n; i-- > 0;) {
		l = &tl->lines[tl->drawn[mine[i]]];
		st = style_of(l, i);
		line_path(out, l, &st, series + mine[i], x, p, pt);
	}
	for (i = 0, series = 0; i < p->total; i++)
		series += tl->lines[i].spans != NULL;
	st = style_of(t, 0);
	line_path(out, t, &st, series, x, p, pt);
	fprintf(out, "</g>\n<g class=\"legend\">\n");
	legend_entry(out, ly, rh, &st,
		     kmem_timeline_name(name, t, sym, info->raw_ip),
		     "all live objects", t->peak);
	ly += rh;
	for (i = 0; i < n; i++) {
		l = &tl->lines[tl->drawn[mine[i]]];
		st = style_of(l, i);
		legend_entry(out, ly, rh, &st,
			     kmem_timeline_name(name, l, sym, info->raw_ip),
			     kmem_alloc_views[l->alloc].site_legend, l->peak);
		ly += rh;
	}
	if (first && any_loss(tl))
		loss_legend(out, ly, rh, info);
	fprintf(out, "</g>\n</g>\n");
}

/**
 * kmem_plot_svg - draw a timeline
 * @out: where the SVG document goes
 * @tl: the timeline, after its second pass
 * @sym: the trace's symbols, for the legend
 * @info: the title's facts
 *
 * A panel per allocator drawn, each on its own bytes scale with its
 * call sites; the time axis is shared.
 */
void kmem_plot_svg(FILE *out, const struct kmem_timeline *tl,
		   const struct kmem_symbolizer *sym,
		   const struct kmem_plot_info *info)
{
	uint64_t pt[3 * KMEM_TL_BUCKETS][2];
	struct scale x = { .lo = tl->start, .hi = tl->end };
	struct panel p[KMEM_NR_ALLOC];
	size_t i, n = layout(tl, p);

	time_unit(&x);
	header(out, tl, info,
	       n ? p[n - 1].bottom + BOTTOM : TOP + PANEL_H + BOTTOM);
	for (i = 0; i < n; i++)
		draw_panel(out, tl, sym, info, &x, &p[i], !i, i + 1 == n, pt);
	fprintf(out, "</svg>\n");
}
