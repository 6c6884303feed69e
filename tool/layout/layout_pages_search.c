// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * layout_pages_search.c - the last steps of pages (layout_pages_search.h):
 * the search of the pick on the replayed misses, and the mend of hot
 * functions that straddle a page boundary (the words: docs/layout.md,
 * "pages: the words"). They work on the pages of layout_pages_bins.c; the
 * driver, layout_pages.c, decides whether to keep what they give.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "layout/layout_pages_search.h"
#include "lib/util.h"
#include "lib/xalloc.h"
#include "model/pagesim.h"
#include "place/place.h"

/* ---- search on the simulated misses ---- */

/*
 * Pages per path count every page alike; an LRU TLB does not. When the
 * pages the runs touch outnumber its entries, what misses is a page whose
 * runs come too far apart, and moving one function can change that for a
 * whole page (a hot function on a page of rare ones keeps it in the TLB).
 * So, last, a search on the misses themselves. The pick is cut into its
 * pages, which are laid out back to back (pages_concat_bins(): that gives the
 * pick back); each function, hottest first, moves to the end of the page
 * where a replay of the layout (pagesim, a page number per function)
 * misses least, while the weighted pages stay within a limit. The replays
 * are capped in node visits (so the cost is bounded whatever the profile:
 * a profile too large for the cap to try every function a few times is
 * not searched) and in passes; the model judges the result.
 */
#define PAGES_SEARCH_RUNS 400		/* runs a replay: as few as still rank */
#define PAGES_SEARCH_WORK 500000000ull	/* node visits and nodes laid out, over all
					 * (layout_opts.search_work overrides it) */
/* windows replayed in the order they ran (cg->seq): stretches of it long
 * enough to hold the workload's phases, and the budget to match */
#define PAGES_SEARCH_SEQ_RUNS 4000
#define PAGES_SEARCH_SEQ_WORK 2000000000ull
#define PAGES_SEARCH_PASSES 3
#define PAGES_SEARCH_TRIES 4		/* the budget must try each function this often */

struct pg_search {
	struct pagesim *ps;
	uint64_t *page;			/* by node: its first page's number */
	uint32_t *span;			/* by node: its pages */
	uint64_t nfixed;		/* pages numbered for the code that stays */
	uint32_t *order;		/* the layout replayed */
	size_t n;
	uint64_t *addr;
	uint64_t evals;			/* replays left */
	uint64_t *pg;			/* pages_weighted_pages()'s scratch */
};

/*
 * The code that stays (nodes out of the selection, where pages_place_rest() puts
 * them) numbered once: its distinct pages from 0, in address order, so a
 * function over several pages has consecutive numbers.
 */
static void search_fixed(const struct pages *p, struct pg_search *s)
{
	const struct cgraph *cg = p->cg;
	uint64_t *pages = NULL, n = 0, cap = 0, k = 0;

	for (size_t v = 0; v < cg->nnodes; v++)
		s->addr[v] = UINT64_MAX;
	pages_place_rest(p, s->addr);
	for (size_t v = 0; v < cg->nnodes; v++) {
		uint64_t a = s->addr[v], sz = NONZERO(cg->nodes[v].size);

		if (p->rank[v] != NONE)
			continue;
		for (uint64_t q = a / p->page; q <= (a + sz - 1) / p->page; q++) {
			XGROW(pages, cap, n + 1);
			pages[n++] = q;
		}
		s->span[v] = (uint32_t)((a + sz - 1) / p->page - a / p->page + 1);
	}
	if (n)
		qsort(pages, n, sizeof(*pages), cmp_u64);
	for (uint64_t i = 0; i < n; i++)
		if (!i || pages[i] != pages[i - 1])
			pages[k++] = pages[i];
	for (size_t v = 0; v < cg->nnodes; v++) {
		uint64_t q, lo = 0, hi = k;

		if (p->rank[v] != NONE)
			continue;
		q = s->addr[v] / p->page;
		while (lo < hi) {
			uint64_t mid = (lo + hi) / 2;

			if (pages[mid] < q)
				lo = mid + 1;
			else
				hi = mid;
		}
		s->page[v] = lo;
	}
	s->nfixed = k;
	free(pages);
}

/* Misses of the pages laid out back to back: what the model will see. */
static uint64_t search_eval(struct pages *p, struct pg_search *s)
{
	const struct cgraph *cg = p->cg;
	size_t n = s->n = pages_concat_bins(p, s->order);
	uint64_t base = 1ull << 44, end = place_order(cg, s->order, n, base, s->addr);

	for (size_t i = 0; i < n; i++) {
		uint32_t v = s->order[i];
		uint64_t a = s->addr[v] - base, sz = NONZERO(cg->nodes[v].size);

		s->page[v] = s->nfixed + a / p->page;
		s->span[v] = (uint32_t)((a + sz - 1) / p->page - a / p->page + 1);
	}
	s->evals--;
	return pagesim_misses(s->ps, s->page, s->span,
			      s->nfixed + (end - base) / p->page + 1);
}

/* The page r goes to the end of where the replay misses least, below
 * *misses (lowered to it), with weighted pages up to limit; or NONE. */
static uint32_t search_node(struct pages *p, struct pg_search *s, uint32_t r, uint64_t limit,
			    uint64_t *misses)
{
	uint32_t from = p->bin_of[r], best = NONE, pos = 0;

	while (p->bins[from].m[pos] != r)
		pos++;
	for (uint32_t t = 0; t < p->nbins && s->evals; t++) {
		uint64_t m;

		if (t == from || p->bins[t].big)
			continue;
		pages_move(p, r, t);
		m = search_eval(p, s);
		if (m < *misses && pages_weighted_pages(p, s->order, s->n, false, s->addr, s->pg) > limit)
			m = *misses;
		pages_move_back(p, r, from, pos);
		if (m < *misses) {
			*misses = m;
			best = t;
		}
	}
	return best;
}

/*
 * Passes over the functions on a net, hottest first, while one gains, each
 * move keeping the weighted pages up to limit. Returns whether anything
 * moved.
 */
bool pages_search_misses(struct pages *p, const struct layout_opts *opts, uint64_t limit,
			  uint64_t *pg)
{
	const struct cgraph *cg = p->cg;
	size_t nn = NONZERO(cg->nnodes);
	struct pg_search s = { 0 };
	uint64_t cur;
	bool moved = false;

	s.ps = pagesim_new(cg, cg->nseq ? PAGES_SEARCH_SEQ_RUNS : PAGES_SEARCH_RUNS,
			   &opts->geom);
	s.evals = (opts->search_work ? opts->search_work :
		   cg->nseq ? PAGES_SEARCH_SEQ_WORK : PAGES_SEARCH_WORK) /
		  (pagesim_visits(s.ps) + nn);
	if (s.evals < (uint64_t)p->nsel * PAGES_SEARCH_TRIES) {
		/* too large a profile for the budget: no pass would end */
		pagesim_free(s.ps);
		return false;
	}
	s.page = xmallocarray(nn, sizeof(*s.page));
	s.span = xmallocarray(nn, sizeof(*s.span));
	s.order = xmallocarray(nn, sizeof(*s.order));
	s.addr = xmallocarray(nn, sizeof(*s.addr));
	s.pg = pg;
	search_fixed(p, &s);
	cur = search_eval(p, &s);
	/* only first references miss: every page fits, nothing to gain */
	if (cur == pagesim_cold(s.ps))
		s.evals = 0;
	for (int pass = 0; pass < PAGES_SEARCH_PASSES && s.evals; pass++) {
		bool gain = false;

		for (uint32_t r = 0; r < p->nsel && s.evals; r++) {
			uint32_t t, from = p->bin_of[r];

			if (p->inc_start[r] == p->inc_start[r + 1] || p->bins[from].big)
				continue;
			t = search_node(p, &s, r, limit, &cur);
			if (t == NONE)
				continue;
			pages_move(p, r, t);
			gain = moved = true;
		}
		if (!gain)
			break;
	}
	free(s.addr);
	free(s.order);
	free(s.span);
	free(s.page);
	pagesim_free(s.ps);
	return moved;
}

/* ---- the mend: hot functions off page boundaries ---- */

/*
 * A function that fits a page but starts too late in one straddles the
 * boundary: it spans two. It moves to the next page when colder functions from a little later in the
 * order (PAGES_MEND_LOOKAHEAD; largest first) fill the gap before it to
 * within its alignment; if they cannot, nothing moves. The order's
 * sequence otherwise stays: only the fillers come forward.
 */
#define PAGES_MEND_LOOKAHEAD 64

static uint64_t align_at(const struct cg_node *nd, uint64_t at)
{
	return align_up(at, NONZERO(nd->align));
}

/* Fillers for the gap from at to boundary before f, marked in used[];
 * their count (0 when they cannot make f start on the boundary). */
static size_t mend_fill(const struct pages *p, const uint32_t *in, size_t n, size_t i,
			uint64_t at, uint64_t boundary, bool *used, uint32_t *fill)
{
	const struct cg_node *f = &p->cg->nodes[in[i]];
	size_t k = 0;

	while (align_at(f, at) < boundary) {
		size_t best = SIZE_MAX;

		for (size_t j = i + 1; j < n && j <= i + PAGES_MEND_LOOKAHEAD; j++) {
			const struct cg_node *g = &p->cg->nodes[in[j]];

			/* colder than f: the fillers' own pages matter less */
			if (used[j] || !g->size || p->heat[in[j]] >= p->heat[in[i]] ||
			    align_at(g, at) + g->size > boundary)
				continue;
			if (best == SIZE_MAX || g->size > p->cg->nodes[in[best]].size)
				best = j;
		}
		if (best == SIZE_MAX)
			break;
		used[best] = true;
		fill[k++] = (uint32_t)best;
		at = align_at(&p->cg->nodes[in[best]], at) + p->cg->nodes[in[best]].size;
	}
	if (align_at(f, at) >= boundary)
		return k;
	while (k)
		used[fill[--k]] = false;
	return 0;
}

size_t pages_mend_straddles(const struct pages *p, const uint32_t *in, size_t n, uint32_t *out)
{
	bool *used = xcalloc(n + 1, sizeof(*used));
	uint32_t *fill = xmallocarray(PAGES_MEND_LOOKAHEAD + 1, sizeof(*fill));
	uint64_t at = 0;
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		const struct cg_node *f = &p->cg->nodes[in[i]];
		uint64_t start;

		if (used[i])
			continue;
		start = align_at(f, at);
		if (p->heat[in[i]] && f->size <= p->page && f->size &&
		    start / p->page != (start + f->size - 1) / p->page) {
			size_t k = mend_fill(p, in, n, i, at, (start / p->page + 1) * p->page,
					     used, fill);

			for (size_t j = 0; j < k; j++) {
				const struct cg_node *g = &p->cg->nodes[in[fill[j]]];

				out[m++] = in[fill[j]];
				at = align_at(g, at) + g->size;
			}
			start = align_at(f, at);
		}
		out[m++] = in[i];
		at = start + f->size;
	}
	free(fill);
	free(used);
	return m;
}
