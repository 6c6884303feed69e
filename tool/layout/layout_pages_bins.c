// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * layout_pages_bins.c - the pages of the pages algorithm (docs/layout.md,
 * "pages: the words"): functions packed into pages, moved between them,
 * and the pages read back as an order or as the weighted pages an order
 * costs. Used by the driver (layout_pages.c) and the search
 * (layout_pages_search.c), which call nothing of each other's.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "layout/layout_pages_bins.h"
#include "lib/util.h"
#include "lib/xalloc.h"
#include "place/place.h"

/* ---- per-net page counts ---- */

uint32_t pages_net_count(const struct pg_net *e, uint32_t bin)
{
	for (uint32_t i = 0; i < e->nc; i++)
		if (e->c[i].bin == bin)
			return e->c[i].cnt;
	return 0;
}

static void net_inc(struct pg_net *e, uint32_t bin, int d)
{
	for (uint32_t i = 0; i < e->nc; i++) {
		if (e->c[i].bin != bin)
			continue;
		e->c[i].cnt += (uint32_t)d;
		if (!e->c[i].cnt)
			e->c[i] = e->c[--e->nc];
		return;
	}
	XGROW(e->c, e->capc, e->nc + 1);
	e->c[e->nc++] = (struct pg_cnt){ bin, 1 };
}

/* ---- pages ---- */

static uint32_t new_bin(struct pages *p, uint64_t cap, bool big)
{
	XGROW(p->bins, p->capbins, p->nbins + 1);
	memset(&p->bins[p->nbins], 0, sizeof(p->bins[0]));
	p->bins[p->nbins].cap = cap;
	p->bins[p->nbins].big = big;
	return (uint32_t)p->nbins++;
}

static void bin_add(struct pages *p, uint32_t b, uint32_t r)
{
	struct pg_bin *bn = &p->bins[b];

	XGROW(bn->m, bn->capm, bn->n + 1);
	bn->m[bn->n++] = r;
	bn->fill += p->es[r];
	p->bin_of[r] = b;
	for (uint32_t i = p->inc_start[r]; i < p->inc_start[r + 1]; i++)
		net_inc(&p->nets[p->inc[i]], b, +1);
}

static void bin_remove(struct pages *p, uint32_t r)
{
	uint32_t b = p->bin_of[r];
	struct pg_bin *bn = &p->bins[b];

	for (uint32_t i = 0; i < bn->n; i++) {
		if (bn->m[i] != r)
			continue;
		memmove(bn->m + i, bn->m + i + 1, (bn->n - i - 1) * sizeof(*bn->m));
		bn->n--;
		break;
	}
	bn->fill -= p->es[r];
	p->bin_of[r] = NONE;
	for (uint32_t i = p->inc_start[r]; i < p->inc_start[r + 1]; i++)
		net_inc(&p->nets[p->inc[i]], b, -1);
}

/* A function larger than a page: pages of its own. Returns true if r is one. */
static bool pack_big(struct pages *p, uint32_t r)
{
	if (p->es[r] <= p->page)
		return false;
	bin_add(p, new_bin(p, align_up(p->es[r], p->page), true), r);
	return true;
}

/*
 * Next function in turn: into page cur while it fits, else a new page,
 * which is returned (a big function gets its own; cur stays).
 */
static uint32_t pack_next(struct pages *p, uint32_t r, uint32_t cur)
{
	if (pack_big(p, r))
		return cur;
	if (cur == NONE || p->bins[cur].fill + p->es[r] > p->bins[cur].cap)
		cur = new_bin(p, p->page, false);
	bin_add(p, cur, r);
	return cur;
}

/* r into the fullest page net e already uses that has room, else a new one. */
static void pack_best_fit(struct pages *p, uint32_t r, const struct pg_net *e)
{
	uint32_t best = NONE;

	if (pack_big(p, r))
		return;
	/* best fit among the pages this net already uses */
	for (uint32_t i = 0; e && i < e->nc; i++) {
		const struct pg_bin *bn = &p->bins[e->c[i].bin];

		if (bn->big || bn->fill + p->es[r] > bn->cap)
			continue;
		if (best == NONE || bn->fill > p->bins[best].fill ||
		    (bn->fill == p->bins[best].fill && e->c[i].bin < best))
			best = e->c[i].bin;
	}
	if (best == NONE)
		best = new_bin(p, p->page, false);
	bin_add(p, best, r);
}

/* ---- moves between pages ---- */

void pages_move(struct pages *p, uint32_t r, uint32_t t)
{
	bin_remove(p, r);
	bin_add(p, t, r);
}

void pages_move_back(struct pages *p, uint32_t r, uint32_t from, uint32_t pos)
{
	struct pg_bin *bn = &p->bins[from];

	pages_move(p, r, from);
	memmove(bn->m + pos + 1, bn->m + pos, (bn->n - 1 - pos) * sizeof(*bn->m));
	bn->m[pos] = r;
}

/* ---- making the pages ---- */

void pages_reset(struct pages *p)
{
	for (size_t b = 0; b < p->nbins; b++)
		free(p->bins[b].m);
	p->nbins = 0;
	for (size_t i = 0; i < p->nnets; i++)
		p->nets[i].nc = 0;
	for (size_t r = 0; r < p->nsel; r++)
		p->bin_of[r] = NONE;
}

void pages_pack_nets(struct pages *p, const uint32_t *idx)
{
	for (size_t i = 0; i < p->nnets; i++) {
		struct pg_net *e = &p->nets[idx[i]];

		for (uint32_t j = 0; j < e->n; j++)
			if (p->bin_of[e->v[j]] == NONE)
				pack_best_fit(p, e->v[j], e);
	}
}

/* pages_pack_signature()'s sort: the pages and the nets' weight ranks. */
static const struct pages *sig_p;
static const uint32_t *sig_rank;

static int cmp_signature(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const uint32_t *ix = sig_p->inc + sig_p->inc_start[x];
	const uint32_t *iy = sig_p->inc + sig_p->inc_start[y];
	uint32_t nx = sig_p->inc_start[x + 1] - sig_p->inc_start[x];
	uint32_t ny = sig_p->inc_start[y + 1] - sig_p->inc_start[y];

	for (uint32_t i = 0; i < nx && i < ny; i++)
		if (sig_rank[ix[i]] != sig_rank[iy[i]])
			return sig_rank[ix[i]] < sig_rank[iy[i]] ? -1 : 1;
	if (nx != ny)
		return nx > ny ? -1 : 1;
	return (x > y) - (x < y);
}

static int cmp_by_netrank(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (sig_rank[x] > sig_rank[y]) - (sig_rank[x] < sig_rank[y]);
}

void pages_pack_signature(struct pages *p, const uint32_t *netrank)
{
	uint32_t *v = xmallocarray(p->nsel, sizeof(*v));
	uint32_t nv = 0, cur = NONE;

	sig_p = p;
	sig_rank = netrank;
	for (uint32_t r = 0; r < p->nsel; r++) {
		if (p->inc_start[r] == p->inc_start[r + 1])
			continue;
		qsort(p->inc + p->inc_start[r], p->inc_start[r + 1] - p->inc_start[r],
		      sizeof(*p->inc), cmp_by_netrank);
		v[nv++] = r;
	}
	qsort(v, nv, sizeof(*v), cmp_signature);
	sig_p = NULL;
	sig_rank = NULL;
	for (uint32_t i = 0; i < nv; i++)
		cur = pack_next(p, v[i], cur);
	free(v);
}

void pages_pack_order(struct pages *p, const uint32_t *seed, size_t n)
{
	uint32_t cur = NONE;

	for (size_t i = 0; i < n; i++) {
		uint32_t r = p->rank[seed[i]];

		if (r == NONE || p->bin_of[r] != NONE)
			continue;
		cur = pack_next(p, r, cur);
		/* the order's sequence: nothing after a big function goes back
		 * into the page before it */
		if (p->bins[p->bin_of[r]].big)
			cur = NONE;
	}
}

/* free functions by density: heat over bytes, densest first */
static int cmp_density(const void *a, const void *b, void *ctx)
{
	const struct pages *p = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	unsigned __int128 l = (unsigned __int128)p->heat[p->sel[x]] * p->es[y];
	unsigned __int128 r = (unsigned __int128)p->heat[p->sel[y]] * p->es[x];

	if (l != r)
		return l > r ? -1 : 1;
	return (x > y) - (x < y);
}

/* ---- reading the pages ---- */

size_t pages_free_by_density(const struct pages *p, uint32_t *freel)
{
	size_t nfree = 0;

	for (uint32_t r = 0; r < p->nsel; r++)
		if (p->bin_of[r] == NONE)
			freel[nfree++] = r;
	qsort_r(freel, nfree, sizeof(*freel), cmp_density, (void *)p);
	return nfree;
}

uint64_t pages_weighted_pages(const struct pages *p, const uint32_t *order, size_t n, bool spans,
			       uint64_t *addr, uint64_t *pg)
{
	uint64_t total = 0;

	place_order(p->cg, order, n, 0, addr);
	if (spans || !p->nnets) {
		for (size_t i = 0; i < n; i++) {
			const struct cg_node *nd = &p->cg->nodes[order[i]];
			uint64_t a = addr[order[i]];

			total += p->heat[order[i]] *
				 ((a + nd->size - 1) / p->page - a / p->page + 1);
		}
		return total;
	}
	for (size_t i = 0; i < p->nnets; i++) {
		const struct pg_net *e = &p->nets[i];
		size_t k = 0, d = 0;

		for (uint32_t j = 0; j < e->n; j++) {
			const struct cg_node *nd = &p->cg->nodes[p->sel[e->v[j]]];
			uint64_t a = addr[p->sel[e->v[j]]];

			for (uint64_t q = a / p->page; q <= (a + nd->size - 1) / p->page; q++)
				pg[k++] = q;
		}
		/* few pages per net: insertion sort, then count */
		for (size_t x = 1; x < k; x++)
			for (size_t y = x; y && pg[y - 1] > pg[y]; y--) {
				uint64_t t = pg[y];

				pg[y] = pg[y - 1];
				pg[y - 1] = t;
			}
		for (size_t x = 0; x < k; x++)
			d += !x || pg[x] != pg[x - 1];
		total += e->w * d;
	}
	return total;
}

size_t pages_concat_bins(const struct pages *p, uint32_t *order)
{
	uint32_t *freel = xmallocarray(p->nsel, sizeof(*freel));
	size_t n = 0, nfree;

	for (size_t b = 0; b < p->nbins; b++)
		for (uint32_t k = 0; k < p->bins[b].n; k++)
			order[n++] = p->sel[p->bins[b].m[k]];
	nfree = pages_free_by_density(p, freel);
	for (size_t i = 0; i < nfree; i++)
		order[n++] = p->sel[freel[i]];
	free(freel);
	return n;
}

void pages_place_rest(const struct pages *p, uint64_t *addr)
{
	const struct cgraph *cg = p->cg;

	for (size_t v = 0; v < cg->nnodes; v++)
		if (addr[v] == UINT64_MAX)
			addr[v] = cg->img ? cg->img->funcs[cg->nodes[v].func].addr
					  : (2ull << 44) + (uint64_t)v * 2 * p->page;
}
