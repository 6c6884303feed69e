/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * emit.h - writing an order for a linker: a GNU ld script fragment (the
 * default, INCLUDEd at the start of the kernel's .text), gold's
 * --section-ordering-file, lld's --symbol-ordering-file, GNU ld 2.43's
 * --section-ordering-file fragment, or a plain list of names.
 */
#ifndef HP_EMIT_H
#define HP_EMIT_H

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

/* What the header comment says. */
struct emit_info {
	const char *algo;
	char *const *inputs;
	int ninputs;
	uint64_t page_size;
	size_t nfuncs;		/* functions placed */
	size_t pages_before;	/* pages the placed functions touch now */
	size_t pages_used;	/* pages they touch in this order */
	size_t pages_bound;	/* ceil(bytes / page) */
	uint64_t bytes;
	const struct profile *prof;	/* for matched/unmatched counts */
	const struct geometry *geom;	/* named on a line of its own when it is a
					 * preset's; NULL: none */
	const struct layout_traced *traced;	/* the explicit traces; NULL: none */
};

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
