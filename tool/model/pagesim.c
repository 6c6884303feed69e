// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pagesim.c - see pagesim.h. Pages are numbered densely by the caller,
 * so every page has its slot in the TLB (or none) and the time of its last
 * reference in two arrays: a hit costs one look, a miss a scan of the
 * entries for the least recently referenced, the LRU victim (tlb_lru.c's
 * choice: the victims, and so the misses, are the same).
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
	unsigned int entries;
	uint64_t *slots;	/* the pages in the TLB */
	uint64_t *stamp;	/* by page: its last reference */
	uint32_t *slot_of;	/* by page: its slot, or UINT32_MAX */
	uint64_t cap;		/* pages the two above have room for */
	uint64_t cold;		/* first references in the last replay */
};

bool pagesim_fits(const struct geometry *g)
{
	return g->ntlb && g->tlb_entries[0] && !g->tlb_ways &&
	       tlb_model_find(g->tlb_model) == &tlb_lru;
}

struct pagesim *pagesim_new(const struct cgraph *cg, uint64_t budget, const struct geometry *g)
{
	struct pagesim *ps = xcalloc(1, sizeof(*ps));

	ps->cg = cg;
	ps->entries = g->tlb_entries[0];
	ps->nruns = model_runs(cg, budget, &ps->runs);
	for (size_t x = 0; x < ps->nruns; x++)
		ps->visits += cg->paths[ps->runs[x]].n;
	ps->slots = xmallocarray(ps->entries, sizeof(*ps->slots));
	return ps;
}

void pagesim_free(struct pagesim *ps)
{
	if (!ps)
		return;
	free(ps->runs);
	free(ps->slots);
	free(ps->stamp);
	free(ps->slot_of);
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

/* Page pg is referenced at time now: 1 if that misses. */
static unsigned int reference(struct pagesim *ps, uint64_t pg, uint64_t now, uint32_t *used)
{
	uint32_t slot = ps->slot_of[pg];

	if (slot == UINT32_MAX) {
		ps->cold += !ps->stamp[pg];
		if (*used < ps->entries) {
			slot = (*used)++;
		} else {	/* the least recently referenced goes */
			slot = 0;
			for (uint32_t i = 1; i < ps->entries; i++)
				if (ps->stamp[ps->slots[i]] < ps->stamp[ps->slots[slot]])
					slot = i;
			ps->slot_of[ps->slots[slot]] = UINT32_MAX;
		}
		ps->slots[slot] = pg;
		ps->slot_of[pg] = slot;
		ps->stamp[pg] = now;
		return 1;
	}
	ps->stamp[pg] = now;
	return 0;
}

uint64_t pagesim_misses(struct pagesim *ps, const uint64_t *page, const uint32_t *span,
			uint64_t npages)
{
	uint64_t misses = 0, now = 0;
	uint32_t used = 0;

	if (npages > ps->cap) {
		ps->cap = npages;
		ps->stamp = xreallocarray(ps->stamp, npages, sizeof(*ps->stamp));
		ps->slot_of = xreallocarray(ps->slot_of, npages, sizeof(*ps->slot_of));
	}
	memset(ps->slot_of, 0xff, npages * sizeof(*ps->slot_of));
	memset(ps->stamp, 0, npages * sizeof(*ps->stamp));
	ps->cold = 0;
	for (size_t x = 0; x < ps->nruns; x++) {
		const struct cg_path *pa = &ps->cg->paths[ps->runs[x]];
		uint64_t last = UINT64_MAX;

		for (uint32_t j = 0; j < pa->n; j++) {
			uint32_t v = pa->nodes[j], k = span ? span[v] : 1;

			for (uint64_t pg = page[v]; pg < page[v] + k; pg++) {
				if (pg == last)
					continue;
				last = pg;
				misses += reference(ps, pg, ++now, &used);
			}
		}
	}
	return misses;
}
