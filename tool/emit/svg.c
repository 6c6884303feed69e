// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * svg.c - the page heat map. A page's heat is the sum of the heat of the
 * functions that touch it (a function across two pages heats both); the
 * colour runs from pale yellow to dark red on a log scale shared by all
 * strips, so strips compare. Strips are as wide as their page count; the
 * figure is as wide as the widest (cells shrink past 600 pages).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emit/svg.h"
#include "lib/util.h"
#include "lib/warn.h"
#include "lib/xalloc.h"

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

static void colour(double t, char *buf, size_t len)
{
	/* pale yellow (255,245,200) -> orange (240,120,40) -> dark red (120,0,20) */
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

int svg_heatmap(FILE *f, const struct cgraph *cg, const uint64_t *heat,
		const struct svg_strip *strips, size_t n, uint64_t page_size, const char *title)
{
	struct svg_page **pg = xcalloc(n, sizeof(*pg));
	size_t *np = xcalloc(n, sizeof(*np)), widest = 1;
	uint64_t maxheat = 1;
	double cell, lmax;
	const double left = 90, top = 40, rowh = 46, cellh = 28;
	double width;

	for (size_t s = 0; s < n; s++) {
		np[s] = strip_pages(cg, heat, strips[s].addr, page_size, &pg[s]);
		if (np[s] > widest)
			widest = np[s];
		for (size_t i = 0; i < np[s]; i++)
			if (pg[s][i].heat > maxheat)
				maxheat = pg[s][i].heat;
	}
	cell = widest > 600 ? 1200.0 / (double)widest : 2.0 * (widest > 300 ? 1 : 600.0 / 300);
	if (cell > 8)
		cell = 8;
	width = left + cell * (double)widest + 20;
	if (width < 520)
		width = 520;
	lmax = log1p((double)maxheat);

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		   "font-family=\"sans-serif\" font-size=\"12\">\n",
		width, top + rowh * (double)n + 30);
	fprintf(f, "<text x=\"10\" y=\"20\" font-size=\"14\">");
	xml_text(f, title);
	fprintf(f, "</text>\n");
	for (size_t s = 0; s < n; s++) {
		double y = top + rowh * (double)s;

		fprintf(f, "<text x=\"10\" y=\"%.0f\">", y + cellh / 2 + 4);
		xml_text(f, strips[s].label);
		fprintf(f, "</text>\n<text x=\"%.0f\" y=\"%.0f\" fill=\"#555\">%zu pages</text>\n",
			left, y + cellh + 13, np[s]);
		for (size_t i = 0; i < np[s]; i++) {
			const struct svg_page *p = &pg[s][i];
			const struct kfunc *fn = cg->img ? &cg->img->funcs[cg->nodes[p->top].func]
							 : NULL;
			char col[16];

			colour(lmax > 0 ? log1p((double)p->heat) / lmax : 0, col, sizeof(col));
			fprintf(f, "<rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"%.0f\" "
				   "fill=\"%s\"><title>page %#" PRIx64 ": heat %" PRIu64 ", hottest ",
				left + cell * (double)i, y, cell > 1.5 ? cell - 0.5 : cell, cellh, col,
				p->page * page_size, p->heat);
			if (fn)
				xml_text(f, fn->name);
			else
				fprintf(f, "node %u", p->top);
			fprintf(f, "</title></rect>\n");
		}
	}
	fprintf(f, "<text x=\"10\" y=\"%.0f\" fill=\"#555\">one cell per page touched, in address "
		   "order; colour: heat on the page (log scale, darkest = %" PRIu64 ")</text>\n",
		top + rowh * (double)n + 16, maxheat);
	fprintf(f, "</svg>\n");
	for (size_t s = 0; s < n; s++)
		free(pg[s]);
	free(pg);
	free(np);
	if (ferror(f)) {
		pr_err("writing the SVG failed; check the disk and retry");
		return -EIO;
	}
	return 0;
}
