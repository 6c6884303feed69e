/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tlb_model.h - the I-TLB replacement models behind tlbsim, one file each
 * (tlb_<name>.c) and one line each in the table of tlbsim.c. tlbsim does
 * what every model shares: pinned ranges, the page referenced last (a hit
 * for every model), the counters, ranges of pages; a model only holds
 * pages in its sets and picks the victim.
 *
 * A new model: tool/model/tlb_<name>.c defining `const struct tlb_model
 * tlb_<name>`, declared below, its line in tlb_models[] (tlbsim.c), its
 * test in tests/unit/model/, its source in mk/model.am. The geometry
 * names it (geometry.tlb_model).
 */
#ifndef HP_TLB_MODEL_H
#define HP_TLB_MODEL_H

#include <stdbool.h>
#include <stdint.h>

struct tlb_model {
	const char *name;	/* as geometry.tlb_model and geom_str() name it */
	const char *desc;
	/* A cold TLB of @entries in @sets sets of entries / sets ways (sets a
	 * power of 2 dividing @entries; set = page number % sets). */
	void *(*create)(unsigned int entries, unsigned int sets);
	void (*destroy)(void *tlb);
	/* Forget every entry. */
	void (*reset)(void *tlb);
	/* A reference to @page, never the page referenced just before (tlbsim
	 * answers that one): true on a miss, after which @page is held. */
	bool (*access)(void *tlb, uint64_t page);
};

/* The models, NULL-terminated; the first is GEOM_TLB_MODEL_DEFAULT. */
extern const struct tlb_model *const tlb_models[];

/* The models (tool/model/tlb_<name>.c). */
extern const struct tlb_model tlb_lru;

/** tlb_model_find() - the model called @name (NULL: the default), or NULL. */
const struct tlb_model *tlb_model_find(const char *name);

#endif
