// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_layout_algos.c - the ph, cds and pages algorithms: hand-worked
 * Pettis-Hansen merges and orientations; for every algorithm, determinism
 * (same input, and arcs given in another order), only movable hot nodes
 * placed and each once, --max-hot-bytes and --coverage obeyed; and pages'
 * own promises: a single path at its lower bound, alignment padding
 * counted, a function larger than a page on a boundary only when that
 * saves a page, gaps filled with free functions.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "graph/graph.h"
#include "layout/layout.h"
#include "model/model.h"
#include "place/place.h"
#include "tap.h"

static const char *const algos[] = { "original", "c3", "ph", "cds", "pages" };
#define NALGOS (sizeof(algos) / sizeof(algos[0]))

static size_t run(const char *name, const struct cgraph *cg, const struct layout_opts *o,
		  uint32_t *order)
{
	const struct layout_algo *a = layout_find(name);
	size_t n = 0;

	if (!a || a->run(cg, o, order, &n))
		return (size_t)-1;
	return n;
}

static const char *order_str(const uint32_t *o, size_t n, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && at + 4 < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%c", i ? " " : "", 'A' + (int)o[i]);
	return buf;
}

/* A kernel-ish graph: 40 nodes, 6 paths over them with shared helpers, the
 * arcs of their call trees; nodes 3 and 17 are not movable. Built with arcs
 * forward or backward to check the result does not depend on it. */
static struct cgraph *mixed_graph(bool backward)
{
	struct cgraph *cg = cg_new(NULL);
	uint32_t p[6][12];
	uint32_t srcs[256], dsts[256];
	uint64_t ws[256];
	size_t na = 0;

	for (uint32_t i = 0; i < 40; i++)
		cg_add_node(cg, i, 64 + (i * 397) % 1500, i % 3 ? 16 : 64, 1 + (i * 7) % 13,
			    i != 3 && i != 17);
	for (uint32_t k = 0; k < 6; k++) {
		for (uint32_t j = 0; j < 12; j++)
			p[k][j] = j < 3 ? j : (k * 5 + j * 3) % 40;	/* 0 1 2 shared */
		cg_add_path(cg, p[k], 12, 100 - 15 * k);
		for (uint32_t j = 1; j < 12; j++) {
			srcs[na] = p[k][j / 2];
			dsts[na] = p[k][j];
			ws[na++] = 100 - 15 * k;
		}
	}
	for (size_t i = 0; i < na; i++) {
		size_t x = backward ? na - 1 - i : i;

		if (srcs[x] != dsts[x])
			cg_add_arc(cg, srcs[x], dsts[x], ws[x]);
	}
	cg_finish(cg);
	return cg;
}

static void check_properties(void)
{
	struct cgraph *f = mixed_graph(false), *b = mixed_graph(true);
	struct layout_opts o = { .geom = GEOM_DEFAULT_INIT, .coverage = 1.0 };
	uint32_t o1[64], o2[64], o3[64], sel[64];
	size_t nsel = layout_select(f, &o, sel);
	char what[128];

	for (size_t a = 0; a < NALGOS; a++) {
		size_t n1 = run(algos[a], f, &o, o1), n2 = run(algos[a], f, &o, o2);
		size_t n3 = run(algos[a], b, &o, o3);
		bool seen[64] = { 0 }, good = true;
		uint64_t bytes = 0, cap = 6000;

		snprintf(what, sizeof(what), "%s: same order twice", algos[a]);
		ok(n1 == n2 && n1 != (size_t)-1 && !memcmp(o1, o2, n1 * sizeof(*o1)), what);
		snprintf(what, sizeof(what), "%s: same order with the arcs given backwards",
			 algos[a]);
		ok(n1 == n3 && !memcmp(o1, o3, n1 * sizeof(*o1)), what);
		for (size_t i = 0; i < n1; i++) {
			if (o1[i] >= 40 || seen[o1[i]] || !f->nodes[o1[i]].movable)
				good = false;
			else
				seen[o1[i]] = true;
		}
		snprintf(what, sizeof(what), "%s: movable nodes only, each once", algos[a]);
		ok(good, what);
		snprintf(what, sizeof(what), "%s: places the whole selected set", algos[a]);
		is_int(n1, nsel, what);

		o.max_hot_bytes = cap;
		n1 = run(algos[a], f, &o, o1);
		for (size_t i = 0; i < n1; i++)
			bytes += f->nodes[o1[i]].size;
		snprintf(what, sizeof(what), "%s: --max-hot-bytes 6000 holds", algos[a]);
		ok(bytes <= cap && n1 > 0, what);
		o.max_hot_bytes = 0;
		o.coverage = 0.5;
		n1 = run(algos[a], f, &o, o1);
		snprintf(what, sizeof(what), "%s: --coverage 0.5 places fewer", algos[a]);
		ok(n1 < nsel && n1 == layout_select(f, &o, sel), what);
		o.coverage = 1.0;
		nsel = layout_select(f, &o, sel);
	}
	cg_free(f);
	cg_free(b);
}

/* Pettis-Hansen by hand: A->B 10 and C->D 8 merge first; then the
 * cluster edge of weight 5 joins them, oriented by the arc's ends. */
static void check_ph(void)
{
	struct layout_opts o = { .geom = GEOM_DEFAULT_INIT, .coverage = 1.0 };
	uint32_t order[4];
	char buf[32];
	struct cgraph *cg;
	size_t n;

	for (int c = 0; c < 2; c++) {
		cg = cg_new(NULL);
		for (uint32_t i = 0; i < 4; i++)
			cg_add_node(cg, i, 100, 16, 1, true);
		cg_add_arc(cg, 0, 1, 10);
		cg_add_arc(cg, 2, 3, 8);
		if (c == 0)
			cg_add_arc(cg, 1, 2, 5);	/* tail B meets head C */
		else
			cg_add_arc(cg, 0, 3, 5);	/* heads: reverse both */
		cg_finish(cg);
		n = run("ph", cg, &o, order);
		is_str(order_str(order, n, buf, sizeof(buf)), c ? "B A D C" : "A B C D",
		       c ? "ph: A->D joins the clusters head to tail reversed"
			 : "ph: B->C joins A B and C D in order");
		cg_free(cg);
	}
}

/* CDS by hand: a heavy arc A->C across a light B: A and C end adjacent */
static void check_cds(void)
{
	struct layout_opts o = { .geom = GEOM_DEFAULT_INIT, .coverage = 1.0 };
	uint32_t order[3];
	char buf[32];
	struct cgraph *cg = cg_new(NULL);
	size_t n;

	cg_add_node(cg, 0, 200, 16, 50, true);
	cg_add_node(cg, 1, 200, 16, 1, true);
	cg_add_node(cg, 2, 200, 16, 50, true);
	cg_add_arc(cg, 0, 2, 100);
	cg_add_arc(cg, 1, 2, 1);
	cg_finish(cg);
	n = run("cds", cg, &o, order);
	is_str(order_str(order, n, buf, sizeof(buf)), "A C B", "cds: A C merge, B after");
	cg_free(cg);
}

/* The model's figures for an order laid out from 1 MiB; nodes it leaves
 * out far away. */
static void eval_order(const struct cgraph *cg, const uint32_t *order, size_t n,
		       const struct model_opts *g, struct model_result *r)
{
	uint64_t *addr = calloc(cg->nnodes, sizeof(*addr));

	place_order(cg, order, n, 0x100000, addr);
	for (size_t i = 0; i < cg->nnodes; i++)
		if (addr[i] == UINT64_MAX)
			addr[i] = 0x10000000 + i * 0x10000;	/* far away */
	model_eval(cg, addr, g, r);
	free(addr);
}

static size_t wpages(const struct cgraph *cg, const uint32_t *order, size_t n, uint64_t page,
		     struct model_result *r)
{
	struct model_opts g;

	model_opts_default(&g);
	g.geom.page_size = page;
	g.geom.icache.size = 0;
	g.budget = 50;
	eval_order(cg, order, n, &g, r);
	return (size_t)r->wpages;
}

static void check_pages(void)
{
	struct layout_opts o = { .geom = GEOM_DEFAULT_INIT, .coverage = 1.0 };
	struct model_result r;
	uint32_t order[64], path[64];
	struct cgraph *cg;
	size_t n;

	/* one path of 30 functions, 13,370 bytes (16-byte multiples): bound 4 */
	cg = cg_new(NULL);
	for (uint32_t i = 0; i < 30; i++) {
		cg_add_node(cg, i, 160 + 16 * ((i * 37) % 40), 16, 1 + i % 5, true);
		path[i] = i;
	}
	cg_add_path(cg, path, 30, 7);
	cg_finish(cg);
	n = run("pages", cg, &o, order);
	wpages(cg, order, n, 4096, &r);
	ok(r.npaths == 1 && r.paths[0].pages == r.paths[0].bound,
	   "pages: a single path touches its lower bound of pages");
	is_int(r.paths[0].bound, (r.paths[0].bytes + 4095) / 4096, "bound is ceil(bytes/page)");
	model_result_free(&r);
	cg_free(cg);

	/* padding counted: 40 functions of 100 bytes aligned to 64 take 128
	 * each: 5,120 bytes, so 2 pages, though the bound by size is 1 */
	cg = cg_new(NULL);
	for (uint32_t i = 0; i < 40; i++) {
		cg_add_node(cg, i, 100, 64, 1, true);
		path[i] = i;
	}
	cg_add_path(cg, path, 40, 1);
	cg_finish(cg);
	n = run("pages", cg, &o, order);
	wpages(cg, order, n, 4096, &r);
	is_int(r.paths[0].pages, 2, "pages: 64-byte alignment padding counted (2 pages)");
	is_int(r.paths[0].bound, 1, "the size bound is 1");
	model_result_free(&r);
	cg_free(cg);

	/*
	 * Two paths of two 2,000-byte functions each (X = a b, Y = c d, equal
	 * weight) and free functions of 96 bytes: back to back, Y would cross a
	 * page; pages puts each path in a page of its own, with free functions
	 * in the gap, and beats c3 on weighted pages.
	 */
	{
		struct model_result rc;
		uint32_t x[2] = { 0, 1 }, y[2] = { 2, 3 };
		size_t nc;

		cg = cg_new(NULL);
		for (uint32_t i = 0; i < 4; i++)
			cg_add_node(cg, i, 2000, 16, 10, true);
		for (uint32_t i = 4; i < 10; i++)
			cg_add_node(cg, i, 96, 16, 1, true);
		cg_add_path(cg, x, 2, 10);
		cg_add_path(cg, y, 2, 10);
		cg_add_arc(cg, 0, 1, 10);
		cg_add_arc(cg, 2, 3, 10);
		cg_finish(cg);
		n = run("pages", cg, &o, order);
		wpages(cg, order, n, 4096, &r);
		is_int(r.wpages, 20, "pages: both paths in one page each (weighted 20)");
		nc = run("c3", cg, &o, order);
		wpages(cg, order, nc, 4096, &rc);
		ok(rc.wpages > r.wpages, "c3 lets a path cross a page here");
		model_result_free(&r);
		model_result_free(&rc);
		cg_free(cg);
	}

	/*
	 * P1 = a (3,500 B) c (200 B), P2 = big (5,000 B) d (200 B), equal
	 * weights, six free 160-byte functions. Back to back, big would start
	 * at 3,712 and take 3 pages; pages closes the gap with free functions
	 * so that P2 takes its bound of 2.
	 */
	{
		uint32_t p1[2] = { 0, 2 }, p2[2] = { 1, 3 };

		cg = cg_new(NULL);
		cg_add_node(cg, 0, 3500, 16, 10, true);
		cg_add_node(cg, 1, 5000, 16, 10, true);
		cg_add_node(cg, 2, 200, 16, 10, true);
		cg_add_node(cg, 3, 200, 16, 10, true);
		for (uint32_t i = 4; i < 10; i++)
			cg_add_node(cg, i, 160, 16, 1, true);
		cg_add_path(cg, p1, 2, 10);
		cg_add_path(cg, p2, 2, 10);
		cg_finish(cg);
		n = run("pages", cg, &o, order);
		wpages(cg, order, n, 4096, &r);
		is_int(r.wpages, 10 * 1 + 10 * 2, "pages: the big function's path at its bound");
		model_result_free(&r);
		cg_free(cg);
	}
	{
		uint32_t pth[2] = { 0, 1 };

		/* a 5,000-byte function after 1,000 bytes fits 2 pages anyway:
		 * no alignment forced */
		cg = cg_new(NULL);
		cg_add_node(cg, 0, 1000, 16, 10, true);
		cg_add_node(cg, 1, 5000, 16, 10, true);
		cg_add_path(cg, pth, 2, 5);
		cg_finish(cg);
		n = run("pages", cg, &o, order);
		wpages(cg, order, n, 4096, &r);
		is_int(r.paths[0].pages, 2, "pages: 1,000 + 5,000 bytes in 2 pages");
		model_result_free(&r);
		cg_free(cg);
	}
}

/*
 * What pages promises on a large profile, whatever limits its work: the
 * same order twice, every one of the @nnodes nodes placed once, no more
 * weighted pages than c3. @what names the case in the messages.
 */
static void check_pages_big(const struct cgraph *cg, size_t nnodes, const char *what)
{
	struct layout_opts o = { .geom = GEOM_DEFAULT_INIT, .coverage = 1.0 };
	uint32_t *o1 = calloc(nnodes, sizeof(*o1)), *o2 = calloc(nnodes, sizeof(*o2));
	bool *seen = calloc(nnodes, sizeof(*seen));
	struct model_result rp, rc;
	size_t n1, n2, nc;
	bool good = true;
	char msg[160];

	n1 = run("pages", cg, &o, o1);
	n2 = run("pages", cg, &o, o2);
	snprintf(msg, sizeof(msg), "pages on %s: the same order twice", what);
	ok(n1 == n2 && n1 != (size_t)-1 && !memcmp(o1, o2, n1 * sizeof(*o1)), msg);
	for (size_t i = 0; i < n1 && n1 != (size_t)-1; i++) {
		if (o1[i] >= nnodes || seen[o1[i]])
			good = false;
		else
			seen[o1[i]] = true;
	}
	snprintf(msg, sizeof(msg), "pages on %s: every node placed once", what);
	ok(good && n1 == nnodes, msg);
	wpages(cg, o1, n1, 4096, &rp);
	nc = run("c3", cg, &o, o2);
	wpages(cg, o2, nc, 4096, &rc);
	printf("# %s: weighted pages: pages %" PRIu64 ", c3 %" PRIu64 "\n", what, rp.wpages,
	       rc.wpages);
	snprintf(msg, sizeof(msg), "pages on %s: no more weighted pages than c3", what);
	ok(rp.wpages <= rc.wpages, msg);
	model_result_free(&rp);
	model_result_free(&rc);
	free(o1);
	free(o2);
	free(seen);
}

/*
 * A profile large enough (over 100,000 net memberships) for pages to limit
 * its refinement.
 */
static void check_large(void)
{
	struct cgraph *cg = cg_new(NULL);
	uint64_t x = 99;
	uint32_t path[20];

	for (uint32_t i = 0; i < 3000; i++)
		cg_add_node(cg, i, 48 + (i * 2654435761u) % 900, 16, 1 + 3000 / (1 + i), true);
	for (uint32_t k = 0; k < 7000; k++) {
		uint32_t base = (k * 7919u) % 3000;

		for (uint32_t j = 0; j < 20; j++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			path[j] = (x >> 62) ? (base + (uint32_t)(x >> 40) % 60) % 3000
					    : (uint32_t)(x >> 33) % 100;
		}
		cg_add_path(cg, path, 20, 1 + 60000 / (1 + k));
	}
	cg_finish(cg);
	check_pages_big(cg, 3000, "about 125,000 memberships");
	cg_free(cg);
}

/*
 * Past 250,000 net memberships pages keeps the heaviest paths only (its
 * cost is bounded): 16,000 paths of 20 functions (all paths counted in
 * the comparison with c3).
 */
/* What pages writes to stderr while it orders @cg (pr_warn's lines). */
static char *pages_stderr(const struct cgraph *cg, const struct layout_opts *o)
{
	uint32_t *order = calloc(cg->nnodes, sizeof(*order));
	FILE *tmp = tmpfile();
	int saved;
	char *text = calloc(4096, 1);

	fflush(stderr);
	saved = dup(2);
	dup2(fileno(tmp), 2);
	run("pages", cg, o, order);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	text[fread(text, 1, 4095, tmp)] = '\0';
	fclose(tmp);
	free(order);
	return text;
}

/*
 * --search on where the search cannot run says so: nets left out past the
 * cap (paths without a sequence); with the windows' sequence the cap is
 * higher, and the same graph gets as far as the search's budget (cut to
 * nothing here, which is said too).
 */
static void check_search_capped(struct cgraph *cg)
{
	struct layout_opts o = { .geom = GEOM_DEFAULT_INIT, .coverage = 1.0,
				 .search = LAYOUT_SEARCH_ON };
	char *err;

	err = pages_stderr(cg, &o);
	ok(strstr(err, "--search on: not searched:") && strstr(err, "nets were left out past 250000"),
	   "pages --search on, nets capped: the warning says why");
	free(err);
	cg->seq = malloc(cg->npaths * sizeof(*cg->seq));
	for (size_t i = 0; i < cg->npaths; i++)
		cg->seq[i] = (uint32_t)i;
	cg->nseq = cg->npaths;
	o.search_work = 1;
	err = pages_stderr(cg, &o);
	ok(!strstr(err, "left out") && strstr(err, "--search on: not searched: its budget"),
	   "pages --search on, windows in sequence: not capped, the budget said");
	free(err);
	o.search = LAYOUT_SEARCH_AUTO;
	o.window_paths = true;
	err = pages_stderr(cg, &o);
	ok(!strstr(err, "not searched"), "pages --search auto on windows: nothing said");
	free(err);
	free(cg->seq);
	cg->seq = NULL;
	cg->nseq = 0;
}

static void check_capped(void)
{
	struct cgraph *cg = cg_new(NULL);
	uint64_t x = 7;
	uint32_t path[20];

	for (uint32_t i = 0; i < 2000; i++)
		cg_add_node(cg, i, 64 + (i * 2654435761u) % 700, 16, 1 + 2000 / (1 + i), true);
	for (uint32_t k = 0; k < 16000; k++) {
		uint32_t base = (k * 7919u) % 2000;

		for (uint32_t j = 0; j < 20; j++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			path[j] = (base + (uint32_t)(x >> 40) % 40) % 2000;
		}
		cg_add_path(cg, path, 20, 1 + (k % 97 == 0 ? 50 : 0));
	}
	cg_finish(cg);
	check_pages_big(cg, 2000, "about 300,000 memberships (capped)");
	check_search_capped(cg);
	cg_free(cg);
}

/*
 * cds on a dense graph (over 100,000 arcs: each function keeps its 32
 * heaviest arcs): the same order twice, every node once, and its chains
 * still follow the heavy arcs (fewer weighted pages than link order).
 */
static void check_cds_dense(void)
{
	struct layout_opts o = { .geom = GEOM_DEFAULT_INIT, .coverage = 1.0 };
	struct cgraph *cg = cg_new(NULL);
	uint32_t *o1 = calloc(1500, sizeof(*o1)), *o2 = calloc(1500, sizeof(*o2));
	bool *seen = calloc(1500, sizeof(*seen));
	uint64_t x = 3;
	uint32_t path[8];
	struct model_result rc, ro;
	size_t n1, n2, no;
	bool good = true;

	for (uint32_t i = 0; i < 1500; i++)
		cg_add_node(cg, i, 64 + (i * 2654435761u) % 500, 16, 1 + 1500 / (1 + i), true);
	/* light random arcs everywhere, heavy ones along 150 chains of 8 */
	for (uint32_t k = 0; k < 130000; k++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		cg_add_arc(cg, (uint32_t)(x >> 33) % 1500, (uint32_t)(x >> 45) % 1500, 1);
	}
	for (uint32_t k = 0; k < 150; k++) {
		for (uint32_t j = 0; j < 8; j++)
			path[j] = (k * 7 + j * 211) % 1500;
		for (uint32_t j = 1; j < 8; j++)
			cg_add_arc(cg, path[j - 1], path[j], 1000);
		cg_add_path(cg, path, 8, 1000);
	}
	cg_finish(cg);
	ok(cg->narcs > 100000, "cds dense: over 100,000 arcs");
	n1 = run("cds", cg, &o, o1);
	n2 = run("cds", cg, &o, o2);
	ok(n1 == n2 && n1 != (size_t)-1 && !memcmp(o1, o2, n1 * sizeof(*o1)),
	   "cds dense: the same order twice");
	for (size_t i = 0; i < n1 && n1 != (size_t)-1; i++) {
		if (o1[i] >= 1500 || seen[o1[i]])
			good = false;
		else
			seen[o1[i]] = true;
	}
	ok(good && n1 == 1500, "cds dense: every node placed once");
	wpages(cg, o1, n1, 4096, &rc);
	no = run("original", cg, &o, o2);
	wpages(cg, o2, no, 4096, &ro);
	printf("# cds dense: weighted pages: cds %" PRIu64 ", original %" PRIu64 "\n", rc.wpages,
	       ro.wpages);
	ok(rc.wpages * 2 < ro.wpages, "cds dense: the heavy chains kept together");
	model_result_free(&rc);
	model_result_free(&ro);
	free(o1);
	free(o2);
	free(seen);
	cg_free(cg);
}

/* pages scores its candidates with the model: a page size the model
 * refuses is an error, not an order */
static void check_pages_error(void)
{
	struct layout_opts o = { .geom = { .page_size = 3000, .tlb_entries = { 32 }, .ntlb = 1 },
				 .coverage = 1.0 };
	struct cgraph *cg = mixed_graph(false);
	uint32_t order[64];

	ok(run("pages", cg, &o, order) == (size_t)-1,
	   "pages: a page size the model refuses (3000) fails the run");
	cg_free(cg);
}

/*
 * pages takes the classic orders as candidates too: on graphs where one of
 * c3, ph and cds has both the fewest weighted pages and the fewest
 * misses of the three (the model as pages scores it: 5,000 runs),
 * pages is no worse on either. Random kernel-shaped graphs (fixed seed):
 * 160 functions of 64-3,000 bytes, 10 paths of 12-41 functions with
 * shared helpers, weights 1-1,000, the arcs of consecutive functions; a
 * 16-entry TLB, which their hot pages overflow.
 */
static uint32_t lcg(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

static struct cgraph *random_graph_paths(uint32_t seed, bool paths)
{
	struct cgraph *cg = cg_new(NULL);
	uint32_t path[64];

	for (uint32_t i = 0; i < 160; i++)
		cg_add_node(cg, i, 64 + lcg(&seed) % 2937, 16, 1 + lcg(&seed) % 50, true);
	for (int p = 0; p < 10; p++) {
		uint32_t n = 12 + lcg(&seed) % 30;

		for (uint32_t j = 0; j < n; j++)
			path[j] = j < 3 ? j : lcg(&seed) % 160;	/* 0-2: the entry every path runs */
		for (uint32_t j = 1; j < n; j++)
			if (path[j] != path[j - 1])
				cg_add_arc(cg, path[j - 1], path[j], 1 + lcg(&seed) % 1000);
		if (paths)
			cg_add_path(cg, path, n, 1 + lcg(&seed) % 1000);
	}
	cg_finish(cg);
	return cg;
}

static struct cgraph *random_graph(uint32_t seed)
{
	return random_graph_paths(seed, true);
}

/* The model as pages scores a candidate (5,000 runs) on a 16-entry TLB of
 * @page pages, the default I-cache when @ic is given: the weighted pages,
 * the misses and the I-cache misses. */
static void score_on(const struct cgraph *cg, const uint32_t *order, size_t n, uint64_t page,
		     uint64_t *wp, uint64_t *miss, uint64_t *ic)
{
	struct model_result r;
	struct model_opts g;

	model_opts_default(&g);
	g.geom.page_size = page;
	g.geom.tlb_entries[0] = 16;
	g.geom.ntlb = 1;
	if (!ic)
		g.geom.icache.size = 0;
	g.budget = 5000;
	eval_order(cg, order, n, &g, &r);
	*wp = r.wpages;
	*miss = r.tlb_misses[0];
	if (ic)
		*ic = r.icache_misses;
	model_result_free(&r);
}

static void score(const struct cgraph *cg, const uint32_t *order, size_t n, uint64_t *wp,
		  uint64_t *miss)
{
	score_on(cg, order, n, 4096, wp, miss, NULL);
}

static void check_pages_classic(void)
{
	static const char *const classic[] = { "c3", "ph", "cds" };
	/* the search's budget cut to a twentieth: this is about the candidates */
	struct layout_opts o = { .geom = { .page_size = 4096, .tlb_entries = { 16 }, .ntlb = 1 },
				 .coverage = 1.0, .search_work = 10000000 };
	int dominated = 0, fine = 0;
	const int graphs = 6;

	for (int gi = 0; gi < graphs; gi++) {
		struct cgraph *cg = random_graph(7919u * (uint32_t)gi + 1);
		uint32_t *order = calloc(cg->nnodes, sizeof(*order));
		uint64_t wp[3], miss[3], pw, pm;
		int best = -1;
		size_t n;

		for (int a = 0; a < 3; a++) {
			n = run(classic[a], cg, &o, order);
			score(cg, order, n, &wp[a], &miss[a]);
		}
		for (int a = 0; a < 3; a++) {
			bool both = true;

			for (int b = 0; b < 3; b++)
				both &= wp[a] <= wp[b] && miss[a] <= miss[b];
			if (both)
				best = a;
		}
		n = run("pages", cg, &o, order);
		score(cg, order, n, &pw, &pm);
		printf("# graph %d: pages %" PRIu64 " weighted pages, %" PRIu64
		       " misses; c3 %" PRIu64 "/%" PRIu64 " ph %" PRIu64 "/%" PRIu64
		       " cds %" PRIu64 "/%" PRIu64 "\n", gi, pw, pm, wp[0], miss[0], wp[1],
		       miss[1], wp[2], miss[2]);
		if (best >= 0) {
			dominated++;
			fine += pw <= wp[best] && pm <= miss[best];
		}
		free(order);
		cg_free(cg);
	}
	printf("# one classic order best on both figures in %d of %d graphs\n", dominated, graphs);
	ok(dominated >= 3, "pages vs classic: graphs where one classic order is best on both");
	is_int(fine, dominated, "pages: no more weighted pages and misses than that order");
}

/*
 * On 2 MiB pages every candidate's hot set fits the TLB, and the misses
 * tie at every size; the I-cache breaks the tie (before the weighted
 * pages). On the random graphs (every other one with its arcs only, no
 * paths, where pages' own candidates miss more in the I-cache than cds):
 * pages' order has no more I-cache misses (the model as pages replays it:
 * 5,000 runs) than any classic order with no more weighted pages than it.
 */
static void check_pages_icache(void)
{
	static const char *const classic[] = { "c3", "ph", "cds" };
	struct layout_opts o = { .geom = GEOM_DEFAULT_INIT, .coverage = 1.0,
				 .search_work = 10000000 };
	int tied = 0, fine = 0, fewer = 0;
	const int graphs = 6;

	o.geom.page_size = 2u << 20;
	o.geom.tlb_entries[0] = 16;
	o.geom.ntlb = 1;
	for (int gi = 0; gi < graphs; gi++) {
		struct cgraph *cg = random_graph_paths(7919u * (uint32_t)gi + 1, gi % 2);
		uint32_t *order = calloc(cg->nnodes, sizeof(*order));
		uint64_t wp[3], tlb[3], ic[3], pw, pt, pi;
		bool ok_here = true, all_tied = true;
		size_t n;

		for (int a = 0; a < 3; a++) {
			n = run(classic[a], cg, &o, order);
			score_on(cg, order, n, 2u << 20, &wp[a], &tlb[a], &ic[a]);
		}
		n = run("pages", cg, &o, order);
		score_on(cg, order, n, 2u << 20, &pw, &pt, &pi);
		for (int a = 0; a < 3; a++) {
			all_tied &= tlb[a] == pt;
			if (wp[a] <= pw && ic[a] < pi)
				ok_here = false;
		}
		printf("# 2 MiB graph %d: pages %" PRIu64 " weighted pages, %" PRIu64 " TLB, %" PRIu64
		       " I-cache misses; c3 %" PRIu64 "/%" PRIu64 "/%" PRIu64 " ph %" PRIu64
		       "/%" PRIu64 "/%" PRIu64 " cds %" PRIu64 "/%" PRIu64 "/%" PRIu64 "\n", gi, pw, pt,
		       pi, wp[0], tlb[0], ic[0], wp[1], tlb[1], ic[1], wp[2], tlb[2], ic[2]);
		tied += all_tied;
		fine += ok_here;
		fewer += pi < ic[0] && pi < ic[1] && pi < ic[2];
		free(order);
		cg_free(cg);
	}
	printf("# pages under every classic order's I-cache misses on %d of %d graphs\n", fewer,
	       graphs);
	is_int(tied, graphs, "pages on 2 MiB pages: the TLB misses tie on every graph");
	is_int(fine, graphs, "pages on 2 MiB pages: no more I-cache misses than a classic order "
	       "with no more weighted pages");
}

/*
 * The fewest weighted pages and misses (as score_misses() counts them) of c3, ph
 * and cds on cg; *same (when mine is given) whether one of their orders is
 * mine[0..nmine) exactly.
 */
static void classic_best(const struct cgraph *cg, const struct layout_opts *o, uint64_t *pages,
			 uint64_t *misses, const uint32_t *mine, size_t nmine, bool *same)
{
	static const char *const classic[] = { "c3", "ph", "cds" };
	uint32_t *order = calloc(cg->nnodes, sizeof(*order));
	uint64_t wp, miss;

	*pages = *misses = UINT64_MAX;
	if (same)
		*same = false;
	for (int a = 0; a < 3; a++) {
		size_t n = run(classic[a], cg, o, order);

		score(cg, order, n, &wp, &miss);
		*pages = wp < *pages ? wp : *pages;
		*misses = miss < *misses ? miss : *misses;
		if (same && n == nmine && !memcmp(order, mine, n * sizeof(*order)))
			*same = true;
	}
	free(order);
}

/*
 * pages' last step, the search on the simulated misses: on the same random
 * graphs, with the search (a small budget) against without, the misses as
 * pages scores them never rise, the weighted pages stay within the best
 * classic order's, and the search pays on most graphs.
 */
static void check_pages_search(void)
{
	struct layout_opts on = { .geom = { .page_size = 4096, .tlb_entries = { 16 }, .ntlb = 1 },
				  .coverage = 1.0, .search_work = 10000000 };
	struct layout_opts off = on;
	int kept = 0, within = 0, paid = 0;
	const int graphs = 6;

	off.search = LAYOUT_SEARCH_OFF;
	for (int gi = 0; gi < graphs; gi++) {
		struct cgraph *cg = random_graph(7919u * (uint32_t)gi + 1);
		uint32_t *order = calloc(cg->nnodes, sizeof(*order));
		uint64_t won, mon, woff, moff, bar, least;
		size_t n;

		classic_best(cg, &on, &bar, &least, NULL, 0, NULL);
		n = run("pages", cg, &off, order);
		score(cg, order, n, &woff, &moff);
		n = run("pages", cg, &on, order);
		score(cg, order, n, &won, &mon);
		printf("# graph %d: search %" PRIu64 " misses, %" PRIu64 " weighted pages; "
		       "without %" PRIu64 ", %" PRIu64 "; best classic pages %" PRIu64 "\n", gi,
		       mon, won, moff, woff, bar);
		kept += mon <= moff;
		within += won <= bar;
		paid += mon * 100 <= moff * 98;
		free(order);
		cg_free(cg);
	}
	is_int(kept, graphs, "pages' search: misses never rise");
	is_int(within, graphs, "pages' search: weighted pages within the best classic order's");
	ok(paid * 2 >= graphs, "pages' search: 2% fewer misses on at least half the graphs");
}

/*
 * On windows of an address stream (window_paths) pages takes the classic
 * order its model rates first, as it is: its order is c3's, ph's or cds's,
 * byte for byte, and the one with the fewest misses as pages scores them.
 */
static void check_pages_windows(void)
{
	struct layout_opts o = { .geom = { .page_size = 4096, .tlb_entries = { 16 }, .ntlb = 1 },
				 .coverage = 1.0, .window_paths = true };
	int same = 0, fewest = 0;
	const int graphs = 3;

	for (int gi = 0; gi < graphs; gi++) {
		struct cgraph *cg = random_graph(104729u * (uint32_t)gi + 7);
		uint32_t *mine = calloc(cg->nnodes, sizeof(*mine));
		uint64_t pw, pm, bar, least;
		size_t np = run("pages", cg, &o, mine);
		bool found;

		score(cg, mine, np, &pw, &pm);
		classic_best(cg, &o, &bar, &least, mine, np, &found);
		same += found;
		fewest += pm == least;
		free(mine);
		cg_free(cg);
	}
	is_int(same, graphs, "pages on windows: a classic order as it is");
	is_int(fewest, graphs, "pages on windows: the one with the fewest misses");

	/* asked for, the search starts from that order and keeps what it
	 * finds only with fewer misses */
	o.search = LAYOUT_SEARCH_ON;
	o.search_work = 10000000;
	same = 0;
	for (int gi = 0; gi < graphs; gi++) {
		struct cgraph *cg = random_graph(104729u * (uint32_t)gi + 7);
		uint32_t *order = calloc(cg->nnodes, sizeof(*order));
		uint64_t pw, pm, bar, least;
		size_t n;

		classic_best(cg, &o, &bar, &least, NULL, 0, NULL);
		n = run("pages", cg, &o, order);
		score(cg, order, n, &pw, &pm);
		printf("# windows, search on, graph %d: %" PRIu64 " misses, best classic %" PRIu64
		       "\n", gi, pm, least);
		same += pm <= least;
		free(order);
		cg_free(cg);
	}
	is_int(same, graphs, "pages on windows, search on: no more misses than that order");
}

int main(void)
{
	check_properties();
	check_large();
	check_capped();
	check_cds_dense();
	check_pages_error();
	check_ph();
	check_cds();
	check_pages();
	check_pages_classic();
	check_pages_icache();
	check_pages_search();
	check_pages_windows();
	return done_testing();
}
