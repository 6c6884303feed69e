// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * layout_pages.c - hotpack's own order, the driver: it minimises what the
 * model counts, the weighted pages of the hot paths, then the misses. The
 * words (net, free function, page, big function, signature, refine, lay
 * out, candidate, classic order, seed, score, bars, slack, margin, tie, pick,
 * search, mend, windows) are defined in docs/layout.md, "pages: the words",
 * which also gives the steps in full:
 *
 * 1. Nets from the paths (or call arcs), the heaviest kept past
 *    PAGES_MAX_MEMBERS memberships (build_nets()).
 * 2. Pages made from the nets or by signature (layout_pages_bins.c).
 * 3. Refine (layout_pages_refine.c).
 * 4. Lay out (layout_pages_lay_out.c).
 * 5. Candidates (pages_candidates[]), each scored (score_misses(); those
 *    that tie on every TLB size also on the I-cache, score_icache_ties()); the
 *    pick clears the bars if any candidate does, is within the slack of the
 *    fewest weighted pages, misses fewest, and beats the classic order with
 *    the fewest misses by the margin or is that order (pick()).
 * 6. Search the pick (search_pick(); layout_pages_search.c).
 * 7. Mend it (mend_pick(); layout_pages_search.c).
 * On windows the pick is the classic order the model rates first (no
 * mend; the search only when asked for).
 *
 * Bytes count alignment: a function takes its size rounded up to its
 * alignment, and a page lays out its functions by falling alignment, so the
 * sum is exact. Ties everywhere: hot rank (weight, address, name).
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "layout/layout.h"
#include "layout/layout_pages_bins.h"
#include "layout/layout_pages_lay_out.h"
#include "layout/layout_pages_refine.h"
#include "layout/layout_pages_search.h"
#include "lib/util.h"
#include "lib/warn.h"
#include "lib/xalloc.h"
#include "model/model.h"
#include "model/pagesim.h"
#include "place/place.h"

/* net memberships above which refinement limits its swaps and passes */
#define PAGES_LARGE 100000
/* net memberships kept at most: beyond, only the heaviest nets (ties: the
 * order of the paths), so that the cost is bounded whatever the profile */
#define PAGES_MAX_MEMBERS 250000
/* the same for windows with their sequence (cg->seq): a net left out takes
 * the sequence out of the model and the search (replay_order(),
 * search_pick()), and the kernel loop's nine families' windows hold 299,375
 * memberships; the cost stays bounded by the search's budget */
#define PAGES_MAX_MEMBERS_SEQ 1000000

/* ---- nets ---- */

static void add_net(struct pages *p, const uint32_t *nodes, uint32_t n, uint64_t w,
		    uint32_t src, size_t *cap, uint32_t *seen, uint32_t stamp)
{
	struct pg_net *e;

	if (!w)
		return;
	XGROW(p->nets, *cap, p->nnets + 1);
	e = &p->nets[p->nnets];
	memset(e, 0, sizeof(*e));
	e->w = w;
	e->src = src;
	e->v = xmallocarray(n, sizeof(*e->v));
	for (uint32_t i = 0; i < n; i++) {
		uint32_t r = p->rank[nodes[i]];

		if (r == NONE || seen[r] == stamp)
			continue;
		seen[r] = stamp;
		e->v[e->n++] = r;
	}
	if (e->n < 2) {		/* a net on one page costs the same anywhere */
		free(e->v);
		return;
	}
	p->nnets++;
}

static int cmp_net_weight(const void *a, const void *b, void *ctx);

/*
 * Keep the heaviest nets up to PAGES_MAX_MEMBERS memberships (ties: the
 * order they came in), in their order: tens of thousands of distinct
 * sampled stacks each of weight 1 or 2 say little one by one, and every
 * step after this costs in proportion to the memberships.
 */
static void cap_nets(struct pages *p)
{
	size_t total = 0, kept = 0, budget = 0;
	size_t max = p->cg->nseq ? PAGES_MAX_MEMBERS_SEQ : PAGES_MAX_MEMBERS;
	uint32_t *idx;
	bool *keep;

	for (size_t i = 0; i < p->nnets; i++)
		total += p->nets[i].n;
	if (total <= max)
		return;
	idx = xmallocarray(p->nnets, sizeof(*idx));
	keep = xcalloc(p->nnets, sizeof(*keep));
	for (size_t i = 0; i < p->nnets; i++)
		idx[i] = (uint32_t)i;
	qsort_r(idx, p->nnets, sizeof(*idx), cmp_net_weight, p);
	for (size_t i = 0; i < p->nnets; i++) {
		if (budget + p->nets[idx[i]].n > max)
			break;
		budget += p->nets[idx[i]].n;
		keep[idx[i]] = true;
	}
	for (size_t i = 0; i < p->nnets; i++) {
		if (keep[i])
			p->nets[kept++] = p->nets[i];
		else
			free(p->nets[i].v);
	}
	p->dropped = p->nnets - kept;
	p->nnets = kept;
	free(keep);
	free(idx);
}

static void build_nets(struct pages *p)
{
	const struct cgraph *cg = p->cg;
	uint32_t *seen = xcalloc(p->nsel, sizeof(*seen));
	size_t cap = 0, total = 0;
	uint32_t stamp = 0;

	if (cg->npaths) {
		for (size_t i = 0; i < cg->npaths; i++)
			add_net(p, cg->paths[i].nodes, cg->paths[i].n, cg->paths[i].weight,
				(uint32_t)i, &cap, seen, ++stamp);
	} else {
		for (size_t i = 0; i < cg->narcs; i++) {
			uint32_t two[2] = { cg->arcs[i].src, cg->arcs[i].dst };

			/* as C3 does: a call that is under a tenth of the callee's
			 * heat (a static edge next to sampled weights) says little
			 * about what runs together; the callee goes by heat alone */
			if (cg->arcs[i].weight * 10 < p->heat[cg->arcs[i].dst])
				continue;
			add_net(p, two, 2, cg->arcs[i].weight, NONE, &cap, seen, ++stamp);
		}
	}
	cap_nets(p);
	/* incidence: rank -> nets */
	p->inc_start = xcalloc(p->nsel + 1, sizeof(*p->inc_start));
	for (size_t i = 0; i < p->nnets; i++) {
		for (uint32_t j = 0; j < p->nets[i].n; j++)
			p->inc_start[p->nets[i].v[j] + 1]++;
		total += p->nets[i].n;
	}
	for (size_t r = 0; r < p->nsel; r++)
		p->inc_start[r + 1] += p->inc_start[r];
	p->inc = xmallocarray(total, sizeof(*p->inc));
	p->large = total > PAGES_LARGE;
	memset(seen, 0, p->nsel * sizeof(*seen));
	for (size_t i = 0; i < p->nnets; i++)
		for (uint32_t j = 0; j < p->nets[i].n; j++) {
			uint32_t r = p->nets[i].v[j];

			p->inc[p->inc_start[r] + seen[r]++] = (uint32_t)i;
		}
	free(seen);
}

static int cmp_net_weight(const void *a, const void *b, void *ctx)
{
	const struct pages *p = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (p->nets[x].w != p->nets[y].w)
		return p->nets[x].w > p->nets[y].w ? -1 : 1;
	return (x > y) - (x < y);
}

/*
 * The nets' functions back to back: each net's functions not yet placed
 * form a group (heaviest net first), every free function is a group of its
 * own, and groups go by density (heat over bytes; ties: the order they
 * were made in), so cold members of light nets do not come before hot
 * free functions.
 */
struct pg_group {
	uint32_t first, n;	/* in the member list */
	double density;
	uint32_t seq;
};

static int cmp_group(const void *a, const void *b)
{
	const struct pg_group *x = a, *y = b;

	if (x->density != y->density)
		return x->density > y->density ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

static size_t back_to_back(const struct pages *p, const uint32_t *idx, size_t nnets,
			   bool by_density, uint32_t *order)
{
	bool *in = xcalloc(p->nsel + 1, sizeof(*in));
	uint32_t *mem = xmallocarray(p->nsel, sizeof(*mem));
	struct pg_group *g = xcalloc(p->nsel + p->nnets + 1, sizeof(*g));
	size_t n = 0, nm = 0, ng = 0, ng_nets;

	for (size_t i = 0; i < nnets; i++) {
		const struct pg_net *e = &p->nets[idx[i]];
		struct pg_group *gr = &g[ng];
		double heat = 0, bytes = 0;

		gr->first = (uint32_t)nm;
		for (uint32_t j = 0; j < e->n; j++) {
			if (in[e->v[j]])
				continue;
			in[e->v[j]] = true;
			mem[nm++] = e->v[j];
			heat += (double)p->heat[p->sel[e->v[j]]];
			bytes += (double)p->es[e->v[j]];
		}
		gr->n = (uint32_t)(nm - gr->first);
		if (!gr->n)
			continue;
		gr->density = heat / bytes;
		gr->seq = (uint32_t)ng++;
	}
	ng_nets = ng;
	for (uint32_t r = 0; r < p->nsel; r++) {
		if (in[r])
			continue;
		g[ng] = (struct pg_group){ (uint32_t)nm, 1,
					   (double)p->heat[p->sel[r]] / (double)p->es[r],
					   (uint32_t)ng };
		mem[nm++] = r;
		ng++;
	}
	if (by_density)
		qsort(g, ng, sizeof(*g), cmp_group);
	else	/* the nets' groups as made, then the free functions by density */
		qsort(g + ng_nets, ng - ng_nets, sizeof(*g), cmp_group);
	for (size_t i = 0; i < ng; i++)
		for (uint32_t j = 0; j < g[i].n; j++)
			order[n++] = p->sel[mem[g[i].first + j]];
	free(in);
	free(mem);
	free(g);
	return n;
}

/* ---- the candidates ---- */

/*
 * What a candidate is built from: the pages (with the pages the entry
 * before made still in them), the nets by weight, and the order the entry
 * before built.
 */
struct pg_build {
	struct pages *p;
	const struct layout_opts *opts;
	const uint32_t *idx;		/* nets, heaviest first */
	const uint32_t *netrank;	/* net -> its place in idx */
	const uint32_t *prev;		/* the entry before's order */
	size_t nprev;
};

struct pg_candidate {
	const char *name;
	const char *builds;		/* what it is */
	/* fill order[] (room for every node), *n its count; 0 or -errno */
	int (*build)(const struct pg_build *b, const struct pg_candidate *c, uint32_t *order,
		     size_t *n);
	/* build_pages(): how the pages are made (then refined); NULL: the
	 * pages the entry before made, as they are */
	void (*pack)(const struct pg_build *b);
	enum pg_bin_order lay;		/* build_pages(), build_back_to_back() */
	const struct layout_algo *classic;	/* a classic order as it is (it sets
						 * the bars), else NULL */
	bool without_nets;		/* built when there are no nets too (the
					 * others have nothing to refine then) */
};

static void pack_nets(const struct pg_build *b)
{
	pages_pack_nets(b->p, b->idx);
}

static void pack_signature(const struct pg_build *b)
{
	pages_pack_signature(b->p, b->netrank);
}

static void pack_order_before(const struct pg_build *b)
{
	pages_pack_order(b->p, b->prev, b->nprev);
}

/* pages made (c->pack), refined and laid out (c->lay) */
static int build_pages(const struct pg_build *b, const struct pg_candidate *c, uint32_t *order,
		       size_t *n)
{
	if (c->pack) {
		pages_reset(b->p);
		c->pack(b);
		pages_refine(b->p);
	}
	*n = pages_lay_out(b->p, c->lay, order);
	return 0;
}

/* the nets' functions back to back, the groups as made (BINS_BY_NETS) or by density */
static int build_back_to_back(const struct pg_build *b, const struct pg_candidate *c,
			      uint32_t *order, size_t *n)
{
	*n = back_to_back(b->p, b->idx, b->p->nnets, c->lay == BINS_BY_DENSITY, order);
	return 0;
}

/* every function a group of its own: plain density */
static int build_density(const struct pg_build *b, const struct pg_candidate *c,
			 uint32_t *order, size_t *n)
{
	(void)c;
	*n = back_to_back(b->p, b->idx, 0, false, order);
	return 0;
}

static int build_classic(const struct pg_build *b, const struct pg_candidate *c,
			 uint32_t *order, size_t *n)
{
	return layout_run(c->classic, b->p->cg, b->opts, order, n);
}

/*
 * Built in this order, which is also the order ties go by (see pick()).
 * ph is taken as it is only: its pages refined were never the pick and
 * cost a tenth of the run on large graphs.
 */
static const struct pg_candidate pages_candidates[] = {
	{ .name = "nets", .build = build_pages, .pack = pack_nets, .lay = BINS_BY_NETS,
	  .builds = "pages made from the nets, refined, hottest nets' pages first" },
	{ .name = "nets-density", .build = build_pages, .lay = BINS_BY_DENSITY,
	  .builds = "the same pages by density" },
	{ .name = "signature", .build = build_pages, .pack = pack_signature, .lay = BINS_BY_NETS,
	  .builds = "pages made by signature, refined, hottest nets' pages first" },
	{ .name = "signature-density", .build = build_pages, .lay = BINS_BY_DENSITY,
	  .builds = "the same pages by density" },
	{ .name = "back-to-back", .build = build_back_to_back, .lay = BINS_BY_NETS,
	  .builds = "the nets' functions back to back, heaviest net first" },
	{ .name = "groups-density", .build = build_back_to_back, .lay = BINS_BY_DENSITY,
	  .builds = "the nets' functions back to back, groups by density" },
	{ .name = "density", .build = build_density, .without_nets = true,
	  .builds = "every function by density" },
	{ .name = "cds", .build = build_classic, .classic = &layout_cds, .without_nets = true,
	  .builds = "cds's order as it is" },
	{ .name = "cds-pages", .build = build_pages, .pack = pack_order_before, .lay = BINS_AS_MADE,
	  .builds = "cds's order cut into pages, refined, in its sequence" },
	{ .name = "c3", .build = build_classic, .classic = &layout_c3, .without_nets = true,
	  .builds = "c3's order as it is" },
	{ .name = "c3-pages", .build = build_pages, .pack = pack_order_before, .lay = BINS_AS_MADE,
	  .builds = "c3's order cut into pages, refined, in its sequence" },
	{ .name = "ph", .build = build_classic, .classic = &layout_ph, .without_nets = true,
	  .builds = "ph's order as it is" },
};

#define PAGES_CANDIDATES (sizeof(pages_candidates) / sizeof(pages_candidates[0]))

/*
 * A candidate's score: the weighted pages over the nets, and the
 * misses of a replay through the TLBs of the geometry (every size, its
 * ways and pinned ranges): the paths when the graph has any, else the
 * functions by heat. Nodes the order leaves out keep their image address
 * (or a far page of their own). The misses weigh as one objective over
 * the sizes (docs/layout.md, "cost"): each size's in units of the fewest
 * any candidate has there, summed, so that 8 entries' hundreds of
 * thousands do not drown 128 entries' hundreds.
 *
 * The geometry's I-cache breaks ties of the TLB misses, before the
 * weighted pages, and is replayed only for candidates that tie (on 2 MiB
 * pages, where every candidate's hot set fits the TLB, that is all of
 * them). It is no term of the cost: whole functions replayed are not the
 * lines the machine fetches, and on the kernel loop the model ranked two
 * layouts whose I-cache misses differ by under 2% as the emulator did no
 * more often than a coin (docs/layout.md, step 5).
 */
struct pg_score {
	uint64_t wpages;
	uint64_t misses[GEOM_MAX_TLB];	/* by the geometry's TLB sizes */
	size_t nsizes;
	double cost;		/* the misses over the sizes (set_costs()) */
	uint64_t icache;	/* I-cache misses; UINT64_MAX: not replayed */
};

/* runs replayed to score a candidate: fewer for paths (each run is long)
 * than for single functions, where rare ones need the longer stream */
#define PAGES_SCORE_BUDGET_PATHS 5000
#define PAGES_SCORE_BUDGET_NODES MODEL_DEFAULT_BUDGET

/* The model's replay of order[] (mo: what it simulates), into *r. */
static int replay_order(const struct pages *p, struct model_opts *mo, const uint32_t *order,
			size_t n, uint64_t *addr, struct model_result *r)
{
	const struct cgraph *cg = p->cg;
	struct cgraph view;
	int err;

	mo->budget = cg->npaths ? PAGES_SCORE_BUDGET_PATHS : PAGES_SCORE_BUDGET_NODES;
	place_order(cg, order, n, 1ull << 44, addr);
	pages_place_rest(p, addr);
	/* with nets left out (cap_nets()), replay the paths kept: every path
	 * runs at least once, so the replay would grow with the profile */
	view = *cg;
	if (p->dropped && cg->npaths) {
		view.paths = xmallocarray(p->nnets, sizeof(*view.paths));
		view.npaths = 0;
		view.seq = NULL;	/* its indices are the whole graph's */
		view.nseq = 0;
		for (size_t i = 0; i < p->nnets; i++)
			if (p->nets[i].src != NONE)
				view.paths[view.npaths++] = cg->paths[p->nets[i].src];
	}
	err = model_eval(view.npaths || !cg->npaths ? &view : cg, addr, mo, r);
	if (view.paths != cg->paths)
		free(view.paths);
	return err;
}

static int score_misses(const struct pages *p, const struct layout_opts *opts,
			const uint32_t *order, size_t n, uint64_t *addr, struct pg_score *sc)
{
	struct model_opts mo = { .geom = opts->geom };
	struct model_result r = { 0 };
	int err;

	mo.geom.icache.size = 0;
	err = replay_order(p, &mo, order, n, addr, &r);
	sc->nsizes = mo.geom.ntlb;
	for (size_t k = 0; k < sc->nsizes; k++)
		sc->misses[k] = err ? UINT64_MAX : r.tlb_misses[k];
	sc->cost = 0;
	sc->icache = UINT64_MAX;
	model_result_free(&r);
	return err;
}

/*
 * Which candidate: the fewest misses with the TLB size asked for; ties
 * (typically when every candidate's hot set fits, and only cold misses
 * remain) go to half that size, then a quarter, then fewer weighted pages,
 * then the earlier candidate. With paths, only candidates within the slack,
 * PAGES_SLACK_PCT of the fewest weighted pages, take part, so pages per
 * path stay the first objective.
 */
#define PAGES_SLACK_PCT 5
/*
 * The model replays a profile, not the machine: on the kernel loop a pick
 * 0.4% under cds's misses in the model took 7% more on the machine. So a
 * candidate of pages' own that misses less than the classic order with
 * the fewest misses (at the TLB size asked for) must miss less by the
 * margin, PAGES_MARGIN_PCT, else that classic order is taken. (Ties, as when every hot page
 * fits, still go by the rule above.)
 */
#define PAGES_MARGIN_PCT 2
#define PAGES_SEARCH_ROOM_PCT 5	/* with windows: see search_pick() */

/* a's misses over the sizes in units of b's at each (b's cost: nsizes) */
static double cost_in(const struct pg_score *a, const struct pg_score *b)
{
	double c = 0;

	for (size_t k = 0; k < a->nsizes; k++)
		c += (double)a->misses[k] / (double)(b->misses[k] ? b->misses[k] : 1);
	return c;
}

/* a misses at least PAGES_MARGIN_PCT fewer than b on average over the
 * sizes where they differ (in b's units): a size where every page fits
 * both, with first references only, does not dilute the margin */
static bool fewer_misses(const struct pg_score *a, const struct pg_score *b)
{
	double c = 0;
	size_t n = 0;

	for (size_t k = 0; k < a->nsizes; k++)
		if (a->misses[k] != b->misses[k]) {
			c += (double)a->misses[k] / (double)(b->misses[k] ? b->misses[k] : 1);
			n++;
		}
	return n && c * 100 <= (double)n * (100 - PAGES_MARGIN_PCT);
}

static bool same_misses(const struct pg_score *a, const struct pg_score *b)
{
	return !memcmp(a->misses, b->misses, a->nsizes * sizeof(a->misses[0]));
}

/* Each candidate's cost: its misses at each size in units of the fewest
 * of any candidate there, summed over the sizes. */
static void set_costs(struct pg_score *sc, size_t n)
{
	struct pg_score least = sc[0];

	for (size_t i = 1; i < n; i++)
		for (size_t k = 0; k < least.nsizes; k++)
			if (sc[i].misses[k] < least.misses[k])
				least.misses[k] = sc[i].misses[k];
	for (size_t i = 0; i < n; i++)
		sc[i].cost = cost_in(&sc[i], &least);
}

static bool score_before(const struct pg_score *a, const struct pg_score *b)
{
	if (a->cost != b->cost)
		return a->cost < b->cost;
	if (a->icache != b->icache && a->icache != UINT64_MAX && b->icache != UINT64_MAX)
		return a->icache < b->icache;
	return a->wpages < b->wpages;
}

/* sc->icache for order[], once: the I-cache alone replayed (the TLBs
 * are in sc already); nothing without an I-cache in the geometry. */
static int score_icache(const struct pages *p, const struct layout_opts *opts,
			const uint32_t *order, size_t n, uint64_t *addr, struct pg_score *sc)
{
	struct model_opts mo = { .geom = opts->geom };
	struct model_result r = { 0 };
	int err;

	if (!opts->geom.icache.size || sc->icache != UINT64_MAX)
		return 0;
	mo.geom.ntlb = 0;
	err = replay_order(p, &mo, order, n, addr, &r);
	if (!err)
		sc->icache = r.icache_misses;
	model_result_free(&r);
	return err;
}

/* The I-cache misses of each candidate whose TLB misses are another's at
 * every size. */
static int score_icache_ties(const struct pages *p, const struct layout_opts *opts,
			     uint32_t *const *cand, const size_t *ncand, const size_t *which,
			     struct pg_score *sc, size_t nsc, uint64_t *addr)
{
	int err = 0;

	for (size_t i = 0; i < nsc && !err; i++) {
		bool tied = false;

		for (size_t j = 0; j < nsc && !tied; j++)
			tied = j != i && same_misses(&sc[i], &sc[j]);
		if (tied)
			err = score_icache(p, opts, cand[which[i]], ncand[which[i]], addr, &sc[i]);
	}
	return err;
}

static bool is_classic(size_t c)
{
	return pages_candidates[c].classic;
}

/* The fewest weighted pages and the lowest cost of the classic orders. */
static void classic_bars(const struct pg_score *sc, const size_t *which, size_t n,
			 uint64_t *bar_pages, double *bar_cost)
{
	*bar_pages = UINT64_MAX;
	*bar_cost = 1e300;
	for (size_t i = 0; i < n; i++) {
		if (is_classic(which[i]) && sc[i].wpages < *bar_pages)
			*bar_pages = sc[i].wpages;
		if (is_classic(which[i]) && sc[i].cost < *bar_cost)
			*bar_cost = sc[i].cost;
	}
}

/* The classic order the model rates first (score_before()); SIZE_MAX if none. */
static size_t best_classic(const struct pg_score *sc, const size_t *which, size_t n)
{
	size_t classic = SIZE_MAX;

	for (size_t i = 0; i < n; i++)
		if (is_classic(which[i]) && (classic == SIZE_MAX ||
					     score_before(&sc[i], &sc[classic])))
			classic = i;
	return classic;
}

static size_t pick(const struct pages *p, const struct pg_score *sc, const size_t *which,
		   size_t n)
{
	uint64_t minp = UINT64_MAX, bar_pages = UINT64_MAX;
	double bar_cost;
	size_t best = SIZE_MAX, classic;
	bool clear[PAGES_CANDIDATES], any = false;

	classic_bars(sc, which, n, &bar_pages, &bar_cost);
	/* the candidates that clear both bars, else all of them */
	for (size_t i = 0; i < n; i++)
		clear[i] = sc[i].wpages <= bar_pages && sc[i].cost <= bar_cost;
	for (size_t i = 0; i < n; i++)
		any |= clear[i];
	for (size_t i = 0; i < n; i++)
		if ((clear[i] || !any) && sc[i].wpages < minp)
			minp = sc[i].wpages;
	for (size_t i = 0; i < n; i++) {
		if (any && !clear[i])
			continue;
		if (p->cg->npaths && sc[i].wpages * 100 > minp * (100 + PAGES_SLACK_PCT))
			continue;
		if (best == SIZE_MAX || score_before(&sc[i], &sc[best]))
			best = i;
	}
	if (best == SIZE_MAX)
		return 0;
	/* the classic order with the fewest misses stays when the pick's
	 * are fewer only by less than the margin */
	classic = best_classic(sc, which, n);
	if (classic != SIZE_MAX && !is_classic(which[best]) &&
	    sc[best].cost < sc[classic].cost && !fewer_misses(&sc[best], &sc[classic]))
		return classic;
	return best;
}

/*
 * The pick mended (pages_mend_straddles()) replaces it in order[] when that
 * costs no pages per run (over the nets with paths; else over the
 * functions, which is what the model counts then) and either saves misses
 * at the TLB size asked for by the margin (see pick()) or, missing alike,
 * saves pages and adds no I-cache misses. cur: the model's misses for
 * order[] as it is.
 */
static int mend_pick(const struct pages *p, const struct layout_opts *opts,
		     const struct pg_score *cur, uint32_t *order, size_t *n, uint64_t *addr,
		     uint64_t *pg)
{
	bool spans = !p->cg->npaths;
	uint32_t *m = xmallocarray(*n, sizeof(*m));
	struct pg_score a = *cur, b;
	size_t nm = pages_mend_straddles(p, order, *n, m);
	int err;

	a.wpages = pages_weighted_pages(p, order, *n, spans, addr, pg);
	b.wpages = pages_weighted_pages(p, m, nm, spans, addr, pg);
	err = score_misses(p, opts, m, nm, addr, &b);
	/* missing alike in the TLBs, the mend must not add I-cache misses */
	if (!err && b.wpages < a.wpages && same_misses(&b, &a)) {
		err = score_icache(p, opts, order, *n, addr, &a);
		if (!err)
			err = score_icache(p, opts, m, nm, addr, &b);
	}
	if (!err && b.wpages <= a.wpages &&
	    (fewer_misses(&b, &a) ||
	     (same_misses(&b, &a) && b.wpages < a.wpages && b.icache <= a.icache))) {
		memcpy(order, m, nm * sizeof(*m));
		*n = nm;
	}
	free(m);
	return err;
}

/* Why pages cannot search (search_pick()'s conditions), into @why. */
static void search_cannot(const struct pages *p, char *why, size_t len)
{
	if (!p->cg->npaths || !p->nnets)
		snprintf(why, len, "the profile has no paths (call stacks, traces or "
			 "--addr-window windows) to replay");
	else if (p->dropped)
		snprintf(why, len, "%zu of its %zu nets were left out past %d memberships, and "
			 "the search replays them all; give fewer or shorter inputs "
			 "(--addr-window)", p->dropped, p->dropped + p->nnets,
			 p->cg->nseq ? PAGES_MAX_MEMBERS_SEQ : PAGES_MAX_MEMBERS);
	else
		snprintf(why, len, "its replay models fully associative LRU TLBs of up to %d "
			 "entries, and this geometry's is set-associative, of another model or "
			 "larger", PAGESIM_MAX_ENTRIES);
}

/* Say what the search did in opts->search_out. That it could not run is
 * said (and warned about) only when it was asked for by name: under auto a
 * profile without paths is not searched by design. */
static void search_said(const struct layout_opts *opts, int what, double cost, size_t nsizes,
			const char *why)
{
	struct layout_search_outcome *o = opts->search_out;

	if (what == LAYOUT_SEARCH_NOT_RUN && opts->search != LAYOUT_SEARCH_ON)
		return;
	if (what == LAYOUT_SEARCH_NOT_RUN)
		pr_warn("pages: --search on: not searched: %s", why);
	if (!o)
		return;
	o->what = what;
	o->gain_pct = nsizes ? 100.0 * (1.0 - cost / (double)nsizes) : 0;
	o->nsizes = nsizes;
	snprintf(o->why, sizeof(o->why), "%s", why ? why : "");
}

/*
 * The pick, cut into pages, searched on the misses (pages_search_misses()) and
 * laid out back to back replaces it in order[] when the model counts the
 * margin fewer misses (see pick()) and no more weighted pages than the
 * best classic order. Only with paths (the replay of single functions has
 * no runs to search on), every net kept, and opts->search on (auto: not
 * on windows of an address stream, where the replay does not predict the
 * machine: docs/layout.md). cur: the model's figures for order[], kept
 * current.
 */
static int search_pick(struct pages *p, const struct layout_opts *opts, const struct pg_score *sc,
		       const size_t *which, size_t nsc, size_t best, uint32_t *order, size_t *n,
		       struct pg_score *cur, uint64_t *addr, uint64_t *pg)
{
	uint64_t bar_pages;
	double bar_cost;
	uint32_t *x;
	struct pg_score xs;
	size_t nx;
	char why[200];
	int err;

	if (opts->search_out)
		memset(opts->search_out, 0, sizeof(*opts->search_out));
	if (opts->search == LAYOUT_SEARCH_OFF ||
	    (opts->search == LAYOUT_SEARCH_AUTO && opts->window_paths))
		return 0;
	if (!p->cg->npaths || !p->nnets || p->dropped || !pagesim_fits(&opts->geom)) {
		/* asked for by name, a search that cannot run is said, not skipped */
		search_cannot(p, why, sizeof(why));
		search_said(opts, LAYOUT_SEARCH_NOT_RUN, 0, 0, why);
		return 0;
	}
	classic_bars(sc, which, nsc, &bar_pages, &bar_cost);
	/* windows: pages per window are no goal of their own; the search
	 * may spend PAGES_SEARCH_ROOM_PCT of the pick's on fewer misses */
	if (opts->window_paths)
		bar_pages = sc[best].wpages * (100 + PAGES_SEARCH_ROOM_PCT) / 100;
	if (bar_pages == UINT64_MAX || sc[best].wpages > bar_pages) {
		search_said(opts, LAYOUT_SEARCH_NOT_RUN, 0, 0, "the pick already takes more "
			    "weighted pages than the best classic order, the search's limit");
		return 0;
	}
	pages_reset(p);
	pages_pack_order(p, order, *n);
	if (!pages_search_misses(p, opts, bar_pages, pg, why, sizeof(why))) {
		if (why[0])
			search_said(opts, LAYOUT_SEARCH_NOT_RUN, 0, 0, why);
		else
			search_said(opts, LAYOUT_SEARCH_NOT_KEPT, (double)sc[best].nsizes,
				    sc[best].nsizes, "no move lowered the misses within "
				    "the weighted pages");
		return 0;
	}
	x = xmallocarray(p->cg->nnodes, sizeof(*x));
	nx = pages_concat_bins(p, x);
	xs.wpages = pages_weighted_pages(p, x, nx, false, addr, pg);
	err = score_misses(p, opts, x, nx, addr, &xs);
	pr_debug("pages: the search's result costs %.4f of the pick's %zu, weighted pages "
		 "%" PRIu64 " (limit %" PRIu64 ")", cost_in(&xs, &sc[best]), xs.nsizes, xs.wpages,
		 bar_pages);
	if (!err && fewer_misses(&xs, &sc[best]) && xs.wpages <= bar_pages) {
		memcpy(order, x, nx * sizeof(*x));
		*n = nx;
		search_said(opts, LAYOUT_SEARCH_KEPT, cost_in(&xs, &sc[best]), xs.nsizes, NULL);
		*cur = xs;
	} else if (!err) {
		search_said(opts, LAYOUT_SEARCH_NOT_KEPT, cost_in(&xs, &sc[best]), xs.nsizes,
			    xs.wpages > bar_pages ? "over the weighted pages"
						  : "fewer misses by less than the margin");
	}
	free(x);
	return err;
}

static int pages_run(const struct cgraph *cg, const struct layout_opts *opts, uint32_t *order,
		     size_t *n)
{
	size_t nn = NONZERO(cg->nnodes), maxk = 1;
	struct pages p = { .cg = cg, .page = opts->geom.page_size };
	uint32_t *idx, *netrank, *cand[PAGES_CANDIDATES] = { 0 };
	size_t ncand[PAGES_CANDIDATES], nsc = 0;
	size_t which[PAGES_CANDIDATES];
	struct pg_score sc[PAGES_CANDIDATES];
	uint64_t *addr, *pg;
	int err = 0;

	p.sel = xmallocarray(nn, sizeof(*p.sel));
	p.nsel = layout_select(cg, opts, p.sel);
	p.heat = xcalloc(nn, sizeof(*p.heat));
	layout_heat(cg, p.heat);
	p.rank = xmallocarray(nn, sizeof(*p.rank));
	memset(p.rank, 0xff, nn * sizeof(*p.rank));
	p.es = xmallocarray(p.nsel, sizeof(*p.es));
	p.bin_of = xmallocarray(p.nsel, sizeof(*p.bin_of));
	for (size_t r = 0; r < p.nsel; r++) {
		const struct cg_node *nd = &cg->nodes[p.sel[r]];

		p.rank[p.sel[r]] = (uint32_t)r;
		p.es[r] = align_up(nd->size, NONZERO(nd->align));
		p.bin_of[r] = NONE;
	}
	/* 1. nets, heaviest first */
	build_nets(&p);
	idx = xmallocarray(p.nnets, sizeof(*idx));
	netrank = xmallocarray(p.nnets, sizeof(*netrank));
	for (size_t i = 0; i < p.nnets; i++)
		idx[i] = (uint32_t)i;
	qsort_r(idx, p.nnets, sizeof(*idx), cmp_net_weight, &p);
	for (size_t i = 0; i < p.nnets; i++) {
		size_t k = 0;

		netrank[idx[i]] = (uint32_t)i;
		for (uint32_t j = 0; j < p.nets[i].n; j++)
			k += (p.es[p.nets[i].v[j]] + p.page - 1) / p.page + 1;
		if (k > maxk)
			maxk = k;
	}

	/* 2.-5. the candidates, built in the table's order, then scored */
	addr = xmallocarray(nn, sizeof(*addr));
	pg = xmallocarray(maxk + 1, sizeof(*pg));
	for (size_t c = 0; c < PAGES_CANDIDATES && !err; c++) {
		const struct pg_candidate *e = &pages_candidates[c];
		struct pg_build bd = { .p = &p, .opts = opts, .idx = idx, .netrank = netrank };

		if (c) {
			bd.prev = cand[c - 1];
			bd.nprev = ncand[c - 1];
		}
		ncand[c] = 0;
		if (!p.nnets && !e->without_nets)
			continue;
		cand[c] = xmallocarray(nn, sizeof(**cand));
		err = e->build(&bd, e, cand[c], &ncand[c]);
	}
	for (size_t c = 0; c < PAGES_CANDIDATES && !err; c++) {
		if (!cand[c] || !ncand[c])
			continue;
		sc[nsc].wpages = pages_weighted_pages(&p, cand[c], ncand[c], false, addr, pg);
		err = score_misses(&p, opts, cand[c], ncand[c], addr, &sc[nsc]);
		if (err)
			break;
		which[nsc++] = c;
	}
	if (!err && nsc) {
		set_costs(sc, nsc);
		err = score_icache_ties(&p, opts, cand, ncand, which, sc, nsc, addr);
	}
	if (!err) {
		/* windows of an address stream: the model ranks the classic
		 * orders as the machine does, but not pages' own candidates
		 * nor what the mend finds (docs/layout.md); the search, when
		 * asked for, starts from the classic order */
		bool trusted = !opts->window_paths;
		size_t best = trusted ? SIZE_MAX : best_classic(sc, which, nsc);
		struct pg_score cur;	/* the model's figures for order[] */
		size_t c;

		if (best == SIZE_MAX)
			best = pick(&p, sc, which, nsc);
		c = which[best];
		pr_debug("pages: the pick is candidate %s, %s", pages_candidates[c].name,
			 pages_candidates[c].builds);

		cur = sc[best];
		*n = ncand[c];
		memcpy(order, cand[c], ncand[c] * sizeof(*order));
		err = search_pick(&p, opts, sc, which, nsc, best, order, n, &cur, addr, pg);
		if (!err && trusted)
			err = mend_pick(&p, opts, &cur, order, n, addr, pg);
	}
	for (size_t c = 0; c < PAGES_CANDIDATES; c++)
		free(cand[c]);

	pages_reset(&p);
	for (size_t i = 0; i < p.nnets; i++) {
		free(p.nets[i].v);
		free(p.nets[i].c);
	}
	free(addr);
	free(pg);
	free(netrank);
	free(idx);
	free(p.nets);
	free(p.inc_start);
	free(p.inc);
	free(p.bins);
	free(p.bin_of);
	free(p.es);
	free(p.rank);
	free(p.heat);
	free(p.sel);
	return err;
}

const struct layout_algo layout_pages = {
	.name = "pages",
	.desc = "hotpack's own: paths packed into pages, refined on pages per path",
	.run = pages_run,
	.searches = true,
};
