/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * layout_traced.h - the step every algorithm shares after its order: the
 * explicit paths (ftrace call trees, and the sampled call chains through a
 * --path-root function, merged into one path per root; not sampled stacks
 * as such, not windows of an address stream) are what the user asked to
 * pack, so their movable functions go first, in an order searched so that
 * each path touches as few pages as its bytes allow (its reachable bound),
 * the heavier paths first; the algorithm's order follows for the rest.
 * Kept only when the model counts no more misses in all than before (see
 * layout_traced_pack()).
 */
#ifndef HP_LAYOUT_TRACED_H
#define HP_LAYOUT_TRACED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "graph/graph.h"
#include "layout/layout.h"

/* Explicit paths described one by one (heaviest first); the rest counted. */
#define LAYOUT_TRACED_SHOWN 16

/* Why an explicit path is where it is. */
enum layout_traced_why {
	LAYOUT_TRACED_AT_BOUND,
	LAYOUT_TRACED_NOT_PACKED,	/* the model kept the algorithm's order */
	LAYOUT_TRACED_CROWDED,		/* heavier one-page paths at their bound
					 * must share its pages: their bytes and
					 * its own do not fit its bound, and it
					 * is over what they leave reachable */
	LAYOUT_TRACED_AT_SHARED,	/* the same, and at what they leave
					 * reachable (counted at its bound) */
	LAYOUT_TRACED_NOT_FOUND,	/* the search found no order with it at
					 * its bound beside the heavier ones */
};

struct layout_traced_path {
	uint32_t path;		/* index in cg->paths */
	uint32_t pages, bound;	/* pages touched, reachable bound (fixed counted) */
	uint32_t fixed_pages;	/* of the bound, the fixed functions' pages */
	uint32_t own_pages;	/* ceil(movable bytes / page) */
	uint32_t nfuncs;	/* distinct functions */
	enum layout_traced_why why;
	uint64_t need_bytes;	/* CROWDED, AT_SHARED: movable bytes its pages
				 * must hold */
	uint32_t reach;		/* CROWDED, AT_SHARED: the bound beside the
				 * heavier paths: ceil(need_bytes / page) +
				 * fixed_pages */
	uint32_t with;		/* CROWDED, AT_SHARED: the heaviest of those */
};

/* What the step did, for the order's header and the report. */
struct layout_traced {
	size_t npaths;		/* explicit paths among the graph's paths */
	size_t at_bound;	/* of them, at their reachable bound in the result
				 * (AT_BOUND or AT_SHARED) */
	bool packed;		/* the explicit-paths-first order was kept */
	/* the model's misses (summed over the geometry's TLB sizes) replaying
	 * the explicit paths and replaying the rest of the profile (its
	 * sequence, its other paths, else every function's sample weight), for
	 * the algorithm's order [0] and the explicit-paths-first order [1] */
	uint64_t path_misses[2], node_misses[2];
	/* the heaviest explicit path: its root, pages and reachable bound in
	 * the result */
	uint32_t top_root;	/* node index; UINT32_MAX when npaths is 0 */
	uint32_t top_pages, top_bound;
	/* the first LAYOUT_TRACED_SHOWN explicit paths, heaviest first */
	struct layout_traced_path path[LAYOUT_TRACED_SHOWN];
	size_t nshown;
};

/** layout_traced_is() - is path @i one the step packs? */
bool layout_traced_is(const struct cgraph *cg, const struct layout_opts *opts, size_t i);

/**
 * layout_traced_roots() - --path-root: for each of the @n function names
 * (kfunc_key()s), the sampled call chains through it (paths that are not
 * explicit) from it down become one explicit path, as a function_graph tree
 * rooted there would be: their functions from the root on, in first-seen
 * order, heaviest chain first, weighing the chains' weights summed. The
 * chains stay as they are. Re-sorts cg->paths as cg_finish() does (and
 * cg->seq with it). Returns 0, or -ENOENT after saying which name the
 * image or the chains lack.
 */
int layout_traced_roots(struct cgraph *cg, const char *const *names, size_t n);

/**
 * layout_traced_addr() - every node's address when @order is linked as the
 * hot region: with an image, place_relink() from the lowest movable
 * function; without one, the order from 0 and the other nodes after it.
 */
void layout_traced_addr(const struct cgraph *cg, const uint32_t *order, size_t n,
			uint64_t page_size, uint64_t *addr);

/**
 * layout_traced_pack() - put the explicit paths first in @order (room for
 * cg->nnodes; *n in and out) when the model shows it costs no more misses
 * than it saves: the misses of replaying the explicit paths plus those of
 * replaying the rest of the profile, summed over the TLB sizes of
 * opts->geom, must not rise. @st (may be NULL) says what happened.
 * Returns 0 or -errno.
 */
int layout_traced_pack(const struct cgraph *cg, const struct layout_opts *opts,
		       uint32_t *order, size_t *n, struct layout_traced *st);

/**
 * layout_traced_why() - one line on st->path[k]: its root, weight, pages
 * against its bound and, when it is not at it, why; into @buf (of @len).
 * Returns @buf.
 */
const char *layout_traced_why(const struct cgraph *cg, const struct layout_traced *st, size_t k,
			      char *buf, size_t len);

/**
 * layout_run_traced() - what every algorithm's order goes through: run
 * @algo, put the explicit paths first when the model allows
 * (layout_traced_pack(); @st, may be NULL, says what it did), then cut
 * the order at opts->max_hot_bytes as layout_run() does.
 */
int layout_run_traced(const struct layout_algo *algo, const struct cgraph *cg,
		      const struct layout_opts *opts, uint32_t *order, size_t *n,
		      struct layout_traced *st);

#endif
