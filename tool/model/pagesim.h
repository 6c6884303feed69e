/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pagesim.h - the model's replay cut down for a search: the runs of
 * model_runs() through fully associative LRU TLBs of every size of the
 * geometry at once (one LRU stack), page by page, with
 * each node's page given as a number by the caller. A search moves a
 * function by changing its number and replays, with no layout and no
 * addresses; model_eval() stays the judge of the result.
 *
 * Its LRU is tlb_lru's policy on dense page numbers: a hit is one array
 * look, no hash and no call through the model table. Through the table
 * (tlb_model.h) the search on x86 --addr-window 64 took 18.4 s instead of
 * 12.2 s, so other geometries are not searched (pagesim_fits()).
 */
#ifndef HP_PAGESIM_H
#define HP_PAGESIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "graph/graph.h"
#include "lib/geometry.h"

struct pagesim;

/* the largest TLB size it replays (the stack's depth is the cost of a miss) */
#define PAGESIM_MAX_ENTRIES 4096

/**
 * pagesim_fits() - whether pagesim replays @g's TLB sizes as tlbsim
 * does: fully associative LRU, each size up to PAGESIM_MAX_ENTRIES. Pinned
 * ranges it does not know (they take entries in its replay); model_eval(),
 * the judge, counts them.
 */
bool pagesim_fits(const struct geometry *g);

/**
 * pagesim_new() - the runs of @cg's paths (model_runs() with @budget)
 * through each of @g's TLB sizes; @g must fit (pagesim_fits()).
 */
struct pagesim *pagesim_new(const struct cgraph *cg, uint64_t budget, const struct geometry *g);
void pagesim_free(struct pagesim *ps);

/** Node visits one replay makes: what it costs. */
uint64_t pagesim_visits(const struct pagesim *ps);

/**
 * pagesim_replay() - misses of one replay, into @misses[k] for the
 * geometry's k-th TLB size, when node v is on pages
 * page[v] .. page[v] + span[v] - 1 (@span NULL: one page each), every one
 * below @npages (number them densely: the cost of a replay grows with
 * @npages). A run that stays on a page references it once.
 */
void pagesim_replay(struct pagesim *ps, const uint64_t *page, const uint32_t *span,
		    uint64_t npages, uint64_t *misses);
/** pagesim_replay()'s misses at the geometry's first TLB size */
uint64_t pagesim_misses(struct pagesim *ps, const uint64_t *page, const uint32_t *span,
			uint64_t npages);

/** Misses of the last replay that were a page's first reference. */
uint64_t pagesim_cold(const struct pagesim *ps);

#endif
