/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lld_cg.h - hotpack's call graph as lld's --call-graph-ordering-file: one
 * line "CALLER CALLEE WEIGHT" per arc, and "F F WEIGHT" for a function's
 * own samples (lld adds a self arc's weight to the function's). lld reads
 * the names as symbols and orders the input sections that define them, so
 * a name several functions share is left out: lld would give its arcs to
 * whichever of them it met last.
 */
#ifndef HP_LLD_CG_H
#define HP_LLD_CG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "graph/graph.h"

/* What was written. */
struct lld_cg_stats {
	size_t nodes;		/* self lines (functions with samples) */
	size_t arcs;		/* caller-callee lines */
	size_t left_out;	/* functions whose name is not theirs alone */
	uint64_t weight_left_out;	/* their samples */
};

/**
 * emit_lld_cg() - write @cg (built against an image) to @out: a "#" header
 * (lld skips such lines), the self lines in node order, then the arcs in
 * (caller, callee) order. @st (may be NULL) says what was written. Returns
 * 0 or -EIO.
 */
int emit_lld_cg(FILE *out, const struct cgraph *cg, struct lld_cg_stats *st);

#endif
