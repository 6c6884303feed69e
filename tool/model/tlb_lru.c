// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tlb_lru.c - least recently used replacement: sets of ways, each way a
 * page tag with the time of its last use; a miss replaces the least
 * recently used way of the page's set (an empty way first). Fully
 * associative is one set.
 */
#include "config.h"

#include <stdlib.h>

#include "lib/xalloc.h"
#include "model/tlb_model.h"

#define TAG_EMPTY UINT64_MAX

struct lru {
	unsigned int entries, sets, ways;
	uint64_t *tag;		/* sets * ways */
	uint64_t *used;		/* last use, 0 = never */
	uint64_t clock;
	/* with many ways, page -> slot in an open-addressed table, so a hit
	 * costs no scan; only a miss scans its set for the LRU way */
	uint64_t *hkey;
	uint32_t *hval, hmask;
};

#define LRU_HASH_WAYS 16	/* ways above which lookups go through the table */

static uint32_t hslot(const struct lru *t, uint64_t page)
{
	return (uint32_t)((page * 0x9e3779b97f4a7c15ull) >> 32) & t->hmask;
}

static uint32_t hfind(const struct lru *t, uint64_t page)
{
	for (uint32_t i = hslot(t, page);; i = (i + 1) & t->hmask) {
		if (t->hkey[i] == page)
			return t->hval[i];
		if (t->hkey[i] == TAG_EMPTY)
			return UINT32_MAX;
	}
}

static void hput(struct lru *t, uint64_t page, uint32_t slot)
{
	uint32_t i = hslot(t, page);

	while (t->hkey[i] != TAG_EMPTY)
		i = (i + 1) & t->hmask;
	t->hkey[i] = page;
	t->hval[i] = slot;
}

/* Remove @page, shifting later entries of its probe run back (no tombstones). */
static void hdel(struct lru *t, uint64_t page)
{
	uint32_t i = hslot(t, page), j;

	while (t->hkey[i] != page)
		i = (i + 1) & t->hmask;
	for (j = i;;) {
		uint32_t k;

		j = (j + 1) & t->hmask;
		if (t->hkey[j] == TAG_EMPTY)
			break;
		k = hslot(t, t->hkey[j]);
		/* leave j where it is if its home slot k lies in (i, j] */
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		t->hkey[i] = t->hkey[j];
		t->hval[i] = t->hval[j];
		i = j;
	}
	t->hkey[i] = TAG_EMPTY;
}

static void lru_reset(void *tlb)
{
	struct lru *t = tlb;

	for (unsigned int i = 0; i < t->entries; i++) {
		t->tag[i] = TAG_EMPTY;
		t->used[i] = 0;
	}
	if (t->hkey)
		for (uint32_t i = 0; i <= t->hmask; i++)
			t->hkey[i] = TAG_EMPTY;
	t->clock = 0;
}

static void *lru_create(unsigned int entries, unsigned int sets)
{
	struct lru *t = xcalloc(1, sizeof(*t));

	t->entries = entries;
	t->sets = sets;
	t->ways = entries / sets;
	t->tag = xcalloc(entries, sizeof(*t->tag));
	t->used = xcalloc(entries, sizeof(*t->used));
	if (t->ways > LRU_HASH_WAYS) {
		uint32_t size = 1;

		while (size < 4 * entries)
			size <<= 1;
		t->hmask = size - 1;
		t->hkey = xcalloc(size, sizeof(*t->hkey));
		t->hval = xcalloc(size, sizeof(*t->hval));
	}
	lru_reset(t);
	return t;
}

static void lru_destroy(void *tlb)
{
	struct lru *t = tlb;

	if (!t)
		return;
	free(t->tag);
	free(t->used);
	free(t->hkey);
	free(t->hval);
	free(t);
}

static bool lru_access(void *tlb, uint64_t page)
{
	struct lru *t = tlb;
	uint64_t *tag, *used;
	unsigned int victim = 0;

	t->clock++;
	tag = t->tag + (size_t)(page & (t->sets - 1)) * t->ways;
	used = t->used + (tag - t->tag);
	if (t->hkey) {
		uint32_t slot = hfind(t, page);

		if (slot != UINT32_MAX) {
			t->used[slot] = t->clock;
			return false;
		}
		for (unsigned int w = 1; w < t->ways; w++)
			if (used[w] < used[victim])
				victim = w;
		if (tag[victim] != TAG_EMPTY)
			hdel(t, tag[victim]);
		hput(t, page, (uint32_t)(tag + victim - t->tag));
		goto fill;
	}
	for (unsigned int w = 0; w < t->ways; w++) {
		if (tag[w] == page) {
			used[w] = t->clock;
			return false;
		}
		if (used[w] < used[victim])
			victim = w;
	}
	/* an empty way has used == 0 and so is the first minimum found */
fill:
	tag[victim] = page;
	used[victim] = t->clock;
	return true;
}

const struct tlb_model tlb_lru = {
	.name = "LRU",
	.desc = "least recently used way of the page's set",
	.create = lru_create,
	.destroy = lru_destroy,
	.reset = lru_reset,
	.access = lru_access,
};
