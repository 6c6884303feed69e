// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * place.c - addresses from an order: the hot region laid out at the
 * functions' alignments, and the rest of the text shifted after it.
 */
#include "config.h"

#include <stdlib.h>

#include "lib/util.h"
#include "lib/xalloc.h"
#include "place/place.h"

/* Where @nd starts when the previous function ended at @at. */
static uint64_t place_align(const struct cg_node *nd, uint64_t at)
{
	return align_up(at, NONZERO(nd->align));
}

uint64_t place_order(const struct cgraph *cg, const uint32_t *order, size_t n,
		     uint64_t base, uint64_t *addr)
{
	uint64_t at = base;
	size_t i;

	for (i = 0; i < cg->nnodes; i++)
		addr[i] = UINT64_MAX;
	for (i = 0; i < n; i++) {
		const struct cg_node *nd = &cg->nodes[order[i]];

		at = place_align(nd, at);
		addr[order[i]] = at;
		at += nd->size;
	}
	return at;
}

size_t place_fit_bytes(const struct cgraph *cg, const uint32_t *order, size_t n,
		       uint64_t max_bytes)
{
	uint64_t at = 0;
	size_t i;

	if (!max_bytes)
		return n;
	for (i = 0; i < n; i++) {
		const struct cg_node *nd = &cg->nodes[order[i]];

		at = place_align(nd, at);
		if (at + nd->size > max_bytes)
			break;
		at += nd->size;
	}
	return i;
}

void place_as_linked(const struct cgraph *cg, uint64_t *addr)
{
	size_t i;

	for (i = 0; i < cg->nnodes; i++)
		addr[i] = cg->img ? cg->img->funcs[cg->nodes[i].func].addr : UINT64_MAX;
}

struct moved {
	uint64_t orig, size;
};

static int cmp_moved(const void *a, const void *b)
{
	const struct moved *x = a, *y = b;

	return (x->orig > y->orig) - (x->orig < y->orig);
}

uint64_t place_relink(const struct cgraph *cg, const uint64_t *orig, const uint32_t *order,
		      size_t n, uint64_t insert, uint64_t page_size, uint64_t *addr)
{
	uint64_t base = align_up(insert, page_size);
	uint64_t end = place_order(cg, order, n, base, addr);
	struct moved *mv = xcalloc(n, sizeof(*mv));
	uint64_t *prefix = xcalloc(n + 1, sizeof(*prefix));
	size_t nmv = 0;

	for (size_t i = 0; i < n; i++)
		if (orig[order[i]] >= insert)
			mv[nmv++] = (struct moved){ orig[order[i]], cg->nodes[order[i]].size };
	qsort(mv, nmv, sizeof(*mv), cmp_moved);
	for (size_t i = 0; i < nmv; i++)
		prefix[i + 1] = prefix[i] + mv[i].size;
	for (size_t v = 0; v < cg->nnodes; v++) {
		size_t lo = 0, hi = nmv;

		if (addr[v] != UINT64_MAX)
			continue;
		if (orig[v] < insert) {
			addr[v] = orig[v];
			continue;
		}
		/* moved functions that sat below this one */
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (mv[mid].orig < orig[v])
				lo = mid + 1;
			else
				hi = mid;
		}
		addr[v] = orig[v] + (end - insert) - prefix[lo];
	}
	free(mv);
	free(prefix);
	return end;
}
