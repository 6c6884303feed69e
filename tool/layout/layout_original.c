// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * layout_original.c - the hot set in link order: the baseline every other
 * algorithm is measured against (it only packs the hot set together).
 */
#include "config.h"

#include <stdlib.h>

#include "layout/layout.h"

static const struct cgraph *orig_cg;

static int cmp_link_order(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	const struct cg_node *nx = &orig_cg->nodes[x], *ny = &orig_cg->nodes[y];
	uint64_t ax = orig_cg->img ? orig_cg->img->funcs[nx->func].addr : nx->func;
	uint64_t ay = orig_cg->img ? orig_cg->img->funcs[ny->func].addr : ny->func;

	if (ax != ay)
		return ax < ay ? -1 : 1;
	return x < y ? -1 : x > y;
}

static int original_run(const struct cgraph *cg, const struct layout_opts *opts,
			uint32_t *order, size_t *n)
{
	*n = layout_select(cg, opts, order);
	orig_cg = cg;
	qsort(order, *n, sizeof(*order), cmp_link_order);
	orig_cg = NULL;
	return 0;
}

const struct layout_algo layout_original = {
	.name = "original",
	.desc = "the hot set in link (address) order",
	.run = original_run,
};
