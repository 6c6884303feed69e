// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ranges.c - sorted sets of byte ranges (see ranges.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/ranges.h"
#include "lib/xalloc.h"

void ranges_add(struct ranges *r, uint32_t lo, uint32_t hi)
{
	uint32_t i, j, glo, ghi;

	if (hi <= lo)
		return;
	/* the ranges less than GAP from [lo, hi) are [i, j) */
	glo = lo > RANGES_GAP ? lo - RANGES_GAP : 0;
	ghi = hi < UINT32_MAX - RANGES_GAP ? hi + RANGES_GAP : UINT32_MAX;
	for (i = 0; i < r->n && r->v[2 * i + 1] <= glo; i++)
		;
	for (j = i; j < r->n && r->v[2 * j] < ghi; j++)
		;
	if (i == j) {
		XGROW(r->v, r->cap, 2 * ((size_t)r->n + 1));
		memmove(&r->v[2 * (i + 1)], &r->v[2 * i], 2 * (size_t)(r->n - i) * sizeof(*r->v));
		r->v[2 * i] = lo;
		r->v[2 * i + 1] = hi;
		r->n++;
		return;
	}
	if (r->v[2 * i] < lo)
		lo = r->v[2 * i];
	if (r->v[2 * (j - 1) + 1] > hi)
		hi = r->v[2 * (j - 1) + 1];
	r->v[2 * i] = lo;
	r->v[2 * i + 1] = hi;
	memmove(&r->v[2 * (i + 1)], &r->v[2 * j], 2 * (size_t)(r->n - j) * sizeof(*r->v));
	r->n -= j - i - 1;
}

void ranges_union(struct ranges *r, const struct ranges *src)
{
	for (uint32_t i = 0; i < src->n; i++)
		ranges_add(r, src->v[2 * i], src->v[2 * i + 1]);
}

void ranges_add_side(struct ranges *r, const struct ranges *src, uint32_t lo, uint32_t hi)
{
	if (src && src->n)
		ranges_union(r, src);
	else
		ranges_add(r, lo, hi);
}

bool ranges_hull(const struct ranges *r, uint32_t *lo, uint32_t *hi)
{
	if (!r->n)
		return false;
	*lo = r->v[0];
	*hi = r->v[2 * (r->n - 1) + 1];
	return true;
}

bool ranges_equal(const struct ranges *a, const struct ranges *b)
{
	return a->n == b->n && !memcmp(a->v, b->v, 2 * (size_t)a->n * sizeof(*a->v));
}

void ranges_copy(struct ranges *dst, const struct ranges *src)
{
	ranges_release(dst);
	if (!src->n)
		return;
	dst->v = xmallocarray(2 * (size_t)src->n, sizeof(*dst->v));
	memcpy(dst->v, src->v, 2 * (size_t)src->n * sizeof(*dst->v));
	dst->n = src->n;
	dst->cap = 2 * (size_t)src->n;
}

void ranges_release(struct ranges *r)
{
	free(r->v);
	memset(r, 0, sizeof(*r));
}
