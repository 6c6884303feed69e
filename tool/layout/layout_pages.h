/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * layout_pages.h - the insides of the pages algorithm, shared by its two
 * files: layout_pages.c builds the pages, refines them, lays them out and
 * picks among the candidates; layout_pages_search.c searches the pick on
 * the replayed misses and mends it. Not an interface for anything else:
 * the algorithm is layout_pages (layout.h).
 */
#ifndef HP_LAYOUT_PAGES_H
#define HP_LAYOUT_PAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "graph/graph.h"
#include "layout/layout.h"

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

static inline uint64_t round_up(uint64_t v, uint64_t a)
{
	return a > 1 ? (v + a - 1) & ~(a - 1) : v;
}

/* r from its page to page t (bins, nets' counts and all) */
void pages_move(struct pages *p, uint32_t r, uint32_t t);
/* undo pages_move(p, r, t): r back to page from, at position pos there */
void pages_move_back(struct pages *p, uint32_t r, uint32_t from, uint32_t pos);
/* the weighted pages of an order: over the nets, or with spans (or no
 * nets) over the functions by heat; addr and pg are scratch */
uint64_t pages_weighted_pages(const struct pages *p, const uint32_t *order, size_t n, bool spans,
			      uint64_t *addr, uint64_t *pg);
/* the pages back to back, then the free functions by density; the count */
size_t pages_concat_bins(const struct pages *p, uint32_t *order);
/* nodes an order leaves out: their image address, or a far page each */
void pages_place_rest(const struct pages *p, uint64_t *addr);

/* layout_pages_search.c */

/*
 * Move functions between the pages while a replay of the paths through
 * the TLB asked for misses less, with the weighted pages up to limit (pg:
 * scratch for pages_weighted_pages()). Returns whether anything moved.
 */
bool pages_search_misses(struct pages *p, const struct layout_opts *opts, uint64_t limit,
			 uint64_t *pg);

/* in, with hot functions that would span a page boundary moved past it by
 * colder ones from a little later; into out (room for n), the count */
size_t pages_mend_straddles(const struct pages *p, const uint32_t *in, size_t n, uint32_t *out);

#endif
