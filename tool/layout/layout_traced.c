// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * layout_traced.c - explicit paths at their bound: a function_graph trace,
 * or the call chains through a --path-root function, names the path the
 * user wants packed, so every algorithm's order gets the paths' movable
 * functions first. Their block is first built heaviest path first, each
 * path's new functions back to back, then searched (moves of one function)
 * for the order whose paths exceed their reachable bound least, weighted
 * by the paths' weights: a path at its bound touches ceil(movable bytes /
 * page) pages plus the fixed functions' where they are. The model then
 * weighs what the block costs the rest of the profile against what it
 * saves the paths.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout/layout_traced.h"
#include "lib/warn.h"
#include "lib/xalloc.h"
#include "model/model.h"
#include "place/place.h"

bool layout_traced_is(const struct cgraph *cg, const struct layout_opts *opts, size_t i)
{
	(void)opts;	/* windows of a stream are never explicit; trees beside them are */
	return cg->paths[i].traced;
}

/* cg_finish()'s order of paths: weight, then nodes; ties by index. */
static const struct cg_path *cmp_paths;

static int cmp_path_idx(const void *a, const void *b)
{
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	const struct cg_path *x = &cmp_paths[i], *y = &cmp_paths[j];

	if (x->weight != y->weight)
		return x->weight > y->weight ? -1 : 1;
	for (uint32_t k = 0; k < x->n && k < y->n; k++)
		if (x->nodes[k] != y->nodes[k])
			return x->nodes[k] < y->nodes[k] ? -1 : 1;
	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	return (i > j) - (i < j);
}

static void sort_paths(struct cgraph *cg)
{
	uint32_t *idx = xmallocarray(cg->npaths, sizeof(*idx));
	uint32_t *now = xmallocarray(cg->npaths, sizeof(*now));
	struct cg_path *sorted = xmallocarray(cg->npaths, sizeof(*sorted));

	for (size_t i = 0; i < cg->npaths; i++)
		idx[i] = (uint32_t)i;
	cmp_paths = cg->paths;
	qsort(idx, cg->npaths, sizeof(*idx), cmp_path_idx);
	cmp_paths = NULL;
	for (size_t i = 0; i < cg->npaths; i++) {
		sorted[i] = cg->paths[idx[i]];
		now[idx[i]] = (uint32_t)i;
	}
	memcpy(cg->paths, sorted, cg->npaths * sizeof(*sorted));
	for (size_t i = 0; i < cg->nseq; i++)
		cg->seq[i] = now[cg->seq[i]];
	free(sorted);
	free(now);
	free(idx);
}

int layout_traced_roots(struct cgraph *cg, const char *const *names, size_t n)
{
	uint32_t *path = xmallocarray(cg->nnodes ? cg->nnodes : 1, sizeof(*path));
	bool *on = xcalloc(cg->nnodes ? cg->nnodes : 1, sizeof(*on));
	size_t nchains = cg->npaths;
	int err = 0;

	for (size_t r = 0; r < n && !err; r++) {
		const struct kfunc *f = cg->img ? kimage_find_func_by_key(cg->img, names[r]) : NULL;
		uint32_t root = f ? cg->node_of_func[f->index] : UINT32_MAX, len = 0;
		uint64_t w = 0;

		if (root == UINT32_MAX) {
			pr_err("--path-root %s: %s", names[r], f ? "no sample or call chain of the "
			       "profile has it; give a function of the sampled call chains" :
			       "the image has no function of that name; see hotpack report");
			err = -ENOENT;
			break;
		}
		/* the chains sorted heaviest first: the root's first callees first */
		for (size_t i = 0; i < nchains; i++) {
			const struct cg_path *p = &cg->paths[i];
			uint32_t j = 0;

			if (p->traced)
				continue;
			while (j < p->n && p->nodes[j] != root)
				j++;
			if (j == p->n)
				continue;
			w += p->weight;
			for (; j < p->n; j++)
				if (!on[p->nodes[j]]) {
					on[p->nodes[j]] = true;
					path[len++] = p->nodes[j];
				}
		}
		if (len < 2) {
			pr_err("--path-root %s: no sampled call chain passes through it (the "
			       "profile's paths are %s); record call chains (perf record -g)",
			       names[r], cg->nseq ? "windows of an address stream" :
			       "explicit traces or none");
			err = -ENOENT;
			break;
		}
		for (uint32_t j = 0; j < len; j++)
			on[path[j]] = false;
		cg_add_path(cg, path, len, w);
		cg->paths[cg->npaths - 1].traced = true;
		cg->paths[cg->npaths - 1].src = UINT32_MAX;	/* no one profile trace */
	}
	if (!err && cg->npaths > nchains)
		sort_paths(cg);
	free(on);
	free(path);
	return err;
}

void layout_traced_addr(const struct cgraph *cg, const uint32_t *order, size_t n,
			uint64_t page_size, uint64_t *addr)
{
	uint64_t end;
	uint32_t *rest;
	size_t nrest = 0;

	if (cg->img) {
		uint64_t *orig = xmalloc((cg->nnodes ? cg->nnodes : 1) * sizeof(*orig));
		uint64_t insert = place_insert(cg->img);

		place_as_linked(cg, orig);
		place_relink(cg, orig, order, n, insert == UINT64_MAX ? 0 : insert, page_size,
			     addr);
		free(orig);
		return;
	}
	/* no image: the order from 0, then the other nodes by index */
	end = place_order(cg, order, n, 0, addr);
	rest = xmalloc((cg->nnodes ? cg->nnodes : 1) * sizeof(*rest));
	for (size_t v = 0; v < cg->nnodes; v++)
		if (addr[v] == UINT64_MAX)
			rest[nrest++] = (uint32_t)v;
	if (nrest) {
		uint64_t *tail = xmalloc(cg->nnodes * sizeof(*tail));

		place_order(cg, rest, nrest, (end + page_size - 1) & ~(page_size - 1), tail);
		for (size_t i = 0; i < nrest; i++)
			addr[rest[i]] = tail[rest[i]];
		free(tail);
	}
	free(rest);
}

/*
 * The traces' movable functions, heaviest trace first (cg_finish() sorted
 * the paths by weight, then by their nodes: by address); each trace's new
 * ones by the lighter traces they are also on (the heaviest of those
 * first, so that a trace nested in a heavier one lies together inside it),
 * then in call order; then the rest of @order as it was.
 */
struct member {
	uint32_t *of;		/* traced paths the node is on, ascending */
	size_t cap;
	uint32_t n, pos;	/* pos: first call in the trace being placed */
};

static const struct member *cmp_mem;
static uint32_t cmp_after;	/* the trace being placed */

static int cmp_new(const void *a, const void *b)
{
	const struct member *x = &cmp_mem[*(const uint32_t *)a];
	const struct member *y = &cmp_mem[*(const uint32_t *)b];
	uint32_t i = 0, j = 0;

	while (i < x->n && x->of[i] <= cmp_after)
		i++;
	while (j < y->n && y->of[j] <= cmp_after)
		j++;
	for (; i < x->n || j < y->n; i++, j++) {
		if (i == x->n || j == y->n)
			return i == x->n ? 1 : -1;	/* on more traces first */
		if (x->of[i] != y->of[j])
			return x->of[i] < y->of[j] ? -1 : 1;
	}
	return (x->pos > y->pos) - (x->pos < y->pos);
}

static size_t traces_first(const struct cgraph *cg, const struct layout_opts *opts,
			   const uint32_t *order, size_t n, uint32_t *out, size_t *nblock)
{
	size_t nn = cg->nnodes ? cg->nnodes : 1, k = 0;
	bool *placed = xcalloc(nn, sizeof(*placed));
	struct member *mem = xcalloc(nn, sizeof(*mem));

	for (size_t i = 0; i < cg->npaths; i++) {
		if (!layout_traced_is(cg, opts, i))
			continue;
		for (uint32_t j = 0; j < cg->paths[i].n; j++) {
			struct member *m = &mem[cg->paths[i].nodes[j]];

			if (m->n && m->of[m->n - 1] == i)
				continue;
			XGROW(m->of, m->cap, m->n + 1);
			m->of[m->n++] = (uint32_t)i;
		}
	}
	for (size_t i = 0; i < cg->npaths; i++) {
		const struct cg_path *p = &cg->paths[i];
		size_t first = k;

		if (!layout_traced_is(cg, opts, i))
			continue;
		for (uint32_t j = 0; j < p->n; j++) {
			uint32_t v = p->nodes[j];

			if (placed[v] || !cg->nodes[v].movable)
				continue;
			placed[v] = true;
			mem[v].pos = j;
			out[k++] = v;
		}
		cmp_mem = mem;
		cmp_after = (uint32_t)i;
		qsort(out + first, k - first, sizeof(*out), cmp_new);
		cmp_mem = NULL;
	}
	*nblock = k;
	for (size_t i = 0; i < n; i++) {
		if (placed[order[i]])
			continue;
		placed[order[i]] = true;
		out[k++] = order[i];
	}
	for (size_t v = 0; v < cg->nnodes; v++)
		free(mem[v].of);
	free(mem);
	free(placed);
	return k;
}

/*
 * The search of the block's order. Each explicit path is its distinct
 * movable functions (as places in the block); its excess is the pages they
 * touch, from a page boundary, beyond ceil(their bytes / page). The cost
 * is the excess summed by path weight, then the pages so summed.
 */
struct bpath {
	uint32_t *node;		/* its distinct movable functions */
	uint32_t *at;		/* their places in the block, kept current */
	uint32_t n, own;	/* own: ceil(movable bytes / page) */
	uint64_t w;
};

struct block {
	const struct cgraph *cg;
	uint32_t *v;		/* the block: node indices */
	size_t n;
	uint32_t *pos;		/* node -> place in the block */
	struct bpath *p;
	size_t np, cap;
	uint64_t page;
	uint64_t *first, *last;	/* per place: first and last page touched */
	uint32_t *stamp;	/* per page: the path that last counted it */
	size_t npages;
};

struct bcost {
	uint64_t excess, pages;
};

static bool bcost_le(struct bcost a, struct bcost b)
{
	return a.excess != b.excess ? a.excess < b.excess : a.pages <= b.pages;
}

static struct bcost block_cost(struct block *b)
{
	struct bcost c = { 0, 0 };
	uint64_t at = 0;

	for (size_t i = 0; i < b->n; i++) {
		const struct cg_node *nd = &b->cg->nodes[b->v[i]];
		uint64_t al = nd->align > 1 ? nd->align : 1;

		at = (at + al - 1) / al * al;
		b->first[i] = at / b->page;
		b->last[i] = (at + (nd->size ? nd->size : 1) - 1) / b->page;
		at += nd->size;
	}
	for (size_t k = 0; k < b->np; k++) {
		const struct bpath *p = &b->p[k];
		uint64_t pages = 0;

		for (uint32_t j = 0; j < p->n; j++)
			for (uint64_t pg = b->first[p->at[j]]; pg <= b->last[p->at[j]]; pg++)
				if (pg < b->npages && b->stamp[pg] != k + 1) {
					b->stamp[pg] = (uint32_t)k + 1;
					pages++;
				}
		c.excess += pages > p->own ? (pages - p->own) * p->w : 0;
		c.pages += pages * p->w;
	}
	memset(b->stamp, 0, b->npages * sizeof(*b->stamp));
	return c;
}

/* The explicit paths as the search sees them; returns the least cost. */
static struct bcost block_paths(struct block *b, const struct layout_opts *opts)
{
	const struct cgraph *cg = b->cg;
	uint32_t *seen = xcalloc(cg->nnodes ? cg->nnodes : 1, sizeof(*seen));
	struct bcost least = { 0, 0 };

	for (size_t i = 0; i < cg->npaths; i++) {
		const struct cg_path *cp = &cg->paths[i];
		struct bpath *p;
		uint64_t mb = 0;

		if (!layout_traced_is(cg, opts, i))
			continue;
		XGROW(b->p, b->cap, b->np + 1);
		p = &b->p[b->np];
		memset(p, 0, sizeof(*p));
		p->node = xmallocarray(cp->n, sizeof(*p->node));
		p->at = xmallocarray(cp->n, sizeof(*p->at));
		for (uint32_t j = 0; j < cp->n; j++) {
			uint32_t x = cp->nodes[j];

			if (!cg->nodes[x].movable || seen[x] == b->np + 1)
				continue;
			seen[x] = (uint32_t)b->np + 1;
			p->at[p->n] = b->pos[x];
			p->node[p->n++] = x;
			mb += cg->nodes[x].size;
		}
		p->own = (uint32_t)((mb + b->page - 1) / b->page);
		p->w = cp->weight ? cp->weight : 1;
		least.pages += p->own * p->w;
		b->np++;
	}
	free(seen);
	return least;
}

/* Move the function at @from to @to; the places of those between follow. */
static void block_move(struct block *b, size_t from, size_t to)
{
	uint32_t x = b->v[from];

	if (from < to)
		memmove(b->v + from, b->v + from + 1, (to - from) * sizeof(*b->v));
	else
		memmove(b->v + to + 1, b->v + to, (from - to) * sizeof(*b->v));
	b->v[to] = x;
	for (size_t i = from < to ? from : to; i <= (from < to ? to : from); i++)
		b->pos[b->v[i]] = (uint32_t)i;
	for (size_t k = 0; k < b->np; k++)
		for (uint32_t j = 0; j < b->p[k].n; j++)
			b->p[k].at[j] = b->pos[b->p[k].node[j]];
}

/* Node visits the search may spend (about 50 ms). */
#define BLOCK_SEARCH_WORK 40000000u

/*
 * Moves of one function to another place (a fixed xorshift sequence, so
 * the result is deterministic), kept when the cost is no worse: plateaus
 * are walked. Stops at the least cost or when the work is spent.
 */
static void block_search(const struct cgraph *cg, const struct layout_opts *opts,
			 uint32_t *v, size_t n)
{
	struct block b = { .cg = cg, .v = v, .n = n, .page = opts->geom.page_size };
	uint64_t bytes = 0, rng = 0x9e3779b97f4a7c15ull, work = n, iters;
	struct bcost cur, least;

	if (n < 2)
		return;
	b.pos = xmallocarray(cg->nnodes, sizeof(*b.pos));
	for (size_t i = 0; i < n; i++) {
		b.pos[v[i]] = (uint32_t)i;
		bytes += cg->nodes[v[i]].size + cg->nodes[v[i]].align;
	}
	least = block_paths(&b, opts);
	for (size_t k = 0; k < b.np; k++)
		work += b.p[k].n;
	b.npages = (size_t)(bytes / b.page) + 2;
	b.first = xmallocarray(n, sizeof(*b.first));
	b.last = xmallocarray(n, sizeof(*b.last));
	b.stamp = xcalloc(b.npages, sizeof(*b.stamp));
	cur = block_cost(&b);
	iters = BLOCK_SEARCH_WORK / work;
	for (uint64_t it = 0; it < iters && !bcost_le(cur, least); it++) {
		size_t from, to;
		struct bcost c;

		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		from = (size_t)(rng % n);
		to = (size_t)((rng >> 32) % n);
		if (from == to)
			continue;
		block_move(&b, from, to);
		c = block_cost(&b);
		if (bcost_le(c, cur))
			cur = c;
		else
			block_move(&b, to, from);
	}
	for (size_t k = 0; k < b.np; k++) {
		free(b.p[k].node);
		free(b.p[k].at);
	}
	free(b.p);
	free(b.stamp);
	free(b.last);
	free(b.first);
	free(b.pos);
}

/*
 * What an order costs, summed over the TLB sizes: the misses of replaying
 * the explicit paths alone (*paths) and of replaying the rest of the
 * profile (*rest): its sequence when it has one (windows of a stream),
 * else its other paths, else every function's sample weight. The
 * explicit paths' pages and bounds are in *r (indexed like @ex; the caller
 * frees).
 */
static int cost(const struct cgraph *cg, const struct layout_opts *opts, const uint32_t *order,
		size_t n, uint64_t *addr, const uint32_t *ex, size_t nex, uint64_t *paths,
		uint64_t *rest, struct model_result *r)
{
	struct model_opts mo = { .geom = opts->geom };
	struct cgraph only = *cg, others = *cg;
	struct model_result ro;
	int err;

	mo.geom.icache.size = 0;
	layout_traced_addr(cg, order, n, opts->geom.page_size, addr);
	only.paths = xmallocarray(nex, sizeof(*only.paths));
	only.npaths = nex;
	only.seq = NULL;
	only.nseq = 0;
	for (size_t i = 0; i < nex; i++)
		only.paths[i] = cg->paths[ex[i]];
	others.paths = xmallocarray(cg->npaths - nex + 1, sizeof(*others.paths));
	others.npaths = 0;
	if (!cg->nseq)
		for (size_t i = 0, k = 0; i < cg->npaths; i++) {
			if (k < nex && ex[k] == i) {
				k++;
				continue;
			}
			others.paths[others.npaths++] = cg->paths[i];
		}
	err = model_eval(&only, addr, &mo, r);
	if (!err) {
		mo.replay_nodes = !cg->nseq && !others.npaths;
		err = model_eval(cg->nseq ? cg : &others, addr, &mo, &ro);
		if (err)
			model_result_free(r);
	}
	free(only.paths);
	free(others.paths);
	if (err)
		return err;
	*paths = *rest = 0;
	for (size_t k = 0; k < mo.geom.ntlb; k++) {
		*paths += r->tlb_misses[k];
		*rest += ro.tlb_misses[k];
	}
	model_result_free(&ro);
	return 0;
}

/*
 * Why path @k (of @ex) is over its bound when the block was kept: heavier
 * one-page paths at their bound that share its functions (or share those
 * of another such path) lie in one page of it each, so its pages must hold
 * their bytes too; more than its bound's pages hold is a proof it cannot
 * be at its bound beside them.
 */
static void crowded(const struct cgraph *cg, const uint32_t *ex, size_t k,
		    const struct layout_traced_path *tp, const uint32_t *own, uint64_t page,
		    struct layout_traced_path *out)
{
	bool *in = xcalloc(cg->nnodes ? cg->nnodes : 1, sizeof(*in));
	bool *took = xcalloc(k ? k : 1, sizeof(*took));
	uint64_t need = 0;
	bool grew = true;

	out->why = LAYOUT_TRACED_NOT_FOUND;
	out->with = UINT32_MAX;
	for (uint32_t j = 0; j < cg->paths[ex[k]].n; j++) {
		uint32_t v = cg->paths[ex[k]].nodes[j];

		if (cg->nodes[v].movable && !in[v]) {
			in[v] = true;
			need += cg->nodes[v].size;
		}
	}
	while (grew) {
		grew = false;
		for (size_t q = 0; q < k; q++) {
			const struct cg_path *p = &cg->paths[ex[q]];
			bool shares = false;

			if (took[q] || own[q] != 1 || tp[q].pages > tp[q].bound)
				continue;
			for (uint32_t j = 0; j < p->n && !shares; j++)
				shares = cg->nodes[p->nodes[j]].movable && in[p->nodes[j]];
			if (!shares)
				continue;
			took[q] = grew = true;
			if (out->with == UINT32_MAX)
				out->with = ex[q];
			for (uint32_t j = 0; j < p->n; j++) {
				uint32_t v = p->nodes[j];

				if (cg->nodes[v].movable && !in[v]) {
					in[v] = true;
					need += cg->nodes[v].size;
				}
			}
		}
	}
	if (out->with != UINT32_MAX && need > (uint64_t)own[k] * page) {
		out->need_bytes = need;
		out->reach = (uint32_t)((need + page - 1) / page) + out->fixed_pages;
		out->why = out->pages <= out->reach ? LAYOUT_TRACED_AT_SHARED :
						      LAYOUT_TRACED_CROWDED;
	}
	free(took);
	free(in);
}

int layout_traced_pack(const struct cgraph *cg, const struct layout_opts *opts,
		       uint32_t *order, size_t *n, struct layout_traced *st)
{
	struct layout_traced s = { .top_root = UINT32_MAX };
	struct model_result r[2] = { 0 };
	struct layout_traced_path *all;
	uint64_t *addr;
	uint32_t *packed, *ex, *own;
	size_t np, nblock, nex = 0;
	int err, keep;

	ex = xmallocarray(cg->npaths ? cg->npaths : 1, sizeof(*ex));
	for (size_t i = 0; i < cg->npaths; i++)
		if (layout_traced_is(cg, opts, i))
			ex[nex++] = (uint32_t)i;
	s.npaths = nex;
	if (!nex) {
		free(ex);
		if (st)
			*st = s;
		return 0;
	}
	addr = xmalloc(cg->nnodes * sizeof(*addr));
	packed = xmalloc(cg->nnodes * sizeof(*packed));
	own = xcalloc(nex, sizeof(*own));
	all = xcalloc(nex, sizeof(*all));
	np = traces_first(cg, opts, order, *n, packed, &nblock);
	block_search(cg, opts, packed, nblock);
	err = cost(cg, opts, order, *n, addr, ex, nex, &s.path_misses[0], &s.node_misses[0],
		   &r[0]);
	if (!err)
		err = cost(cg, opts, packed, np, addr, ex, nex, &s.path_misses[1],
			   &s.node_misses[1], &r[1]);
	if (err)
		goto out;
	/* what packing saves the paths must pay for what it costs the rest */
	keep = s.path_misses[1] + s.node_misses[1] <= s.path_misses[0] + s.node_misses[0];
	s.packed = keep;
	if (keep) {
		memcpy(order, packed, np * sizeof(*order));
		*n = np;
	}
	for (size_t k = 0; k < nex; k++) {
		const struct cg_path *p = &cg->paths[ex[k]];
		uint64_t mb = 0;

		for (uint32_t j = 0; j < p->n; j++)
			addr[p->nodes[j]] = 0;	/* a mark: counted once */
		for (uint32_t j = 0; j < p->n; j++) {
			uint32_t v = p->nodes[j];

			if (cg->nodes[v].movable && addr[v] == 0) {
				addr[v] = 1;
				mb += cg->nodes[v].size;
			}
		}
		own[k] = (uint32_t)((mb + opts->geom.page_size - 1) / opts->geom.page_size);
		all[k].path = ex[k];
		all[k].nfuncs = r[keep].paths[k].nfuncs;
		all[k].pages = r[keep].paths[k].pages;
		all[k].bound = r[keep].paths[k].fixed_bound;
		all[k].own_pages = own[k];
		all[k].fixed_pages = all[k].bound > own[k] ? all[k].bound - own[k] : 0;
		all[k].with = UINT32_MAX;
		if (all[k].pages <= all[k].bound) {
			all[k].why = LAYOUT_TRACED_AT_BOUND;
			s.at_bound++;
		} else if (!keep) {
			all[k].why = LAYOUT_TRACED_NOT_PACKED;
		} else {
			crowded(cg, ex, k, all, own, opts->geom.page_size, &all[k]);
			s.at_bound += all[k].why == LAYOUT_TRACED_AT_SHARED;
		}
	}
	s.nshown = nex < LAYOUT_TRACED_SHOWN ? nex : LAYOUT_TRACED_SHOWN;
	memcpy(s.path, all, s.nshown * sizeof(*all));
	s.top_root = cg->paths[ex[0]].nodes[0];
	s.top_pages = all[0].pages;
	s.top_bound = all[0].bound;
	if (st)
		*st = s;
out:
	model_result_free(&r[0]);
	model_result_free(&r[1]);
	free(all);
	free(own);
	free(packed);
	free(addr);
	free(ex);
	return err;
}

static const char *node_name(const struct cgraph *cg, uint32_t v)
{
	return cg->img ? cg->img->funcs[cg->nodes[v].func].name : "?";
}

/*
 * The kernel's fixed text sections, by the symbols its linker script puts
 * around them: the link map names a function's input section only when it
 * is the function's own.
 */
static const char *const fixed_sections[][3] = {
	{ "__sched_text_start", "__sched_text_end", ".sched.text" },
	{ "__cpuidle_text_start", "__cpuidle_text_end", ".cpuidle.text" },
	{ "__lock_text_start", "__lock_text_end", ".spinlock.text" },
	{ "__entry_text_start", "__entry_text_end", ".entry.text" },
	{ "__irqentry_text_start", "__irqentry_text_end", ".irqentry.text" },
	{ "__softirqentry_text_start", "__softirqentry_text_end", ".softirqentry.text" },
	{ "__noinstr_text_start", "__noinstr_text_end", ".noinstr.text" },
	{ "__kprobes_text_start", "__kprobes_text_end", ".kprobes.text" },
};

static const char *fixed_section(const struct kimage *img, const struct cg_node *nd)
{
	const struct kfunc *f;
	uint64_t lo, hi;

	if (!img)
		return NULL;
	f = &img->funcs[nd->func];
	if (f->section)
		return f->section;
	for (size_t i = 0; i < sizeof(fixed_sections) / sizeof(fixed_sections[0]); i++)
		if (kimage_symbol_addr(img, fixed_sections[i][0], &lo) &&
		    kimage_symbol_addr(img, fixed_sections[i][1], &hi) && f->addr >= lo &&
		    f->addr < hi)
			return fixed_sections[i][2];
	return NULL;
}

const char *layout_traced_why(const struct cgraph *cg, const struct layout_traced *st, size_t k,
			      char *buf, size_t len)
{
	const struct layout_traced_path *t = &st->path[k];
	const struct cg_path *p = &cg->paths[t->path];
	int w;

	w = snprintf(buf, len, "%s (weight %" PRIu64 ", %u function%s): %u page%s, bound %u",
		     node_name(cg, p->nodes[0]), p->weight, t->nfuncs, t->nfuncs == 1 ? "" : "s",
		     t->pages, t->pages == 1 ? "" : "s", t->bound);
	if (w < 0 || (size_t)w >= len)
		return buf;
	if (t->fixed_pages) {
		const char *sec = NULL;
		bool more = false;

		/* the fixed functions' sections: where the bound's other pages are */
		for (uint32_t j = 0; j < p->n; j++) {
			const struct cg_node *nd = &cg->nodes[p->nodes[j]];
			const char *fs = nd->movable ? NULL : fixed_section(cg->img, nd);

			if (!fs)
				continue;
			if (!sec)
				sec = fs;
			else if (strcmp(sec, fs))
				more = true;
		}
		w += snprintf(buf + w, len - (size_t)w, " (%u page%s of fixed functions%s%s%s)",
			      t->fixed_pages, t->fixed_pages == 1 ? "" : "s", sec ? ": " : "",
			      sec ? sec : "", more ? " and others" : "");
	}

	if ((size_t)w >= len)
		return buf;
	switch (t->why) {
	case LAYOUT_TRACED_AT_BOUND:
		snprintf(buf + w, len - (size_t)w, ": at its bound");
		break;
	case LAYOUT_TRACED_NOT_PACKED:
		snprintf(buf + w, len - (size_t)w, ": not packed first (model: packing costs "
			 "%" PRIu64 " misses more than it saves)",
			 st->path_misses[1] + st->node_misses[1] - st->path_misses[0] -
			 st->node_misses[0]);
		break;
	case LAYOUT_TRACED_CROWDED:
	case LAYOUT_TRACED_AT_SHARED:
		snprintf(buf + w, len - (size_t)w, ": %s the bound the heavier paths leave it, "
			 "%u: its %u movable page%s would have to hold %" PRIu64 " bytes, its "
			 "own and those of the one-page paths at their bound that share its "
			 "functions (%s, weight %" PRIu64 ", and the like)",
			 t->why == LAYOUT_TRACED_AT_SHARED ? "at" : "over", t->reach,
			 t->own_pages, t->own_pages == 1 ? "" : "s", t->need_bytes,
			 node_name(cg, cg->paths[t->with].nodes[0]), cg->paths[t->with].weight);
		break;
	case LAYOUT_TRACED_NOT_FOUND:
		snprintf(buf + w, len - (size_t)w, ": the search found no order with it at its "
			 "bound beside the heavier paths");
		break;
	}
	return buf;
}

int layout_run_traced(const struct layout_algo *algo, const struct cgraph *cg,
		      const struct layout_opts *opts, uint32_t *order, size_t *n,
		      struct layout_traced *st)
{
	int err = algo->run(cg, opts, order, n);

	if (!err)
		err = layout_traced_pack(cg, opts, order, n, st);
	if (!err)
		*n = place_fit_bytes(cg, order, *n, opts->max_hot_bytes);
	return err;
}
