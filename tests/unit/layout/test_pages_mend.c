// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_pages_mend.c - pages' mend (layout_pages_search.c), worked out by
 * hand: a hot function that would span a page boundary moves to the next
 * page when colder functions from later in the order fill the gap exactly
 * (to within its alignment); when they cannot, or are not colder, or the
 * function is cold, the order stays as it was.
 *
 * 4 KiB pages, 16-byte alignment. A (3,000 B) ends at 3,000; B (2,000 B)
 * would start at 3,008 and span the boundary at 4,096.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "graph/graph.h"
#include "layout/layout_pages_search.h"
#include "tap.h"

static bool mended(uint64_t d_size, uint64_t c_heat, uint64_t b_heat, const uint32_t *want,
		   const char *what)
{
	struct cgraph *cg = cg_new(NULL);
	uint64_t heat[4] = { 10, b_heat, c_heat, 1 };
	struct pages p = { .cg = cg, .page = 4096, .heat = heat };
	static const uint32_t in[4] = { 0, 1, 2, 3 };
	uint32_t out[4];
	size_t n;

	cg_add_node(cg, 0, 3000, 16, 10, true);	/* A */
	cg_add_node(cg, 1, 2000, 16, 9, true);	/* B */
	cg_add_node(cg, 2, 1000, 16, 1, true);	/* C */
	cg_add_node(cg, 3, d_size, 16, 1, true);	/* D */
	cg_finish(cg);
	n = pages_mend_straddles(&p, in, 4, out);
	cg_free(cg);
	return ok(n == 4 && !memcmp(out, want, sizeof(out)), what);
}

int main(void)
{
	static const uint32_t moved[4] = { 0, 2, 3, 1 }, kept[4] = { 0, 1, 2, 3 };

	/* C ends at 4,008, D (80 B) at 4,096: B starts on the next page */
	mended(80, 1, 9, moved, "C and D fill the gap exactly: A C D B");
	/* D (96 B) would end at 4,112: the gap cannot be filled, nothing moves */
	mended(96, 1, 9, kept, "the gap cannot be filled: the order stays");
	/* C is hotter than B: not a filler; D alone does not fill the gap */
	mended(80, 20, 9, kept, "a hotter function is no filler: the order stays");
	/* B is cold: its pages matter to no path, nothing is tried */
	mended(80, 1, 0, kept, "a cold function stays where it is");
	return done_testing();
}
