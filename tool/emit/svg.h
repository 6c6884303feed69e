/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * svg.h - the page heat map: for each layout (before, after, ...) one strip
 * of cells, one cell per page the graph's functions touch, in address
 * order, coloured by the heat that falls on the page. Self-contained SVG,
 * no scripts; every cell has a tooltip (<title>) with its address, heat and
 * hottest function.
 */
#ifndef HP_SVG_H
#define HP_SVG_H

#include <stdint.h>
#include <stdio.h>

#include "graph/graph.h"

struct svg_strip {
	const char *label;	/* "now", "pages", ... */
	const uint64_t *addr;	/* by node; UINT64_MAX: not drawn */
};

/**
 * svg_heatmap() - write the map of @n strips to @f. @heat is by node (e.g.
 * layout_heat()). @title names the geometry. Returns 0 or -EIO (printed).
 */
int svg_heatmap(FILE *f, const struct cgraph *cg, const uint64_t *heat,
		const struct svg_strip *strips, size_t n, uint64_t page_size, const char *title);

#endif
