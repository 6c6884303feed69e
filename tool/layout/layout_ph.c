// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * layout_ph.c - Pettis-Hansen ("Profile guided code positioning", PLDI
 * 1990), as BOLT and hhvm implement it: one cluster per hot function; merge
 * the two clusters joined by the heaviest undirected edge (arcs both ways
 * summed), unless the result would exceed 1 MiB; orient the pair so that
 * the ends with the heaviest original arc between them meet; redirect the
 * edges; finally order clusters by density (heat / bytes).
 *
 * Where the published code iterates a hash set (and so breaks ties by
 * pointer), this one takes the heaviest edge with ties broken by the hot
 * rank of its clusters (weight, address, name), so the order is the same on
 * every run.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#include "layout/layout.h"
#include "lib/heap.h"
#include "lib/util.h"
#include "lib/xalloc.h"

#define PH_MAX_CLUSTER_BYTES (1u << 20)

struct ph_edge {
	uint64_t key;		/* (lo cluster << 32) | hi cluster */
	uint64_t weight;
	UT_hash_handle hh;
};

struct ph_heap_ent {
	uint64_t weight;
	uint32_t a, b;		/* a < b: cluster ids = hot ranks */
};

struct ph_cluster {
	uint32_t *m;		/* members in order */
	uint32_t n, cap;
	uint32_t *adj;		/* neighbour clusters (may repeat or be stale) */
	size_t nadj, capadj;
	uint64_t size, heat;
	bool dead;
};

struct ph {
	const struct cgraph *cg;
	struct ph_cluster *cl;
	uint32_t *cl_of;	/* node -> cluster, UINT32_MAX when not selected */
	struct ph_edge *edges;
	struct heap heap;	/* of struct ph_heap_ent */
};

static uint64_t key_of(uint32_t a, uint32_t b)
{
	return a < b ? ((uint64_t)a << 32) | b : ((uint64_t)b << 32) | a;
}

/* heap order: heavier first, then smaller (a, b) */
static bool pair_before(const void *xp, const void *yp)
{
	const struct ph_heap_ent *x = xp, *y = yp;

	if (x->weight != y->weight)
		return x->weight > y->weight;
	if (x->a != y->a)
		return x->a < y->a;
	return x->b < y->b;
}

static void push_pair(struct ph *p, uint64_t w, uint32_t a, uint32_t b)
{
	struct ph_heap_ent e = { w, a < b ? a : b, a < b ? b : a };

	heap_push(&p->heap, &e);
}

static void adj_add(struct ph_cluster *c, uint32_t other)
{
	XGROW(c->adj, c->capadj, c->nadj + 1);
	c->adj[c->nadj++] = other;
}

static void edge_add(struct ph *p, uint32_t a, uint32_t b, uint64_t w)
{
	uint64_t k = key_of(a, b);
	struct ph_edge *e;

	HASH_FIND(hh, p->edges, &k, sizeof(k), e);
	if (!e) {
		e = xcalloc(1, sizeof(*e));
		e->key = k;
		HASH_ADD(hh, p->edges, key, sizeof(e->key), e);
		adj_add(&p->cl[a], b);
		adj_add(&p->cl[b], a);
	}
	e->weight += w;
}

/* Original arc weight between nodes u and v, both directions. */
static uint64_t arc_between(const struct cgraph *cg, uint32_t u, uint32_t v)
{
	uint64_t w = 0;

	for (int dir = 0; dir < 2; dir++) {
		uint32_t s = dir ? v : u, d = dir ? u : v;
		uint32_t lo = cg->out_start[s], hi = cg->out_start[s + 1];

		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;

			if (cg->arcs[mid].dst < d)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < cg->out_start[s + 1] && cg->arcs[lo].dst == d)
			w += cg->arcs[lo].weight;
	}
	return w;
}

static void reverse(uint32_t *m, uint32_t n)
{
	for (uint32_t i = 0; i < n / 2; i++) {
		uint32_t t = m[i];

		m[i] = m[n - 1 - i];
		m[n - 1 - i] = t;
	}
}

static void merge(struct ph *p, uint32_t a, uint32_t b)
{
	struct ph_cluster *x = &p->cl[a], *y = &p->cl[b];
	const struct cgraph *cg = p->cg;
	uint32_t h1 = x->m[0], t1 = x->m[x->n - 1], h2 = y->m[0], t2 = y->m[y->n - 1];
	/* candidates in tie order: t1-h2 (no change), t1-t2, h1-h2, h1-t2 */
	uint64_t w[4] = { arc_between(cg, t1, h2), arc_between(cg, t1, t2),
			  arc_between(cg, h1, h2), arc_between(cg, h1, t2) };
	int best = 0;

	for (int i = 1; i < 4; i++)
		if (w[i] > w[best])
			best = i;
	if (best == 2 || best == 3)
		reverse(x->m, x->n);
	if (best == 1 || best == 3)
		reverse(y->m, y->n);
	if (x->n + y->n > x->cap) {
		x->cap = x->n + y->n;
		x->m = xreallocarray(x->m, x->cap, sizeof(*x->m));
	}
	memcpy(x->m + x->n, y->m, y->n * sizeof(*y->m));
	x->n += y->n;
	x->size += y->size;
	x->heat += y->heat;
	for (uint32_t i = 0; i < y->n; i++)
		p->cl_of[y->m[i]] = a;
	y->dead = true;

	/* redirect b's edges to a */
	for (size_t i = 0; i < y->nadj; i++) {
		uint32_t o = y->adj[i];
		uint64_t k = key_of(b, o);
		struct ph_edge *e;

		HASH_FIND(hh, p->edges, &k, sizeof(k), e);
		if (!e)
			continue;	/* already moved (a repeated neighbour) */
		HASH_DEL(p->edges, e);
		if (o != a) {
			edge_add(p, a, o, e->weight);
			k = key_of(a, o);
			struct ph_edge *ne;

			HASH_FIND(hh, p->edges, &k, sizeof(k), ne);
			push_pair(p, ne->weight, a, o);
		}
		free(e);
	}
	free(y->adj);
	y->adj = NULL;
	y->nadj = 0;
}

static const struct ph *ph_sort;

static int cmp_density(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	const struct ph_cluster *x = &ph_sort->cl[a], *y = &ph_sort->cl[b];
	/* heat_x / size_x vs heat_y / size_y without division */
	unsigned __int128 l = (unsigned __int128)x->heat * y->size;
	unsigned __int128 r = (unsigned __int128)y->heat * x->size;

	if (l != r)
		return l > r ? -1 : 1;
	return (a > b) - (a < b);	/* hot rank of the first member's cluster */
}

static int ph_run(const struct cgraph *cg, const struct layout_opts *opts, uint32_t *order,
		  size_t *n)
{
	size_t nn = NONZERO(cg->nnodes), nsel, out = 0;
	uint32_t *sel = xmallocarray(nn, sizeof(*sel)), *clist;
	uint64_t *heat = xcalloc(nn, sizeof(*heat));
	struct ph p = { .cg = cg, .heap = HEAP_INIT(struct ph_heap_ent, pair_before) };
	struct ph_edge *e, *tmp;

	nsel = layout_select(cg, opts, sel);
	layout_heat(cg, heat);
	p.cl = xcalloc(nsel, sizeof(*p.cl));
	p.cl_of = xmallocarray(nn, sizeof(*p.cl_of));
	memset(p.cl_of, 0xff, nn * sizeof(*p.cl_of));
	for (size_t i = 0; i < nsel; i++) {
		struct ph_cluster *c = &p.cl[i];

		c->cap = 1;
		c->m = xmalloc(sizeof(*c->m));
		c->m[c->n++] = sel[i];
		c->size = cg->nodes[sel[i]].size;
		c->heat = heat[sel[i]];
		p.cl_of[sel[i]] = (uint32_t)i;
	}
	for (size_t i = 0; i < cg->narcs; i++) {
		uint32_t a = p.cl_of[cg->arcs[i].src], b = p.cl_of[cg->arcs[i].dst];

		if (a == UINT32_MAX || b == UINT32_MAX || a == b || !cg->arcs[i].weight)
			continue;
		edge_add(&p, a, b, cg->arcs[i].weight);
	}
	HASH_ITER(hh, p.edges, e, tmp) {
		push_pair(&p, e->weight, (uint32_t)(e->key >> 32), (uint32_t)e->key);
	}
	/* the heap's order is total, so the hash order above does not matter */
	while (p.heap.n) {
		struct ph_heap_ent t;

		heap_pop(&p.heap, &t);
		uint64_t k = key_of(t.a, t.b);

		HASH_FIND(hh, p.edges, &k, sizeof(k), e);
		if (!e || e->weight != t.weight || p.cl[t.a].dead || p.cl[t.b].dead)
			continue;	/* stale */
		HASH_DEL(p.edges, e);
		free(e);
		if (p.cl[t.a].size + p.cl[t.b].size > PH_MAX_CLUSTER_BYTES)
			continue;
		merge(&p, t.a, t.b);
	}

	clist = xmallocarray(nsel, sizeof(*clist));
	size_t ncl = 0;

	for (size_t i = 0; i < nsel; i++)
		if (!p.cl[i].dead)
			clist[ncl++] = (uint32_t)i;
	ph_sort = &p;
	qsort(clist, ncl, sizeof(*clist), cmp_density);
	ph_sort = NULL;
	for (size_t i = 0; i < ncl; i++)
		for (uint32_t k = 0; k < p.cl[clist[i]].n; k++)
			order[out++] = p.cl[clist[i]].m[k];
	*n = out;

	HASH_ITER(hh, p.edges, e, tmp) {
		HASH_DEL(p.edges, e);
		free(e);
	}
	for (size_t i = 0; i < nsel; i++) {
		free(p.cl[i].m);
		free(p.cl[i].adj);
	}
	free(clist);
	heap_free(&p.heap);
	free(p.cl);
	free(p.cl_of);
	free(heat);
	free(sel);
	return 0;
}

const struct layout_algo layout_ph = {
	.name = "ph",
	.desc = "Pettis-Hansen: merge along the heaviest edges, densest clusters first",
	.run = ph_run,
};
