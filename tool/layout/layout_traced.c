// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * layout_traced.c - explicit traces at their bound: a function_graph trace
 * names the path the user wants packed, so every algorithm's order gets the
 * traces' movable functions first. The heaviest trace starts on the
 * region's page boundary, back to back, and so spans ceil(movable bytes /
 * page) pages: its reachable bound, the fixed functions' pages counted
 * where they are. A lighter trace's functions that a heavier one placed
 * stay where they are; its new ones follow. The model then weighs what
 * that costs the sampled functions against what it saves the traces.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "layout/layout_traced.h"
#include "lib/xalloc.h"
#include "model/model.h"
#include "place/place.h"

bool layout_traced_is(const struct cgraph *cg, const struct layout_opts *opts, size_t i)
{
	return !opts->window_paths && cg->paths[i].traced;
}

void layout_traced_addr(const struct cgraph *cg, const uint32_t *order, size_t n,
			uint64_t page_size, uint64_t *addr)
{
	uint64_t insert = UINT64_MAX, end;
	uint32_t *rest;
	size_t nrest = 0;

	if (cg->img) {
		uint64_t *orig = xmalloc((cg->nnodes ? cg->nnodes : 1) * sizeof(*orig));

		for (size_t i = 0; i < cg->img->nfuncs; i++)
			if ((cg->img->funcs[i].flags & KF_MOVABLE) &&
			    cg->img->funcs[i].addr < insert)
				insert = cg->img->funcs[i].addr;
		place_as_linked(cg, orig);
		place_relink(cg, orig, order, n, insert == UINT64_MAX ? 0 : insert, page_size,
			     addr);
		free(orig);
		return;
	}
	/* no image: the order from 0, then the other nodes by index */
	end = place_order(cg, order, n, 0, addr);
	rest = xmalloc((cg->nnodes ? cg->nnodes : 1) * sizeof(*rest));
	for (size_t v = 0; v < cg->nnodes; v++)
		if (addr[v] == UINT64_MAX)
			rest[nrest++] = (uint32_t)v;
	if (nrest) {
		uint64_t *tail = xmalloc(cg->nnodes * sizeof(*tail));

		place_order(cg, rest, nrest, (end + page_size - 1) & ~(page_size - 1), tail);
		for (size_t i = 0; i < nrest; i++)
			addr[rest[i]] = tail[rest[i]];
		free(tail);
	}
	free(rest);
}

/*
 * The traces' movable functions, heaviest trace first (cg_finish() sorted
 * the paths by weight, then by their nodes: by address); each trace's new
 * ones by the lighter traces they are also on (the heaviest of those
 * first, so that a trace nested in a heavier one lies together inside it),
 * then in call order; then the rest of @order as it was.
 */
struct member {
	uint32_t *of;		/* traced paths the node is on, ascending */
	size_t cap;
	uint32_t n, pos;	/* pos: first call in the trace being placed */
};

static const struct member *cmp_mem;
static uint32_t cmp_after;	/* the trace being placed */

static int cmp_new(const void *a, const void *b)
{
	const struct member *x = &cmp_mem[*(const uint32_t *)a];
	const struct member *y = &cmp_mem[*(const uint32_t *)b];
	uint32_t i = 0, j = 0;

	while (i < x->n && x->of[i] <= cmp_after)
		i++;
	while (j < y->n && y->of[j] <= cmp_after)
		j++;
	for (; i < x->n || j < y->n; i++, j++) {
		if (i == x->n || j == y->n)
			return i == x->n ? 1 : -1;	/* on more traces first */
		if (x->of[i] != y->of[j])
			return x->of[i] < y->of[j] ? -1 : 1;
	}
	return (x->pos > y->pos) - (x->pos < y->pos);
}

static size_t traces_first(const struct cgraph *cg, const struct layout_opts *opts,
			   const uint32_t *order, size_t n, uint32_t *out)
{
	size_t nn = cg->nnodes ? cg->nnodes : 1, k = 0;
	bool *placed = xcalloc(nn, sizeof(*placed));
	struct member *mem = xcalloc(nn, sizeof(*mem));

	for (size_t i = 0; i < cg->npaths; i++) {
		if (!layout_traced_is(cg, opts, i))
			continue;
		for (uint32_t j = 0; j < cg->paths[i].n; j++) {
			struct member *m = &mem[cg->paths[i].nodes[j]];

			if (m->n && m->of[m->n - 1] == i)
				continue;
			XGROW(m->of, m->cap, m->n + 1);
			m->of[m->n++] = (uint32_t)i;
		}
	}
	for (size_t i = 0; i < cg->npaths; i++) {
		const struct cg_path *p = &cg->paths[i];
		size_t first = k;

		if (!layout_traced_is(cg, opts, i))
			continue;
		for (uint32_t j = 0; j < p->n; j++) {
			uint32_t v = p->nodes[j];

			if (placed[v] || !cg->nodes[v].movable)
				continue;
			placed[v] = true;
			mem[v].pos = j;
			out[k++] = v;
		}
		cmp_mem = mem;
		cmp_after = (uint32_t)i;
		qsort(out + first, k - first, sizeof(*out), cmp_new);
		cmp_mem = NULL;
	}
	for (size_t i = 0; i < n; i++) {
		if (placed[order[i]])
			continue;
		placed[order[i]] = true;
		out[k++] = order[i];
	}
	for (size_t v = 0; v < cg->nnodes; v++)
		free(mem[v].of);
	free(mem);
	free(placed);
	return k;
}

/* The model's misses of @order, summed over the TLB sizes: replaying the
 * paths (*paths) and every function's weight (*nodes); per-path pages and
 * bounds in *r (the caller frees). */
static int cost(const struct cgraph *cg, const struct layout_opts *opts, const uint32_t *order,
		size_t n, uint64_t *addr, uint64_t *paths, uint64_t *nodes,
		struct model_result *r)
{
	struct model_opts mo = { .geom = opts->geom };
	struct model_result rp;
	int err;

	mo.geom.icache.size = 0;
	layout_traced_addr(cg, order, n, opts->geom.page_size, addr);
	err = model_eval(cg, addr, &mo, &rp);
	if (err)
		return err;
	mo.replay_nodes = true;
	err = model_eval(cg, addr, &mo, r);
	if (err) {
		model_result_free(&rp);
		return err;
	}
	*paths = *nodes = 0;
	for (size_t k = 0; k < mo.geom.ntlb; k++) {
		*paths += rp.tlb_misses[k];
		*nodes += r->tlb_misses[k];
	}
	model_result_free(&rp);
	return 0;
}

int layout_traced_pack(const struct cgraph *cg, const struct layout_opts *opts,
		       uint32_t *order, size_t *n, struct layout_traced *st)
{
	struct layout_traced s = { .top_root = UINT32_MAX };
	struct model_result r[2] = { 0 };
	uint64_t *addr;
	uint32_t *packed;
	size_t np, top = SIZE_MAX;
	int err, keep;

	for (size_t i = 0; i < cg->npaths; i++) {
		if (!layout_traced_is(cg, opts, i))
			continue;
		if (top == SIZE_MAX)
			top = i;
		s.npaths++;
	}
	if (!s.npaths) {
		if (st)
			*st = s;
		return 0;
	}
	addr = xmalloc(cg->nnodes * sizeof(*addr));
	packed = xmalloc(cg->nnodes * sizeof(*packed));
	np = traces_first(cg, opts, order, *n, packed);
	err = cost(cg, opts, order, *n, addr, &s.path_misses[0], &s.node_misses[0], &r[0]);
	if (!err)
		err = cost(cg, opts, packed, np, addr, &s.path_misses[1], &s.node_misses[1],
			   &r[1]);
	if (err)
		goto out;
	/* what packing saves the traces must pay for what it costs the rest */
	keep = s.path_misses[1] + s.node_misses[1] <= s.path_misses[0] + s.node_misses[0];
	s.packed = keep;
	if (keep) {
		memcpy(order, packed, np * sizeof(*order));
		*n = np;
	}
	for (size_t i = 0; i < cg->npaths; i++)
		if (layout_traced_is(cg, opts, i) &&
		    r[keep].paths[i].pages <= r[keep].paths[i].fixed_bound)
			s.at_bound++;
	s.top_root = cg->paths[top].nodes[0];
	s.top_pages = r[keep].paths[top].pages;
	s.top_bound = r[keep].paths[top].fixed_bound;
	if (st)
		*st = s;
out:
	model_result_free(&r[0]);
	model_result_free(&r[1]);
	free(packed);
	free(addr);
	return err;
}

int layout_run_traced(const struct layout_algo *algo, const struct cgraph *cg,
		      const struct layout_opts *opts, uint32_t *order, size_t *n,
		      struct layout_traced *st)
{
	int err = algo->run(cg, opts, order, n);

	if (!err)
		err = layout_traced_pack(cg, opts, order, n, st);
	if (!err)
		*n = place_fit_bytes(cg, order, *n, opts->max_hot_bytes);
	return err;
}
