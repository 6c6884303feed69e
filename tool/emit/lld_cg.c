// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lld_cg.c - the call graph for lld's call-graph sorts (hfsort, cdsort):
 * what hotpack's algorithms work on, so that lld can be given the same
 * profile. lld matches each name to a symbol and orders the section that
 * defines it; two sections of one object file, or functions in a fixed
 * section such as .sched.text, are what a real link would make of them.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>

#include "emit/lld_cg.h"
#include "lib/hotpack.h"
#include "lib/warn.h"

/* Named in a warning before the rest are counted (-v: all). */
#define LLD_CG_NAMED 5

static bool nameable(const struct cgraph *cg, uint32_t v)
{
	return !(cg->img->funcs[cg->nodes[v].func].flags & KF_DUPNAME);
}

static const char *node_name(const struct cgraph *cg, uint32_t v)
{
	return cg->img->funcs[cg->nodes[v].func].name;
}

int emit_lld_cg(FILE *out, const struct cgraph *cg, struct lld_cg_stats *st)
{
	struct lld_cg_stats s = { 0 };

	for (size_t v = 0; v < cg->nnodes; v++) {
		if (nameable(cg, (uint32_t)v))
			continue;
		if (s.left_out < LLD_CG_NAMED || hp_verbosity >= 2)
			pr_warn("%s: %s: more than one function has this name (lld reads "
				"names as symbols); left out of the call graph",
				cg->img->path, node_name(cg, (uint32_t)v));
		s.left_out++;
		s.weight_left_out += cg->nodes[v].weight;
	}
	if (s.left_out > LLD_CG_NAMED && hp_verbosity < 2)
		pr_warn("%s: %zu more functions of a shared name left out (-v names them)",
			cg->img->path, s.left_out - LLD_CG_NAMED);
	for (size_t v = 0; v < cg->nnodes; v++)
		s.nodes += cg->nodes[v].weight && nameable(cg, (uint32_t)v);
	for (size_t i = 0; i < cg->narcs; i++)
		s.arcs += nameable(cg, cg->arcs[i].src) && nameable(cg, cg->arcs[i].dst);

	fprintf(out, "# hotpack %s: lld --call-graph-ordering-file of %s\n", HOTPACK_VERSION,
		cg->img->path);
	fprintf(out, "# %zu functions with samples (a self line each: F F SAMPLES), "
		"%zu arcs (CALLER CALLEE WEIGHT)\n", s.nodes, s.arcs);
	if (s.left_out)
		fprintf(out, "# left out, a name shared with another function: %zu "
			"(%" PRIu64 " samples)\n", s.left_out, s.weight_left_out);
	for (size_t v = 0; v < cg->nnodes; v++)
		if (cg->nodes[v].weight && nameable(cg, (uint32_t)v))
			fprintf(out, "%s %s %" PRIu64 "\n", node_name(cg, (uint32_t)v),
				node_name(cg, (uint32_t)v), cg->nodes[v].weight);
	for (size_t i = 0; i < cg->narcs; i++) {
		const struct cg_arc *a = &cg->arcs[i];

		if (nameable(cg, a->src) && nameable(cg, a->dst))
			fprintf(out, "%s %s %" PRIu64 "\n", node_name(cg, a->src),
				node_name(cg, a->dst), a->weight);
	}
	if (st)
		*st = s;
	if (fflush(out) || ferror(out))
		return -EIO;
	return 0;
}
