/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tlbmodel.h - the small, fast instruction-side models the QEMU plugin runs
 * for every translation-block execution: an LRU stack that answers "hit or
 * miss" for several fully associative TLB sizes in one lookup, and an LRU
 * set-associative array used both for set-associative TLBs and for the
 * instruction cache.
 *
 * The plugin looks up each page (and each cache line) a TB covers once per
 * TB execution, in fetch order. Repeated fetches from the most recently used
 * entry change no LRU state, so this gives exactly the misses of a model that
 * looks up every instruction fetch. Kept free of hotpack's library so that
 * the plugin stays one self-contained shared object.
 */
#ifndef HP_QEMU_TLBMODEL_H
#define HP_QEMU_TLBMODEL_H

#include <stdbool.h>
#include <stdint.h>

#define TLBM_MAX_SIZES 16	/* TLB sizes simulated at once */
#define TLBM_EMPTY UINT64_MAX	/* never a page or line number */

/*
 * LRU stack (Mattson et al.): tags in most-recently-used order, at most
 * @depth of them. A tag's position before the access is its stack distance;
 * a fully associative LRU TLB of N entries misses exactly when that distance
 * is >= N (or the tag is not in the stack at all).
 */
struct tlbm_stack {
	unsigned depth;		/* largest TLB size simulated */
	unsigned used;
	uint64_t *tags;
};

#define TLBM_COLD UINT32_MAX	/* distance of a tag not in the stack */

/** Returns 0, or -1 when out of memory. */
int tlbm_stack_init(struct tlbm_stack *s, unsigned depth);
void tlbm_stack_free(struct tlbm_stack *s);
/** Access @tag: returns its stack distance before the access (0 = MRU) or
 * TLBM_COLD, and makes it the most recently used. */
uint32_t tlbm_stack_access(struct tlbm_stack *s, uint64_t tag);

/* Set-associative LRU array: sets * ways tags, each set in MRU order. The set
 * is picked by the tag's low bits (sets is a power of two). */
struct tlbm_sa {
	uint64_t set_mask;	/* sets - 1 */
	unsigned ways;
	uint64_t *tags;
};

/** @sets must be a power of two, @ways >= 1. Returns 0 or -1. */
int tlbm_sa_init(struct tlbm_sa *c, unsigned sets, unsigned ways);
void tlbm_sa_free(struct tlbm_sa *c);
/** Access @tag; true on a hit. The tag becomes its set's MRU either way. */
bool tlbm_sa_access(struct tlbm_sa *c, uint64_t tag);

/*
 * An I-TLB bundle: several sizes of one geometry (fully associative when
 * ways == 0, else ways-way set-associative with size/ways sets each).
 */
struct tlbm_tlb {
	unsigned nsizes;
	unsigned sizes[TLBM_MAX_SIZES];
	unsigned ways;			/* 0 = fully associative */
	struct tlbm_stack stack;	/* fully associative: all sizes at once */
	struct tlbm_sa sa[TLBM_MAX_SIZES];	/* set-associative: one per size */
	uint64_t last;			/* MRU page of every size: a sure hit */
};

/**
 * tlbm_tlb_init() - @sizes[0..nsizes-1] entries each, @ways as above.
 * Returns 0, or -1 with a reason in @why (a static string) when a size is
 * not a multiple of @ways or gives a set count that is not a power of two.
 */
int tlbm_tlb_init(struct tlbm_tlb *t, const unsigned *sizes, unsigned nsizes,
		  unsigned ways, const char **why);
void tlbm_tlb_free(struct tlbm_tlb *t);
/** Look up page number @page in every size; returns a bit mask of the sizes
 * (bit i = sizes[i]) that missed. */
uint32_t tlbm_tlb_access(struct tlbm_tlb *t, uint64_t page);

/** Parse "8:16:32" into @sizes (at most TLBM_MAX_SIZES, each 1..4096);
 * returns the count, or -1. */
int tlbm_parse_sizes(const char *s, unsigned *sizes);
/** Parse a size with an optional K/M/G suffix (binary units); -1 on error. */
int tlbm_parse_bytes(const char *s, uint64_t *out);

#endif
