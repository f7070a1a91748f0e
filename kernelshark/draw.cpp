// SPDX-License-Identifier: LGPL-2.1
/*
 * What the plugin draws on each CPU graph (and task graph):
 *
 *  - a link from each allocation in view to its free: a horizontal line
 *    at a height that grows with the lifetime (log scale, as
 *    latency_plot's ticks grow with the latency), a tick at each end;
 *    teal when freed on the allocating CPU, magenta when freed on
 *    another (ping-pong).  One link a pixel column: the longest-lived
 *    allocation that starts there.
 *  - a red triangle on each allocation never freed in the trace;
 *  - the live bytes of each allocator (and of the call site chosen in
 *    the dialog) as curves across the row, each scaled to its own peak
 *    over the whole trace.
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
static const Color SITE_COLOR(255, 111, 0);

/* The bin of time @ts, or -1 outside the view. */
static int binOf(const kshark_trace_histo *h, int64_t ts)
{
	int64_t b;

	if (ts < h->min || ts > h->max || h->bin_size <= 0)
		return -1;
	b = (ts - h->min) / h->bin_size;
	return b >= h->n_bins ? h->n_bins - 1 : (int)b;
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

static void drawLinks(const kmem_ks_ctx *ks,
		      const std::vector<const kmem_ks_pair *> &in, Graph *g,
		      const kshark_trace_histo *h, PlotObjList *shapes)
{
	std::vector<const kmem_ks_pair *> best(g->size(), nullptr);
	double top = log2((double)ks->max_life + 2);
	int height = g->height();

	for (const kmem_ks_pair *p : in) {
		int b = binOf(h, p->alloc->ts);

		if (b < 0 || b >= g->size())
			continue;
		if (!best[b] || p->free->ts - p->alloc->ts >
					best[b]->free->ts - best[b]->alloc->ts)
			best[b] = p;
	}
	for (int b = 0; b < g->size(); b++) {
		const kmem_ks_pair *p = best[b];
		int bFree, y, x0, x1;
		double frac;

		if (!p)
			continue;
		bFree = binOf(h, p->free->ts);
		if (bFree >= g->size())
			bFree = -1;
		frac = log2((double)(p->free->ts - p->alloc->ts) + 2) / top;
		y = g->bin(b)._base.y() - 3 - (int)(frac * height * .55);
		x0 = g->bin(b)._base.x();
		x1 = g->bin(bFree < 0 ? g->size() - 1 : bFree)._base.x();

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

static void drawLeaks(const kmem_ks_ctx *ks,
		      const std::vector<const kmem_ks_pair *> &in, Graph *g,
		      const kshark_trace_histo *h, PlotObjList *shapes)
{
	std::vector<bool> done(g->size(), false);
	int y = g->bin(0)._base.y() - g->height() + 8;

	for (const kmem_ks_pair *p : in) {
		int b = binOf(h, p->alloc->ts);

		if (b < 0 || b >= g->size() || done[b])
			continue;
		done[b] = true;
		shapes->push_front(
			new KmemLeak(g->bin(b)._base.x(), y, ks, p));
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

	if (!ks || !g || !h || g->size() == 0 || !kmem_ks_ready(ks))
		return;
	if (draw_action & KSHARK_CPU_DRAW) {
		if (val < 0 || val >= ks->n_cpus)
			return;
		if (ks->show & KMEM_KS_SHOW_LIVE) {
			for (uint32_t a = 0; a < KMEM_NR_ALLOC; a++) {
				uint32_t rgb = kmem_ks_alloc_rgb(a);

				drawCurve(&ks->live[a],
					  Color(rgb >> 16 & 255, rgb >> 8 & 255,
						rgb & 255),
					  g, h, argv->_shapes);
			}
			drawCurve(&ks->site_live, SITE_COLOR, g, h,
				  argv->_shapes);
		}
		links = inView(&ks->links[val], h);
		leaks = inView(&ks->leaks[val], h);
	} else if (draw_action & KSHARK_TASK_DRAW) {
		links = ofTask(ks->links, ks->n_cpus, val, h);
		leaks = ofTask(ks->leaks, ks->n_cpus, val, h);
	} else {
		return;
	}
	if (ks->show & KMEM_KS_SHOW_LINKS)
		drawLinks(ks, links, g, h, argv->_shapes);
	if (ks->show & KMEM_KS_SHOW_LEAKS)
		drawLeaks(ks, leaks, g, h, argv->_shapes);
}
