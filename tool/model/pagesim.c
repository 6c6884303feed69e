// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pagesim.c - see pagesim.h. Pages are numbered densely by the caller.
 * One LRU stack as deep as the largest TLB size replays every size at
 * once (LRU's inclusion: a fully associative LRU TLB of N entries holds
 * the N most recent pages, so a reference misses in it when N or more
 * other pages came since its page's last reference); a flag per page says
 * whether it is in the stack, so a page that is not costs no scan. The
 * victims, and so the misses, are tlb_lru.c's.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "model/model.h"
#include "model/pagesim.h"
#include "model/tlb_model.h"

struct pagesim {
	const struct cgraph *cg;
	uint32_t *runs;
	size_t nruns;
	uint64_t visits;
	size_t nsizes;			/* the geometry's TLB sizes */
	unsigned int entries[GEOM_MAX_TLB];
	unsigned int depth;		/* the largest: how deep the stack goes */
	uint8_t *bucket;		/* by stack depth: how many sizes it misses in */
	uint64_t cnt[GEOM_MAX_TLB + 1];	/* references by bucket, last replay */
	uint32_t *stack;		/* pages, most recent first */
	unsigned int used;
	uint8_t *state;			/* by page: PS_SEEN, PS_IN */
	uint64_t cap;			/* pages state has room for */
	uint64_t cold;			/* first references in the last replay */
};

#define PS_SEEN 1
#define PS_IN 2

bool pagesim_fits(const struct geometry *g)
{
	if (!g->ntlb || g->tlb_ways || tlb_model_find(g->tlb_model) != &tlb_lru)
		return false;
	for (size_t k = 0; k < g->ntlb; k++)
		if (!g->tlb_entries[k] || g->tlb_entries[k] > PAGESIM_MAX_ENTRIES)
			return false;
	return true;
}

struct pagesim *pagesim_new(const struct cgraph *cg, uint64_t budget, const struct geometry *g)
{
	struct pagesim *ps = xcalloc(1, sizeof(*ps));

	ps->cg = cg;
	ps->nsizes = g->ntlb;
	for (size_t k = 0; k < g->ntlb; k++) {
		ps->entries[k] = g->tlb_entries[k];
		if (ps->entries[k] > ps->depth)
			ps->depth = ps->entries[k];
	}
	/* a reference d pages deep in the stack misses in every size <= d */
	ps->bucket = xcalloc(ps->depth + 1, sizeof(*ps->bucket));
	for (unsigned int d = 0; d <= ps->depth; d++)
		for (size_t k = 0; k < ps->nsizes; k++)
			ps->bucket[d] += ps->entries[k] <= d;
	ps->nruns = model_runs(cg, budget, &ps->runs);
	for (size_t x = 0; x < ps->nruns; x++)
		ps->visits += cg->paths[ps->runs[x]].n;
	ps->stack = xmallocarray(ps->depth, sizeof(*ps->stack));
	return ps;
}

void pagesim_free(struct pagesim *ps)
{
	if (!ps)
		return;
	free(ps->runs);
	free(ps->bucket);
	free(ps->stack);
	free(ps->state);
	free(ps);
}

uint64_t pagesim_visits(const struct pagesim *ps)
{
	return ps->visits;
}

uint64_t pagesim_cold(const struct pagesim *ps)
{
	return ps->cold;
}

/* Page pg is referenced: to the top of the stack, counted by its depth
 * there (ps->depth: not in it, a miss in every size). */
static inline void reference(struct pagesim *ps, uint32_t pg)
{
	uint32_t *st = ps->stack;
	unsigned int d;

	if (ps->used && st[0] == pg) {
		ps->cnt[0]++;
		return;
	}
	if (ps->state[pg] & PS_IN) {
		for (d = 1; st[d] != pg; d++)
			;
	} else {
		ps->cold += !(ps->state[pg] & PS_SEEN);
		ps->state[pg] |= PS_SEEN | PS_IN;
		if (ps->used == ps->depth)
			ps->state[st[ps->depth - 1]] &= (uint8_t)~PS_IN;
		else
			ps->used++;
		d = ps->used - 1;
		ps->cnt[ps->nsizes]++;
		memmove(st + 1, st, d * sizeof(*st));
		st[0] = pg;
		return;
	}
	ps->cnt[ps->bucket[d]]++;
	memmove(st + 1, st, d * sizeof(*st));
	st[0] = pg;
}

void pagesim_replay(struct pagesim *ps, const uint64_t *page, const uint32_t *span,
		    uint64_t npages, uint64_t *misses)
{
	if (npages > ps->cap) {
		ps->cap = npages;
		ps->state = xreallocarray(ps->state, npages, sizeof(*ps->state));
	}
	memset(ps->state, 0, npages * sizeof(*ps->state));
	memset(ps->cnt, 0, sizeof(ps->cnt));
	ps->cold = 0;
	ps->used = 0;
	for (size_t x = 0; x < ps->nruns; x++) {
		const struct cg_path *pa = &ps->cg->paths[ps->runs[x]];

		for (uint32_t j = 0; j < pa->n; j++) {
			uint32_t v = pa->nodes[j], k = span ? span[v] : 1;

			for (uint64_t pg = page[v]; pg < page[v] + k; pg++)
				reference(ps, (uint32_t)pg);
		}
	}
	/* size k misses a reference at least entries[k] deep: in a bucket
	 * of at least as many sizes as are <= entries[k] */
	for (size_t k = 0; k < ps->nsizes; k++) {
		size_t need = 0;

		for (size_t j = 0; j < ps->nsizes; j++)
			need += ps->entries[j] <= ps->entries[k];
		misses[k] = 0;
		for (size_t b = need; b <= ps->nsizes; b++)
			misses[k] += ps->cnt[b];
	}
}

uint64_t pagesim_misses(struct pagesim *ps, const uint64_t *page, const uint32_t *span,
			uint64_t npages)
{
	uint64_t m[GEOM_MAX_TLB];

	pagesim_replay(ps, page, span, npages, m);
	return m[0];
}
