/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * layout.h - the ordering algorithms, one file each behind one table, and
 * what they share: the options, the hot set and page counts.
 *
 * An algorithm returns an order of movable hot nodes (hottest region first).
 * place_order() (place/place.h) turns an order into addresses.
 */
#ifndef HP_LAYOUT_H
#define HP_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "graph/graph.h"
#include "lib/geometry.h"

/*
 * pages' last step searches the replay's misses directly; on windows of a
 * miss stream (--addr-window) the replay does not predict the machine
 * (docs/layout.md), so auto leaves it out there, and pages takes the
 * classic order the model ranks first.
 */
enum layout_search {
	LAYOUT_SEARCH_AUTO,	/* on, but not on window paths */
	LAYOUT_SEARCH_ON,
	LAYOUT_SEARCH_OFF,
};

/* What pages' search did, for the order's header (layout_opts.search_out). */
struct layout_search_outcome {
	enum {
		LAYOUT_SEARCH_NOT_ASKED,	/* off, or auto on windows */
		LAYOUT_SEARCH_NOT_RUN,		/* asked for; why: in why[] */
		LAYOUT_SEARCH_NOT_KEPT,		/* ran; the model did not take it */
		LAYOUT_SEARCH_KEPT,
	} what;
	double gain_pct;	/* the result's misses fewer than the pick's, on
				 * average over the sizes, each in the pick's units */
	size_t nsizes;
	char why[200];
};

struct layout_opts {
	struct geometry geom;	/* what the layout packs for: its page size, and
				 * for algorithms with a TLB model the first
				 * TLB size, its ways and pinned ranges */
	uint64_t max_hot_bytes;	/* 0: no cap */
	double coverage;	/* keep nodes until this share of weight, (0,1] */
	enum layout_search search; /* pages' search on the simulated misses */
	uint64_t search_work;	/* its budget in node visits; 0: the default */
	bool window_paths;	/* the paths are windows of an address stream */
	struct layout_search_outcome *search_out;	/* filled by pages; may be NULL */
};

struct layout_algo {
	const char *name;
	const char *desc;
	/* Fill order[] with node indices; *n on return is how many. order has
	 * room for cg->nnodes. Returns 0 or -errno. Must be deterministic. */
	int (*run)(const struct cgraph *cg, const struct layout_opts *opts,
		   uint32_t *order, size_t *n);
	bool searches;	/* has a last step that opts->search turns on and off */
};

extern const struct layout_algo *const layout_algos[];

const struct layout_algo *layout_find(const char *name);
const char *layout_default_name(void);

/**
 * layout_heat() - how hot each node is: max(self weight, sum of incoming
 * arcs, sum of outgoing arcs), since a caller on a sampled stack runs as
 * often as the calls it makes even when no sample landed in it.
 */
void layout_heat(const struct cgraph *cg, uint64_t *heat);

/**
 * layout_select() - the movable nodes the algorithms should place: heat > 0,
 * sorted hottest first, cut at opts->coverage of the total heat and at
 * opts->max_hot_bytes.
 * Returns the count; @sel has room for cg->nnodes.
 */
size_t layout_select(const struct cgraph *cg, const struct layout_opts *opts, uint32_t *sel);

/**
 * layout_run() - run @algo, then cut its order at opts->max_hot_bytes with
 * alignment padding counted (algorithms select by raw sizes). The commands
 * run layout_run_traced() (layout/layout_traced.h), which also puts the
 * explicit traces first.
 */
int layout_run(const struct layout_algo *algo, const struct cgraph *cg,
	       const struct layout_opts *opts, uint32_t *order, size_t *n);

/** Pages touched by [addr, addr+size) of the listed nodes, each counted once
 * (any address order). */
size_t layout_pages_used(const struct cgraph *cg, const uint32_t *order, size_t n,
			 const uint64_t *addr, uint64_t page_size);

/** ceil(sum of sizes / page) for the ordered nodes. */
size_t layout_pages_bound(const struct cgraph *cg, const uint32_t *order, size_t n,
			  uint64_t page_size);

/* The algorithms (tool/layout_<name>.c). */
extern const struct layout_algo layout_original;
extern const struct layout_algo layout_c3;
extern const struct layout_algo layout_ph;
extern const struct layout_algo layout_cds;
extern const struct layout_algo layout_pages;

#endif
