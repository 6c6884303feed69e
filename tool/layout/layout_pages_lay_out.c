// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * layout_pages_lay_out.c - step 4 of pages: lay out the pages into an
 * order, each page from a page boundary, the gap a page leaves filled with
 * free functions (the words: docs/layout.md, "pages: the words").
 */
#include "config.h"

#include <stdlib.h>

#include "layout/layout_pages_bins.h"
#include "layout/layout_pages_lay_out.h"
#include "lib/util.h"
#include "lib/xalloc.h"

#define PAGES_LOOKAHEAD 16	/* pages tried for a gap a page leaves */

struct pg_sort {
	const struct pages *p;
	const double *dkey;
};

static const struct pg_sort *pg_sorting;

static int cmp_bin_heat(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const double *k = pg_sorting->dkey;

	if (k[x] != k[y])
		return k[x] > k[y] ? -1 : 1;
	return (x > y) - (x < y);
}

/* members of a page by falling alignment, then the order they came in */
static int cmp_align(const void *a, const void *b)
{
	const struct pages *p = pg_sorting->p;
	const uint32_t *x = a, *y = b;
	uint32_t ax = p->cg->nodes[p->sel[x[0]]].align, ay = p->cg->nodes[p->sel[y[0]]].align;

	if (ax != ay)
		return ax > ay ? -1 : 1;
	return (x[1] > y[1]) - (x[1] < y[1]);
}

struct emitter {
	const struct pages *p;
	uint32_t *order;
	size_t n;
	uint64_t at;		/* as place_order() will place it, from 0 */
};

static void emit(struct emitter *em, uint32_t r)
{
	const struct cg_node *nd = &em->p->cg->nodes[em->p->sel[r]];

	em->at = align_up(em->at, NONZERO(nd->align)) + nd->size;
	em->order[em->n++] = em->p->sel[r];
}

/*
 * Fill up to the next page boundary with free functions (on no net, so they
 * cost no path a page), hottest first. With @over > 0, one more may cross
 * the boundary by at most @over bytes: what the next page can spare.
 */
static void fill_gap(struct emitter *em, uint32_t *freel, size_t nfree, bool *used,
		     uint64_t over)
{
	const struct pages *p = em->p;
	uint64_t end = align_up(em->at, p->page);

	for (size_t i = 0; i < nfree && em->at % p->page; i++) {
		const struct cg_node *nd = &p->cg->nodes[p->sel[freel[i]]];
		uint64_t e = align_up(em->at, NONZERO(nd->align)) + nd->size;

		if (used[i] || e > end + over)
			continue;
		used[i] = true;
		emit(em, freel[i]);
		if (e > end)
			break;
	}
}

/* A page's functions by falling alignment, then the order they came in. */
static void sort_bin(const struct pages *p, const struct pg_bin *bn, uint32_t (*pairs)[2])
{
	struct pg_sort s = { .p = p };

	for (uint32_t k = 0; k < bn->n; k++) {
		pairs[k][0] = bn->m[k];
		pairs[k][1] = k;
	}
	pg_sorting = &s;
	qsort(pairs, bn->n, sizeof(*pairs), cmp_align);
	pg_sorting = NULL;
}

/* Would the sorted page, placed from here, stay within one page? */
static bool bin_fits(const struct emitter *em, const struct pg_bin *bn, uint32_t (*pairs)[2])
{
	const struct pages *p = em->p;
	uint64_t at = em->at, first = at / p->page;

	if (!(at % p->page))
		return true;
	for (uint32_t k = 0; k < bn->n; k++) {
		const struct cg_node *nd = &p->cg->nodes[p->sel[pairs[k][0]]];

		at = align_up(at, NONZERO(nd->align)) + nd->size;
	}
	return (at - 1) / p->page == first;
}

static void emit_bin(struct emitter *em, const struct pg_bin *bn, uint32_t (*pairs)[2])
{
	for (uint32_t k = 0; k < bn->n; k++)
		emit(em, pairs[k][0]);
}

size_t pages_lay_out(const struct pages *p, enum pg_bin_order how, uint32_t *order)
{
	bool by_density = how == BINS_BY_DENSITY;
	uint32_t *freel = xmallocarray(p->nsel, sizeof(*freel)), *binord;
	uint32_t (*pairs)[2] = xmallocarray(p->nsel + 1, sizeof(*pairs));
	double *bheat = xcalloc(p->nbins + 1, sizeof(*bheat));
	struct emitter em = { .p = p, .order = order };
	struct pg_sort s = { .p = p };
	size_t nfree, nextfree = 0;
	bool *used, *done;

	nfree = pages_free_by_density(p, freel);
	pg_sorting = &s;
	/* by_density: a page's density is its functions' heat over its bytes,
	 * the same measure as a free function's, so the two interleave; else
	 * its heat is the weight of the nets on it, and free functions only
	 * fill gaps and follow */
	for (size_t b = 0; b < p->nbins && by_density; b++) {
		for (uint32_t k = 0; k < p->bins[b].n; k++)
			bheat[b] += (double)p->heat[p->sel[p->bins[b].m[k]]];
		bheat[b] /= (double)NONZERO(p->bins[b].fill);
	}
	for (size_t i = 0; i < p->nnets && how == BINS_BY_NETS; i++)
		for (uint32_t k = 0; k < p->nets[i].nc; k++)
			bheat[p->nets[i].c[k].bin] += (double)p->nets[i].w;
	binord = xmallocarray(p->nbins + 1, sizeof(*binord));
	for (size_t b = 0; b < p->nbins; b++)
		binord[b] = (uint32_t)b;
	s.dkey = bheat;
	if (how != BINS_AS_MADE)
		qsort(binord, p->nbins, sizeof(*binord), cmp_bin_heat);
	pg_sorting = NULL;

	used = xcalloc(nfree + 1, sizeof(*used));
	done = xcalloc(p->nbins + 1, sizeof(*done));
	for (size_t i = 0; i < p->nbins; i++) {
		const struct pg_bin *bn = &p->bins[binord[i]];

		if (done[i] || !bn->n)
			continue;
		/* free functions denser than this page go first */
		for (; by_density && nextfree < nfree; nextfree++) {
			uint32_t r = freel[nextfree];

			if (used[nextfree])
				continue;
			if ((double)p->heat[p->sel[r]] / (double)p->es[r] <= bheat[binord[i]])
				break;
			used[nextfree] = true;
			emit(&em, r);
		}
		if (bn->big) {
			uint64_t off = em.at % p->page, sz = bn->fill;

			/* align to a page only when that saves one */
			if (off && (off + sz + p->page - 1) / p->page > (sz + p->page - 1) / p->page)
				fill_gap(&em, freel, nfree, used, bn->cap - bn->fill);
			emit(&em, bn->m[0]);
			continue;
		}
		sort_bin(p, bn, pairs);
		if (!bin_fits(&em, bn, pairs)) {
			fill_gap(&em, freel, nfree, used, 0);
			/* a later page that fits the space left, else a free
			 * function that straddles the boundary by no more than
			 * this page leaves free */
			for (size_t j = i + 1; j < p->nbins && j <= i + PAGES_LOOKAHEAD &&
					       !bin_fits(&em, bn, pairs); j++) {
				const struct pg_bin *bj = &p->bins[binord[j]];

				if (done[j] || bj->big || !bj->n)
					continue;
				sort_bin(p, bj, pairs);
				if (bin_fits(&em, bj, pairs)) {
					emit_bin(&em, bj, pairs);
					done[j] = true;
				}
				sort_bin(p, bn, pairs);
			}
			if (!bin_fits(&em, bn, pairs))
				fill_gap(&em, freel, nfree, used, p->page - bn->fill);
		}
		emit_bin(&em, bn, pairs);
	}
	/* warm functions left over, by density */
	for (size_t i = 0; i < nfree; i++)
		if (!used[i])
			emit(&em, freel[i]);
	free(used);
	free(done);
	free(binord);
	free(bheat);
	free(pairs);
	free(freel);
	return em.n;
}
