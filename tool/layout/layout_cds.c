// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * layout_cds.c - cache-directed sort (CDSort, as described for LLVM's
 * CodeLayout and lld's default call-graph sort): chains of functions merged
 * greedily by the best gain, where gain = distance gain + 0.25 x frequency
 * gain, over the smaller chain's size:
 *  - distance gain: for every arc between the two chains, c x D^-0.25 with D
 *    the byte distance from the middle of the caller to the callee in the
 *    merged chain, less the same with D = all hot bytes;
 *  - frequency gain: a chain of count c and density d costs
 *    c x (1 - d x 2048 / total)^16 (the chance its 2 KiB "page" left a
 *    16-entry cache); merging pays when the merged chain costs less.
 * Only X.Y and Y.X are tried; chains stop at 128 functions. Chains come out
 * by density. The constants are CDSort's published defaults, kept so that
 * this is a faithful baseline. Ties: the chains' hot ranks.
 *
 * On dense graphs (over CDS_DENSE_ARCS arcs, e.g. hundreds of thousands of
 * distinct sampled stacks) only the CDS_MAX_DEGREE heaviest arcs of each
 * function count (an arc is kept when it is among either end's heaviest),
 * so that a merge's cost stays bounded: every merge rescans the arcs of the
 * merged chain's functions.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "layout/layout.h"
#include "lib/heap.h"
#include "lib/util.h"
#include "lib/xalloc.h"

#define CDS_CACHE_ENTRIES 16
#define CDS_CACHE_SIZE 2048.0
#define CDS_MAX_CHAIN 128
#define CDS_DIST_POWER 0.25
#define CDS_FREQ_SCALE 0.25
#define CDS_DENSE_ARCS 100000
#define CDS_MAX_DEGREE 32

struct cds_chain {
	uint32_t *m;
	uint32_t n;
	uint64_t size;
	double count;
	uint32_t version;
	bool dead;
};

struct cds_ent {
	double gain;
	uint32_t x, y;		/* merged as x.y */
	uint32_t vx, vy;
};

struct cds {
	const struct cgraph *cg;
	const uint64_t *heat;
	struct cds_chain *ch;
	uint32_t *ch_of;
	uint64_t *pos;		/* offset of a node in its chain */
	double total, hot_bytes;
	struct heap heap;	/* of struct cds_ent */
	uint32_t *mark;		/* neighbour collection */
	uint32_t stamp;
	uint32_t *adj_start, *adj;	/* node -> arcs in and out (CSR) */
};

static bool ent_before(const void *ap, const void *bp)
{
	const struct cds_ent *a = ap, *b = bp;

	if (a->gain != b->gain)
		return a->gain > b->gain;
	if (a->x != b->x)
		return a->x < b->x;
	return a->y < b->y;
}

static double miss_prob(const struct cds *s, double count, uint64_t size)
{
	double d = count / (double)NONZERO(size);
	double p = 1.0 - d * CDS_CACHE_SIZE / (s->total > 0 ? s->total : 1);

	return p <= 0 ? 0 : pow(p, CDS_CACHE_ENTRIES);
}

static double dist_score(double count, double d)
{
	return count * pow(d < 0.1 ? 0.1 : d, -CDS_DIST_POWER);
}

/* Distance gain of laying x then y, over the arcs between them. */
static double dist_gain(const struct cds *s, uint32_t x, uint32_t y)
{
	const struct cgraph *cg = s->cg;
	const struct cds_chain *cx = &s->ch[x], *cy = &s->ch[y];
	const struct cds_chain *small = cx->n <= cy->n ? cx : cy;
	uint32_t other = small == cx ? y : x;
	double g = 0;

	for (uint32_t i = 0; i < small->n; i++) {
		uint32_t u = small->m[i];

		/* arcs u->v and v->u with v in the other chain */
		for (uint32_t k = s->adj_start[u]; k < s->adj_start[u + 1]; k++) {
			const struct cg_arc *a = &cg->arcs[s->adj[k]];
			uint32_t src = a->src, dst = a->dst;
			uint64_t ps, pd;

			if (s->ch_of[src == u ? dst : src] != other || !a->weight)
				continue;
			ps = s->pos[src] + (s->ch_of[src] == y ? cx->size : 0);
			pd = s->pos[dst] + (s->ch_of[dst] == y ? cx->size : 0);
			double from = (double)ps + (double)cg->nodes[src].size / 2;

			g += dist_score((double)a->weight, fabs(from - (double)pd)) -
			     dist_score((double)a->weight, s->hot_bytes);
		}
	}
	return g;
}

static void consider(struct cds *s, uint32_t a, uint32_t b)
{
	const struct cds_chain *ca = &s->ch[a], *cb = &s->ch[b];
	double freq, best = 0;
	int which = -1;

	if (ca->n + cb->n > CDS_MAX_CHAIN)
		return;
	freq = ca->count * miss_prob(s, ca->count, ca->size) +
	       cb->count * miss_prob(s, cb->count, cb->size) -
	       (ca->count + cb->count) * miss_prob(s, ca->count + cb->count, ca->size + cb->size);
	for (int o = 0; o < 2; o++) {
		uint32_t x = o ? b : a, y = o ? a : b;
		double g = dist_gain(s, x, y) + CDS_FREQ_SCALE * freq;

		if (g > 0) {
			uint64_t mn = ca->size < cb->size ? ca->size : cb->size;

			g /= (double)NONZERO(mn);
		}
		/* ties keep the lower hot rank first */
		if (g > best || (which >= 0 && g == best && x < (which ? b : a))) {
			best = g;
			which = o;
		}
	}
	if (which < 0)
		return;
	{
		uint32_t x = which ? b : a, y = which ? a : b;

		heap_push(&s->heap, &(struct cds_ent){ best, x, y, s->ch[x].version, s->ch[y].version });
	}
}

/* Every chain joined to chain c by an arc, once each, in node order. */
static void consider_neighbours(struct cds *s, uint32_t c)
{
	const struct cgraph *cg = s->cg;
	const struct cds_chain *ch = &s->ch[c];
	uint32_t *nb = NULL;
	size_t nnb = 0, cap = 0;

	s->stamp++;
	for (uint32_t i = 0; i < ch->n; i++) {
		uint32_t u = ch->m[i];

		for (uint32_t k = s->adj_start[u]; k < s->adj_start[u + 1]; k++) {
			const struct cg_arc *a = &cg->arcs[s->adj[k]];
			uint32_t v = a->src == u ? a->dst : a->src, o = s->ch_of[v];

			if (o == UINT32_MAX || o == c || s->mark[o] == s->stamp)
				continue;
			s->mark[o] = s->stamp;
			XGROW(nb, cap, nnb + 1);
			nb[nnb++] = o;
		}
	}
	for (size_t i = 0; i < nnb; i++)
		consider(s, c < nb[i] ? c : nb[i], c < nb[i] ? nb[i] : c);
	free(nb);
}

static void merge(struct cds *s, uint32_t x, uint32_t y)
{
	struct cds_chain *cx = &s->ch[x], *cy = &s->ch[y];

	cx->m = xreallocarray(cx->m, cx->n + cy->n, sizeof(*cx->m));
	memcpy(cx->m + cx->n, cy->m, cy->n * sizeof(*cy->m));
	cx->n += cy->n;
	cx->size += cy->size;
	cx->count += cy->count;
	cx->version++;
	cy->dead = true;
	free(cy->m);
	cy->m = NULL;
	cy->n = 0;
	{
		uint64_t at = 0;

		for (uint32_t i = 0; i < cx->n; i++) {
			s->ch_of[cx->m[i]] = x;
			s->pos[cx->m[i]] = at;
			at += s->cg->nodes[cx->m[i]].size;
		}
	}
}

/* arcs of node u, in and out, heaviest first (ties: arc index) */
static const struct cgraph *adj_cg;

static int cmp_arc_weight(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	uint64_t wa = adj_cg->arcs[a].weight, wb = adj_cg->arcs[b].weight;

	if (wa != wb)
		return wa > wb ? -1 : 1;
	return (a > b) - (a < b);
}

/*
 * The arcs each node's chain scans: all of them, or on dense graphs those
 * among the CDS_MAX_DEGREE heaviest of either end (so that both ends see
 * the same arcs).
 */
static void build_adj(struct cds *s)
{
	const struct cgraph *cg = s->cg;
	size_t nn = cg->nnodes, total = 0;
	bool dense = cg->narcs > CDS_DENSE_ARCS;
	bool *keep = xcalloc(cg->narcs, sizeof(*keep));
	uint32_t *tmp = NULL, *fill;
	size_t cap = 0;

	adj_cg = cg;
	for (size_t u = 0; u < nn; u++) {
		uint32_t n = 0, lo = cg->out_start[u], hi = cg->out_start[u + 1];

		XGROW(tmp, cap, (size_t)(hi - lo) + cg->in_start[u + 1] - cg->in_start[u] + 1);
		for (uint32_t k = lo; k < hi; k++)
			tmp[n++] = k;
		for (uint32_t k = cg->in_start[u]; k < cg->in_start[u + 1]; k++)
			tmp[n++] = cg->in_arcs[k];
		if (dense && n > CDS_MAX_DEGREE) {
			qsort(tmp, n, sizeof(*tmp), cmp_arc_weight);
			n = CDS_MAX_DEGREE;
		}
		for (uint32_t k = 0; k < n; k++)
			keep[tmp[k]] = true;
	}
	adj_cg = NULL;
	s->adj_start = xcalloc(nn + 2, sizeof(*s->adj_start));
	for (size_t a = 0; a < cg->narcs; a++) {
		if (!keep[a])
			continue;
		s->adj_start[cg->arcs[a].src + 1]++;
		if (cg->arcs[a].dst != cg->arcs[a].src)
			s->adj_start[cg->arcs[a].dst + 1]++;
	}
	for (size_t u = 0; u < nn; u++)
		s->adj_start[u + 1] += s->adj_start[u];
	total = s->adj_start[nn];
	s->adj = xmallocarray(total, sizeof(*s->adj));
	fill = xcalloc(nn + 1, sizeof(*fill));
	for (size_t a = 0; a < cg->narcs; a++) {
		uint32_t x = cg->arcs[a].src, y = cg->arcs[a].dst;

		if (!keep[a])
			continue;
		s->adj[s->adj_start[x] + fill[x]++] = (uint32_t)a;
		if (y != x)
			s->adj[s->adj_start[y] + fill[y]++] = (uint32_t)a;
	}
	free(fill);
	free(tmp);
	free(keep);
}

static const struct cds *cds_sort;

static int cmp_density(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	const struct cds_chain *x = &cds_sort->ch[a], *y = &cds_sort->ch[b];
	double dx = x->count / (double)x->size, dy = y->count / (double)y->size;

	if (dx != dy)
		return dx > dy ? -1 : 1;
	return (a > b) - (a < b);
}

static int cds_run(const struct cgraph *cg, const struct layout_opts *opts, uint32_t *order,
		   size_t *n)
{
	size_t nn = NONZERO(cg->nnodes), nsel, out = 0, ncl = 0;
	uint32_t *sel = xmallocarray(nn, sizeof(*sel)), *clist;
	uint64_t *heat = xcalloc(nn, sizeof(*heat));
	struct cds s = {
		.cg = cg, .heat = heat, .heap = HEAP_INIT(struct cds_ent, ent_before),
	};

	nsel = layout_select(cg, opts, sel);
	layout_heat(cg, heat);
	s.ch = xcalloc(nsel, sizeof(*s.ch));
	s.ch_of = xmallocarray(nn, sizeof(*s.ch_of));
	memset(s.ch_of, 0xff, nn * sizeof(*s.ch_of));
	s.pos = xcalloc(nn, sizeof(*s.pos));
	s.mark = xcalloc(nsel, sizeof(*s.mark));
	build_adj(&s);
	for (size_t i = 0; i < nsel; i++) {
		struct cds_chain *c = &s.ch[i];

		c->m = xmalloc(sizeof(*c->m));
		c->m[c->n++] = sel[i];
		c->size = cg->nodes[sel[i]].size;
		c->count = (double)heat[sel[i]];
		s.ch_of[sel[i]] = (uint32_t)i;
		s.total += c->count;
		s.hot_bytes += (double)c->size;
	}
	for (size_t i = 0; i < nsel; i++)
		consider_neighbours(&s, (uint32_t)i);
	/* consider_neighbours() pushed each pair from both ends: harmless,
	 * the second copy is stale after the first merge */
	while (s.heap.n) {
		struct cds_ent e;

		heap_pop(&s.heap, &e);

		if (s.ch[e.x].dead || s.ch[e.y].dead || s.ch[e.x].version != e.vx ||
		    s.ch[e.y].version != e.vy)
			continue;
		merge(&s, e.x, e.y);
		consider_neighbours(&s, e.x);
	}

	clist = xmallocarray(nsel, sizeof(*clist));
	for (size_t i = 0; i < nsel; i++)
		if (!s.ch[i].dead)
			clist[ncl++] = (uint32_t)i;
	cds_sort = &s;
	qsort(clist, ncl, sizeof(*clist), cmp_density);
	cds_sort = NULL;
	for (size_t i = 0; i < ncl; i++)
		for (uint32_t k = 0; k < s.ch[clist[i]].n; k++)
			order[out++] = s.ch[clist[i]].m[k];
	*n = out;
	for (size_t i = 0; i < nsel; i++)
		free(s.ch[i].m);
	free(clist);
	free(s.ch);
	free(s.ch_of);
	free(s.pos);
	free(s.mark);
	free(s.adj_start);
	free(s.adj);
	heap_free(&s.heap);
	free(heat);
	free(sel);
	return 0;
}

const struct layout_algo layout_cds = {
	.name = "cds",
	.desc = "cache-directed sort: chain merging by distance and frequency gain",
	.run = cds_run,
};
