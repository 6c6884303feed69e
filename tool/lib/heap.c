// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * heap.c - sift up on push, sift down on pop (the last element to the top,
 * then swapped with the first of its children while one goes before it,
 * the left child on a tie): the order of equal elements is part of the
 * layouts' output, so these steps must stay as they are.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/heap.h"
#include "lib/xalloc.h"

static void *at(const struct heap *h, size_t i)
{
	return h->v + i * h->elem;
}

static void swap(struct heap *h, size_t i, size_t j)
{
	char *a = at(h, i), *b = at(h, j);

	for (size_t k = 0; k < h->elem; k++) {
		char t = a[k];

		a[k] = b[k];
		b[k] = t;
	}
}

void heap_push(struct heap *h, const void *e)
{
	size_t i;

	xgrow((void **)&h->v, &h->cap, h->n + 1, h->elem);
	i = h->n++;
	memcpy(at(h, i), e, h->elem);
	while (i && h->before(at(h, i), at(h, (i - 1) / 2))) {
		swap(h, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

void heap_pop(struct heap *h, void *out)
{
	size_t i = 0;

	memcpy(out, at(h, 0), h->elem);
	if (--h->n)
		memcpy(at(h, 0), at(h, h->n), h->elem);
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < h->n && h->before(at(h, l), at(h, m)))
			m = l;
		if (r < h->n && h->before(at(h, r), at(h, m)))
			m = r;
		if (m == i)
			break;
		swap(h, i, m);
		i = m;
	}
}

void heap_free(struct heap *h)
{
	free(h->v);
	h->v = NULL;
	h->n = h->cap = 0;
}
