// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tlbsim.c - the I-TLB simulator: sets of ways, each way a page tag with the
 * time of its last use; a miss replaces the least recently used way of the
 * page's set (an empty way first). Fully associative is one set. Pinned
 * ranges are checked first and never enter the sets.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "lib/xalloc.h"
#include "model/tlbsim.h"

#define TAG_EMPTY UINT64_MAX

struct tlbsim {
	struct geom_pin pins[GEOM_MAX_PINS];
	size_t npins;
	unsigned int entries, sets, ways, shift;
	uint64_t *tag;		/* sets * ways */
	uint64_t *used;		/* last use, 0 = never */
	uint64_t clock;
	uint64_t last_page;	/* the most recent page: a hit without a scan */
	struct tlb_stats st;
	/* with many ways, page -> slot in an open-addressed table, so a hit
	 * costs no scan; only a miss scans its set for the LRU way */
	uint64_t *hkey;
	uint32_t *hval, hmask;
};

#define TLB_HASH_WAYS 16	/* ways above which lookups go through the table */

static uint32_t hslot(const struct tlbsim *t, uint64_t page)
{
	return (uint32_t)((page * 0x9e3779b97f4a7c15ull) >> 32) & t->hmask;
}

static uint32_t hfind(const struct tlbsim *t, uint64_t page)
{
	for (uint32_t i = hslot(t, page);; i = (i + 1) & t->hmask) {
		if (t->hkey[i] == page)
			return t->hval[i];
		if (t->hkey[i] == TAG_EMPTY)
			return UINT32_MAX;
	}
}

static void hput(struct tlbsim *t, uint64_t page, uint32_t slot)
{
	uint32_t i = hslot(t, page);

	while (t->hkey[i] != TAG_EMPTY)
		i = (i + 1) & t->hmask;
	t->hkey[i] = page;
	t->hval[i] = slot;
}

/* Remove @page, shifting later entries of its probe run back (no tombstones). */
static void hdel(struct tlbsim *t, uint64_t page)
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

int tlbsim_new(struct tlbsim **out, const struct geometry *g, unsigned int entries)
{
	struct tlbsim *t;
	unsigned int ways = g->tlb_ways ? g->tlb_ways : entries;

	if (geom_check_tlb(g, entries))
		return -EINVAL;
	t = xcalloc(1, sizeof(*t));
	memcpy(t->pins, g->pins, g->npins * sizeof(*t->pins));
	t->npins = g->npins;
	t->entries = entries;
	t->ways = ways;
	t->sets = entries / ways;
	t->shift = ilog2_u64(g->page_size);
	t->tag = xcalloc(entries, sizeof(*t->tag));
	t->used = xcalloc(entries, sizeof(*t->used));
	if (ways > TLB_HASH_WAYS) {
		uint32_t size = 1;

		while (size < 4 * entries)
			size <<= 1;
		t->hmask = size - 1;
		t->hkey = xcalloc(size, sizeof(*t->hkey));
		t->hval = xcalloc(size, sizeof(*t->hval));
	}
	tlbsim_reset(t);
	*out = t;
	return 0;
}

void tlbsim_free(struct tlbsim *t)
{
	if (!t)
		return;
	free(t->tag);
	free(t->used);
	free(t->hkey);
	free(t->hval);
	free(t);
}

void tlbsim_reset(struct tlbsim *t)
{
	for (unsigned int i = 0; i < t->entries; i++) {
		t->tag[i] = TAG_EMPTY;
		t->used[i] = 0;
	}
	if (t->hkey)
		for (uint32_t i = 0; i <= t->hmask; i++)
			t->hkey[i] = TAG_EMPTY;
	t->clock = 0;
	t->last_page = TAG_EMPTY;
	memset(&t->st, 0, sizeof(t->st));
}

static bool pinned(const struct tlbsim *t, uint64_t addr)
{
	for (size_t i = 0; i < t->npins; i++)
		if (addr >= t->pins[i].start && addr < t->pins[i].end)
			return true;
	return false;
}

bool tlbsim_access(struct tlbsim *t, uint64_t addr)
{
	uint64_t page = addr >> t->shift;
	uint64_t *tag, *used;
	unsigned int victim = 0;

	t->st.refs++;
	if (page == t->last_page)
		return false;
	if (t->npins && pinned(t, addr)) {
		t->st.pinned++;
		return false;
	}
	t->clock++;
	tag = t->tag + (size_t)(page & (t->sets - 1)) * t->ways;
	used = t->used + (tag - t->tag);
	if (t->hkey) {
		uint32_t slot = hfind(t, page);

		if (slot != UINT32_MAX) {
			t->used[slot] = t->clock;
			t->last_page = page;
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
			t->last_page = page;
			return false;
		}
		if (used[w] < used[victim])
			victim = w;
	}
	/* an empty way has used == 0 and so is the first minimum found */
fill:
	tag[victim] = page;
	used[victim] = t->clock;
	t->last_page = page;
	t->st.misses++;
	return true;
}

unsigned int tlbsim_access_range(struct tlbsim *t, uint64_t addr, uint64_t size)
{
	uint64_t first = addr >> t->shift;
	uint64_t last = (addr + (size ? size : 1) - 1) >> t->shift;
	unsigned int misses = 0;

	for (uint64_t p = first; p <= last; p++)
		misses += tlbsim_access(t, p == first ? addr : p << t->shift);
	return misses;
}

const struct tlb_stats *tlbsim_stats(const struct tlbsim *t)
{
	return &t->st;
}
