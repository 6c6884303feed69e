/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * layout_pages_bins.h - the pages of the pages algorithm, in the words of
 * docs/layout.md ("pages: the words"): the state both the driver
 * (layout_pages.c) and the search (layout_pages_search.c) work on, and what
 * they do with it. A page here is a bin of one page's bytes that functions
 * are packed into, before any address is given. Not an interface for
 * anything else: the algorithm is layout_pages (layout.h).
 */
#ifndef HP_LAYOUT_PAGES_BINS_H
#define HP_LAYOUT_PAGES_BINS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "graph/graph.h"
#include "lib/util.h"

#define NONE UINT32_MAX

struct pg_bin {
	uint64_t fill, cap;
	uint32_t *m;		/* members, in the order they came */
	uint32_t n;
	size_t capm;
	bool big;		/* one function larger than a page */
};

struct pg_cnt {
	uint32_t bin, cnt;
};

struct pg_net {
	uint32_t *v;		/* nodes, first-run order */
	uint32_t n;
	uint64_t w;
	struct pg_cnt *c;	/* pages it touches, with its node count in each */
	uint32_t nc;
	size_t capc;
	uint32_t src;		/* the path it came from; NONE for a call arc */
};

struct pages {
	const struct cgraph *cg;
	uint64_t page;
	uint32_t *sel;
	size_t nsel;
	uint32_t *rank;		/* node -> hot rank, NONE when not selected */
	uint64_t *heat, *es;
	struct pg_net *nets;
	size_t nnets;
	uint32_t *inc_start, *inc;	/* node rank -> nets (CSR) */
	struct pg_bin *bins;
	size_t nbins, capbins;
	uint32_t *bin_of;	/* by rank */
	bool large;		/* more than PAGES_LARGE net memberships */
	size_t dropped;		/* nets left out past PAGES_MAX_MEMBERS */
};

/* how many of net e's functions are on page bin */
uint32_t pages_net_count(const struct pg_net *e, uint32_t bin);

/* r from its page to page t (bins, nets' counts and all) */
void pages_move(struct pages *p, uint32_t r, uint32_t t);
/* undo pages_move(p, r, t): r back to page from, at position pos among its
 * functions (their order decides the layout's) */
void pages_move_back(struct pages *p, uint32_t r, uint32_t from, uint32_t pos);

/* forget the pages (to make them another way) */
void pages_reset(struct pages *p);
/* pages made from the nets, heaviest first (idx: nets by weight): each
 * function not yet on a page into the fullest page its net already uses
 * that has room, else a new page */
void pages_pack_nets(struct pages *p, const uint32_t *idx);
/*
 * pages made by signature: a function's signature is the set of nets it is
 * on, as a bit string with the heaviest net as the most significant bit;
 * sorting by it, largest first, keeps together what the same heavy paths
 * run, and puts the functions every path shares first; then packed in turn.
 * (netrank: net -> weight rank; the incidence lists are sorted by it.)
 */
void pages_pack_signature(struct pages *p, const uint32_t *netrank);
/* pages cut from an order (a classic order, or the pick): its functions in
 * turn, a new page when the next one does not fit (a big function gets its
 * own). Functions of the selection the order leaves out stay free. */
void pages_pack_order(struct pages *p, const uint32_t *seed, size_t n);

/* the free functions (on no page) by density into freel (room for
 * p->nsel), densest first; their count */
size_t pages_free_by_density(const struct pages *p, uint32_t *freel);
/* the weighted pages of an order: over the nets; with spans (or no nets)
 * over the functions instead, each by its heat: what the model counts per
 * run when the profile has no paths and every function runs on its own.
 * addr and pg are scratch */
uint64_t pages_weighted_pages(const struct pages *p, const uint32_t *order, size_t n, bool spans,
			      uint64_t *addr, uint64_t *pg);
/* the pages as the search holds them: each page's functions in turn, the
 * pages in the order they were made, then the free functions by density.
 * No gap is filled and nothing aligned to a page: cut from an order
 * (pages_pack_order()), this gives the order back. The count */
size_t pages_concat_bins(const struct pages *p, uint32_t *order);
/* nodes an order leaves out: their image address, or a far page each */
void pages_place_rest(const struct pages *p, uint64_t *addr);

#endif
