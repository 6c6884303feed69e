// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * model.c - the cost of a layout: pages per hot path against their lower
 * bound, the executed set's pages, and a replay of the paths through the
 * I-TLB simulator (one per TLB size) and the I-cache model. See model.h for
 * the replay's definition; everything here is deterministic.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "lib/warn.h"
#include "lib/xalloc.h"
#include "model/model.h"

void model_opts_default(struct model_opts *mo)
{
	memset(mo, 0, sizeof(*mo));
	geom_default(&mo->geom);
}

/* Append the page numbers of [a, a+s) to pg (room checked by the caller's
 * growth); returns the new count. */
static size_t add_pages(uint64_t **pg, size_t *cap, size_t n, uint64_t a, uint64_t s,
			unsigned int shift)
{
	uint64_t first = a >> shift, last = (a + NONZERO(s) - 1) >> shift;

	for (uint64_t p = first; p <= last; p++) {
		XGROW(*pg, *cap, n + 1);
		(*pg)[n++] = p;
	}
	return n;
}

static size_t count_distinct(uint64_t *pg, size_t n)
{
	size_t d = 0;

	if (n)
		qsort(pg, n, sizeof(*pg), cmp_u64);
	for (size_t i = 0; i < n; i++)
		if (!i || pg[i] != pg[i - 1])
			d++;
	return d;
}

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
	return a / b + !!(a % b);
}

/* Runs of a unit of weight w out of total tw: at least one if w > 0. */
static uint64_t run_count(uint64_t w, uint64_t tw, uint64_t budget)
{
	uint64_t k;

	if (!w)
		return 0;
	k = (uint64_t)llround((double)w / (double)NONZERO(tw) * (double)budget);
	return NONZERO(k);
}

struct run {
	double key;
	uint32_t path;
};

static int cmp_run(const void *a, const void *b)
{
	const struct run *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->path > y->path) - (x->path < y->path);
}

/* Unit i runs rw[i] times, in the stride order; *out: the unit of each run. */
static size_t interleave(const uint64_t *rw, size_t n, uint32_t **out)
{
	struct run *runs;
	size_t nruns = 0;

	for (size_t i = 0; i < n; i++)
		nruns += rw[i];
	runs = xcalloc(nruns, sizeof(*runs));
	nruns = 0;
	for (size_t i = 0; i < n; i++)
		for (uint64_t j = 0; j < rw[i]; j++)
			runs[nruns++] = (struct run){ ((double)j + 0.5) / (double)rw[i],
						      (uint32_t)i };
	qsort(runs, nruns, sizeof(*runs), cmp_run);
	*out = xmallocarray(nruns, sizeof(**out));
	for (size_t x = 0; x < nruns; x++)
		(*out)[x] = runs[x].path;
	free(runs);
	return nruns;
}

/*
 * A sequence (cg->seq) is replayed as it is; cut to a budget, as
 * MODEL_SEQ_STRETCHES stretches of it spread evenly, so that every phase
 * of a workload has its part.
 */
#define MODEL_SEQ_STRETCHES 8

static size_t seq_runs(const struct cgraph *cg, uint64_t budget, uint32_t **runs)
{
	size_t n = 0, k, len;

	if (!budget || budget >= cg->nseq) {
		*runs = xmallocarray(cg->nseq, sizeof(**runs));
		memcpy(*runs, cg->seq, cg->nseq * sizeof(**runs));
		return cg->nseq;
	}
	/* k stretches of len runs, start i at i * nseq / k: they never overlap,
	 * since len <= budget / k < nseq / k */
	k = budget < MODEL_SEQ_STRETCHES ? (size_t)budget : MODEL_SEQ_STRETCHES;
	len = (size_t)budget / k;
	*runs = xmallocarray(len * k, sizeof(**runs));
	for (size_t i = 0; i < k; i++)
		for (size_t j = 0; j < len; j++)
			(*runs)[n++] = cg->seq[i * cg->nseq / k + j];
	return n;
}

size_t model_runs(const struct cgraph *cg, uint64_t budget, uint32_t **runs)
{
	uint64_t *rw, tw = 0;
	size_t n;

	if (cg->nseq)
		return seq_runs(cg, budget, runs);
	rw = xcalloc(cg->npaths, sizeof(*rw));
	for (size_t i = 0; i < cg->npaths; i++)
		tw += cg->paths[i].weight;
	for (size_t i = 0; i < cg->npaths; i++)
		rw[i] = run_count(cg->paths[i].weight, tw, budget ? budget : MODEL_DEFAULT_BUDGET);
	n = interleave(rw, cg->npaths, runs);
	free(rw);
	return n;
}

/* The paths to evaluate: the graph's, or one per hot node. */
struct pathview {
	const uint32_t *nodes;
	uint32_t n;
	uint64_t weight;
	const struct cg_path *path;	/* what each position ran; NULL: the nodes' */
};

/* One reference to [@a, @a + @len): each TLB's pages (their misses to @mp's,
 * when given) and the I-cache's lines. */
static void fetch(struct tlbsim **tlb, size_t ntlb, struct icache *ic, struct model_path *mp,
		  uint64_t a, uint64_t len)
{
	for (size_t k = 0; k < ntlb; k++) {
		unsigned int m = tlbsim_access_range(tlb[k], a, len);

		if (mp)
			mp->tlb_misses[k] += m;
	}
	if (ic)
		icache_access_range(ic, a, len);
}

int model_eval_sized(const struct cgraph *cg, const uint64_t *addr, const uint64_t *size,
		     const struct model_opts *mo, struct model_result *r)
{
	const struct geometry *g = &mo->geom;
	struct tlbsim *tlb[GEOM_MAX_TLB] = { 0 };
	struct icache *ic = NULL;
	struct pathview *pv = NULL;
	uint32_t *single = NULL, *mark = NULL;
	uint64_t *pg = NULL, budget = mo->budget ? mo->budget : MODEL_DEFAULT_BUDGET;
	size_t npv = 0, pgcap = 0, n;
	uint32_t *runs = NULL;
	uint64_t *rw = NULL;
	size_t nruns = 0;
	unsigned int shift = 0;
	int err = 0;

	memset(r, 0, sizeof(*r));
	if (!g->page_size || (g->page_size & (g->page_size - 1)) || g->ntlb > GEOM_MAX_TLB) {
		pr_err("model: page size %" PRIu64 " with %zu TLB sizes; give a power-of-2 page "
		       "and at most %d TLB sizes", g->page_size, g->ntlb, GEOM_MAX_TLB);
		return -EINVAL;
	}
	for (uint64_t p = g->page_size; p > 1; p >>= 1)
		shift++;
	for (size_t i = 0; i < cg->nnodes; i++) {
		if (addr[i] == UINT64_MAX) {
			pr_err("model: function #%zu has no address; place every node before "
			       "evaluating a layout", i);
			return -EINVAL;
		}
	}
	for (size_t k = 0; k < g->ntlb; k++) {
		err = tlbsim_new(&tlb[k], g, g->tlb_entries[k]);
		if (err)
			goto out;
	}
	if (g->icache.size) {
		err = icache_new(&ic, &g->icache);
		if (err)
			goto out;
	}

	/* the paths, or the node stream */
	if (cg->npaths) {
		pv = xcalloc(cg->npaths, sizeof(*pv));
		for (size_t i = 0; i < cg->npaths; i++)
			pv[npv++] = (struct pathview){ cg->paths[i].nodes, cg->paths[i].n,
						       cg->paths[i].weight, &cg->paths[i] };
	} else {
		r->node_stream = true;
		single = xcalloc(cg->nnodes, sizeof(*single));
		pv = xcalloc(cg->nnodes, sizeof(*pv));
		for (size_t i = 0; i < cg->nnodes; i++) {
			if (!cg->nodes[i].weight)
				continue;
			single[i] = (uint32_t)i;
			pv[npv++] = (struct pathview){ &single[i], 1, cg->nodes[i].weight, NULL };
		}
	}
	r->npaths = npv;
	r->paths = xcalloc(npv, sizeof(*r->paths));

	/* pages per path against the bound */
	mark = xcalloc(cg->nnodes, sizeof(*mark));
	for (size_t i = 0; i < npv; i++) {
		struct model_path *mp = &r->paths[i];

		uint64_t movable = 0;
		size_t nfixed;

		/* the fixed functions' pages first, to count them apart */
		n = 0;
		mp->weight = pv[i].weight;
		for (uint32_t j = 0; j < pv[i].n; j++) {
			uint32_t v = pv[i].nodes[j];
			uint64_t s = size ? size[v] : cg->nodes[v].size;

			if (mark[v] == i + 1 || cg->nodes[v].movable)
				continue;
			mark[v] = (uint32_t)i + 1;
			mp->nfuncs++;
			mp->bytes += s;
			n = add_pages(&pg, &pgcap, n, addr[v], s, shift);
		}
		nfixed = count_distinct(pg, n);
		for (uint32_t j = 0; j < pv[i].n; j++) {
			uint32_t v = pv[i].nodes[j];
			uint64_t s = size ? size[v] : cg->nodes[v].size;

			if (mark[v] == i + 1)
				continue;
			mark[v] = (uint32_t)i + 1;
			mp->nfuncs++;
			mp->bytes += s;
			movable += s;
			n = add_pages(&pg, &pgcap, n, addr[v], s, shift);
		}
		mp->pages = (uint32_t)count_distinct(pg, n);
		mp->bound = (uint32_t)ceil_div(mp->bytes, g->page_size);
		mp->fixed_bound = (uint32_t)(ceil_div(movable, g->page_size) + nfixed);
		r->wfixed_bound += mp->weight * mp->fixed_bound;
		r->weight += mp->weight;
		r->wpages += mp->weight * mp->pages;
		r->wbound += mp->weight * mp->bound;
	}

	/* the executed set */
	n = 0;
	for (size_t v = 0; v < cg->nnodes; v++) {
		uint64_t s = size ? size[v] : cg->nodes[v].size;

		r->set_nodes++;
		r->set_bytes += s;
		n = add_pages(&pg, &pgcap, n, addr[v], s, shift);
	}
	r->set_pages = count_distinct(pg, n);
	r->set_bound = (size_t)ceil_div(r->set_bytes, g->page_size);

	/* the replay: runs interleaved by stride order; with replay_nodes the
	 * nodes' weights are replayed instead of the paths */
	if (mo->replay_nodes && cg->npaths) {
		uint64_t tw = 0;

		r->node_stream = true;
		free(pv);
		pv = xcalloc(cg->nnodes, sizeof(*pv));
		single = xcalloc(cg->nnodes, sizeof(*single));
		npv = 0;
		for (size_t i = 0; i < cg->nnodes; i++) {
			if (!cg->nodes[i].weight)
				continue;
			single[i] = (uint32_t)i;
			pv[npv++] = (struct pathview){ &single[i], 1, cg->nodes[i].weight, NULL };
			tw += cg->nodes[i].weight;
		}
		rw = xcalloc(npv, sizeof(*rw));
		for (size_t i = 0; i < npv; i++)
			rw[i] = run_count(pv[i].weight, tw, budget);
	} else if (cg->npaths) {
		/* model_runs(): by weight, or in the order they ran, all of them */
		r->sequence = cg->nseq != 0;
		nruns = model_runs(cg, cg->nseq ? 0 : budget, &runs);
		for (size_t x = 0; x < nruns; x++)
			r->paths[runs[x]].runs++;
	} else {
		rw = xcalloc(npv, sizeof(*rw));
		for (size_t i = 0; i < npv; i++)
			rw[i] = r->paths[i].runs = run_count(pv[i].weight, r->weight, budget);
	}
	if (!runs)
		nruns = interleave(rw, npv, &runs);
	for (size_t x = 0; x < nruns; x++) {
		const struct pathview *p = &pv[runs[x]];
		struct model_path *mp = r->node_stream && cg->npaths ? NULL
								     : &r->paths[runs[x]];

		for (uint32_t j = 0; j < p->n; j++) {
			uint32_t v = p->nodes[j];
			uint64_t off, len;

			/* the bytes that ran: a function over two pages whose
			 * samples all lie on one costs that one; in a path of
			 * windows, those this path's samples hit */
			uint64_t s = size ? size[v] : cg->nodes[v].size;
			const struct ranges *xr = p->path ? cg_path_ranges(p->path, j) : NULL;

			/* with ranges, those it ran, not the lines between */
			for (uint32_t q = 0; xr && q < xr->n; q++)
				if (cg_ran_within(xr->v[2 * q], xr->v[2 * q + 1] - xr->v[2 * q], s,
						  &off, &len))
					fetch(tlb, g->ntlb, ic, mp, addr[v] + off, len);
			if (xr)
				continue;
			if (p->path)
				cg_path_ran(p->path, j, &cg->nodes[v], s, &off, &len);
			else
				cg_node_ran(&cg->nodes[v], s, &off, &len);
			fetch(tlb, g->ntlb, ic, mp, addr[v] + off, len);
		}
	}
	r->runs = nruns;
	for (size_t k = 0; k < g->ntlb; k++) {
		r->tlb_misses[k] = tlbsim_stats(tlb[k])->misses;
		r->tlb_refs = tlbsim_stats(tlb[k])->refs;
	}
	if (ic) {
		r->icache_refs = icache_stats(ic)->refs;
		r->icache_misses = icache_stats(ic)->misses;
	}
out:
	for (size_t k = 0; k < GEOM_MAX_TLB; k++)
		tlbsim_free(tlb[k]);
	icache_free(ic);
	free(runs);
	free(rw);
	free(pg);
	free(mark);
	free(single);
	free(pv);
	if (err)
		model_result_free(r);
	return err;
}

int model_eval(const struct cgraph *cg, const uint64_t *addr, const struct model_opts *mo,
	       struct model_result *r)
{
	return model_eval_sized(cg, addr, NULL, mo, r);
}

void model_result_free(struct model_result *r)
{
	if (!r)
		return;
	free(r->paths);
	r->paths = NULL;
	r->npaths = 0;
}

double model_mean_pages(const struct model_result *r)
{
	return r->weight ? (double)r->wpages / (double)r->weight : 0;
}

double model_mean_bound(const struct model_result *r)
{
	return r->weight ? (double)r->wbound / (double)r->weight : 0;
}

double model_mean_fixed_bound(const struct model_result *r)
{
	return r->weight ? (double)r->wfixed_bound / (double)r->weight : 0;
}
