/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * model.h - what a layout costs: for every hot path of a call graph, the
 * distinct pages its functions touch against the lower bound
 * ceil(sum of their sizes / page); the same for the whole executed set (every
 * node of the graph); and the I-TLB misses (and I-cache misses) of replaying
 * the paths, interleaved by weight, through tlbsim and icache.
 *
 * A function touches every page and every cache line of [addr, addr+size):
 * the model does not know which bytes of a function run. Every figure names
 * the geometry it assumed (geom_str()).
 *
 * The replay: path i runs n_i = max(1, round(weight_i * budget / total))
 * times; the runs are interleaved by the stride order (j + 1/2) / n_i (ties
 * by path index), so the mix is deterministic and does not depend on the
 * order of the input. With no paths (or with replay_nodes), every node with
 * weight > 0 is replayed as a run of one function (an independent-reference
 * stream) and r->node_stream says so. When the graph knows the order its
 * paths ran in (cg->seq: windows of an address stream), that order is the
 * replay, whole, whatever the budget, and r->sequence says so.
 */
#ifndef HP_MODEL_H
#define HP_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "graph/graph.h"
#include "lib/geometry.h"
#include "model/icache.h"
#include "model/tlbsim.h"

#define MODEL_DEFAULT_BUDGET 20000u	/* path runs replayed */

/* The geometry the layout is costed on, and how the replay runs. */
struct model_opts {
	struct geometry geom;
	uint64_t budget;		/* path runs to replay; 0: the default */
	bool replay_nodes;		/* replay the nodes' weights even when
					 * there are paths (e.g. miss samples
					 * plus a few traces); per-path misses
					 * are then not counted */
};

/** geom_default(), the default budget, the paths replayed. */
void model_opts_default(struct model_opts *mo);

struct model_path {
	uint64_t weight;
	uint32_t nfuncs;		/* distinct functions */
	uint64_t bytes;			/* their sizes, summed */
	uint32_t pages;			/* distinct pages touched */
	uint32_t bound;			/* ceil(bytes / page) */
	uint32_t fixed_bound;		/* ceil(movable bytes / page) + the pages
					 * the fixed functions touch where they are */
	uint64_t runs;			/* times replayed */
	uint64_t tlb_misses[GEOM_MAX_TLB];	/* during its runs, per TLB size */
};

struct model_result {
	struct model_path *paths;	/* one per cg->paths[i] (or per hot node) */
	size_t npaths;
	bool node_stream;		/* no paths in the graph: nodes replayed */
	bool sequence;			/* the paths replayed in the order they ran */
	uint64_t weight;		/* sum of path weights */
	uint64_t wpages, wbound;	/* sum of weight * pages, weight * bound */
	uint64_t wfixed_bound;		/* sum of weight * fixed_bound */
	/* the executed set: every node of the graph */
	size_t set_nodes;
	uint64_t set_bytes;
	size_t set_pages, set_bound;
	/* the replay */
	uint64_t runs;			/* path runs replayed */
	uint64_t tlb_refs;		/* page references per TLB (same for each) */
	uint64_t tlb_misses[GEOM_MAX_TLB];
	uint64_t icache_refs, icache_misses;
};

/**
 * model_eval() - cost of the layout @addr (indexed by node; every node must
 * have an address, UINT64_MAX is an error) under @mo. @r is filled (and owns
 * r->paths: model_result_free()). Returns 0 or -EINVAL after saying why.
 */
int model_eval(const struct cgraph *cg, const uint64_t *addr, const struct model_opts *mo,
	       struct model_result *r);

/** The same with sizes per node (e.g. another build's), NULL: the nodes' own. */
int model_eval_sized(const struct cgraph *cg, const uint64_t *addr, const uint64_t *size,
		     const struct model_opts *mo, struct model_result *r);

void model_result_free(struct model_result *r);

/**
 * model_runs() - the replay's runs of @cg's paths with @budget (0: the
 * default), in order: *runs (allocated) gets the path index of each run.
 * Returns their count. What model_eval() replays, for a search that
 * replays by itself (pagesim); a sequence (cg->seq) is cut to about
 * @budget runs as 8 stretches spread over it.
 */
size_t model_runs(const struct cgraph *cg, uint64_t budget, uint32_t **runs);

/** Weighted mean pages per path run, and its bounds (0 when no weight). */
double model_mean_pages(const struct model_result *r);
double model_mean_bound(const struct model_result *r);
double model_mean_fixed_bound(const struct model_result *r);

#endif
