// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * layout_pages_search.c - the last steps of pages (layout_pages_search.h):
 * the search of the pick on the replayed misses, and the mend of hot
 * functions that straddle a page boundary (the words: docs/layout.md,
 * "pages: the words"). They work on the pages of layout_pages_bins.c; the
 * driver, layout_pages.c, decides whether to keep what they give.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "layout/layout_pages_search.h"
#include "lib/util.h"
#include "lib/warn.h"
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
#define PAGES_SEARCH_SEQ_RUNS 1000
#define PAGES_SEARCH_SEQ_WORK 300000000ull
#define PAGES_SEARCH_PASSES 3
#define PAGES_SEARCH_TRIES 4		/* the budget must try each function this often */
/* the pages a function may move to: those its nets use most (by weight);
 * a page none of its runs touch cannot bring its references closer */
#define PAGES_SEARCH_TARGETS 8

struct pg_search {
	struct pagesim *ps;
	size_t nsizes;
	/* sizes where the start misses only first references are not
	 * replayed (the stack is as deep as the largest size replayed, and
	 * each reference costs its depth): their misses are the cold ones */
	bool cold_only[GEOM_MAX_TLB];
	size_t slot[GEOM_MAX_TLB];	/* by size: its index in ps's geometry */
	double ref[GEOM_MAX_TLB];	/* the start's misses by size: the unit of each */
	uint64_t *page;			/* by node: its first page's number */
	uint32_t *span;			/* by node: its pages */
	uint64_t nfixed;		/* pages numbered for the code that stays */
	uint32_t *order;		/* the layout replayed */
	size_t n;
	uint64_t *addr;
	uint64_t evals;			/* replays left */
	uint64_t *pg;			/* pages_weighted_pages()'s scratch */
	double *tw;			/* by page: the weight of r's nets on it */
	uint32_t *tl;			/* pages r's nets touch */
	uint64_t wbins, wbins_limit;	/* weighted pages counted on the pages (bins) */
};

/* The pages @len bytes from @a lie on. */
static uint32_t pages_spanned(uint64_t a, uint64_t len, uint64_t page)
{
	return (uint32_t)((a + len - 1) / page - a / page + 1);
}

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
		uint64_t a = s->addr[v], sz = NONZERO(cg->nodes[v].size), off, len;

		if (p->rank[v] != NONE)
			continue;
		for (uint64_t q = a / p->page; q <= (a + sz - 1) / p->page; q++) {
			XGROW(pages, cap, n + 1);
			pages[n++] = q;
		}
		/* its first page that ran, as an address's page until numbered */
		cg_node_ran(&cg->nodes[v], sz, &off, &len);
		s->page[v] = (a + off) / p->page;
		s->span[v] = pages_spanned(a + off, len, p->page);
	}
	if (n)
		qsort(pages, n, sizeof(*pages), cmp_u64);
	for (uint64_t i = 0; i < n; i++)
		if (!i || pages[i] != pages[i - 1])
			pages[k++] = pages[i];
	for (size_t v = 0; v < cg->nnodes; v++) {
		uint64_t q = s->page[v], lo = 0, hi = k;

		if (p->rank[v] != NONE)
			continue;
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

/* The replay's misses at every size of the geometry, each in units of
 * the start's, summed: one objective over the sizes asked for. */
static double search_cost(const struct pg_search *s, const uint64_t *m)
{
	double c = 0;

	for (size_t k = 0; k < s->nsizes; k++)
		c += (double)m[k] / s->ref[k];
	return c;
}

/* Misses of the pages laid out back to back (what the model will see),
 * by size into m. */
static void search_eval(struct pages *p, struct pg_search *s, uint64_t *m)
{
	const struct cgraph *cg = p->cg;
	size_t n = s->n = pages_concat_bins(p, s->order);
	uint64_t base = 1ull << 44, end = place_order(cg, s->order, n, base, s->addr);
	uint64_t r[GEOM_MAX_TLB];

	for (size_t i = 0; i < n; i++) {
		uint32_t v = s->order[i];
		uint64_t a = s->addr[v] - base, off, len;

		cg_node_ran(&cg->nodes[v], NONZERO(cg->nodes[v].size), &off, &len);
		s->page[v] = s->nfixed + (a + off) / p->page;
		s->span[v] = pages_spanned(a + off, len, p->page);
	}
	s->evals--;
	pagesim_replay(s->ps, s->page, s->span, s->nfixed + (end - base) / p->page + 1, r);
	for (size_t k = 0; k < s->nsizes; k++)
		m[k] = s->cold_only[k] ? pagesim_cold(s->ps) : r[s->slot[k]];
}

/* Replay only the sizes that miss more than first references at the
 * start (m: its misses); false when none does. */
static bool search_sizes(struct pg_search *s, const struct cgraph *cg, const struct geometry *g,
			 const uint64_t *m)
{
	struct geometry few = *g;
	uint64_t cold = pagesim_cold(s->ps);

	few.ntlb = 0;
	for (size_t k = 0; k < s->nsizes; k++) {
		s->cold_only[k] = m[k] == cold;
		s->slot[k] = few.ntlb;
		if (!s->cold_only[k])
			few.tlb_entries[few.ntlb++] = g->tlb_entries[k];
	}
	if (!few.ntlb)
		return false;
	if (few.ntlb < g->ntlb) {
		pagesim_free(s->ps);
		s->ps = pagesim_new(cg, cg->nseq ? PAGES_SEARCH_SEQ_RUNS : PAGES_SEARCH_RUNS, &few);
	}
	return true;
}

/* The pages r's nets touch, the PAGES_SEARCH_TARGETS heaviest (their
 * nets' weight there; ties: the lower page) into s->tl, their count. */
static size_t search_targets(const struct pages *p, struct pg_search *s, uint32_t r)
{
	uint32_t from = p->bin_of[r];
	size_t nt = 0;

	for (uint32_t i = p->inc_start[r]; i < p->inc_start[r + 1]; i++) {
		const struct pg_net *e = &p->nets[p->inc[i]];

		for (uint32_t j = 0; j < e->nc; j++) {
			uint32_t b = e->c[j].bin;

			if (b == from || p->bins[b].big ||
			    p->bins[b].fill + p->es[r] > p->bins[b].cap)
				continue;
			if (s->tw[b] == 0)
				s->tl[nt++] = b;
			s->tw[b] += (double)e->w;
		}
	}
	/* partial selection of the heaviest, then by page for the order tried */
	for (size_t i = 0; i < nt && i < PAGES_SEARCH_TARGETS; i++)
		for (size_t j = i + 1; j < nt; j++)
			if (s->tw[s->tl[j]] > s->tw[s->tl[i]] ||
			    (s->tw[s->tl[j]] == s->tw[s->tl[i]] && s->tl[j] < s->tl[i])) {
				uint32_t t = s->tl[i];

				s->tl[i] = s->tl[j];
				s->tl[j] = t;
			}
	for (size_t i = 0; i < nt; i++)
		s->tw[s->tl[i]] = 0;
	return nt < PAGES_SEARCH_TARGETS ? nt : PAGES_SEARCH_TARGETS;
}

/* The weighted pages counted on the pages (each net's weight times the
 * pages it uses), as they change when r moves from its page to t. */
static int64_t wbins_delta(const struct pages *p, uint32_t r, uint32_t t)
{
	uint32_t from = p->bin_of[r];
	int64_t d = 0;

	for (uint32_t i = p->inc_start[r]; i < p->inc_start[r + 1]; i++) {
		const struct pg_net *e = &p->nets[p->inc[i]];

		d += (int64_t)e->w * ((pages_net_count(e, t) == 0) -
				      (pages_net_count(e, from) == 1));
	}
	return d;
}

/* The page r goes to the end of where the replay costs least, below
 * *cost (lowered to it), with the weighted pages up to the limit; or NONE.
 * The limit is kept on the pages as made (wbins_delta(), O(r's nets));
 * the addresses of the pages back to back can put a page's functions over
 * a boundary, which the judge (layout_pages.c) counts in full. */
static uint32_t search_node(struct pages *p, struct pg_search *s, uint32_t r, double *cost)
{
	uint32_t from = p->bin_of[r], pos = 0, cand[PAGES_SEARCH_TARGETS];
	double cc[PAGES_SEARCH_TARGETS];
	size_t nt = search_targets(p, s, r), nc = 0;
	uint64_t m[GEOM_MAX_TLB];

	while (p->bins[from].m[pos] != r)
		pos++;
	for (size_t i = 0; i < nt && s->evals; i++) {
		uint32_t t = s->tl[i];
		double c;

		pages_move(p, r, t);
		search_eval(p, s, m);
		c = search_cost(s, m);
		pages_move_back(p, r, from, pos);
		if (c < *cost) {
			cand[nc] = t;
			cc[nc++] = c;
		}
	}
	while (nc) {
		size_t b = 0;
		int64_t d;

		for (size_t i = 1; i < nc; i++)
			if (cc[i] < cc[b] || (cc[i] == cc[b] && cand[i] < cand[b]))
				b = i;
		d = wbins_delta(p, r, cand[b]);
		if (d <= 0 || s->wbins + (uint64_t)d <= s->wbins_limit) {
			s->wbins += (uint64_t)d;
			*cost = cc[b];
			return cand[b];
		}
		cand[b] = cand[--nc];
		cc[b] = cc[nc];
	}
	return NONE;
}

/* a move of the search, to undo and redo it */
struct pg_move {
	uint32_t r, from, pos, to;
};

/* From the first `at` moves of log to the first k: undone last first
 * (pages_move_back() puts each function back where it was), or redone. */
static void search_goto(struct pages *p, const struct pg_move *log, size_t at, size_t k)
{
	for (; at > k; at--)
		pages_move_back(p, log[at - 1].r, log[at - 1].from, log[at - 1].pos);
	for (; at < k; at++)
		pages_move(p, log[at].r, log[at].to);
}

/*
 * The limit was kept on the pages as made; laid out back to back, pages
 * cross boundaries and the weighted pages can come out over it. Then keep
 * the longest first part of the moves that stays within it (a bisection:
 * each count is a pass over every net). Returns the moves kept.
 */
static size_t search_within(struct pages *p, struct pg_search *s, const struct pg_move *log,
			    size_t n, uint64_t limit)
{
	size_t lo = 0, hi = n, at = n;

	s->n = pages_concat_bins(p, s->order);
	if (pages_weighted_pages(p, s->order, s->n, false, s->addr, s->pg) <= limit)
		return n;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		search_goto(p, log, at, mid);
		at = mid;
		s->n = pages_concat_bins(p, s->order);
		if (pages_weighted_pages(p, s->order, s->n, false, s->addr, s->pg) <= limit)
			lo = mid;
		else
			hi = mid;
	}
	search_goto(p, log, at, lo);
	return lo;
}

/*
 * Passes over the functions on a net, hottest first, while one gains, each
 * move keeping the weighted pages up to limit. Returns whether anything
 * moved.
 */
bool pages_search_misses(struct pages *p, const struct layout_opts *opts, uint64_t limit,
			  uint64_t *pg, char *why, size_t len)
{
	const struct cgraph *cg = p->cg;
	size_t nn = NONZERO(cg->nnodes);
	struct pg_search s = { 0 };
	uint64_t m[GEOM_MAX_TLB], budget, wp;
	struct pg_move *log = NULL;
	size_t nlog = 0, caplog = 0, kept;
	double cur, start;
	bool moved = false;

	if (len)
		why[0] = '\0';
	s.ps = pagesim_new(cg, cg->nseq ? PAGES_SEARCH_SEQ_RUNS : PAGES_SEARCH_RUNS,
			   &opts->geom);
	s.nsizes = opts->geom.ntlb;
	for (size_t k = 0; k < s.nsizes; k++)
		s.slot[k] = k;
	s.evals = (opts->search_work ? opts->search_work :
		   cg->nseq ? PAGES_SEARCH_SEQ_WORK : PAGES_SEARCH_WORK) /
		  (pagesim_visits(s.ps) + nn);
	if (s.evals < (uint64_t)p->nsel * PAGES_SEARCH_TRIES) {
		/* too large a profile for the budget: no pass would end */
		snprintf(why, len, "its budget gives %" PRIu64 " replays of %" PRIu64 " node "
			 "visits, too few to try %zu functions %d times; give a shorter input "
			 "or --coverage", s.evals, pagesim_visits(s.ps), p->nsel,
			 PAGES_SEARCH_TRIES);
		pagesim_free(s.ps);
		return false;
	}
	budget = s.evals;
	s.page = xmallocarray(nn, sizeof(*s.page));
	s.span = xmallocarray(nn, sizeof(*s.span));
	s.order = xmallocarray(nn, sizeof(*s.order));
	s.addr = xmallocarray(nn, sizeof(*s.addr));
	s.tw = xcalloc(p->nbins + 1, sizeof(*s.tw));
	s.tl = xmallocarray(p->nbins + 1, sizeof(*s.tl));
	s.pg = pg;
	search_fixed(p, &s);
	search_eval(p, &s, m);
	/* the limit on the weighted pages, scaled to the pages as made */
	for (size_t i = 0; i < p->nnets; i++)
		s.wbins += p->nets[i].w * p->nets[i].nc;
	wp = pages_weighted_pages(p, s.order, s.n, false, s.addr, s.pg);
	s.wbins_limit = wp > limit ? s.wbins :
			(uint64_t)((double)s.wbins * (double)limit / (double)NONZERO(wp));
	for (size_t k = 0; k < s.nsizes; k++)
		s.ref[k] = m[k] ? (double)m[k] : 1.0;
	cur = start = search_cost(&s, m);
	/* only first references miss: every page fits, nothing to gain */
	if (!search_sizes(&s, cg, &opts->geom, m))
		s.evals = 0;
	for (int pass = 0; pass < PAGES_SEARCH_PASSES && s.evals; pass++) {
		bool gain = false;

		for (uint32_t r = 0; r < p->nsel && s.evals; r++) {
			uint32_t t, from = p->bin_of[r];

			if (p->inc_start[r] == p->inc_start[r + 1] || p->bins[from].big)
				continue;
			t = search_node(p, &s, r, &cur);
			if (t == NONE)
				continue;
			XGROW(log, caplog, nlog + 1);
			log[nlog].r = r;
			log[nlog].from = from;
			for (log[nlog].pos = 0; p->bins[from].m[log[nlog].pos] != r; log[nlog].pos++)
				;
			log[nlog++].to = t;
			pages_move(p, r, t);
			gain = true;
		}
		if (!gain)
			break;
	}
	kept = search_within(p, &s, log, nlog, limit);
	moved = kept > 0;
	pr_debug("pages: search: %" PRIu64 " replays of %" PRIu64 " visits, cost %.4f -> %.4f "
		 "(%zu sizes), %zu of %zu moves kept within the weighted pages", budget - s.evals,
		 pagesim_visits(s.ps), start, cur, s.nsizes, kept, nlog);
	free(log);
	free(s.tl);
	free(s.tw);
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
