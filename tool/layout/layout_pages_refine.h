/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * layout_pages_refine.h - step 3 of pages (docs/layout.md, "pages: the
 * words"): refine the pages.
 */
#ifndef HP_LAYOUT_PAGES_REFINE_H
#define HP_LAYOUT_PAGES_REFINE_H

#include "layout/layout_pages_bins.h"

/*
 * Passes over every function on a net, each moved or swapped to where the
 * weighted pages fall most, until a pass gains nothing (on large problems,
 * p->large: little), or a few passes.
 */
void pages_refine(struct pages *p);

#endif
