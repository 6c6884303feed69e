/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util.h - the arithmetic every stage needs: alignment, powers of two, the
 * qsort comparator of plain numbers, and the guard for a value that may not
 * be zero. One copy here instead of one per file.
 */
#ifndef HP_UTIL_H
#define HP_UTIL_H

#include <stdbool.h>
#include <stdint.h>

/*
 * @x, or 1 where @x is 0: a divisor, an alignment or a length that must not
 * be zero (a zero-sized function still occupies its first byte). @x is
 * evaluated once and keeps its type.
 */
#define NONZERO(x) ((x) ?: 1)

static inline bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* @v rounded up (down) to a multiple of @a, a power of two (1: @v itself). */
static inline uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

static inline uint64_t align_down(uint64_t v, uint64_t a)
{
	return v & ~(a - 1);
}

/* The alignment @a shows: the largest power of two that divides it, at
 * most @cap (@cap for 0). */
static inline uint64_t addr_align(uint64_t a, uint64_t cap)
{
	uint64_t b = a & -a;

	return !b || b > cap ? cap : b;
}

/* The largest k with 2^k <= @v (0 for 0 and 1): a page size's shift. */
static inline unsigned int ilog2_u64(uint64_t v)
{
	return v > 1 ? 63u - (unsigned int)__builtin_clzll(v) : 0;
}

/* qsort() order of uint64_t, ascending; also the first of pairs of them. */
int cmp_u64(const void *a, const void *b);

#endif
