// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * layout_c3.c - call-chain clustering (C3, as in hfsort; Ottoni & Maher,
 * CGO 2017): visit functions by decreasing density, append each to the
 * cluster of its heaviest caller unless the call is rare (< 10% of the
 * callee's heat), the merged cluster would exceed 1 MiB, or the caller's
 * cluster would lose more than 8x of its density; then order clusters by
 * density. Ties: weight, address, name (cg_node_cmp_hot).
 */
#include "config.h"

#include <stdlib.h>

#include "layout/layout.h"
#include "lib/util.h"
#include "lib/xalloc.h"

#define C3_MAX_CLUSTER_BYTES (1u << 20)
#define C3_MIN_ARC_PROBABILITY 0.1
#define C3_MAX_DENSITY_DEGRADATION 8.0

struct c3_cluster {
	uint32_t head, tail;	/* node list through next[] */
	uint64_t size, heat;
	bool dead;
};

struct c3_state {
	const struct cgraph *cg;
	const uint64_t *heat;
	struct c3_cluster *cl;
	uint32_t *cluster_of;	/* node -> cluster, UINT32_MAX if not selected */
};

static struct c3_state *c3_sort_state;

static double density(uint64_t heat, uint64_t size)
{
	return (double)heat / (double)NONZERO(size);
}

static int cmp_node_density(const void *a, const void *b)
{
	const struct c3_state *st = c3_sort_state;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	double dx = density(st->heat[x], st->cg->nodes[x].size);
	double dy = density(st->heat[y], st->cg->nodes[y].size);

	if (dx != dy)
		return dx > dy ? -1 : 1;
	return cg_node_cmp_hot(st->cg, x, y);
}

static int cmp_cluster_density(const void *a, const void *b)
{
	const struct c3_state *st = c3_sort_state;
	const struct c3_cluster *x = &st->cl[*(const uint32_t *)a];
	const struct c3_cluster *y = &st->cl[*(const uint32_t *)b];
	double dx = density(x->heat, x->size), dy = density(y->heat, y->size);

	if (dx != dy)
		return dx > dy ? -1 : 1;
	return cg_node_cmp_hot(st->cg, x->head, y->head);
}

/* The caller with the heaviest arc into n among selected nodes. */
static uint32_t best_caller(const struct c3_state *st, uint32_t n, uint64_t *w)
{
	const struct cgraph *cg = st->cg;
	uint32_t best = UINT32_MAX, i;

	*w = 0;
	for (i = cg->in_start[n]; i < cg->in_start[n + 1]; i++) {
		const struct cg_arc *a = &cg->arcs[cg->in_arcs[i]];

		if (a->src == n || st->cluster_of[a->src] == UINT32_MAX)
			continue;
		if (a->weight > *w ||
		    (a->weight == *w && best != UINT32_MAX &&
		     cg_node_cmp_hot(cg, a->src, best) < 0)) {
			best = a->src;
			*w = a->weight;
		}
	}
	return best;
}

static int c3_run(const struct cgraph *cg, const struct layout_opts *opts, uint32_t *order,
		  size_t *n)
{
	struct c3_state st = { .cg = cg };
	uint64_t *heat = xcalloc(cg->nnodes, sizeof(*heat));
	uint32_t *sel = xmallocarray(cg->nnodes, sizeof(*sel));
	uint32_t *next = xmallocarray(cg->nnodes, sizeof(*next));
	uint32_t *clist;
	size_t nsel, i, ncl = 0, out = 0;

	nsel = layout_select(cg, opts, sel);
	layout_heat(cg, heat);
	st.heat = heat;
	st.cl = xcalloc(nsel, sizeof(*st.cl));
	st.cluster_of = xmallocarray(cg->nnodes, sizeof(uint32_t));
	for (i = 0; i < cg->nnodes; i++) {
		st.cluster_of[i] = UINT32_MAX;
		next[i] = UINT32_MAX;
	}
	for (i = 0; i < nsel; i++) {
		st.cl[i] = (struct c3_cluster){ sel[i], sel[i], cg->nodes[sel[i]].size,
						heat[sel[i]], false };
		st.cluster_of[sel[i]] = (uint32_t)i;
	}

	c3_sort_state = &st;
	qsort(sel, nsel, sizeof(*sel), cmp_node_density);
	for (i = 0; i < nsel; i++) {
		uint32_t f = sel[i], p, cf, cp;
		uint64_t w;
		struct c3_cluster *a, *b;

		p = best_caller(&st, f, &w);
		if (p == UINT32_MAX || (double)w < C3_MIN_ARC_PROBABILITY * (double)heat[f])
			continue;
		cf = st.cluster_of[f];
		cp = st.cluster_of[p];
		if (cf == cp)
			continue;
		a = &st.cl[cp];
		b = &st.cl[cf];
		if (a->size + b->size > C3_MAX_CLUSTER_BYTES)
			continue;
		if (density(a->heat, a->size) >
		    C3_MAX_DENSITY_DEGRADATION * density(a->heat + b->heat, a->size + b->size))
			continue;
		/* Append f's cluster to the end of its caller's. */
		next[a->tail] = b->head;
		a->tail = b->tail;
		a->size += b->size;
		a->heat += b->heat;
		b->dead = true;
		for (p = b->head; p != UINT32_MAX; p = next[p])
			st.cluster_of[p] = cp;
	}

	clist = xmallocarray(nsel, sizeof(*clist));
	for (i = 0; i < nsel; i++)
		if (!st.cl[i].dead)
			clist[ncl++] = (uint32_t)i;
	qsort(clist, ncl, sizeof(*clist), cmp_cluster_density);
	c3_sort_state = NULL;
	for (i = 0; i < ncl; i++) {
		uint32_t k;

		for (k = st.cl[clist[i]].head; k != UINT32_MAX; k = next[k])
			order[out++] = k;
	}
	*n = out;
	free(clist);
	free(st.cl);
	free(st.cluster_of);
	free(next);
	free(sel);
	free(heat);
	return 0;
}

const struct layout_algo layout_c3 = {
	.name = "c3",
	.desc = "call-chain clustering (hfsort's C3)",
	.run = c3_run,
};
