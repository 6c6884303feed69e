// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_pagesim.c - the search's replay: misses worked out by hand on a
 * three-function graph (a run staying on a page, a function over two
 * pages), then the same figure as model_eval() on random graphs and
 * layouts, fully associative LRU, several TLB sizes (replayed at once) and
 * budgets.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "graph/graph.h"
#include "model/model.h"
#include "model/pagesim.h"
#include "tap.h"

/*
 * A = n0 n1 (weight 2), B = n2 n0 (weight 1); budget 3: A runs twice
 * (keys 1/4, 3/4), B once (1/2): A B A. TLB of 2 entries.
 */
static struct cgraph *hand_graph(void)
{
	struct cgraph *cg = cg_new(NULL);
	static const uint32_t a[] = { 0, 1 }, b[] = { 2, 0 };

	for (uint32_t i = 0; i < 3; i++)
		cg_add_node(cg, i, 100, 16, 1, true);
	cg_add_path(cg, a, 2, 2);
	cg_add_path(cg, b, 2, 1);
	cg_finish(cg);
	return cg;
}

static void check_by_hand(void)
{
	struct cgraph *cg = hand_graph();
	struct geometry g = { .page_size = 4096, .tlb_entries = { 2 }, .ntlb = 1 };
	struct pagesim *ps = pagesim_new(cg, 3, &g);
	uint64_t apart[3] = { 0, 1, 2 }, shared[3] = { 0, 1, 0 };
	uint32_t span[3] = { 1, 2, 1 };

	/* A: 0 1 miss miss; B: 2 0 miss miss; A: 0 hit, 1 miss */
	is_u64(pagesim_misses(ps, apart, NULL, 3), 5, "three pages, two entries: 5 misses");
	is_u64(pagesim_cold(ps), 3, "three of them first references");
	/* A: 0 1 miss miss; B: 0 hit (n2 and n0 on one page: one reference); A: hits */
	is_u64(pagesim_misses(ps, shared, NULL, 3), 2, "n2 on n0's page: 2 misses");
	is_u64(pagesim_cold(ps), 2, "both first references");
	/* n1 over pages 1 and 2: A: 0 1 2 misses; B: 0 miss; A: 0 hit, 1 2 misses */
	is_u64(pagesim_misses(ps, shared, span, 3), 6, "n1 over two pages: 6 misses");
	is_u64(pagesim_visits(ps), 6, "three runs of two functions: 6 visits");
	is_u64(pagesim_misses(ps, apart, NULL, 3), 5, "a second replay starts cold again");
	pagesim_free(ps);
	cg_free(cg);
}

static uint64_t rng = 88172645463325252ull;

static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

/* Random graph, random page-granular layout: pagesim == model_eval. */
static void check_against_model(int round)
{
	uint32_t nn = 20 + rnd(60), np = 3 + rnd(12), path[40];
	struct cgraph *cg = cg_new(NULL);
	uint64_t *addr, *page, budget = 200 + rnd(800);
	uint32_t *span;
	unsigned int entries = 2 + rnd(14);
	size_t nsizes = 1 + rnd(4);
	uint64_t misses[GEOM_MAX_TLB];
	struct model_opts g;
	struct model_result r;
	struct pagesim *ps;
	char what[96];

	for (uint32_t i = 0; i < nn; i++)
		cg_add_node(cg, i, 16 + rnd(6000), 16, 1 + rnd(9), true);
	for (uint32_t k = 0; k < np; k++) {
		uint32_t n = 2 + rnd(30);

		for (uint32_t j = 0; j < n; j++)
			path[j] = rnd(nn);
		cg_add_path(cg, path, n, 1 + rnd(50));
	}
	cg_finish(cg);
	addr = calloc(nn, sizeof(*addr));
	page = calloc(nn, sizeof(*page));
	span = calloc(nn, sizeof(*span));
	for (uint32_t v = 0; v < nn; v++) {
		uint64_t size = cg->nodes[v].size;

		addr[v] = (uint64_t)rnd(3 * nn) * 4096 + rnd(4096);
		page[v] = addr[v] / 4096;
		span[v] = (uint32_t)((addr[v] + size - 1) / 4096 - addr[v] / 4096 + 1);
	}
	model_opts_default(&g);
	/* the first size as before, then others replayed alongside it (any order) */
	g.geom.ntlb = nsizes;
	g.geom.tlb_entries[0] = entries;
	for (size_t k = 1; k < nsizes; k++)
		g.geom.tlb_entries[k] = 1 + rnd(40);
	g.geom.icache.size = 0;
	g.budget = budget;
	ok(!model_eval(cg, addr, &g, &r), "model_eval runs");
	ok(pagesim_fits(&g.geom), "pagesim replays this geometry");
	ps = pagesim_new(cg, budget, &g.geom);
	snprintf(what, sizeof(what), "round %d: %u functions, %u paths, %u entries: as the model",
		 round, nn, np, entries);
	is_u64(pagesim_misses(ps, page, span, 3 * nn + 3), r.tlb_misses[0], what);
	pagesim_replay(ps, page, span, 3 * nn + 3, misses);
	for (size_t k = 1; k < nsizes; k++) {
		snprintf(what, sizeof(what), "round %d: size %zu of %zu, %u entries: as the model",
			 round, k + 1, nsizes, g.geom.tlb_entries[k]);
		is_u64(misses[k], r.tlb_misses[k], what);
	}
	model_result_free(&r);
	pagesim_free(ps);
	free(addr);
	free(page);
	free(span);
	cg_free(cg);
}

/* What pagesim does not replay as tlbsim does, it says. */
static void check_fits(void)
{
	struct geometry g = GEOM_DEFAULT_INIT;

	ok(pagesim_fits(&g), "the default geometry: 32 entries, fully associative LRU");
	g.npins = 1;
	g.pins[0] = (struct geom_pin){ 0, 4096 };
	ok(pagesim_fits(&g), "pinned ranges are left to the model");
	g.tlb_ways = 4;
	ok(!pagesim_fits(&g), "not set-associative");
	g.tlb_ways = 0;
	g.tlb_model = "MRU";
	ok(!pagesim_fits(&g), "not another model");
	g.tlb_model = "LRU";
	g.ntlb = 0;
	ok(!pagesim_fits(&g), "not without a TLB size");
}

int main(void)
{
	check_by_hand();
	check_fits();
	for (int i = 0; i < 40; i++)
		check_against_model(i);
	return done_testing();
}
