// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * layout_pages_refine.c - step 3 of pages: refine the pages, moving or
 * swapping functions between them while the weighted pages fall (the
 * connectivity of a hypergraph partition, with the page as the capacity;
 * the words: docs/layout.md, "pages: the words").
 */
#include "config.h"

#include <stdlib.h>

#include "layout/layout_pages_bins.h"
#include "layout/layout_pages_refine.h"
#include "lib/xalloc.h"

/* Change of the objective if r left its page for page t (t != its page). */
static int64_t move_delta(const struct pages *p, uint32_t r, uint32_t t)
{
	uint32_t from = p->bin_of[r];
	int64_t d = 0;

	for (uint32_t i = p->inc_start[r]; i < p->inc_start[r + 1]; i++) {
		const struct pg_net *e = &p->nets[p->inc[i]];

		if (pages_net_count(e, from) == 1)
			d -= (int64_t)e->w;
		if (!pages_net_count(e, t))
			d += (int64_t)e->w;
	}
	return d;
}

/*
 * Try to improve with node r: the best move, else the best swap. The
 * delta of moving r to page t is what r's nets lose by r leaving (the nets
 * for which r is alone on its page) plus the weight of r's nets not yet on
 * t; acc[t] collects the weight of r's nets already on t in one pass over
 * their page lists, so every candidate page costs O(1). Swaps (when t is
 * full) are tried with every full page where r's move pays, or on large
 * problems (p->large) only with the PAGES_SWAP_TARGETS where it pays most,
 * which bounds the work on profiles with many paths. Returns the gain
 * (0: nothing done).
 */
#define PAGES_SWAP_TARGETS 3
#define PAGES_SWAP_MAX_NETS 8

/*
 * Page t is full: swap r (its move worth dr) with one of t's functions u,
 * when both pages still fit afterwards; the delta is r's move, then u's.
 * Returns the best delta so far, updating *bt and *bu when a swap beats it.
 */
static int64_t try_swaps(struct pages *p, uint32_t r, uint32_t from, uint32_t t, int64_t dr,
			 int64_t best, uint32_t *bt, uint32_t *bu)
{
	pages_move(p, r, t);
	for (uint32_t m = 0; m < p->bins[t].n; m++) {
		uint32_t u = p->bins[t].m[m];
		int64_t d;

		/* on large problems only functions on few nets: cheap to score,
		 * and the likely ones to leave a page for free */
		if (p->large && p->inc_start[u + 1] - p->inc_start[u] > PAGES_SWAP_MAX_NETS)
			continue;
		if (u == r || p->bins[t].fill - p->es[u] > p->bins[t].cap ||
		    p->bins[from].fill + p->es[u] > p->bins[from].cap)
			continue;
		d = dr + move_delta(p, u, from);
		if (d < best) {
			best = d;
			*bt = t;
			*bu = u;
		}
	}
	pages_move(p, r, from);
	return best;
}


static int64_t improve_node(struct pages *p, uint32_t r, uint32_t *cand, int64_t *acc)
{
	uint32_t from = p->bin_of[r], nc = 0, best_t = NONE, best_u = NONE;
	uint32_t full[PAGES_SWAP_TARGETS];
	int64_t fulld[PAGES_SWAP_TARGETS];
	int64_t best = 0, leave = 0, total = 0;
	unsigned int nfull = 0;

	if (p->bins[from].big)
		return 0;
	for (uint32_t i = p->inc_start[r]; i < p->inc_start[r + 1]; i++) {
		const struct pg_net *e = &p->nets[p->inc[i]];

		total += (int64_t)e->w;
		for (uint32_t k = 0; k < e->nc; k++) {
			uint32_t b = e->c[k].bin;

			if (b == from) {
				if (e->c[k].cnt == 1)
					leave += (int64_t)e->w;
				continue;
			}
			if (p->bins[b].big)
				continue;
			if (!acc[b])
				cand[nc++] = b;
			acc[b] += (int64_t)e->w;
		}
	}
	/* a move can only gain what r alone brings its nets to its page */
	if (!leave)
		goto out;
	for (uint32_t k = 0; k < nc; k++) {
		uint32_t t = cand[k];
		int64_t dr = -leave + (total - acc[t]);

		if (p->bins[t].fill + p->es[r] <= p->bins[t].cap) {
			if (dr < best) {
				best = dr;
				best_t = t;
				best_u = NONE;
			}
			continue;
		}
		if (dr >= 0 || dr >= best)
			continue;
		if (!p->large) {
			/* small problems: try every full page at once */
			best = try_swaps(p, r, from, t, dr, best, &best_t, &best_u);
			continue;
		}
		/* keep the full pages where r's move pays most (ties: first seen) */
		for (unsigned int j = 0; j <= nfull && j < PAGES_SWAP_TARGETS; j++) {
			if (j < nfull && fulld[j] <= dr)
				continue;
			for (unsigned int m = (nfull < PAGES_SWAP_TARGETS ? nfull : nfull - 1); m > j;
			     m--) {
				full[m] = full[m - 1];
				fulld[m] = fulld[m - 1];
			}
			full[j] = t;
			fulld[j] = dr;
			if (nfull < PAGES_SWAP_TARGETS)
				nfull++;
			break;
		}
	}
	for (unsigned int j = 0; j < nfull; j++)
		if (fulld[j] < best)
			best = try_swaps(p, r, from, full[j], fulld[j], best, &best_t, &best_u);
out:
	for (uint32_t k = 0; k < nc; k++)
		acc[cand[k]] = 0;
	if (best >= 0)
		return 0;
	pages_move(p, r, best_t);
	if (best_u != NONE)
		pages_move(p, best_u, from);
	return -best;
}

/* a pass on a large problem that gains under 1/PAGES_MIN_GAIN of the
 * objective is the last */
#define PAGES_MIN_GAIN 1000
#define PAGES_MAX_PASSES 8

void pages_refine(struct pages *p)
{
	uint32_t *cand = xmallocarray(p->nbins + 2, sizeof(*cand));
	int64_t *acc = xcalloc(p->nbins + 1, sizeof(*acc));
	int64_t objective = 0;

	for (size_t i = 0; i < p->nnets; i++)
		objective += (int64_t)(p->nets[i].w * p->nets[i].nc);
	for (int pass = 0; pass < PAGES_MAX_PASSES; pass++) {
		int64_t gain = 0;

		for (uint32_t r = 0; r < p->nsel; r++) {
			if (p->inc_start[r] == p->inc_start[r + 1])
				continue;
			gain += improve_node(p, r, cand, acc);
		}
		objective -= gain;
		if (!gain || (p->large && gain * PAGES_MIN_GAIN < objective))
			break;
	}
	free(cand);
	free(acc);
}
