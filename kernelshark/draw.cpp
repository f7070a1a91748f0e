// SPDX-License-Identifier: LGPL-2.1
/*
 * What the plugin draws on each CPU graph (and task graph):
 *
 *  - in each bin (a pixel column), a bar as high as the log of the
 *    allocations made there and freed later, the busiest bin in view
 *    the highest:
 *    teal, with the share freed on another CPU (ping-pong) in magenta
 *    on top.  At the default zoom a bin holds many allocations whose
 *    links would be shorter than a pixel; the bars say how many;
 *  - above them, a link from an allocation to its free where it
 *    reaches past the next bin: a horizontal line at a height that
 *    grows with the lifetime (log scale, as latency_plot's ticks grow
 *    with the latency), a tick at each end; teal when freed on the
 *    allocating CPU, magenta when freed on another.  One link a bin:
 *    the longest-lived allocation that starts there (density.c);
 *  - a red triangle on an allocation never freed in the trace, the
 *    first of each 9 pixels;
 *  - under them, the live bytes of each allocator (and of the call
 *    site chosen in the dialog) as curves across the row, each scaled
 *    to its own peak over the whole trace, which the dialog says
 *    (kmem_ks_describe_curve()).
 *
 * Double-clicking a link or a triangle says its numbers (gui.cpp).
 */
#include <math.h>

#include <algorithm>
#include <vector>

#include "KsPlotTools.hpp"
#include "KsPlugins.hpp"
#include "kmem_ks.h"

using namespace KsPlot;

/*
 * The colours, also looked for by tests/e2e/kshark_gui.sh; each
 * allocator's curve has its view's (kmem_ks_alloc_rgb()).
 */
static const Color LINK_COLOR(0, 151, 167);
static const Color PINGPONG_COLOR(236, 0, 140);
static const Color LEAK_COLOR(213, 0, 0);
static const Color BACK_COLOR(255, 255, 255);
static const Color SITE_COLOR(KMEM_KS_SITE_RGB >> 16,
			      KMEM_KS_SITE_RGB >> 8 & 255,
			      KMEM_KS_SITE_RGB & 255);

/* The view of graph @g: KernelShark's histogram, cut at the graph's bins. */
static kmem_ks_view viewOf(const kshark_trace_histo *h, const Graph *g)
{
	kmem_ks_view v;

	v.min = h->min;
	v.max = h->max;
	v.bin_size = h->bin_size;
	v.n_bins = std::min(h->n_bins, g->size());
	return v;
}

/* A shape that says an allocation's numbers when double-clicked. */
template <class Shape> class KmemMark : public Shape {
public:
	template <class... Args>
	KmemMark(const kmem_ks_ctx *ks, const kmem_ks_pair *p, Args... args)
	: Shape(args...), _ks(ks), _p(p) {}

private:
	const kmem_ks_ctx *_ks;
	const kmem_ks_pair *_p;

	void _doubleClick() const override
	{
		kmem_ks_show_numbers(_ks, _p);
	}
};

/* A link: its line. */
class KmemLink : public KmemMark<Line> {
public:
	KmemLink(const Point &a, const Point &b, const kmem_ks_ctx *ks,
		 const kmem_ks_pair *p)
	: KmemMark<Line>(ks, p, a, b) {}

	double distance(int x, int y) const override
	{
		int x0 = pointX(0), x1 = pointX(1);
		int dx = x < x0 ? x0 - x : (x > x1 ? x - x1 : 0);
		int dy = y - pointY(0);

		return sqrt((double)dx * dx + (double)dy * dy);
	}
};

/* A leak: a triangle pointing down at the allocation. */
class KmemLeak : public KmemMark<Triangle> {
public:
	KmemLeak(int x, int y, const kmem_ks_ctx *ks, const kmem_ks_pair *p)
	: KmemMark<Triangle>(ks, p)
	{
		setPoint(0, x - 4, y - 7);
		setPoint(1, x + 4, y - 7);
		setPoint(2, x, y);
		setFill(true);
		_color = LEAK_COLOR;
	}

	double distance(int x, int y) const override
	{
		int dx = x - pointX(2), dy = y - pointY(2) + 4;

		return sqrt((double)dx * dx + (double)dy * dy);
	}
};

static Line *tick(int x, int y, int len, const Color &c)
{
	Line *l = new Line(Point(x, y), Point(x, y + len));

	l->_color = c;
	l->_size = 1;
	return l;
}

/* A vertical line of @len pixels up from (@x, @y). */
static void bar(int x, int y, int len, const Color &c, PlotObjList *shapes)
{
	Line *l = new Line(Point(x, y), Point(x, y - len + 1));

	l->_color = c;
	l->_size = 1;
	shapes->push_front(l);
}

/* The bars' part of a graph's height, from its foot. */
static int barSpan(const Graph *g)
{
	return std::max(g->height() * 40 / 100, 3);
}

/*
 * The links of a graph as bars: in each bin, a bar as high as the log
 * of the count of the allocations made there and freed later, the
 * busiest bin in view the highest, teal with the ping-pong share of it
 * in magenta on top; or (@back) the white under them all, to read them
 * over the task colours.
 */
static void drawBars(const std::vector<kmem_ks_bin> &bins, uint32_t peak,
		     bool back, Graph *g, PlotObjList *shapes)
{
	double most = log2((double)peak + 1);
	int span = barSpan(g);

	for (size_t b = 0; b < bins.size(); b++) {
		const kmem_ks_bin *o = &bins[b];
		/* over the row KernelShark draws last, right above its axis */
		int x = g->bin(b)._base.x(), y = g->bin(b)._base.y() - 2;
		int len, pp;

		if (!o->allocs)
			continue;
		if (back) {
			bar(x, y, span, BACK_COLOR, shapes);
			continue;
		}
		len = 1 + (int)lround(log2((double)o->allocs + 1) / most *
				      (span - 1));
		pp = o->pingpong
			     ? std::max(1, (int)lround((double)len *
						       o->pingpong / o->allocs))
			     : 0;
		if (len > pp)
			bar(x, y, len - pp, LINK_COLOR, shapes);
		if (pp)
			bar(x, y - (len - pp), pp, PINGPONG_COLOR, shapes);
	}
}

/*
 * The links of a graph as lines, above the bars: of each 8 pixels, the
 * longest-lived link of a bin that reaches past the next bin, at a
 * height that grows with the log of its lifetime.
 */
static void drawLinks(const kmem_ks_ctx *ks, std::vector<kmem_ks_bin> bins,
		      Graph *g, const kshark_trace_histo *h,
		      PlotObjList *shapes)
{
	kmem_ks_view v = viewOf(h, g);
	int height = g->height(), span = barSpan(g);
	int linkLow = span + 3, linkRange = std::max(height - span - 5, 2);
	double top = log2((double)ks->max_life + 2);
	int n = std::min((int)bins.size(), v.n_bins);

	for (int b = 0, last = INT32_MIN; b < n; b++) {
		kmem_ks_bin *o = &bins[b];
		int bFree = o->longest
				    ? kmem_ks_bin_of(&v, o->longest->free->ts)
				    : -1;
		int x = g->bin(b)._base.x();

		if (o->longest && o->longest->free->ts <= v.max &&
		    bFree - b < 2)
			o->longest = nullptr; /* in the bar */
		if (!o->longest)
			continue;
		if (last != INT32_MIN && x - g->bin(last)._base.x() < 8) {
			const kmem_ks_pair *q = bins[last].longest;

			if (q->free->ts - q->alloc->ts >=
			    o->longest->free->ts - o->longest->alloc->ts) {
				o->longest = nullptr;
				continue;
			}
			bins[last].longest = nullptr;
		}
		last = b;
	}
	for (int b = 0; b < n; b++) {
		const kmem_ks_pair *p = bins[b].longest;
		int bFree, y, x0, x1;
		double frac;

		if (!p)
			continue;
		bFree = p->free->ts > v.max ? -1
					    : kmem_ks_bin_of(&v, p->free->ts);
		frac = log2((double)(p->free->ts - p->alloc->ts) + 2) / top;
		y = g->bin(b)._base.y() - linkLow - (int)(frac * linkRange);
		x0 = g->bin(b)._base.x();
		x1 = g->bin(bFree < 0 ? n - 1 : bFree)._base.x();

		const Color &c = p->free->cpu != p->alloc->cpu ? PINGPONG_COLOR :
								  LINK_COLOR;
		KmemLink *l = new KmemLink(Point(x0, y), Point(x1, y), ks, p);

		l->_color = c;
		l->_size = 1;
		shapes->push_front(l);
		shapes->push_front(tick(x0, y, 3, c));
		if (bFree >= 0)
			shapes->push_front(tick(x1, y, 3, c));
	}
}

/* Leaks: a triangle on the first in each 9 pixels (one fits there). */
static void drawLeaks(const kmem_ks_ctx *ks,
		      const std::vector<const kmem_ks_pair *> &in, Graph *g,
		      const kshark_trace_histo *h, PlotObjList *shapes)
{
	kmem_ks_view v = viewOf(h, g);
	std::vector<const kmem_ks_pair *> first(v.n_bins > 0 ? v.n_bins : 0,
						nullptr);
	int y = g->bin(0)._base.y() - g->height() + 8, last = INT32_MIN;

	for (const kmem_ks_pair *p : in) {
		int b = kmem_ks_bin_of(&v, p->alloc->ts);

		if (b >= 0 && (!first[b] || p->alloc->ts < first[b]->alloc->ts))
			first[b] = p;
	}
	for (int b = 0; b < v.n_bins; b++) {
		int x = g->bin(b)._base.x();

		if (!first[b] || (last != INT32_MIN && x - last < 9))
			continue;
		last = x;
		shapes->push_front(new KmemLeak(x, y, ks, first[b]));
	}
}

/* The allocations of @l (one CPU's, in time order) made in view. */
static std::vector<const kmem_ks_pair *> inView(const kmem_ks_list *l,
					       const kshark_trace_histo *h)
{
	std::vector<const kmem_ks_pair *> v;
	const kmem_ks_pair *begin = l->p, *end = l->p + l->n;
	const kmem_ks_pair *p = std::lower_bound(
		begin, end, h->min, [](const kmem_ks_pair &a, int64_t t) {
			return a.alloc->ts < t;
		});

	for (; p < end && p->alloc->ts <= h->max; p++)
		v.push_back(p);
	return v;
}

/* The allocations of task @pid in @l[0..n_cpus) made in view. */
static std::vector<const kmem_ks_pair *> ofTask(const kmem_ks_list *l,
					       int n_cpus, int pid,
					       const kshark_trace_histo *h)
{
	std::vector<const kmem_ks_pair *> v;

	for (int cpu = 0; cpu < n_cpus; cpu++)
		for (const kmem_ks_pair *p : inView(&l[cpu], h))
			if (p->alloc->pid == pid)
				v.push_back(p);
	return v;
}

/* The bytes of @s at time @ts: its last value at or before. */
static uint64_t valueAt(const kmem_ks_series *s, int64_t ts)
{
	const kmem_ks_point *e = std::upper_bound(
		s->p, s->p + s->n, ts,
		[](int64_t t, const kmem_ks_point &q) { return t < q.ts; });

	return e == s->p ? 0 : (e - 1)->bytes;
}

static void drawCurve(const kmem_ks_series *s, const Color &c, Graph *g,
		      const kshark_trace_histo *h, PlotObjList *shapes)
{
	int n = g->size(), span = g->height() - 6;
	Polyline *pl;

	if (!s->n || !s->max || n < 2)
		return;
	pl = new Polyline(n);
	for (int b = 0; b < n; b++) {
		int64_t end = h->min + (int64_t)(b + 1) * h->bin_size - 1;
		uint64_t v = valueAt(s, end);

		pl->setPoint(b, g->bin(b)._base.x(),
			     g->bin(b)._base.y() - 2 -
				     (int)((double)v / s->max * span));
	}
	pl->_color = c;
	pl->_size = 2;
	shapes->push_front(pl);
}

/**
 * kmem_ks_draw - the plugin's draw handler
 * @argv_c: KernelShark's arguments (a KsCppArgV)
 * @sd: the data stream
 * @val: the CPU or the task of the graph
 * @draw_action: KSHARK_CPU_DRAW or KSHARK_TASK_DRAW (others are left)
 */
void kmem_ks_draw(kshark_cpp_argv *argv_c, int sd, int val, int draw_action)
{
	KsCppArgV *argv = KS_ARGV_TO_CPP(argv_c);
	kmem_ks_ctx *ks = kmem_ks_of(sd);
	Graph *g = argv->_graph;
	kshark_trace_histo *h = argv->_histo;
	std::vector<const kmem_ks_pair *> links, leaks;
	std::vector<kmem_ks_bin> bins;
	uint32_t peak = 0;

	if (!ks || !g || !h || g->size() == 0 || !kmem_ks_ready(ks))
		return;
	if (draw_action & KSHARK_CPU_DRAW) {
		if (val < 0 || val >= ks->n_cpus)
			return;
		links = inView(&ks->links[val], h);
		leaks = inView(&ks->leaks[val], h);
	} else if (draw_action & KSHARK_TASK_DRAW) {
		links = ofTask(ks->links, ks->n_cpus, val, h);
		leaks = ofTask(ks->leaks, ks->n_cpus, val, h);
	} else {
		return;
	}
	/*
	 * KernelShark draws the list from its front, and each shape goes
	 * to the front: the first made here is drawn on top.  Leaks, then
	 * links, bars, curves, and the bars' white at the bottom.
	 */
	if (ks->show & KMEM_KS_SHOW_LEAKS)
		drawLeaks(ks, leaks, g, h, argv->_shapes);
	if (ks->show & KMEM_KS_SHOW_LINKS) {
		kmem_ks_view v = viewOf(h, g);

		bins.resize(v.n_bins > 0 ? v.n_bins : 0);
		if (!bins.empty())
			peak = kmem_ks_bins(links.data(), links.size(), &v,
					    bins.data());
		drawLinks(ks, bins, g, h, argv->_shapes);
		drawBars(bins, peak, false, g, argv->_shapes);
	}
	if ((draw_action & KSHARK_CPU_DRAW) && (ks->show & KMEM_KS_SHOW_LIVE)) {
		for (uint32_t a = 0; a < KMEM_NR_ALLOC; a++) {
			uint32_t rgb = kmem_ks_alloc_rgb(a);

			drawCurve(&ks->live[a],
				  Color(rgb >> 16 & 255, rgb >> 8 & 255,
					rgb & 255),
				  g, h, argv->_shapes);
		}
		drawCurve(&ks->site_live, SITE_COLOR, g, h, argv->_shapes);
	}
	if (ks->show & KMEM_KS_SHOW_LINKS)
		drawBars(bins, peak, true, g, argv->_shapes);
}
