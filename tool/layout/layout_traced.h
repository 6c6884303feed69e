/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * layout_traced.h - the step every algorithm shares after its order: the
 * explicit traces (ftrace call trees; not sampled stacks, not windows of an
 * address stream) are what the user asked to pack, so their movable
 * functions go first, heaviest trace first, each trace's new functions
 * back to back in call order, and the algorithm's order follows for the
 * rest. Kept only when the model counts no more misses in all than before
 * (see layout_traced_pack()).
 */
#ifndef HP_LAYOUT_TRACED_H
#define HP_LAYOUT_TRACED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "graph/graph.h"
#include "layout/layout.h"

/* What the step did, for the order's header and the report. */
struct layout_traced {
	size_t npaths;		/* explicit traces among the graph's paths */
	size_t at_bound;	/* of them, at their reachable bound in the result */
	bool packed;		/* the traces-first order was kept */
	/* the model's misses (summed over the geometry's TLB sizes) replaying
	 * the traces and replaying every function's sample weight, for the
	 * algorithm's order [0] and the traces-first order [1] */
	uint64_t path_misses[2], node_misses[2];
	/* the heaviest explicit trace: its root, pages and reachable bound in
	 * the result */
	uint32_t top_root;	/* node index; UINT32_MAX when npaths is 0 */
	uint32_t top_pages, top_bound;
};

/** layout_traced_is() - is path @i one the step packs? */
bool layout_traced_is(const struct cgraph *cg, const struct layout_opts *opts, size_t i);

/**
 * layout_traced_addr() - every node's address when @order is linked as the
 * hot region: with an image, place_relink() from the lowest movable
 * function; without one, the order from 0 and the other nodes after it.
 */
void layout_traced_addr(const struct cgraph *cg, const uint32_t *order, size_t n,
			uint64_t page_size, uint64_t *addr);

/**
 * layout_traced_pack() - put the explicit traces first in @order (room for
 * cg->nnodes; *n in and out) when the model shows it costs no more misses
 * than it saves: the misses of replaying the traces plus those of
 * replaying every function's sample weight, summed over the TLB sizes of
 * opts->geom, must not rise. @st (may be NULL) says what happened.
 * Returns 0 or -errno.
 */
int layout_traced_pack(const struct cgraph *cg, const struct layout_opts *opts,
		       uint32_t *order, size_t *n, struct layout_traced *st);

/**
 * layout_run_traced() - what every algorithm's order goes through: run
 * @algo, put the explicit traces first when the model allows
 * (layout_traced_pack(); @st, may be NULL, says what it did), then cut
 * the order at opts->max_hot_bytes as layout_run() does.
 */
int layout_run_traced(const struct layout_algo *algo, const struct cgraph *cg,
		      const struct layout_opts *opts, uint32_t *order, size_t *n,
		      struct layout_traced *st);

#endif
