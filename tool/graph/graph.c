// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * graph.c - the weighted call graph: the profile's functions resolved
 * against the image become nodes (in address order, so everything built on
 * them is deterministic), its edges arcs, its traces paths.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "graph/graph.h"
#include "graph/static_edges.h"
#include "lib/util.h"
#include "lib/warn.h"
#include "lib/xalloc.h"

struct cgraph *cg_new(const struct kimage *img)
{
	struct cgraph *cg = xcalloc(1, sizeof(*cg));

	cg->img = img;
	return cg;
}

/*
 * The bytes [*lo, *hi) of a function that starts @foff into node @v, as
 * bytes of the node, cut at its end; false when they start past it.
 */
static bool extent_in_node(const struct cgraph *cg, uint32_t v, uint64_t foff, uint32_t *lo,
			   uint32_t *hi)
{
	uint64_t size = cg->nodes[v].size;

	if (foff + *lo >= size)
		return false;
	*lo = (uint32_t)(foff + *lo);
	*hi = (uint32_t)(foff + *hi < size ? foff + *hi : size);
	return true;
}

/*
 * What each node's samples hit, from the profile's extents: the union over
 * the profile functions that name it (each at @foff, its place in the node:
 * a function of a plain .text unit lies inside the unit's node), all of it
 * when any of them is whole (weight from samples without offsets).
 */
static void cg_set_extents(struct cgraph *cg, const struct profile *prof, const uint32_t *fidx,
			   const uint64_t *foff)
{
	struct { uint32_t lo, hi; bool whole; } *ext = xcalloc(NONZERO(cg->nnodes), sizeof(*ext));

	for (size_t i = 0; i < prof->nfuncs; i++) {
		const struct prof_func *pf = prof->funcs[i];
		uint32_t v, lo, hi;

		if (fidx[i] == UINT32_MAX || (v = cg->node_of_func[fidx[i]]) == UINT32_MAX)
			continue;
		if (!pf->weight && !pf->ext_hi && !pf->ext_whole)
			continue;	/* only in edges or traces: says nothing */
		if (!profile_func_extent(pf, &lo, &hi) || !extent_in_node(cg, v, foff[i], &lo, &hi))
			ext[v].whole = true;
		else
			extent_widen(&ext[v].lo, &ext[v].hi, lo, hi);
	}
	for (size_t v = 0; v < cg->nnodes; v++) {
		struct cg_node *n = &cg->nodes[v];
		bool some = !ext[v].whole && ext[v].hi;

		n->hot_off = some ? ext[v].lo : 0;
		n->hot_len = some ? ext[v].hi - ext[v].lo : n->size;
	}
	free(ext);
}

uint32_t cg_add_node(struct cgraph *cg, uint32_t func, uint64_t size, uint32_t align,
		     uint64_t weight, bool movable)
{
	struct cg_node *n;

	XGROW(cg->nodes, cg->capnodes, cg->nnodes + 1);
	n = &cg->nodes[cg->nnodes];
	n->func = func;
	n->size = NONZERO(size);
	n->align = NONZERO(align);
	n->weight = weight;
	n->hot_off = 0;
	n->hot_len = n->size;
	n->movable = movable;
	cg->total_weight += weight;
	return (uint32_t)cg->nnodes++;
}

void cg_add_arc(struct cgraph *cg, uint32_t src, uint32_t dst, uint64_t w)
{
	XGROW(cg->arcs, cg->caparcs, cg->narcs + 1);
	cg->arcs[cg->narcs].src = src;
	cg->arcs[cg->narcs].dst = dst;
	cg->arcs[cg->narcs].weight = w;
	cg->narcs++;
}

void cg_add_path(struct cgraph *cg, const uint32_t *nodes, uint32_t n, uint64_t w)
{
	struct cg_path *p;

	if (!n)
		return;
	XGROW(cg->paths, cg->cappaths, cg->npaths + 1);
	p = &cg->paths[cg->npaths++];
	p->nodes = xmallocarray(n, sizeof(*nodes));
	memcpy(p->nodes, nodes, n * sizeof(*nodes));
	p->ext = NULL;
	p->xr = NULL;
	p->n = n;
	p->weight = w;
	p->src = (uint32_t)(cg->npaths - 1);
	p->traced = false;
}

static int cmp_arc(const void *a, const void *b)
{
	const struct cg_arc *x = a, *y = b;

	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	if (x->dst != y->dst)
		return x->dst < y->dst ? -1 : 1;
	return 0;
}

static int cmp_path(const void *a, const void *b)
{
	const struct cg_path *x = a, *y = b;
	uint32_t i;

	if (x->weight != y->weight)
		return x->weight > y->weight ? -1 : 1;
	for (i = 0; i < x->n && i < y->n; i++)
		if (x->nodes[i] != y->nodes[i])
			return x->nodes[i] < y->nodes[i] ? -1 : 1;
	return x->n < y->n ? -1 : x->n > y->n;
}

void cg_finish(struct cgraph *cg)
{
	size_t i, out = 0;
	uint32_t *fill;

	if (cg->narcs)
		qsort(cg->arcs, cg->narcs, sizeof(*cg->arcs), cmp_arc);
	for (i = 0; i < cg->narcs; i++) {
		if (out && cg->arcs[out - 1].src == cg->arcs[i].src &&
		    cg->arcs[out - 1].dst == cg->arcs[i].dst) {
			cg->arcs[out - 1].weight += cg->arcs[i].weight;
			continue;
		}
		cg->arcs[out++] = cg->arcs[i];
	}
	cg->narcs = out;
	if (cg->npaths)
		qsort(cg->paths, cg->npaths, sizeof(*cg->paths), cmp_path);

	free(cg->out_start);
	free(cg->in_start);
	free(cg->in_arcs);
	cg->out_start = xcalloc(cg->nnodes + 1, sizeof(uint32_t));
	cg->in_start = xcalloc(cg->nnodes + 1, sizeof(uint32_t));
	cg->in_arcs = xcalloc(cg->narcs, sizeof(uint32_t));
	for (i = 0; i < cg->narcs; i++) {
		cg->out_start[cg->arcs[i].src + 1]++;
		cg->in_start[cg->arcs[i].dst + 1]++;
	}
	for (i = 0; i < cg->nnodes; i++) {
		cg->out_start[i + 1] += cg->out_start[i];
		cg->in_start[i + 1] += cg->in_start[i];
	}
	fill = xcalloc(cg->nnodes, sizeof(*fill));
	for (i = 0; i < cg->narcs; i++) {
		uint32_t d = cg->arcs[i].dst;

		cg->in_arcs[cg->in_start[d] + fill[d]++] = (uint32_t)i;
	}
	free(fill);
}

void cg_free(struct cgraph *cg)
{
	size_t i;

	if (!cg)
		return;
	for (i = 0; i < cg->npaths; i++) {
		free(cg->paths[i].nodes);
		free(cg->paths[i].ext);
		for (uint32_t j = 0; cg->paths[i].xr && j < cg->paths[i].n; j++)
			ranges_release(&cg->paths[i].xr[j]);
		free(cg->paths[i].xr);
	}
	free(cg->paths);
	free(cg->seq);
	free(cg->nodes);
	free(cg->arcs);
	free(cg->out_start);
	free(cg->in_start);
	free(cg->in_arcs);
	free(cg->node_of_func);
	free(cg);
}

int cg_node_cmp_hot(const struct cgraph *cg, uint32_t a, uint32_t b)
{
	const struct cg_node *x = &cg->nodes[a], *y = &cg->nodes[b];

	if (x->weight != y->weight)
		return x->weight > y->weight ? -1 : 1;
	if (cg->img) {
		const struct kfunc *fx = &cg->img->funcs[x->func], *fy = &cg->img->funcs[y->func];

		if (fx->addr != fy->addr)
			return fx->addr < fy->addr ? -1 : 1;
		return strcmp(fx->name, fy->name);
	}
	return x->func < y->func ? -1 : x->func > y->func;
}

/* The function whose node stands for image function @i: itself, or for a
 * function of a plain .text section the section's first (it moves with
 * the section). */
static uint32_t node_func(const struct kimage *img, uint32_t i)
{
	return (img->funcs[i].flags & KF_IN_UNIT) ? img->funcs[i].unit : i;
}

/* Profile id -> the kimage function index of its node, or UINT32_MAX;
 * *@foff: by profile id, where the function starts in that node. */
static uint32_t *resolve_profile(const struct kimage *img, const struct profile *prof,
				 struct cgraph *cg, uint64_t **foff)
{
	uint32_t *fidx = xmallocarray(prof->nfuncs, sizeof(*fidx));
	size_t i;

	*foff = xcalloc(NONZERO(prof->nfuncs), sizeof(**foff));
	for (i = 0; i < prof->nfuncs; i++) {
		const struct kfunc *f = kimage_find_func_by_key(img, prof->funcs[i]->name);

		fidx[i] = f ? node_func(img, f->index) : UINT32_MAX;
		if (f && fidx[i] != f->index && f->addr > img->funcs[fidx[i]].addr)
			(*foff)[i] = f->addr - img->funcs[fidx[i]].addr;
		if (!f) {
			cg->unresolved_funcs++;
			cg->unresolved_weight += prof->funcs[i]->weight;
			pr_debug("profile function %s is not in %s", prof->funcs[i]->name,
				 img->path);
		}
	}
	return fidx;
}

/* The profile's sequence of traces as paths (cg_finish() has sorted them). */
static void seq_paths(struct cgraph *cg, const struct profile *prof)
{
	uint32_t *path_of;

	if (!prof->nseq)
		return;
	path_of = xmallocarray(prof->ntraces, sizeof(*path_of));
	memset(path_of, 0xff, prof->ntraces * sizeof(*path_of));
	for (size_t i = 0; i < cg->npaths; i++)
		path_of[cg->paths[i].src] = (uint32_t)i;
	cg->seq = xmallocarray(prof->nseq, sizeof(*cg->seq));
	for (size_t i = 0; i < prof->nseq; i++)
		if (path_of[prof->seq[i]] != UINT32_MAX)
			cg->seq[cg->nseq++] = path_of[prof->seq[i]];
	free(path_of);
}

struct static_arcs {
	struct cgraph *cg;
	uint64_t w;
	long added;
};

static int static_arc_cb(uint32_t caller, uint32_t callee, void *ctx)
{
	struct static_arcs *a = ctx;
	uint32_t src = a->cg->node_of_func[node_func(a->cg->img, caller)];
	uint32_t dst = a->cg->node_of_func[node_func(a->cg->img, callee)];

	/* a callee outside the hot set, or a call within one plain .text
	 * unit (one node, placed whole) */
	if (dst == UINT32_MAX || dst == src)
		return 0;
	cg_add_arc(a->cg, src, dst, a->w);
	a->added++;
	return 0;
}

/* An arc of weight @w for every static call site from one node to another.
 * A plain .text unit's node calls what any of its functions calls, so all
 * of them are walked, not only the one that stands for it.
 * Returns the number of arcs added, or -errno. */
static long add_static_arcs(struct cgraph *cg, uint64_t w)
{
	const struct kimage *img = cg->img;
	struct static_arcs a = { .cg = cg, .w = w };
	uint32_t *funcs = xmallocarray(img->nfuncs, sizeof(*funcs));
	size_t n = 0;
	int err;

	for (size_t i = 0; i < img->nfuncs; i++)
		if (cg->node_of_func[node_func(img, (uint32_t)i)] != UINT32_MAX)
			funcs[n++] = (uint32_t)i;
	err = static_edges(img, funcs, n, static_arc_cb, &a);
	free(funcs);
	return err ? err : a.added;
}

int cg_build(struct cgraph **out, const struct kimage *img, const struct profile *prof,
	     const struct cg_opts *opts)
{
	struct cgraph *cg = cg_new(img);
	uint32_t *fidx, *weight_nodes, *path = NULL, *pext = NULL;
	struct ranges *pxr = NULL, cur = { 0 };
	uint64_t *fweight, *foff;
	bool *used;
	size_t i, cap = 0;
	struct prof_edge *e, *etmp;
	struct prof_trace *t, *ttmp;
	long static_added = 0;
	struct repeats rep;

	fidx = resolve_profile(img, prof, cg, &foff);
	if (opts && opts->repeats != REPEATS_COUNT && !prof->nseq)
		pr_warn("--repeats %s: the profile has no sequence of windows (an address list "
			"read with --addr-window, or a .hprof of hotpack profile --sequence); "
			"its weights are kept as they are", repeats_name(opts->repeats));
	if (repeats_compute(&rep, prof, opts ? opts->repeats : REPEATS_COUNT)) {
		cg->repeats = opts->repeats;
		cg->repeats_kept = rep.rest;
		pr_info("repeats %s: each window of the %zu in the sequence weighs %s of its "
			"repeats; the windows keep %.1f%% of their weight",
			repeats_name(opts->repeats), prof->nseq, repeats_weighs(opts->repeats),
			100 * rep.rest);
	}
	/* Which image functions take part, with their summed weights. */
	used = xcalloc(img->nfuncs, sizeof(*used));
	fweight = xcalloc(img->nfuncs, sizeof(*fweight));
	for (i = 0; i < prof->nfuncs; i++) {
		if (fidx[i] == UINT32_MAX)
			continue;
		fweight[fidx[i]] += repeats_scale(prof->funcs[i]->weight, rep.func[i]);
		if (prof->funcs[i]->weight)
			used[fidx[i]] = true;
	}
	HASH_ITER(hh, prof->edges, e, etmp) {
		if (fidx[e->caller] != UINT32_MAX && fidx[e->callee] != UINT32_MAX)
			used[fidx[e->caller]] = used[fidx[e->callee]] = true;
	}
	HASH_ITER(hh, prof->traces, t, ttmp) {
		for (i = 0; i < t->n; i++)
			if (fidx[t->ids[i]] != UINT32_MAX)
				used[fidx[t->ids[i]]] = true;
	}
	/* Nodes in address order. */
	cg->node_of_func = xmallocarray(img->nfuncs, sizeof(uint32_t));
	for (i = 0; i < img->nfuncs; i++) {
		const struct kfunc *f = &img->funcs[i];

		cg->node_of_func[i] = UINT32_MAX;
		if (used[i])
			cg->node_of_func[i] = cg_add_node(cg, (uint32_t)i,
							  kfunc_placed_size(f),
							  f->align,
							  fweight[i], f->flags & KF_MOVABLE);
	}
	cg_set_extents(cg, prof, fidx, foff);
	weight_nodes = cg->node_of_func;
	HASH_ITER(hh, prof->edges, e, etmp) {
		uint32_t a = fidx[e->caller], b = fidx[e->callee];

		if (a == UINT32_MAX || b == UINT32_MAX || a == b)
			continue;
		cg_add_arc(cg, weight_nodes[a], weight_nodes[b],
			   repeats_scale(e->weight, repeats_edge(&rep, e->caller, e->callee)));
	}
	HASH_ITER(hh, prof->traces, t, ttmp) {
		uint32_t n = 0;
		bool some = false;

		if (t->n > cap) {
			size_t was = cap;

			XGROW(path, cap, t->n);
			pext = xreallocarray(pext, 2 * cap, sizeof(*pext));
			pxr = xreallocarray(pxr, cap, sizeof(*pxr));
			memset(&pxr[was], 0, (cap - was) * sizeof(*pxr));
		}
		for (i = 0; i < t->n; i++) {
			uint32_t f = fidx[t->ids[i]], lo, hi, v;
			const struct ranges *tr;

			if (f == UINT32_MAX)
				continue;
			v = weight_nodes[f];
			/* a position's bytes in its node; an unknown one (0 0)
			 * stays unknown when consecutive ones fold into it */
			cur.n = 0;
			if (profile_trace_extent(t, (uint32_t)i, &lo, &hi) &&
			    extent_in_node(cg, v, foff[t->ids[i]], &lo, &hi)) {
				some = true;
				tr = profile_trace_ranges(t, (uint32_t)i);
				for (uint32_t k = 0; tr && k < tr->n; k++) {
					uint32_t rlo = tr->v[2 * k], rhi = tr->v[2 * k + 1];

					if (extent_in_node(cg, v, foff[t->ids[i]], &rlo, &rhi))
						ranges_add(&cur, rlo, rhi);
				}
			} else {
				lo = hi = 0;
			}
			if (n && path[n - 1] == v) {
				uint32_t *pe = &pext[2 * (n - 1)];
				struct ranges *pr = &pxr[n - 1];

				if (!pe[1] || !hi) {
					pe[0] = pe[1] = 0;
					pr->n = 0;
					continue;
				}
				/* folded: what ran is the union, a hull one range */
				if (!pr->n)
					ranges_add(pr, pe[0], pe[1]);
				ranges_add_side(pr, &cur, lo, hi);
				if (pr->n < 2)
					pr->n = 0;
				extent_widen(&pe[0], &pe[1], lo, hi);
				continue;
			}
			pext[2 * n] = lo;
			pext[2 * n + 1] = hi;
			pxr[n].n = 0;
			if (cur.n >= 2)
				ranges_union(&pxr[n], &cur);
			path[n++] = v;
		}
		cg_add_path(cg, path, n, repeats_scale(t->weight, rep.trace[t->id]));
		if (n) {
			struct cg_path *p = &cg->paths[cg->npaths - 1];

			p->src = t->id;
			p->traced = t->traced;
			if (some) {
				p->ext = xmallocarray(2 * (size_t)n, sizeof(*p->ext));
				memcpy(p->ext, pext, 2 * (size_t)n * sizeof(*p->ext));
			}
			for (uint32_t j = 0; some && j < n; j++) {
				if (pxr[j].n < 2)
					continue;
				if (!p->xr)
					p->xr = xcalloc(n, sizeof(*p->xr));
				ranges_copy(&p->xr[j], &pxr[j]);
			}
		}
	}
	if (opts && opts->static_edges && cg->nnodes) {
		static_added = add_static_arcs(cg, opts->static_edge_weight ?
					       opts->static_edge_weight : 1);
		if (static_added >= 0)
			pr_info("static edges: %ld call sites between hot functions",
				static_added);
	}
	cg_finish(cg);
	seq_paths(cg, prof);
	repeats_free(&rep);
	free(path);
	free(pext);
	for (size_t j = 0; j < cap; j++)
		ranges_release(&pxr[j]);
	free(pxr);
	ranges_release(&cur);
	free(used);
	free(fweight);
	free(foff);
	free(fidx);
	if (static_added < 0) {
		cg_free(cg);
		return (int)static_added;
	}
	if (!cg->nnodes) {
		pr_err("%s: no function of the profile is in this image; "
		       "are the samples from another kernel?", img->path);
		cg_free(cg);
		return -ENOENT;
	}
	*out = cg;
	return 0;
}
