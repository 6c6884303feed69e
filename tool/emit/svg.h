/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * svg.h - the report as a picture, one self-contained SVG (no scripts):
 *  - pages per run of each layout (now, each algorithm) against the bound
 *    and the reachable bound, with the replay's I-TLB misses beside them;
 *  - the heaviest hot paths one by one: the pages each touches under each
 *    layout side by side, with its bounds ("now, after, at best");
 *  - the page heat map: for each layout one strip of cells, one cell per
 *    page the graph's functions touch, in address order, coloured by the
 *    heat on the page, with the executed set's bound marked and a colour
 *    scale that names the heat's unit.
 * Every element has a tooltip (<title>); the groups have ids (summary,
 * paths, heatmap, scale) and the markers class="bound" for tests and tools.
 */
#ifndef HP_SVG_H
#define HP_SVG_H

#include <stdint.h>
#include <stdio.h>

#include "graph/graph.h"
#include "model/model.h"

struct svg_strip {
	const char *label;		/* "now", "pages", ... */
	const uint64_t *addr;		/* by node; UINT64_MAX: not drawn */
	const struct model_result *r;	/* the model's figures for @addr */
};

/* What the figure says about itself: every figure names its geometry and
 * the workload it came from. */
struct svg_info {
	const char *image;		/* the vmlinux, as the title names it */
	const char *workload;		/* the inputs, one line */
	const char *geometry;		/* geom_str() */
	const char *heat_unit;		/* what the weights count */
	uint64_t page_size;
	uint32_t tlb_entries;		/* the TLB size whose misses are drawn */
	unsigned int max_paths;		/* heaviest paths drawn one by one */
};

/**
 * svg_heatmap() - write the picture of @n strips to @f. @heat is by node
 * (layout_heat()). Returns 0 or -errno (printed).
 */
int svg_heatmap(FILE *f, const struct cgraph *cg, const uint64_t *heat,
		const struct svg_strip *strips, size_t n, const struct svg_info *info);

#endif
