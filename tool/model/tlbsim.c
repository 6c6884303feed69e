// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tlbsim.c - the I-TLB simulator: sets of ways, each way a page tag with the
 * time of its last use; a miss replaces the least recently used way of the
 * page's set (an empty way first). Fully associative is one set. Pinned
 * ranges are checked first and never enter the sets.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/warn.h"
#include "lib/xalloc.h"
#include "model/tlbsim.h"

#define TAG_EMPTY UINT64_MAX

struct tlbsim {
	struct tlb_geom g;
	struct tlb_pin *pins;
	unsigned int sets, ways, shift;
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

static int ilog2_u64(uint64_t v)
{
	int s = 0;

	while (v > 1) {
		v >>= 1;
		s++;
	}
	return s;
}

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

int tlbsim_new(struct tlbsim **out, const struct tlb_geom *g)
{
	struct tlbsim *t;
	unsigned int ways = g->ways ? g->ways : g->entries;

	if (!g->entries || g->entries > (1u << 20)) {
		pr_err("I-TLB of %u entries; give 1 to 1048576 entries", g->entries);
		return -EINVAL;
	}
	if (!is_pow2(g->page_size) || g->page_size < 1024 || g->page_size > (1ull << 30)) {
		pr_err("page size %" PRIu64 "; give a power of 2 from 1 KiB to 1 GiB "
		       "(4K, 16K, 64K, 2M, 8M, 16M)", g->page_size);
		return -EINVAL;
	}
	if (ways > g->entries || g->entries % ways || !is_pow2(g->entries / ways)) {
		pr_err("I-TLB of %u entries cannot have %u ways; the sets (entries / ways) "
		       "must be a whole power of 2", g->entries, ways);
		return -EINVAL;
	}
	for (size_t i = 0; i < g->npins; i++) {
		if (g->pins[i].end <= g->pins[i].start) {
			pr_err("pinned range %#" PRIx64 "-%#" PRIx64 " is empty; give START-END "
			       "with END above START", g->pins[i].start, g->pins[i].end);
			return -EINVAL;
		}
	}
	t = xcalloc(1, sizeof(*t));
	t->g = *g;
	if (g->npins) {
		t->pins = xcalloc(g->npins, sizeof(*t->pins));
		memcpy(t->pins, g->pins, g->npins * sizeof(*t->pins));
		t->g.pins = t->pins;
	}
	t->ways = ways;
	t->sets = g->entries / ways;
	t->shift = (unsigned int)ilog2_u64(g->page_size);
	t->tag = xcalloc(g->entries, sizeof(*t->tag));
	t->used = xcalloc(g->entries, sizeof(*t->used));
	if (ways > TLB_HASH_WAYS) {
		uint32_t size = 1;

		while (size < 4 * g->entries)
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
	free(t->pins);
	free(t->tag);
	free(t->used);
	free(t->hkey);
	free(t->hval);
	free(t);
}

void tlbsim_reset(struct tlbsim *t)
{
	for (unsigned int i = 0; i < t->g.entries; i++) {
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
	for (size_t i = 0; i < t->g.npins; i++)
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
	if (t->g.npins && pinned(t, addr)) {
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

const char *tlb_size_str(uint64_t bytes, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB" };
	unsigned int u = 0;

	while (u < 3 && bytes >= 1024 && !(bytes % 1024)) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, len, "%" PRIu64 " %s", bytes, unit[u]);
	return buf;
}

const char *tlb_geom_str(const struct tlb_geom *g, char *buf, size_t len)
{
	char ps[32], assoc[32], pins[48] = "";
	unsigned int ways = g->ways ? g->ways : g->entries;

	tlb_size_str(g->page_size, ps, sizeof(ps));
	if (ways == g->entries)
		snprintf(assoc, sizeof(assoc), "fully associative");
	else
		snprintf(assoc, sizeof(assoc), "%u-way", ways);
	if (g->npins)
		snprintf(pins, sizeof(pins), ", %zu pinned range%s", g->npins,
			 g->npins == 1 ? "" : "s");
	snprintf(buf, len, "%u-entry %s LRU I-TLB, %s pages%s", g->entries, assoc, ps, pins);
	return buf;
}

int tlb_parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	uint64_t mul = 1;

	if (!s || !*s || *s == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -EINVAL;
	switch (*end) {
	case 'k': case 'K': mul = 1ull << 10; end++; break;
	case 'm': case 'M': mul = 1ull << 20; end++; break;
	case 'g': case 'G': mul = 1ull << 30; end++; break;
	default: break;
	}
	if (mul > 1 && (!strcmp(end, "iB") || !strcmp(end, "B") || !strcmp(end, "ib")))
		end += strlen(end);
	if (*end || v > UINT64_MAX / mul || !is_pow2(v * mul))
		return -EINVAL;
	*out = v * mul;
	return 0;
}
