// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * svg.c - the report as a picture. Three panels, top to bottom: pages per
 * run and misses per layout (the figures that differ between algorithms),
 * the heaviest paths' pages side by side (what each path touches now, after
 * and at best), the page heat map with its colour scale.
 *
 * The body is written to memory first and the <svg> element last, so the
 * figure is as wide and tall as what was drawn (text widths are estimated
 * from the character count: nothing is clipped by a guess made too early).
 *
 * A page's heat is the sum of the heat of the functions that touch it (a
 * function across two pages heats both); the colour runs from pale yellow
 * to dark red on a log scale shared by all strips, so strips compare.
 * Strips share one cell width, so their lengths compare too.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "emit/svg.h"
#include "lib/geometry.h"
#include "lib/util.h"
#include "lib/warn.h"
#include "lib/xalloc.h"

#define SVG_LEFT 100.0		/* the label column */
#define SVG_STRIP_W 640.0	/* the widest strip of the heat map */
#define SVG_MIN_W 660.0

/* Fills: the layout as linked, an algorithm's, a path at its reachable bound */
#define FILL_NOW "#9a9a9a"
#define FILL_AFTER "#4a78b0"
#define FILL_BEST "#3a9a50"

struct canvas {
	FILE *f;		/* the body, in memory */
	double w, h;		/* what was drawn reaches this far */
};

static void reach(struct canvas *c, double x, double y)
{
	if (x > c->w)
		c->w = x;
	if (y > c->h)
		c->h = y;
}

static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

enum anchor { AT_START, AT_END, AT_MIDDLE };

/* A line of text at (@x, @y) of @size px; @attrs: more attributes or "". */
static void __attribute__((format(printf, 7, 8)))
text(struct canvas *c, double x, double y, double size, enum anchor an, const char *attrs,
     const char *fmt, ...)
{
	static const char *const anchors[] = { "", " text-anchor=\"end\"",
						" text-anchor=\"middle\"" };
	char buf[1024];
	va_list ap;
	double w;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* about 0.6 em a character in the sans-serif faces renderers pick */
	w = 0.6 * size * (double)strlen(buf);
	reach(c, an == AT_START ? x + w : an == AT_MIDDLE ? x + w / 2 : x, y + 4);
	fprintf(c->f, "<text x=\"%.1f\" y=\"%.1f\"", x, y);
	if (size != 12)
		fprintf(c->f, " font-size=\"%.0f\"", size);
	fprintf(c->f, "%s%s%s>", anchors[an], *attrs ? " " : "", attrs);
	xml_text(c->f, buf);
	fputs("</text>\n", c->f);
}

/* A rectangle with a tooltip (@tip NULL: none). */
static void rect(struct canvas *c, double x, double y, double w, double h, const char *fill,
		 const char *tip)
{
	reach(c, x + w, y + h);
	fprintf(c->f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\"",
		x, y, w, h, fill);
	if (!tip) {
		fputs("/>\n", c->f);
		return;
	}
	fputs("><title>", c->f);
	xml_text(c->f, tip);
	fputs("</title></rect>\n", c->f);
}

/* A bound marker: solid black for the bound, dashed green for the
 * reachable bound (@dash). */
static void marker(struct canvas *c, double x, double y0, double y1, bool dash,
		   const char *tip)
{
	reach(c, x + 1, y1);
	fprintf(c->f, "<line class=\"bound\" x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" "
		      "stroke=\"%s\" stroke-width=\"2\"%s><title>",
		x, y0, x, y1, dash ? FILL_BEST : "#000", dash ? " stroke-dasharray=\"3,2\"" : "");
	xml_text(c->f, tip);
	fputs("</title></line>\n", c->f);
}

struct svg_page {
	uint64_t page;
	uint64_t heat;
	uint32_t top;		/* hottest node on it */
	uint64_t topheat;
};

static int cmp_page(const void *a, const void *b)
{
	const struct svg_page *x = a, *y = b;

	return (x->page > y->page) - (x->page < y->page);
}

/* The pages of one layout, merged and summed; returns the count. */
static size_t strip_pages(const struct cgraph *cg, const uint64_t *heat, const uint64_t *addr,
			  uint64_t page_size, struct svg_page **out)
{
	struct svg_page *pg = NULL;
	size_t n = 0, cap = 0, m = 0;

	for (size_t v = 0; v < cg->nnodes; v++) {
		uint64_t a = addr[v], sz = NONZERO(cg->nodes[v].size);

		if (a == UINT64_MAX)
			continue;
		for (uint64_t p = a / page_size; p <= (a + sz - 1) / page_size; p++) {
			XGROW(pg, cap, n + 1);
			pg[n++] = (struct svg_page){ p, heat[v], (uint32_t)v, heat[v] };
		}
	}
	if (n)
		qsort(pg, n, sizeof(*pg), cmp_page);
	for (size_t i = 0; i < n; i++) {
		if (m && pg[m - 1].page == pg[i].page) {
			pg[m - 1].heat += pg[i].heat;
			if (pg[i].topheat > pg[m - 1].topheat ||
			    (pg[i].topheat == pg[m - 1].topheat && pg[i].top < pg[m - 1].top)) {
				pg[m - 1].top = pg[i].top;
				pg[m - 1].topheat = pg[i].topheat;
			}
			continue;
		}
		pg[m++] = pg[i];
	}
	*out = pg;
	return m;
}

/* pale yellow (255,245,200) -> orange (240,120,40) -> dark red (120,0,20):
 * linear in @t on either side of 0.5, so three gradient stops draw it. */
static void colour(double t, char *buf, size_t len)
{
	double r, g, b;

	if (t < 0.5) {
		double u = t * 2;

		r = 255 - 15 * u;
		g = 245 - 125 * u;
		b = 200 - 160 * u;
	} else {
		double u = (t - 0.5) * 2;

		r = 240 - 120 * u;
		g = 120 - 120 * u;
		b = 40 - 20 * u;
	}
	snprintf(buf, len, "#%02x%02x%02x", (unsigned int)r, (unsigned int)g, (unsigned int)b);
}

static const char *node_name(const struct cgraph *cg, uint32_t v, char *buf, size_t len)
{
	if (cg->img)
		return cg->img->funcs[cg->nodes[v].func].name;
	snprintf(buf, len, "node %u", v);
	return buf;
}

/* Panel 1: per layout, pages per run against its bounds, and the misses. */
static double draw_summary(struct canvas *c, double y, const struct svg_strip *st, size_t n,
			   const struct svg_info *in)
{
	const double x0 = SVG_LEFT, aw = 300, x1 = x0 + aw + 70, bw = 200, rowh = 20;
	double amax = 0, bmax = 1;	/* bmax: log1p() of the most misses */
	const struct model_result *r0 = st[0].r;
	char tip[256];

	for (size_t i = 0; i < n; i++) {
		double v = model_mean_pages(st[i].r), fb = model_mean_fixed_bound(st[i].r);

		amax = v > amax ? v : amax;
		amax = fb > amax ? fb : amax;
		if (log1p((double)st[i].r->tlb_misses[0]) > bmax)
			bmax = log1p((double)st[i].r->tlb_misses[0]);
	}
	amax = amax > 0 ? amax * 1.05 : 1;
	fputs("<g id=\"summary\">\n", c->f);
	text(c, 10, y, 13, AT_START, "font-weight=\"bold\"", "%s, and I-TLB misses",
	     r0->node_stream ? "Pages per run (single functions replayed by sample weight)"
			     : "Pages per hot-path run (mean, weighted by the paths' weights)");
	y += 18;
	text(c, x0, y, 11, AT_START, "fill=\"#555\"", "pages/run");
	text(c, x1, y, 11, AT_START, "fill=\"#555\"", "misses of a %u-entry I-TLB, %" PRIu64
	     " runs replayed (log scale)", in->tlb_entries, r0->runs);
	y += 6;
	for (size_t i = 0; i < n; i++) {
		const struct model_result *r = st[i].r;
		double v = model_mean_pages(r), b = model_mean_bound(r);
		double fb = model_mean_fixed_bound(r), m = log1p((double)r->tlb_misses[0]);
		const char *fill = v <= fb + 0.005 ? FILL_BEST : i ? FILL_AFTER : FILL_NOW;

		text(c, 10, y + 14, 12, AT_START, "", "%s", st[i].label);
		snprintf(tip, sizeof(tip), "%s: %.2f pages per run; bound %.2f, reachable %.2f",
			 st[i].label, v, b, fb);
		rect(c, x0, y + 3, v / amax * aw, 14, fill, tip);
		text(c, x0 + v / amax * aw + 4, y + 14, 12, AT_START, "", "%.2f", v);
		snprintf(tip, sizeof(tip), "%s: bound %.2f pages per run (the paths' bytes / page, "
			 "rounded up)", st[i].label, b);
		marker(c, x0 + b / amax * aw, y + 1, y + rowh - 1, false, tip);
		snprintf(tip, sizeof(tip), "%s: reachable bound %.2f pages per run (the fixed "
			 "functions where they are)", st[i].label, fb);
		marker(c, x0 + fb / amax * aw, y + 1, y + rowh - 1, true, tip);
		snprintf(tip, sizeof(tip), "%s: %" PRIu64 " misses of %" PRIu64 " references",
			 st[i].label, r->tlb_misses[0], r->tlb_refs);
		rect(c, x1, y + 3, m / bmax * bw, 14, fill, tip);
		text(c, x1 + m / bmax * bw + 4, y + 14, 12, AT_START, "", "%" PRIu64,
		     r->tlb_misses[0]);
		y += rowh;
	}
	fputs("</g>\n", c->f);
	return y;
}

/* Panel 2: the heaviest paths, one row each, the layouts side by side. */
static double draw_paths(struct canvas *c, double y, const struct cgraph *cg,
			 const struct svg_strip *st, size_t n, const struct svg_info *in)
{
	const struct model_result *r0 = st[0].r;
	size_t shown = r0->npaths < in->max_paths ? r0->npaths : in->max_paths;
	const double xc = 350, cw = 100, bar = 62, rowh = 18;
	char tip[512], nb[32];

	fputs("<g id=\"paths\">\n", c->f);
	text(c, 10, y, 13, AT_START, "font-weight=\"bold\"",
	     "Pages each hot path touches: now, after each algorithm, at best");
	y += 16;
	if (r0->node_stream || !cg->npaths) {
		text(c, 10, y, 12, AT_START, "fill=\"#555\"", "no hot paths in the inputs (address "
		     "samples only): call paths come from perf -g stacks, a function_graph trace "
		     "or --addr-window");
		fputs("</g>\n", c->f);
		return y + 8;
	}
	if (!shown) {
		text(c, 10, y, 12, AT_START, "fill=\"#555\"", "none drawn (--paths 0); %zu hot paths",
		     r0->npaths);
		fputs("</g>\n", c->f);
		return y + 8;
	}
	text(c, 10, y, 11, AT_START, "fill=\"#555\"", "the heaviest %zu of %zu paths; bar: pages "
	     "touched, on each row's own scale; green: at the reachable bound", shown, r0->npaths);
	y += 18;
	text(c, 30, y, 11, AT_END, "fill=\"#555\"", "#");
	text(c, 92, y, 11, AT_END, "fill=\"#555\"", "weight");
	text(c, 130, y, 11, AT_END, "fill=\"#555\"", "funcs");
	text(c, 138, y, 11, AT_START, "fill=\"#555\"", "root");
	text(c, 300, y, 11, AT_END, "fill=\"#555\"", "bound");
	text(c, 342, y, 11, AT_END, "fill=\"#555\"", "reach");
	for (size_t i = 0; i < n; i++)
		text(c, xc + 4 + cw * (double)i, y, 11, AT_START, "fill=\"#555\"", "%s",
		     st[i].label);
	y += 4;
	for (size_t p = 0; p < shown; p++) {
		const struct model_path *mp = &r0->paths[p];
		const char *root = node_name(cg, cg->paths[p].nodes[0], nb, sizeof(nb));
		uint32_t rmax = mp->fixed_bound;

		for (size_t i = 0; i < n; i++)
			if (st[i].r->paths[p].pages > rmax)
				rmax = st[i].r->paths[p].pages;
		rmax = rmax ? rmax : 1;
		fprintf(c->f, "<g class=\"path-row\">\n");
		text(c, 30, y + 13, 12, AT_END, "", "%zu", p + 1);
		text(c, 92, y + 13, 12, AT_END, "", "%" PRIu64, mp->weight);
		text(c, 130, y + 13, 12, AT_END, "", "%u", mp->nfuncs);
		text(c, 138, y + 13, 12, AT_START, "", "%.22s%s", root, strlen(root) > 22 ? "..." : "");
		text(c, 300, y + 13, 12, AT_END, "", "%u", mp->bound);
		text(c, 342, y + 13, 12, AT_END, "", "%u", mp->fixed_bound);
		for (size_t i = 0; i < n; i++) {
			const struct model_path *q = &st[i].r->paths[p];
			double x = xc + 4 + cw * (double)i, s = bar / (double)rmax;

			snprintf(tip, sizeof(tip), "path %zu (%s, weight %" PRIu64 ", %u functions, "
				 "%" PRIu64 " bytes) under %s: %u pages; bound %u, reachable %u",
				 p + 1, root, q->weight, q->nfuncs, q->bytes, st[i].label, q->pages,
				 q->bound, q->fixed_bound);
			rect(c, x, y + 3, s * q->pages, 12,
			     q->pages <= q->fixed_bound ? FILL_BEST : i ? FILL_AFTER : FILL_NOW, tip);
			snprintf(tip, sizeof(tip), "path %zu: bound %u pages", p + 1, q->bound);
			marker(c, x + s * q->bound, y + 1, y + rowh - 1, false, tip);
			snprintf(tip, sizeof(tip), "path %zu: reachable bound %u pages", p + 1,
				 q->fixed_bound);
			marker(c, x + s * q->fixed_bound, y + 1, y + rowh - 1, true, tip);
			text(c, x + bar + 4, y + 13, 12, AT_START, "", "%u", q->pages);
		}
		fputs("</g>\n", c->f);
		y += rowh;
	}
	fputs("</g>\n", c->f);
	return y;
}

/* The colour scale: the gradient, ticks at powers of ten, the unit. */
static double draw_scale(struct canvas *c, double y, uint64_t maxheat, const char *unit)
{
	const double x0 = SVG_LEFT, w = 300;
	double lmax = log1p((double)maxheat), last = -100;
	char col[16];

	fputs("<g id=\"scale\">\n<defs><linearGradient id=\"heat\" x1=\"0\" x2=\"1\">", c->f);
	for (int k = 0; k <= 2; k++) {
		colour(k / 2.0, col, sizeof(col));
		fprintf(c->f, "<stop offset=\"%.1f\" stop-color=\"%s\"/>", k / 2.0, col);
	}
	fputs("</linearGradient></defs>\n", c->f);
	text(c, 10, y + 11, 12, AT_START, "", "heat");
	reach(c, x0 + w, y + 14);
	fprintf(c->f, "<rect x=\"%.0f\" y=\"%.1f\" width=\"%.0f\" height=\"14\" fill=\"url(#heat)\" "
		      "stroke=\"#888\" stroke-width=\"0.5\"/>\n", x0, y, w);
	/* 0, 1, 10, 100, ... and the maximum, each where the cells put it */
	for (uint64_t v = 0;; v = v ? v * 10 : 1) {
		bool top = v >= maxheat;
		double x = x0 + (top || lmax <= 0 ? 1.0 : log1p((double)v) / lmax) * w;

		if (top)
			v = maxheat;
		if (top || (x - last >= 36 && x0 + w - x >= 36)) {
			fprintf(c->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				      "stroke=\"#333\"/>\n", x, y + 14, x, y + 18);
			text(c, x, y + 29, 10, AT_MIDDLE, "", "%" PRIu64, v);
			last = x;
		}
		if (top || v > UINT64_MAX / 10)
			break;
	}
	text(c, x0 + w + 14, y + 11, 11, AT_START, "", "heat on a page: %s (log scale)", unit);
	fputs("</g>\n", c->f);
	return y + 36;
}

/* Panel 3: the heat map, one strip per layout, and its colour scale. */
static double draw_heatmap(struct canvas *c, double y, const struct cgraph *cg,
			   const uint64_t *heat, const struct svg_strip *st, size_t n,
			   const struct svg_info *in)
{
	struct svg_page **pg = xcalloc(n, sizeof(*pg));
	size_t *np = xcalloc(n, sizeof(*np)), widest = 1;
	uint64_t maxheat = 1;
	const double rowh = 46, cellh = 28;
	double cell, lmax;
	char tip[512], col[16], nb[32], ps[32];

	for (size_t s = 0; s < n; s++) {
		np[s] = strip_pages(cg, heat, st[s].addr, in->page_size, &pg[s]);
		if (np[s] > widest)
			widest = np[s];
		if (st[s].r->set_bound > widest)
			widest = st[s].r->set_bound;
		for (size_t i = 0; i < np[s]; i++)
			if (pg[s][i].heat > maxheat)
				maxheat = pg[s][i].heat;
	}
	cell = SVG_STRIP_W / (double)widest;
	if (cell > 24)
		cell = 24;
	lmax = log1p((double)maxheat);
	fputs("<g id=\"heatmap\">\n", c->f);
	text(c, 10, y, 13, AT_START, "font-weight=\"bold\"",
	     "The executed set's pages (%s each), in address order, by heat",
	     geom_size_str(in->page_size, ps, sizeof(ps)));
	y += 14;
	for (size_t s = 0; s < n; s++) {
		size_t b = st[s].r->set_bound;

		text(c, 10, y + cellh / 2 + 4, 12, AT_START, "", "%s", st[s].label);
		for (size_t i = 0; i < np[s]; i++) {
			const struct svg_page *p = &pg[s][i];

			colour(lmax > 0 ? log1p((double)p->heat) / lmax : 0, col, sizeof(col));
			snprintf(tip, sizeof(tip), "page %#" PRIx64 ": heat %" PRIu64 ", hottest %s",
				 p->page * in->page_size, p->heat, node_name(cg, p->top, nb,
									     sizeof(nb)));
			rect(c, SVG_LEFT + cell * (double)i, y, cell > 1.5 ? cell - 0.5 : cell, cellh,
			     col, tip);
		}
		snprintf(tip, sizeof(tip), "%s: bound %zu pages (the set's bytes / page, rounded "
			 "up)", st[s].label, b);
		marker(c, SVG_LEFT + cell * (double)b, y - 4, y + cellh + 4, false, tip);
		text(c, SVG_LEFT, y + cellh + 13, 11, AT_START, "fill=\"#555\"",
		     "%zu pages touched; bound %zu", np[s], b);
		y += rowh;
	}
	fputs("</g>\n", c->f);
	y = draw_scale(c, y + 4, maxheat, in->heat_unit);
	for (size_t s = 0; s < n; s++)
		free(pg[s]);
	free(pg);
	free(np);
	return y;
}

int svg_heatmap(FILE *f, const struct cgraph *cg, const uint64_t *heat,
		const struct svg_strip *strips, size_t n, const struct svg_info *in)
{
	struct canvas c = { 0 };
	char *body = NULL, ps[32];
	size_t len = 0;
	double y;

	c.f = open_memstream(&body, &len);
	if (!c.f) {
		pr_err("the SVG: out of memory; free some and retry");
		return -ENOMEM;
	}
	text(&c, 10, 22, 15, AT_START, "font-weight=\"bold\"", "hotpack report: %s, %s pages",
	     in->image, geom_size_str(in->page_size, ps, sizeof(ps)));
	text(&c, 10, 40, 11, AT_START, "fill=\"#555\"", "geometry: %s", in->geometry);
	text(&c, 10, 55, 11, AT_START, "fill=\"#555\"", "workload: %s", in->workload);
	y = 84;
	if (n) {
		y = draw_summary(&c, y, strips, n, in);
		y = draw_paths(&c, y + 26, cg, strips, n, in);
		y = draw_heatmap(&c, y + 26, cg, heat, strips, n, in);
	}
	text(&c, 10, y + 4, 11, AT_START, "fill=\"#555\"", "a function touches every page of its "
	     "bytes; its heat: its own weight, or its calls in or out when more");
	text(&c, 10, y + 19, 11, AT_START, "fill=\"#555\"", "black line: the bound (bytes / page, "
	     "rounded up); dashed green: the reachable bound (fixed functions where they are)");
	fclose(c.f);
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		   "font-family=\"sans-serif\" font-size=\"12\">\n"
		   "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
		c.w + 14 > SVG_MIN_W ? c.w + 14 : SVG_MIN_W, c.h + 10);
	fwrite(body, 1, len, f);
	fprintf(f, "</svg>\n");
	free(body);
	if (ferror(f)) {
		pr_err("writing the SVG failed; check the disk and retry");
		return -EIO;
	}
	return 0;
}
