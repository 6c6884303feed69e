/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ranges.h - a set of byte ranges [lo, hi) of one function, kept sorted and
 * apart: the bytes a window's samples ran (prof_trace.xr), so that the model
 * fetches the lines a visit ran, not every line between its lowest and
 * highest sample. A sample of an address stands for the bytes from it to
 * the end of its RANGES_GAP line (the QEMU plugin's stream samples each
 * entry into a 64 B block), and ranges less than RANGES_GAP apart are one:
 * the bytes between ran, or were fetched with them.
 */
#ifndef HP_RANGES_H
#define HP_RANGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* an I-cache line, and the sample stream's block */
#define RANGES_GAP 64

struct ranges {
	uint32_t *v;		/* n pairs lo, hi: v[2i] < v[2i + 1] < v[2i + 2] */
	uint32_t n;
	size_t cap;		/* room in v, in elements */
};

/* Add [@lo, @hi) (@hi <= @lo: nothing), joining ranges less than RANGES_GAP apart. */
void ranges_add(struct ranges *r, uint32_t lo, uint32_t hi);
/* Add every range of @src to @r (a union: associative and commutative). */
void ranges_union(struct ranges *r, const struct ranges *src);
/* Add what one side ran: its ranges @src when it has some, else its one
 * range [@lo, @hi) (a hull is a range of what ran). */
void ranges_add_side(struct ranges *r, const struct ranges *src, uint32_t lo, uint32_t hi);
/* The lowest and highest byte, [*@lo, *@hi); false when @r is empty. */
bool ranges_hull(const struct ranges *r, uint32_t *lo, uint32_t *hi);
bool ranges_equal(const struct ranges *a, const struct ranges *b);
void ranges_copy(struct ranges *dst, const struct ranges *src);
/* Free what @r holds and empty it. */
void ranges_release(struct ranges *r);

#endif
