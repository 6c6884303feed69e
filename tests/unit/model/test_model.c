// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_model.c - the layout model on a graph small enough to work out by
 * hand: pages per path against ceil(bytes/page), weighted totals, the
 * executed set, the interleaved replay's TLB misses (fully associative,
 * 2-way, pinned) and the node stream.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "graph/graph.h"
#include "model/model.h"
#include "tap.h"

/*
 * n0 3000 B @0x10000, n2 1000 B @0x10c00 (same page), n1 2000 B @0x20000,
 * n3 5000 B @0x30800 (pages 0x30 and 0x31).
 * Path A = n0 n1 n2 n0, weight 10: 6000 B, bound 2, pages {0x10, 0x20} = 2.
 * Path B = n3 n2, weight 5: 6000 B, bound 2, pages {0x30, 0x31, 0x10} = 3.
 */
static const uint64_t addr0[4] = { 0x10000, 0x20000, 0x10c00, 0x30800 };

static struct cgraph *small_graph(bool paths)
{
	struct cgraph *cg = cg_new(NULL);
	static const uint32_t a[] = { 0, 1, 2, 0 }, b[] = { 3, 2 };

	cg_add_node(cg, 0, 3000, 16, 6, true);
	cg_add_node(cg, 1, 2000, 16, 3, true);
	cg_add_node(cg, 2, 1000, 16, 0, true);
	cg_add_node(cg, 3, 5000, 16, 1, true);
	if (paths) {
		cg_add_path(cg, a, 4, 10);
		cg_add_path(cg, b, 2, 5);
	}
	cg_finish(cg);
	return cg;
}

static const struct model_path *path_of_weight(const struct model_result *r, uint64_t w)
{
	for (size_t i = 0; i < r->npaths; i++)
		if (r->paths[i].weight == w)
			return &r->paths[i];
	return NULL;
}

/* @cg's paths ran as @order (@n runs), replayed through one 2-entry TLB, no
 * I-cache */
static void ran_in_order(struct cgraph *cg, const uint32_t *order, size_t n,
			 struct model_opts *g)
{
	cg->seq = malloc(n * sizeof(*order));
	memcpy(cg->seq, order, n * sizeof(*order));
	cg->nseq = n;
	model_opts_default(g);
	g->geom.ntlb = 1;
	g->geom.tlb_entries[0] = 2;
	g->geom.icache.size = 0;
}

/*
 * A graph that knows the order its paths ran in (cg->seq, as windows of an
 * address stream give): the replay is that order, whole, whatever the
 * budget. n0, n1, n2 on pages 0x10, 0x20, 0x30; A = n0 n1 (weight 3,
 * path 0 once sorted), B = n2 n0 (weight 1); ran A A B A; 2 entries:
 * A: 0x10 0x20 miss miss; A: hits; B: 0x30 miss (0x10 goes), 0x10 miss
 * (0x20 goes); A: 0x10 hit, 0x20 miss. 5 misses in 4 runs.
 */
static void check_sequence(void)
{
	static const uint32_t a[] = { 0, 1 }, b[] = { 2, 0 }, order[] = { 0, 0, 1, 0 };
	static const uint64_t addr[3] = { 0x10000, 0x20000, 0x30000 };
	struct cgraph *cg = cg_new(NULL);
	struct model_opts g;
	struct model_result r;
	uint32_t *runs;
	size_t n;

	for (uint32_t i = 0; i < 3; i++)
		cg_add_node(cg, i, 100, 16, 1, true);
	cg_add_path(cg, a, 2, 3);
	cg_add_path(cg, b, 2, 1);
	cg_finish(cg);
	ran_in_order(cg, order, 4, &g);
	g.budget = 2;
	ok(!model_eval(cg, addr, &g, &r), "sequence: model_eval runs");
	ok(r.sequence, "sequence: the replay says it follows the order they ran");
	is_u64(r.runs, 4, "sequence: every run, whatever the budget");
	is_u64(r.tlb_misses[0], 5, "sequence: 5 misses, by hand");
	is_u64(r.paths[0].runs, 3, "sequence: A ran 3 times");
	is_u64(r.paths[1].runs, 1, "sequence: B once");
	model_result_free(&r);
	n = model_runs(cg, 2, &runs);
	ok(n == 2 && runs[0] == 0 && runs[1] == 1,
	   "sequence cut to 2 runs: 2 stretches of 1, at runs 0 and 2 (A, B)");
	free(runs);
	n = model_runs(cg, 0, &runs);
	ok(n == 4 && runs[2] == 1, "sequence, no budget: the whole of it");
	free(runs);
	cg_free(cg);
}

/*
 * A function over two pages whose samples all hit its first: the replay
 * references the pages that ran (cg_node_ran()), not all it spans. n0
 * 6000 B at 0x10800 (pages 0x10, 0x11), n1 100 B at 0x20000; path n0 n1
 * run twice through 2 entries. Whole: 0x10 0x11 0x20 each miss, then 0x10
 * misses again (0x11 and 0x20 came since) and so on: 6. Its samples at
 * offsets 0..99 (page 0x10 only): 0x10 0x20 miss, then hits: 2.
 */
static void check_extent(void)
{
	static const uint32_t a[] = { 0, 1 }, order[] = { 0, 0 };
	static const uint64_t addr[2] = { 0x10800, 0x20000 };
	struct cgraph *cg = cg_new(NULL);
	struct model_opts g;
	struct model_result r;
	uint64_t off, len;

	cg_add_node(cg, 0, 6000, 16, 2, true);
	cg_add_node(cg, 1, 100, 16, 2, true);
	cg_add_path(cg, a, 2, 2);
	cg_finish(cg);
	ran_in_order(cg, order, 2, &g);
	ok(!model_eval(cg, addr, &g, &r), "extent: whole functions");
	is_u64(r.tlb_misses[0], 6, "extent: none known, the whole span replayed: 6 misses");
	is_int((int)r.paths[0].pages, 3, "extent: pages per path count the whole span");
	model_result_free(&r);
	cg->nodes[0].hot_off = 0;
	cg->nodes[0].hot_len = 100;
	ok(!model_eval(cg, addr, &g, &r), "extent: the bytes that ran");
	is_u64(r.tlb_misses[0], 2, "extent: only the page that ran replayed: 2 misses");
	is_int((int)r.paths[0].pages, 3, "extent: pages per path still the whole span");
	model_result_free(&r);
	cg_node_ran(&cg->nodes[0], 50, &off, &len);
	ok(off == 0 && len == 50, "cg_node_ran: clipped to the placed size");
	cg->nodes[0].hot_off = 5000;
	cg_node_ran(&cg->nodes[0], 4000, &off, &len);
	ok(off == 0 && len == 4000, "cg_node_ran: an extent past the placed size: all of it");
	/* the path's own windows ran n0 at 5000..5099 (page 0x11) while the
	 * node's samples span it all: the path's bytes count, 2 misses */
	cg->nodes[0].hot_off = 0;
	cg->nodes[0].hot_len = 6000;
	cg->paths[0].ext = calloc(4, sizeof(*cg->paths[0].ext));
	cg->paths[0].ext[0] = 5000;
	cg->paths[0].ext[1] = 5100;
	ok(!model_eval(cg, addr, &g, &r), "path extent: the bytes this path ran");
	is_u64(r.tlb_misses[0], 2, "path extent: only its page replayed: 2 misses");
	model_result_free(&r);
	cg_path_ran(&cg->paths[0], 0, &cg->nodes[0], 6000, &off, &len);
	ok(off == 5000 && len == 100, "cg_path_ran: the path's extent");
	cg_path_ran(&cg->paths[0], 0, &cg->nodes[0], 5050, &off, &len);
	ok(off == 5000 && len == 50, "cg_path_ran: clipped to the placed size");
	cg_path_ran(&cg->paths[0], 0, &cg->nodes[0], 4000, &off, &len);
	ok(off == 0 && len == 4000, "cg_path_ran: past the placed size: the node's extent");
	cg_path_ran(&cg->paths[0], 1, &cg->nodes[1], 100, &off, &len);
	ok(off == 0 && len == 100, "cg_path_ran: a position not known: the node's extent");

	/* the path's windows ran n0 at 0..63 and 5000..5063 only (cg_path.xr):
	 * the I-cache fetches those lines, 1 + 2 (5000 is not line-aligned at
	 * 0x10800), and n1's 2, in each of the 2 runs; the hull 0..5063 would
	 * be its 80 lines */
	g.geom.icache = (struct geom_icache){ .size = 32768, .line = 64, .ways = 8 };
	cg->paths[0].ext[0] = 0;
	cg->paths[0].ext[1] = 5064;
	ok(!model_eval(cg, addr, &g, &r), "path hull: evaluated");
	is_u64(r.icache_refs, 2 * (80 + 2), "path hull: every line between its ends");
	model_result_free(&r);
	cg->paths[0].xr = calloc(2, sizeof(*cg->paths[0].xr));
	ranges_add(&cg->paths[0].xr[0], 0, 64);
	ranges_add(&cg->paths[0].xr[0], 5000, 5064);
	ok(cg_path_ranges(&cg->paths[0], 0) && !cg_path_ranges(&cg->paths[0], 1),
	   "cg_path_ranges: the position with two ranges");
	ok(!model_eval(cg, addr, &g, &r), "path ranges: evaluated");
	is_u64(r.icache_refs, 2 * (1 + 2 + 2), "path ranges: only the lines they ran");
	is_u64(r.tlb_misses[0], 6, "path ranges: pages 0x10, 0x11 and 0x20 each run, 2 entries: 6");
	model_result_free(&r);
	/* placed smaller than the ranges reach: what lies past it is not fetched */
	ok(!model_eval_sized(cg, addr, (const uint64_t[]){ 4000, 100 }, &g, &r),
	   "path ranges: a smaller placed size");
	is_u64(r.icache_refs, 2 * (1 + 2), "path ranges past the placed size: left out");
	model_result_free(&r);
	cg_free(cg);
}

int main(void)
{
	struct cgraph *cg = small_graph(true);
	struct model_opts g;
	struct model_result r;
	const struct model_path *pa, *pb;
	char buf[256];

	model_opts_default(&g);
	is_str(geom_str(&g.geom, buf, sizeof(buf)),
	       "4 KiB pages; I-TLB fully associative LRU 32/64/128 entries; "
	       "I-cache 32 KiB 8-way 64 B lines", "the default geometry, named");

	g.geom.tlb_entries[0] = 2;
	g.geom.tlb_entries[1] = 4;
	g.geom.ntlb = 2;
	g.geom.icache.size = 0;
	g.budget = 3;	/* A runs round(10/15*3) = 2 times, B once: A B A */
	ok(model_eval(cg, addr0, &g, &r) == 0, "evaluate the hand layout");
	pa = path_of_weight(&r, 10);
	pb = path_of_weight(&r, 5);
	ok(pa && pb && !r.node_stream && r.npaths == 2, "two paths");
	if (!pa || !pb)
		return done_testing();
	is_int(pa->pages, 2, "path A touches 2 pages");
	is_int(pa->bound, 2, "path A bound ceil(6000/4096) = 2");
	is_int(pa->nfuncs, 3, "path A has 3 distinct functions");
	is_int(pb->pages, 3, "path B touches 3 pages (n3 straddles)");
	is_int(pb->bound, 2, "path B bound 2");
	is_int(r.wpages, 35, "weighted pages 10*2 + 5*3");
	is_int(r.wbound, 30, "weighted bound 10*2 + 5*2");
	is_int(r.weight, 15, "path weight 15");
	is_int(r.set_pages, 4, "executed set: 4 pages");
	is_int(r.set_bound, 3, "executed set bound ceil(11000/4096) = 3");
	is_int(r.set_bytes, 11000, "executed set bytes");
	/*
	 * 2 entries: A: 0x10 m, 0x20 m, 0x10 h, 0x10 h; B: 0x30 m (evicts 0x20),
	 * 0x31 m (evicts 0x10), 0x10 m (evicts 0x30); A: 0x10 h, 0x20 m (evicts
	 * 0x31), 0x10 h, 0x10 h. 6 misses in 11 references.
	 */
	is_int(r.runs, 3, "3 runs replayed");
	is_int(pa->runs, 2, "A runs twice");
	is_int(r.tlb_refs, 11, "11 page references");
	is_int(r.tlb_misses[0], 6, "2 entries: 6 misses");
	is_int(pa->tlb_misses[0], 3, "2 entries: 3 of them in A's runs");
	is_int(pb->tlb_misses[0], 3, "2 entries: 3 in B's run");
	is_int(r.tlb_misses[1], 4, "4 entries: only the 4 cold misses");
	model_result_free(&r);

	/* 2 entries in one set of 2 ways is fully associative: same misses */
	g.geom.tlb_ways = 2;
	g.geom.ntlb = 1;
	ok(model_eval(cg, addr0, &g, &r) == 0, "2-way 2 entries");
	is_int(r.tlb_misses[0], 6, "2-way with one set: 6 misses");
	model_result_free(&r);
	/* 4 entries, 2 ways: pages 0x10 0x20 0x30 share set 0, 0x31 is in set 1:
	 * A: 0x10 m 0x20 m; B: 0x30 m (evicts 0x20), 0x31 m, 0x10 h;
	 * A: 0x10 h, 0x20 m (evicts 0x30), 0x10 h -> 5 */
	g.geom.tlb_entries[0] = 4;
	ok(model_eval(cg, addr0, &g, &r) == 0, "2-way 4 entries");
	is_int(r.tlb_misses[0], 5, "2-way with 2 sets: 5 misses");
	model_result_free(&r);

	/* pin n3's pages: B's first two references hit */
	g.geom.tlb_ways = 0;
	g.geom.tlb_entries[0] = 2;
	g.geom.pins[0] = (struct geom_pin){ 0x30000, 0x32000 };
	g.geom.npins = 1;
	ok(model_eval(cg, addr0, &g, &r) == 0, "pinned n3");
	is_int(r.tlb_misses[0], 2, "pinned: only 0x10 and 0x20 miss, once each");
	model_result_free(&r);
	g.geom.npins = 0;

	/* with the I-cache on, every line of every function is referenced */
	g.geom.icache = (struct geom_icache){ 32768, 64, 8 };
	ok(model_eval(cg, addr0, &g, &r) == 0, "with an I-cache");
	/* lines per run: A = 47 + 32 + 16 + 47, B = 79 + 16 (n3 @0x30800: 5000 B) */
	is_int(r.icache_refs, 2 * (47 + 32 + 16 + 47) + (79 + 16), "I-cache line references");
	is_int(r.icache_misses, 47 + 32 + 16 + 79, "I-cache: each line misses once (all fit)");
	model_result_free(&r);
	g.geom.icache.size = 0;

	/* a node without an address is an error */
	{
		uint64_t bad[4] = { 0x10000, UINT64_MAX, 0x10c00, 0x30800 };

		is_int(model_eval(cg, bad, &g, &r), -EINVAL, "a node without an address");
	}

	/* replay the node weights (6 3 0 1) although there are paths:
	 * n0 n1 n0 n0 n1 n3 n0 n0 n1 n0 by stride order; 2 entries:
	 * 0x10 m, 0x20 m, h, h, h, 0x30 m, 0x31 m, 0x10 m, h, 0x20 m, h */
	g.replay_nodes = true;
	g.budget = 10;
	g.geom.ntlb = 2;
	g.geom.tlb_entries[0] = 2;
	g.geom.tlb_entries[1] = 4;
	ok(model_eval(cg, addr0, &g, &r) == 0, "replay the nodes");
	ok(r.node_stream && r.npaths == 2, "node stream, path figures kept");
	is_int(r.runs, 10, "10 node runs");
	is_int(r.tlb_misses[0], 6, "2 entries: 6 misses");
	is_int(r.tlb_misses[1], 4, "4 entries: 4 cold misses");
	is_int(r.paths[0].runs + r.paths[1].runs, 0, "no path runs");
	is_int(r.wpages, 35, "path pages as before");
	model_result_free(&r);
	g.replay_nodes = false;
	g.geom.ntlb = 1;
	g.budget = 3;

	/* other sizes (another build's) */
	{
		uint64_t sz[4] = { 100, 100, 100, 100 };

		ok(model_eval_sized(cg, addr0, sz, &g, &r) == 0, "sizes given");
		is_int(r.set_bound, 1, "400 bytes: bound 1");
		is_int(r.set_pages, 3, "pages 0x10 (twice), 0x20, 0x30");
		model_result_free(&r);
	}
	cg_free(cg);

	/* no paths: the nodes with weight are replayed as a stream */
	cg = small_graph(false);
	g.budget = 10;	/* weights 6 3 0 1 -> runs 6 3 1 */
	ok(model_eval(cg, addr0, &g, &r) == 0, "node stream");
	ok(r.node_stream, "node_stream is set");
	is_int(r.npaths, 3, "3 nodes with weight");
	is_int(r.runs, 10, "10 runs");
	is_int(r.wpages, 6 * 1 + 3 * 1 + 1 * 2, "weighted pages of single functions");
	model_result_free(&r);
	cg_free(cg);
	check_sequence();
	check_extent();
	return done_testing();
}
