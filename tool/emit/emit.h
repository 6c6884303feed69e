/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * emit.h - writing an order for a linker: a GNU ld script fragment (the
 * default, INCLUDEd at the start of the kernel's .text), gold's
 * --section-ordering-file, lld's --symbol-ordering-file, GNU ld 2.43's
 * --section-ordering-file fragment, or a plain list of names.
 */
#ifndef HP_EMIT_H
#define HP_EMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "graph/graph.h"
#include "layout/layout_traced.h"
#include "lib/geometry.h"
#include "profile/profile.h"

enum emit_format {
	EMIT_LDS,		/* GNU ld fragment: . = ALIGN(page); *(.text.f) ... */
	EMIT_GOLD,		/* gold: one input-section name per line */
	EMIT_LLD,		/* lld: one symbol per line */
	EMIT_LD_SECTION_ORDERING, /* GNU ld >= 2.43: .text : { *(.text.f) ... } */
	EMIT_LIST,		/* function names, one per line */
};

/*
 * What an order does to the hot functions, in the words order's header and
 * report both use (emit_summary_print()), so that the two describe one
 * layout: the functions placed, and every hot function (the call graph's
 * nodes, those that cannot move among them), pages now and with the order
 * linked, against the lower bounds; and the model's misses of its first TLB
 * size, now and with the order.
 */
struct emit_summary {
	size_t placed;			/* functions of the order */
	uint64_t bytes;			/* their sizes */
	size_t pages_now, pages_after, pages_bound;	/* of the placed */
	size_t hot;			/* every node of the graph */
	size_t fixed;			/* of them, functions that cannot move */
	size_t set_now, set_after, set_bound;		/* of every hot function */
	unsigned int tlb_entries;	/* the model's first TLB size */
	uint64_t misses_now, misses_after;
};

/** The model predicts more misses with the order than with the image as linked. */
static inline bool emit_summary_worse(const struct emit_summary *s)
{
	return s->misses_after > s->misses_now;
}

/** @s as lines each started with @mid (a comment leader, or ""). */
void emit_summary_print(FILE *out, const char *mid, const struct emit_summary *s);

/* What the header comment says. */
struct emit_info {
	const char *algo;
	char *const *inputs;
	int ninputs;
	uint64_t page_size;
	const struct emit_summary *summary;	/* NULL: only the count placed */
	const struct profile *prof;	/* for matched/unmatched counts */
	const struct geometry *geom;	/* named on a line of its own when it is a
					 * preset's; NULL: none */
	const struct layout_traced *traced;	/* the explicit traces; NULL: none */
	const struct layout_search_outcome *search;	/* pages' search; NULL: none */
};

/* The header's line on pages' search: kept, not kept (and why), or not run
 * (why); nothing when it was not asked for. */
void emit_search_print(FILE *out, const char *mid, const struct layout_search_outcome *s);

int emit_format_from_name(const char *name);
const char *emit_format_name(enum emit_format f);

/**
 * emit_filter() - drop from @order the functions that @fmt cannot name
 * exactly (a section name shared by functions whose objects are unknown, a
 * symbol name lld would take for another), with a warning naming the first
 * few. Returns the new count; the summary and the model then describe
 * exactly what is written.
 */
size_t emit_filter(enum emit_format fmt, const struct cgraph *cg, uint32_t *order, size_t n);

/** emit_order() - write @order (node indices of @cg) in @fmt. Returns 0 or -EIO. */
int emit_order(FILE *out, enum emit_format fmt, const struct cgraph *cg, const uint32_t *order,
	       size_t n, const struct emit_info *info);

#endif
