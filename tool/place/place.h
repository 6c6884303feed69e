/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * place.h - addresses from an order: where each function lands when an
 * order of graph nodes is linked as the hot region, each function at its
 * alignment with the padding counted, and where the functions left out of
 * the order (the fixed ones and the cold ones) land after it.
 *
 * Below both the model (which costs a set of addresses) and the layout
 * algorithms (which search orders by costing their addresses).
 */
#ifndef HP_PLACE_H
#define HP_PLACE_H

#include <stddef.h>
#include <stdint.h>

#include "graph/graph.h"

/**
 * place_order() - addresses for an order: start at @base (page aligned),
 * each node at its alignment. addr[] is indexed by node and must have room
 * for cg->nnodes; nodes not in the order get UINT64_MAX. Returns the end.
 */
uint64_t place_order(const struct cgraph *cg, const uint32_t *order, size_t n,
		     uint64_t base, uint64_t *addr);

/**
 * place_fit_bytes() - how many nodes of @order fit in @max_bytes from a
 * page-aligned start, alignment padding counted (0: no cap).
 */
size_t place_fit_bytes(const struct cgraph *cg, const uint32_t *order, size_t n,
		       uint64_t max_bytes);

/** Where an order goes: the lowest address of a function that can move, or
 * the main text's start before it (kimage.text_from) when the sections
 * stage found one (UINT64_MAX: none can move, or no image). */
uint64_t place_insert(const struct kimage *img);

/** addr[] = the nodes' addresses in the image as it is linked now. */
void place_as_linked(const struct cgraph *cg, uint64_t *addr);

/**
 * place_rest_as_linked() - where the code that stays lands when the image
 * functions @moved_funcs (@n of them; their plain .text units and the
 * symbols inside them move too) go to the hot region and it ends at @end:
 * @at[f] for every image function f at or after @insert that stays
 * (UINT64_MAX for the rest), as place_relink() lays it out.
 */
void place_rest_as_linked(const struct kimage *img, const uint32_t *moved_funcs, size_t n,
			  uint64_t insert, uint64_t end, uint64_t *at);

/**
 * place_relink() - where every node lands when @order is linked as the hot
 * region: the order starts at ALIGN(@insert, page) with place_order(); the
 * code that stays after @insert follows it as the linker lays it out: each
 * function of the image in its old order at its alignment, what lay between
 * (a script's ALIGN, bytes no symbol names) kept. Without an image (tests,
 * no vmlinux) a node is shifted by the hot region less the bytes of the
 * order's nodes below it. @orig holds every node's address in the image as
 * linked; nodes below @insert stay put. Returns the end of the hot region.
 */
uint64_t place_relink(const struct cgraph *cg, const uint64_t *orig, const uint32_t *order,
		      size_t n, uint64_t insert, uint64_t page_size, uint64_t *addr);

/**
 * place_relink_funcs() - where every image function lands when the image
 * functions @funcs (@n of them, an order file's, in its order) are linked
 * as the hot region: from ALIGN(@insert, @page_size) each at its alignment
 * and placed size, its plain .text unit (or outer function) moving with it
 * and counted once, those that cannot move (below @insert, not movable)
 * left where they are; the rest after it as place_rest_as_linked(). Fills
 * @at[f] for every image function (its address as linked when it stays
 * below the region). Returns the end of the hot region.
 */
uint64_t place_relink_funcs(const struct kimage *img, const uint32_t *funcs, size_t n,
			    uint64_t insert, uint64_t page_size, uint64_t *at);

#endif
