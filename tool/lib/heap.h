/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * heap.h - a binary heap of fixed-size elements in one array, ordered by
 * the caller's before(): the greedy merges of the layouts (the best pair or
 * chain first). Which of two equal elements comes out first depends on the
 * pushes and pops alone, always the same way, so an order that breaks every
 * tie in before() comes out the same on every run and machine.
 */
#ifndef HP_HEAP_H
#define HP_HEAP_H

#include <stdbool.h>
#include <stddef.h>

struct heap {
	char *v;
	size_t n, cap, elem;
	/* true when @x must come out before @y */
	bool (*before)(const void *x, const void *y);
};

#define HEAP_INIT(type, before_fn) \
	((struct heap){ .elem = sizeof(type), .before = (before_fn) })

void heap_push(struct heap *h, const void *e);
/* The first element into *out and off the heap; h->n must not be 0. */
void heap_pop(struct heap *h, void *out);
void heap_free(struct heap *h);

#endif
