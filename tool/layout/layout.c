// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * layout.c - the table of ordering algorithms and what they share: picking
 * the hot set, cutting an order at the byte cap, counting pages.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "layout/layout.h"
#include "lib/util.h"
#include "lib/xalloc.h"
#include "place/place.h"

const struct layout_algo *const layout_algos[] = {
	&layout_original,
	&layout_c3,
	&layout_ph,
	&layout_cds,
	&layout_pages,
	NULL,
};

const struct layout_algo *layout_find(const char *name)
{
	size_t i;

	for (i = 0; layout_algos[i]; i++)
		if (!strcmp(layout_algos[i]->name, name))
			return layout_algos[i];
	return NULL;
}

/*
 * cds: on the real kernel loop (bench/RESULTS.md, "Kernel loop: every
 * algorithm, current main") it takes the fewest 32-entry I-TLB misses with
 * address samples (static call edges) and with windows of the miss stream
 * as paths; pages, best on the model, took almost three times as many.
 */
const char *layout_default_name(void)
{
	return "cds";
}

void layout_heat(const struct cgraph *cg, uint64_t *heat)
{
	size_t n, i;

	for (n = 0; n < cg->nnodes; n++) {
		uint64_t in = 0, out = 0, h = cg->nodes[n].weight;

		for (i = cg->in_start[n]; i < cg->in_start[n + 1]; i++)
			in += cg->arcs[cg->in_arcs[i]].weight;
		for (i = cg->out_start[n]; i < cg->out_start[n + 1]; i++)
			out += cg->arcs[i].weight;
		if (in > h)
			h = in;
		if (out > h)
			h = out;
		heat[n] = h;
	}
	/* A node only on a path (a trace) still ran: give it the path weight. */
	for (i = 0; i < cg->npaths; i++) {
		uint32_t k;

		for (k = 0; k < cg->paths[i].n; k++)
			if (!heat[cg->paths[i].nodes[k]])
				heat[cg->paths[i].nodes[k]] = cg->paths[i].weight;
	}
}

static const struct cgraph *sel_cg;
static const uint64_t *sel_heat;

static int cmp_heat(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (sel_heat[x] != sel_heat[y])
		return sel_heat[x] > sel_heat[y] ? -1 : 1;
	return cg_node_cmp_hot(sel_cg, x, y);
}

size_t layout_select(const struct cgraph *cg, const struct layout_opts *opts, uint32_t *sel)
{
	uint64_t *heat = xcalloc(cg->nnodes, sizeof(*heat));
	uint64_t total = 0, sum = 0, bytes = 0;
	double coverage = opts->coverage > 0 && opts->coverage <= 1 ? opts->coverage : 1.0;
	size_t i, n = 0, keep;

	layout_heat(cg, heat);
	for (i = 0; i < cg->nnodes; i++) {
		if (!cg->nodes[i].movable || !heat[i])
			continue;
		sel[n++] = (uint32_t)i;
		total += heat[i];
	}
	sel_cg = cg;
	sel_heat = heat;
	qsort(sel, n, sizeof(*sel), cmp_heat);
	sel_cg = NULL;
	sel_heat = NULL;
	for (keep = 0; keep < n; keep++) {
		uint64_t sz = cg->nodes[sel[keep]].size;

		if (coverage < 1.0 && keep && (double)sum >= coverage * (double)total)
			break;
		if (opts->max_hot_bytes && bytes + sz > opts->max_hot_bytes)
			break;
		sum += heat[sel[keep]];
		bytes += sz;
	}
	free(heat);
	return keep;
}

int layout_run(const struct layout_algo *algo, const struct cgraph *cg,
	       const struct layout_opts *opts, uint32_t *order, size_t *n)
{
	int err = algo->run(cg, opts, order, n);

	if (!err)
		*n = place_fit_bytes(cg, order, *n, opts->max_hot_bytes);
	return err;
}

size_t layout_pages_used(const struct cgraph *cg, const uint32_t *order, size_t n,
			 const uint64_t *addr, uint64_t page_size)
{
	uint64_t *first = xmallocarray(n, 2 * sizeof(*first));
	size_t i, pages = 0;
	uint64_t last = UINT64_MAX;

	/* [first page, last page] per node, sorted; count the union. */
	for (i = 0; i < n; i++) {
		uint64_t a = addr[order[i]], sz = cg->nodes[order[i]].size;

		first[2 * i] = a / page_size;
		first[2 * i + 1] = (a + NONZERO(sz) - 1) / page_size;
	}
	qsort(first, n, 2 * sizeof(*first), cmp_u64);
	for (i = 0; i < n; i++) {
		uint64_t lo = first[2 * i], hi = first[2 * i + 1];

		if (last != UINT64_MAX && lo <= last)
			lo = last + 1;
		if (last == UINT64_MAX || hi > last) {
			if (hi >= lo)
				pages += hi - lo + 1;
			last = hi;
		}
	}
	free(first);
	return pages;
}

size_t layout_pages_bound(const struct cgraph *cg, const uint32_t *order, size_t n,
			  uint64_t page_size)
{
	uint64_t bytes = 0;
	size_t i;

	for (i = 0; i < n; i++)
		bytes += cg->nodes[order[i]].size;
	return (size_t)((bytes + page_size - 1) / page_size);
}
