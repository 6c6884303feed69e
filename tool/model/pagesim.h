/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pagesim.h - the model's replay cut down for a search: the runs of
 * model_runs() through one fully associative LRU TLB, page by page, with
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

/**
 * pagesim_fits() - whether pagesim replays @g's first TLB size as tlbsim
 * does: fully associative LRU. Pinned ranges it does not know (they take
 * entries in its replay); model_eval(), the judge, counts them.
 */
bool pagesim_fits(const struct geometry *g);

/**
 * pagesim_new() - the runs of @cg's paths (model_runs() with @budget)
 * through @g's first TLB size; @g must fit (pagesim_fits()).
 */
struct pagesim *pagesim_new(const struct cgraph *cg, uint64_t budget, const struct geometry *g);
void pagesim_free(struct pagesim *ps);

/** Node visits one replay makes: what it costs. */
uint64_t pagesim_visits(const struct pagesim *ps);

/**
 * pagesim_misses() - misses of one replay when node v is on pages
 * page[v] .. page[v] + span[v] - 1 (@span NULL: one page each), every one
 * below @npages (number them densely: the cost of a replay grows with
 * @npages). A run that stays on a page references it once.
 */
uint64_t pagesim_misses(struct pagesim *ps, const uint64_t *page, const uint32_t *span,
			uint64_t npages);

/** Misses of the last replay that were a page's first reference. */
uint64_t pagesim_cold(const struct pagesim *ps);

#endif
