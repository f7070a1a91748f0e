// SPDX-License-Identifier: LGPL-2.1
/*
 * The timeline as SVG (see plot_svg.h).  Lines are steps: a value holds
 * until the next point, as live memory does between events.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/numfmt.h"
#include "base/utf8.h"
#include "plot_svg.h"
#include "views.h"

/* The canvas and the plot area in it, in SVG user units. */
#define W 1200
#define H 640
#define X0 96.0
#define X1 860.0
#define Y0 72.0
#define Y1 560.0
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

static double sx(const struct scale *x, uint64_t t)
{
	double span = (double)(x->hi - x->lo);

	return X0 + (span > 0 ? (double)(t - x->lo) / span : 0) * (X1 - X0);
}

static double sy(const struct scale *y, uint64_t v)
{
	return Y1 - (double)v / (double)y->hi * (Y1 - Y0);
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
 * An axis's grid lines, tick labels and title: the time axis under the
 * plot area (@x true), or the bytes axis beside it.
 */
static void axis(FILE *out, const struct scale *sc, bool x)
{
	double range = (double)(sc->hi - sc->lo) / sc->unit;
	double step = nice_step(range, x ? 8 : 6), v, at;
	int dec = decimals_of(step);
	char buf[NUMFMT_LEN];

	fprintf(out, "<g class=\"%s\" font-size=\"12\" text-anchor=\"%s\" "
		     "fill=\"#333\">\n", x ? "x-axis" : "y-axis",
		x ? "middle" : "end");
	for (v = 0; v <= range * (1 + 1e-9); v += step) {
		double f = range > 0 ? v / range : 0;

		at = x ? X0 + f * (X1 - X0) : Y1 - f * (Y1 - Y0);
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			     "y2=\"%.1f\" stroke=\"#e3e3e3\"/>\n",
			x ? at : X0, x ? Y0 : at, x ? at : X1, x ? Y1 : at);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n",
			x ? at : X0 - 8, x ? Y1 + 18 : at + 4,
			fmt_tick(buf, v, dec));
		if (range <= 0)
			break;
	}
	if (x)
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\">"
			     "time since the first event (%s)</text>\n",
			(X0 + X1) / 2, Y1 + 42, sc->name);
	else
		fprintf(out, "<text transform=\"translate(22 %.1f) "
			     "rotate(-90)\" font-size=\"13\" text-anchor=\""
			     "middle\">live memory (%s)</text>\n",
			(Y0 + Y1) / 2, sc->name);
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

static void line_path(FILE *out, const struct kmem_tl_line *l, const struct style *st,
		      const struct scale *x, const struct scale *y,
		      uint64_t (*pt)[2])
{
	size_t i, n = kmem_timeline_points(l, pt);

	fprintf(out, "<path class=\"line\" ");
	stroke(out, st);
	fprintf(out, " stroke-linejoin=\"round\" d=\"M%.1f %.1f", sx(x, x->lo),
		sy(y, 0));
	for (i = 0; i < n; i++)
		fprintf(out, "H%.1fV%.1f", sx(x, pt[i][0]), sy(y, pt[i][1]));
	fprintf(out, "H%.1f\"/>\n", sx(x, x->hi));
}

/* Legend rows: two lines of text each, or one when there are many. */
static double row_height(size_t rows)
{
	double room = H - 16 - Y0;

	return rows * 36.0 <= room ? 36.0 : room / (double)rows;
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

static void losses(FILE *out, const struct kmem_timeline *tl,
		   const struct scale *x)
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
		fprintf(out, "</title><line x1=\"%.1f\" y1=\"%.1f\" "
			     "x2=\"%.1f\" y2=\"%.1f\" stroke-width=\"1.2\" "
			     "stroke-dasharray=\"3 3\"/><path d=\"M%.1f %.1f"
			     "l-5 -8h10z\" stroke=\"none\"/></g>\n",
			px, Y0, px, Y1, px, Y0);
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
		   const struct kmem_plot_info *info)
{
	char a[NUMFMT_LEN], d[NUMFMT_LEN];

	fprintf(out,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, "
		"Verdana, Helvetica, Arial, sans-serif\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n"
		"<text x=\"20\" y=\"30\" font-size=\"19\" font-weight=\"bold\">"
		"Live kernel memory: ", W, H, W, H);
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

/**
 * kmem_plot_svg - draw a timeline
 * @out: where the SVG document goes
 * @tl: the timeline, after its second pass
 * @sym: the trace's symbols, for the legend
 * @info: the title's facts
 */
void kmem_plot_svg(FILE *out, const struct kmem_timeline *tl,
		   const struct kmem_symbolizer *sym,
		   const struct kmem_plot_info *info)
{
	uint64_t pt[3 * KMEM_TL_BUCKETS][2];
	struct scale x = { .lo = tl->start, .hi = tl->end };
	struct scale y = { .hi = 1 };
	char name[KMEM_SYM_LEN];
	const struct kmem_tl_line *l;
	struct style st;
	size_t i, rows = tl->nr_drawn + any_loss(tl);
	double rh, ly = Y0 + 8;

	for (i = 0; i < tl->nr_totals; i++)
		rows += tl->lines[i].spans != NULL;
	rh = row_height(rows);
	for (i = 0; i < tl->nr_totals; i++)
		if (tl->lines[i].spans && tl->lines[i].peak > y.hi)
			y.hi = tl->lines[i].peak;
	for (i = 0; i < tl->nr_drawn; i++)
		if (tl->lines[tl->drawn[i]].peak > y.hi)
			y.hi = tl->lines[tl->drawn[i]].peak;
	y.hi += y.hi / 20;	/* room above the highest peak */
	byte_unit(&y);
	time_unit(&x);
	header(out, tl, info);
	axis(out, &y, false);
	axis(out, &x, true);
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		     "height=\"%.1f\" fill=\"none\" stroke=\"#999\"/>\n",
		X0, Y0, X1 - X0, Y1 - Y0);
	losses(out, tl, &x);
	fprintf(out, "<g class=\"plot\">\n");
	/* call sites first, the totals over them */
	for (i = tl->nr_drawn; i-- > 0;) {
		l = &tl->lines[tl->drawn[i]];
		st = style_of(l, i);
		line_path(out, l, &st, &x, &y, pt);
	}
	for (i = tl->nr_totals; i-- > 0;) {
		if (!tl->lines[i].spans)
			continue;
		st = style_of(&tl->lines[i], 0);
		line_path(out, &tl->lines[i], &st, &x, &y, pt);
	}
	fprintf(out, "</g>\n<g class=\"legend\">\n");
	for (i = 0; i < tl->nr_totals; i++) {
		l = &tl->lines[i];
		if (!l->spans)
			continue;
		st = style_of(l, 0);
		legend_entry(out, ly, rh, &st,
			     kmem_timeline_name(name, l, sym, info->raw_ip),
			     "all live objects", l->peak);
		ly += rh;
	}
	for (i = 0; i < tl->nr_drawn; i++) {
		l = &tl->lines[tl->drawn[i]];
		st = style_of(l, i);
		legend_entry(out, ly, rh, &st,
			     kmem_timeline_name(name, l, sym, info->raw_ip),
			     kmem_alloc_views[l->alloc].site_legend, l->peak);
		ly += rh;
	}
	if (any_loss(tl))
		loss_legend(out, ly, rh, info);
	fprintf(out, "</g>\n</svg>\n");
}
