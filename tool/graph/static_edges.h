/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * static_edges.h - the call graph's static edges: the direct calls and tail
 * calls that the disassembler finds in the code of a set of functions, for a
 * profile without call chains. The disassembler decodes and classifies the
 * call sites; this module picks the ones between two functions of the set,
 * and graph.c turns them into arcs (it passes every function of a plain
 * .text unit, so that the unit's node has all their calls).
 */
#ifndef HP_STATIC_EDGES_H
#define HP_STATIC_EDGES_H

#include <stddef.h>
#include <stdint.h>

#include "image/image.h"

/* One call site from function @caller to function @callee (indices into
 * kimage.funcs). Returns 0 to go on, non-zero to stop the walk. */
typedef int (*static_edge_cb)(uint32_t caller, uint32_t callee, void *ctx);

/**
 * static_edges() - for each of the @n functions @funcs (indices into
 * @img's funcs, walked in that order) report every direct call and tail
 * call to another function of @img to @cb, one per call site, in address
 * order. An architecture without a disassembler gets a warning and no
 * edges. Returns 0, -errno after printing why, or @cb's non-zero value.
 */
int static_edges(const struct kimage *img, const uint32_t *funcs, size_t n,
		 static_edge_cb cb, void *ctx);

#endif
