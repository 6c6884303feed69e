// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_heap.c - lib/heap.h: elements come out in before() order, and equal
 * ones in exactly the order of the sift steps the layouts' outputs were
 * made with (a reference copy of those steps is run beside it).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "lib/heap.h"
#include "tap.h"

struct ent {
	uint64_t key;
	uint32_t id;		/* not in the order: tells equal keys apart */
};

static bool key_before(const void *x, const void *y)
{
	return ((const struct ent *)x)->key > ((const struct ent *)y)->key;
}

/* The layouts' heap as it was written in layout_ph.c and layout_cds.c. */
static struct ent ref[4096];
static size_t nref;

static void ref_push(struct ent e)
{
	size_t i = nref++;

	ref[i] = e;
	while (i && key_before(&ref[i], &ref[(i - 1) / 2])) {
		struct ent t = ref[i];

		ref[i] = ref[(i - 1) / 2];
		ref[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

static struct ent ref_pop(void)
{
	struct ent top = ref[0];
	size_t i = 0;

	ref[0] = ref[--nref];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		struct ent t;

		if (l < nref && key_before(&ref[l], &ref[m]))
			m = l;
		if (r < nref && key_before(&ref[r], &ref[m]))
			m = r;
		if (m == i)
			break;
		t = ref[i];
		ref[i] = ref[m];
		ref[m] = t;
		i = m;
	}
	return top;
}

int main(void)
{
	struct heap h = HEAP_INIT(struct ent, key_before);
	struct ent e, prev;
	bool sorted = true, same = true;
	uint32_t id = 0;
	uint64_t seed = 12345;

	/* in: 5 3 5 9 3 5 (ids 0 to 5); the 5s come out neither first-in nor last-in first */
	static const uint64_t keys[] = { 5, 3, 5, 9, 3, 5 };
	static const uint32_t want[] = { 3, 5, 0, 2, 1, 4 };

	for (size_t i = 0; i < 6; i++)
		heap_push(&h, &(struct ent){ keys[i], (uint32_t)i });
	is_int(h.n, 6, "six pushed");
	for (size_t i = 0; i < 6; i++) {
		heap_pop(&h, &e);
		if (e.id != want[i])
			same = false;
	}
	ok(same, "ties come out as the sift steps put them: ids 3 5 0 2 1 4");
	is_int(h.n, 0, "empty after six pops");

	/* pushes and pops interleaved, many ties: the same as the reference */
	same = true;
	for (int round = 0; round < 20000; round++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		if ((seed >> 33) % 3 || !h.n) {
			if (nref == sizeof(ref) / sizeof(ref[0]))
				continue;
			e = (struct ent){ (seed >> 40) % 8, id++ };
			heap_push(&h, &e);
			ref_push(e);
		} else {
			struct ent r = ref_pop();

			heap_pop(&h, &e);
			if (e.key != r.key || e.id != r.id)
				same = false;
		}
	}
	ok(same, "20000 random steps with ties: the same elements as the reference");
	is_int(h.n, nref, "the same size as the reference");
	heap_pop(&h, &prev);
	while (h.n) {
		heap_pop(&h, &e);
		if (e.key > prev.key)
			sorted = false;
		prev = e;
	}
	ok(sorted, "what is left comes out heaviest first");
	heap_free(&h);
	ok(h.v == NULL && h.n == 0, "heap_free leaves an empty heap");
	heap_push(&h, &(struct ent){ 1, 1 });
	heap_pop(&h, &e);
	ok(e.id == 1 && !h.n, "a freed heap can be used again");
	heap_free(&h);
	return done_testing();
}
