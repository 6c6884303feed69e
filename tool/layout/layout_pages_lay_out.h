/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * layout_pages_lay_out.h - step 4 of pages (docs/layout.md, "pages: the
 * words"): lay out the pages into an order.
 */
#ifndef HP_LAYOUT_PAGES_LAY_OUT_H
#define HP_LAYOUT_PAGES_LAY_OUT_H

#include <stddef.h>
#include <stdint.h>

#include "layout/layout_pages_bins.h"

/* How pages_lay_out() orders the pages. */
enum pg_bin_order {
	BINS_BY_NETS,		/* the weight of the nets on each, heaviest first */
	BINS_BY_DENSITY,	/* heat over bytes, interleaved with free functions */
	BINS_AS_MADE,		/* as made: a seed keeps its order's sequence */
};

/*
 * The pages in the order @how says into order[] (room for every node), each
 * from a page boundary when it would cross one, the gap before filled with
 * free functions (or a later page that fits); a big function starts on a
 * boundary only when that saves a page; the free functions left over
 * follow by density. Returns the count.
 */
size_t pages_lay_out(const struct pages *p, enum pg_bin_order how, uint32_t *order);

#endif
