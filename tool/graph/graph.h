/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * graph.h - the weighted call graph the layout algorithms work on: the hot
 * set of the image's functions (nodes), caller->callee arcs, and the hot
 * paths (traces) as node sequences. Built from a profile resolved against an
 * image, plus static edges when the profile has no call chains.
 *
 * Node order is deterministic: by address, then name.
 */
#ifndef HP_GRAPH_H
#define HP_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/ranges.h"

#include "graph/repeats.h"
#include "image/image.h"
#include "profile/profile.h"

struct cg_node {
	uint32_t func;		/* index into kimage.funcs */
	uint64_t size;
	uint32_t align;
	uint64_t weight;	/* self samples */
	/* the bytes its samples hit, [hot_off, hot_off + hot_len): what the
	 * model's replay references (all of it unless every sample had an
	 * offset: profile_func_extent()) */
	uint64_t hot_off, hot_len;
	bool movable;
};

/* [@o, @o + @l) within the first @size bytes, into *off, *len; false when
 * none of it is (@l 0: not known). */
static inline bool cg_ran_within(uint64_t o, uint64_t l, uint64_t size, uint64_t *off,
				 uint64_t *len)
{
	if (!l || o >= size)
		return false;
	*off = o;
	*len = l < size - o ? l : size - o;
	return true;
}

/*
 * cg_node_ran() - the bytes of @n that ran, within its first @size (its
 * size where it is placed): the model replays their pages, not all it spans.
 */
static inline void cg_node_ran(const struct cg_node *n, uint64_t size, uint64_t *off,
			       uint64_t *len)
{
	if (!cg_ran_within(n->hot_off, n->hot_len, size, off, len)) {
		*off = 0;
		*len = size;
	}
}

struct cg_arc {
	uint32_t src, dst;	/* node indices */
	uint64_t weight;
};

struct cg_path {
	uint32_t *nodes;	/* node indices in execution order */
	/* per position, the bytes of its node this path ran, [ext[2j],
	 * ext[2j + 1]) from the node's start (hi 0: not known, the node's hot
	 * extent counts); NULL: none known (prof_trace.ext) */
	uint32_t *ext;
	/* per position, when it ran bytes apart, those ranges of its node
	 * (their hull ext's; prof_trace.xr); NULL or n 0: ext's one range */
	struct ranges *xr;
	uint32_t n;
	uint64_t weight;
	uint32_t src;		/* the profile trace it came from (cg_build) */
	bool traced;		/* an explicit trace (prof_trace.traced) */
};

/*
 * cg_path_ran() - the bytes of position @j of path @p that ran, within @size
 * (its node's size where it is placed): what that path's windows hit when
 * the profile says, else the node's hot extent (cg_node_ran()).
 */
static inline void cg_path_ran(const struct cg_path *p, uint32_t j, const struct cg_node *n,
			       uint64_t size, uint64_t *off, uint64_t *len)
{
	if (!p->ext || !p->ext[2 * j + 1] ||
	    !cg_ran_within(p->ext[2 * j], p->ext[2 * j + 1] - p->ext[2 * j], size, off, len))
		cg_node_ran(n, size, off, len);
}

/* Position @j of @p's ranges when it ran more than one (cg_path.xr), else NULL:
 * then cg_path_ran() says what it ran. */
static inline const struct ranges *cg_path_ranges(const struct cg_path *p, uint32_t j)
{
	return p->xr && p->xr[j].n >= 2 ? &p->xr[j] : NULL;
}

struct cgraph {
	const struct kimage *img;
	struct cg_node *nodes;
	size_t nnodes;
	struct cg_arc *arcs;	/* sorted by (src, dst); no duplicates */
	size_t narcs;
	/* CSR adjacency: out arcs of n are arcs[out_start[n] .. out_start[n+1]);
	 * in arcs are in_arcs[in_start[n] .. in_start[n+1]) (indices into arcs) */
	uint32_t *out_start;
	uint32_t *in_start, *in_arcs;
	struct cg_path *paths;
	size_t npaths;
	/* the paths by index in the order they ran, when the profile knows it
	 * (profile.seq: windows of an address stream); the model replays it */
	uint32_t *seq;
	size_t nseq;
	uint64_t total_weight;
	/* --repeats: the rule the weights were scaled by (count: none), and
	 * the share of their weight the windows kept */
	enum repeats_rule repeats;
	double repeats_kept;
	uint32_t *node_of_func;	/* kimage index -> node, UINT32_MAX if none */
	/* what could not be resolved */
	size_t unresolved_funcs;
	uint64_t unresolved_weight;
	size_t capnodes, caparcs, cappaths;	/* private */
};

struct cg_opts {
	bool static_edges;	/* add direct calls from the disassembly */
	uint64_t static_edge_weight;
	enum repeats_rule repeats;	/* how a repeated window weighs (--repeats) */
};

/** cg_build() - resolve @prof against @img. Returns 0 or -errno. */
int cg_build(struct cgraph **out, const struct kimage *img, const struct profile *prof,
	     const struct cg_opts *opts);

/** cg_from_parts() - build from explicit nodes/arcs/paths (tests, generators). */
struct cgraph *cg_new(const struct kimage *img);
uint32_t cg_add_node(struct cgraph *cg, uint32_t func, uint64_t size, uint32_t align,
		     uint64_t weight, bool movable);
void cg_add_arc(struct cgraph *cg, uint32_t src, uint32_t dst, uint64_t w);
void cg_add_path(struct cgraph *cg, const uint32_t *nodes, uint32_t n, uint64_t w);
/** Sort and merge arcs, build the adjacency. Call after the last cg_add_*. */
void cg_finish(struct cgraph *cg);

void cg_free(struct cgraph *cg);

/** Total order used everywhere for ties: weight desc, address, name. */
int cg_node_cmp_hot(const struct cgraph *cg, uint32_t a, uint32_t b);

#endif
