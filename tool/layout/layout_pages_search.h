/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * layout_pages_search.h - the last steps of the pages algorithm
 * (docs/layout.md, "pages: the words"): the search of the pick on the
 * replayed misses, and the mend. The driver (layout_pages.c) decides
 * whether to keep what they give.
 */
#ifndef HP_LAYOUT_PAGES_SEARCH_H
#define HP_LAYOUT_PAGES_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "layout/layout.h"
#include "layout/layout_pages_bins.h"

/*
 * Move functions between the pages while a replay of the paths through
 * the TLB asked for misses less, with the weighted pages up to limit (pg:
 * scratch for pages_weighted_pages()). Returns whether anything moved;
 * when the search could not run at all (a profile too large for its
 * budget), @why says so, else it is left "".
 */
bool pages_search_misses(struct pages *p, const struct layout_opts *opts, uint64_t limit,
			 uint64_t *pg, char *why, size_t len);

/* in, with hot functions that would span a page boundary moved past it by
 * colder ones from a little later; into out (room for n), the count */
size_t pages_mend_straddles(const struct pages *p, const uint32_t *in, size_t n, uint32_t *out);

#endif
