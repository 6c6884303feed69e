// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_layout.c - the layout core on hand-built graphs: hot-set selection,
 * page counting, and C3's
 * clustering, all with results computed by hand.
 */
#include "config.h"

#include <stdlib.h>

#include "graph/graph.h"
#include "layout/layout.h"
#include "tap.h"

static void test_assign_and_pages(void)
{
	struct cgraph *cg = cg_new(NULL);
	uint32_t order[3] = { 0, 1, 2 };
	uint64_t addr[3];

	cg_add_node(cg, 0, 100, 16, 5, true);
	cg_add_node(cg, 1, 4000, 64, 5, true);
	cg_add_node(cg, 2, 10, 16, 5, true);
	cg_finish(cg);
	/* as place_order() puts them from 0 (test_place.c) */
	addr[0] = 0;
	addr[1] = 128;
	addr[2] = 4128;
	is_int(layout_pages_used(cg, order, 3, addr, 4096), 2, "spans two 4K pages");
	is_int(layout_pages_bound(cg, order, 3, 4096), 2, "bound ceil(4110/4096)");
	/* Scattered: each function on its own page, one straddling two. */
	addr[0] = 0x10000;
	addr[1] = 0x20f00;
	addr[2] = 0x10010;
	is_int(layout_pages_used(cg, order, 3, addr, 4096), 3, "union of page ranges");
	cg_free(cg);
}

static void test_select(void)
{
	struct cgraph *cg = cg_new(NULL);
	struct layout_opts o = { .geom = GEOM_DEFAULT_INIT, .coverage = 1.0 };
	uint32_t sel[5];

	cg_add_node(cg, 0, 100, 1, 50, true);
	cg_add_node(cg, 1, 100, 1, 30, true);
	cg_add_node(cg, 2, 100, 1, 15, false);	/* fixed: never selected */
	cg_add_node(cg, 3, 100, 1, 5, true);
	cg_add_node(cg, 4, 100, 1, 0, true);	/* a caller, heat from its arc */
	cg_add_arc(cg, 4, 0, 20);
	cg_finish(cg);
	is_int(layout_select(cg, &o, sel), 4, "all movable hot nodes");
	is_int(sel[0], 0, "hottest first");
	is_int(sel[2], 4, "a caller's heat is its calls");
	o.coverage = 0.75;	/* heat 50+30+20+5 = 105; 0.75 -> 78.75 */
	is_int(layout_select(cg, &o, sel), 2, "coverage cut");
	o.coverage = 1.0;
	o.max_hot_bytes = 250;
	is_int(layout_select(cg, &o, sel), 2, "byte cap");
	cg_free(cg);
}

/* main -> a (90) -> b (90); main -> c (10); d unrelated and dense. */
static void test_c3(void)
{
	struct cgraph *cg = cg_new(NULL);
	struct layout_opts o = { .geom = GEOM_DEFAULT_INIT, .coverage = 1.0 };
	uint32_t order[5];
	size_t n = 0;

	cg_add_node(cg, 0, 200, 1, 1, true);	/* main */
	cg_add_node(cg, 1, 100, 1, 90, true);	/* a */
	cg_add_node(cg, 2, 100, 1, 90, true);	/* b */
	cg_add_node(cg, 3, 100, 1, 10, true);	/* c */
	cg_add_node(cg, 4, 10, 1, 50, true);	/* d: densest, no callers */
	cg_add_arc(cg, 0, 1, 90);
	cg_add_arc(cg, 1, 2, 90);
	cg_add_arc(cg, 0, 3, 10);
	cg_finish(cg);
	is_int(layout_c3.run(cg, &o, order, &n), 0, "c3 runs");
	is_int(n, 5, "c3 places every hot node");
	/* Clusters: {d} density 5; {main,a,b,c} heat 90+90+90+10=280/500. */
	is_int(order[0], 4, "densest cluster first");
	is_int(order[1], 0, "caller heads its cluster");
	is_int(order[2], 1, "a right after main");
	is_int(order[3], 2, "b after a");
	is_int(order[4], 3, "c appended last");
	/* The same input gives the same output. */
	{
		uint32_t again[5];
		size_t m = 0;

		layout_c3.run(cg, &o, again, &m);
		ok(m == n && !memcmp(order, again, sizeof(order)), "c3 is deterministic");
	}
	cg_free(cg);
}

static void test_table(void)
{
	ok(layout_find("c3") == &layout_c3, "c3 in the table");
	ok(layout_find("original") == &layout_original, "original in the table");
	ok(layout_find("nope") == NULL, "unknown algorithm");
	ok(layout_find(layout_default_name()) != NULL, "default is in the table");
}

int main(void)
{
	test_assign_and_pages();
	test_select();
	test_c3();
	test_table();
	return done_testing();
}
