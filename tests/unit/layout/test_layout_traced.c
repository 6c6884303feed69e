// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_layout_traced.c - the step every algorithm shares
 * (layout/layout_traced.c): explicit traces go first, heaviest first, a
 * lighter trace nested in a heavier one together inside it, and every
 * trace at its reachable bound; paths that are not explicit traces (sampled
 * stacks) leave each algorithm's order as it was.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "graph/graph.h"
#include "layout/layout.h"
#include "layout/layout_traced.h"
#include "tap.h"

static const char *const algos[] = { "original", "c3", "ph", "cds", "pages" };
#define NALGOS (sizeof(algos) / sizeof(algos[0]))

/*
 * Nodes by address: 1, 4, 7, 10 (900 bytes each) and the fixed 11 make
 * trace A (weight 5); 1, 10 and 12 (300 bytes) trace B (weight 2); the
 * others are 1,500-byte functions with heavy samples between them.
 */
static struct cgraph *graph(bool traced)
{
	static const uint32_t a[] = { 1, 4, 7, 10, 11 }, b[] = { 1, 10, 12 };
	struct cgraph *cg = cg_new(NULL);

	for (uint32_t i = 0; i < 13; i++) {
		bool on_a = i == 1 || i == 4 || i == 7 || i == 10;

		cg_add_node(cg, i, on_a ? 900 : i == 11 ? 200 : i == 12 ? 300 : 1500, 16,
			    on_a || i >= 11 ? 0 : 1000 + i, i != 11);
	}
	cg_add_arc(cg, 0, 2, 500);
	cg_add_arc(cg, 3, 5, 400);
	cg_add_path(cg, a, 5, 5);
	cg->paths[cg->npaths - 1].traced = traced;
	cg_add_path(cg, b, 3, 2);
	cg->paths[cg->npaths - 1].traced = traced;
	cg_finish(cg);
	return cg;
}

static void test_traced_first(void)
{
	struct cgraph *cg = graph(true);
	struct layout_opts o = { .geom = GEOM_DEFAULT_INIT, .coverage = 1.0 };
	static const uint32_t want[] = { 1, 10, 4, 7, 12 };

	for (size_t a = 0; a < NALGOS; a++) {
		struct layout_traced st;
		uint32_t order[13];
		size_t n = 0;
		char what[96];

		ok(!layout_run_traced(layout_find(algos[a]), cg, &o, order, &n, &st), algos[a]);
		snprintf(what, sizeof(what), "%s: both traces explicit, packed first", algos[a]);
		ok(st.npaths == 2 && st.packed, what);
		snprintf(what, sizeof(what), "%s: A's functions on B first, then A's, then B's",
			 algos[a]);
		ok(n >= 5 && !memcmp(order, want, sizeof(want)), what);
		snprintf(what, sizeof(what), "%s: both at their reachable bound", algos[a]);
		is_int(st.at_bound, 2, what);
		snprintf(what, sizeof(what), "%s: A, the heaviest: 2 pages (1 its fixed "
			 "function's), bound 2", algos[a]);
		ok(st.top_root == 1 && st.top_pages == 2 && st.top_bound == 2, what);
	}
	cg_free(cg);
}

static void test_sampled_stacks_untouched(void)
{
	struct cgraph *cg = graph(false);
	struct layout_opts o = { .geom = GEOM_DEFAULT_INIT, .coverage = 1.0 };

	for (size_t a = 0; a < NALGOS; a++) {
		const struct layout_algo *al = layout_find(algos[a]);
		struct layout_traced st;
		uint32_t order[13], own[13];
		size_t n = 0, nown = 0;
		char what[96];

		ok(!al->run(cg, &o, own, &nown), algos[a]);
		ok(!layout_run_traced(al, cg, &o, order, &n, &st), algos[a]);
		snprintf(what, sizeof(what), "%s: sampled stacks: the algorithm's order as it is",
			 algos[a]);
		ok(st.npaths == 0 && n == nown && !memcmp(order, own, n * sizeof(*order)), what);
	}
	/* windows of an address stream are never explicit traces; a tree
	 * read beside them stays one */
	cg->paths[0].traced = true;
	o.window_paths = true;
	ok(layout_traced_is(cg, &o, 0), "an explicit trace beside windows stays explicit");
	cg_free(cg);
}

/*
 * Explicit paths over nodes 0 (s, 500 bytes), 1 (a, 500), 2 and 3 (3,000
 * and @b2 bytes), 4 (c, 500): A = s a (weight 10), B = s 2 3 (weight 3),
 * C = s c (weight 2). Built heaviest first, c comes after B's functions,
 * a page away from s; the search puts it beside s.
 */
static struct cgraph *three(uint64_t b2, bool with_c)
{
	static const uint32_t a[] = { 0, 1 }, b[] = { 0, 2, 3 }, c[] = { 0, 4 };
	static const uint64_t size[] = { 500, 500, 3000, 0, 500 };
	struct cgraph *cg = cg_new(NULL);

	for (uint32_t i = 0; i < 5; i++)
		cg_add_node(cg, i, i == 3 ? b2 : size[i], 16, 0, true);
	cg_add_path(cg, a, 2, 10);
	cg->paths[cg->npaths - 1].traced = true;
	cg_add_path(cg, b, 3, 3);
	cg->paths[cg->npaths - 1].traced = true;
	if (with_c) {
		cg_add_path(cg, c, 2, 2);
		cg->paths[cg->npaths - 1].traced = true;
	}
	cg_finish(cg);
	return cg;
}

static void test_search(void)
{
	struct cgraph *cg = three(3000, true);
	struct layout_opts o = { .geom = GEOM_DEFAULT_INIT, .coverage = 1.0 };
	struct layout_traced st;
	uint32_t order[5];
	size_t n = 0;
	char why[512];

	ok(!layout_run_traced(layout_find("cds"), cg, &o, order, &n, &st), "cds");
	ok(st.packed && st.npaths == 3, "three explicit paths, packed first");
	is_int(st.at_bound, 3, "all three at their bound (built heaviest first: two)");
	ok(st.nshown == 3 && st.path[2].pages == 1 && st.path[2].why == LAYOUT_TRACED_AT_BOUND,
	   "C in one page beside s");
	layout_traced_why(cg, &st, 2, why, sizeof(why));
	is_str(why, "? (weight 2, 2 functions): 1 page, bound 1: at its bound", "and said so");
	cg_free(cg);

	/* B of 7,700 bytes: 2 pages alone, but its page with s must hold A's
	 * a too, 8,200 bytes: the bound A leaves it is 3 pages */
	cg = three(4200, false);
	ok(!layout_run_traced(layout_find("cds"), cg, &o, order, &n, &st), "cds, B crowded");
	ok(st.path[1].pages == 3 && st.path[1].bound == 2, "B: 3 pages, bound 2");
	ok(st.path[1].why == LAYOUT_TRACED_AT_SHARED && st.path[1].reach == 3 &&
	   st.path[1].need_bytes == 8200 && st.path[1].with == 0,
	   "at the bound A leaves it: 8,200 bytes to hold, 3 pages");
	is_int(st.at_bound, 2, "so both count at their reachable bound");
	layout_traced_why(cg, &st, 1, why, sizeof(why));
	is_str(why, "? (weight 3, 3 functions): 3 pages, bound 2: at the bound the heavier "
	       "paths leave it, 3: its 2 movable pages would have to hold 8200 bytes, its "
	       "own and those of the one-page paths at their bound that share its functions "
	       "(?, weight 10, and the like)", "and why");
	cg_free(cg);
}

int main(void)
{
	test_traced_first();
	test_sampled_stacks_untouched();
	test_search();
	return done_testing();
}
