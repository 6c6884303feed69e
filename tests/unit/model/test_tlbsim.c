// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_tlbsim.c - the I-TLB simulator and the I-cache model against miss
 * counts worked out by hand: fully associative LRU, set-associative,
 * direct-mapped, pinned ranges, ranges spanning pages, and refused geometry.
 */
#include "config.h"

#include <errno.h>

#include "model/icache.h"
#include "model/tlb_model.h"
#include "tap.h"
#include "model/tlbsim.h"

static unsigned int replay(struct tlbsim *t, const uint64_t *pages, size_t n, uint64_t ps)
{
	unsigned int m = 0;

	for (size_t i = 0; i < n; i++)
		m += tlbsim_access(t, pages[i] * ps + 8);
	return m;
}

/* A reference LRU: per set, a recency list of pages (most recent first). */
static unsigned int ref_lru(const uint64_t *pages, size_t n, unsigned int entries,
			    unsigned int ways)
{
	unsigned int sets = entries / ways, misses = 0;
	uint64_t list[256][64];
	unsigned int len[256] = { 0 };

	for (size_t i = 0; i < n; i++) {
		unsigned int s = (unsigned int)(pages[i] % sets), k;
		uint64_t *l = list[s];

		for (k = 0; k < len[s] && l[k] != pages[i]; k++)
			;
		if (k == len[s]) {
			misses++;
			if (len[s] < ways)
				len[s]++;
			k = len[s] - 1;
		}
		for (; k > 0; k--)
			l[k] = l[k - 1];
		l[0] = pages[i];
	}
	return misses;
}

/* Large TLBs look pages up through a hash table: check them against the
 * reference on a long pseudo-random stream with locality. */
static void check_against_reference(void)
{
	static const unsigned int geo[][2] = { { 32, 0 }, { 64, 32 }, { 128, 0 }, { 64, 8 } };
	static uint64_t pages[30000];
	uint64_t x = 12345;
	char what[96];

	for (size_t i = 0; i < 30000; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		/* mostly a drifting window of 40 pages, sometimes far */
		pages[i] = (x >> 60) < 13 ? (i / 500) + (x >> 33) % 40 : (x >> 33) % 400;
	}
	for (size_t g = 0; g < sizeof(geo) / sizeof(geo[0]); g++) {
		struct geometry tg = { .page_size = 4096, .tlb_ways = geo[g][1] };
		struct tlbsim *t;
		unsigned int ways = geo[g][1] ? geo[g][1] : geo[g][0];

		if (tlbsim_new(&t, &tg, geo[g][0]))
			continue;
		snprintf(what, sizeof(what), "%u entries, %u ways: same misses as a reference LRU",
			 geo[g][0], ways);
		is_int(replay(t, pages, 30000, 4096), ref_lru(pages, 30000, geo[g][0], ways), what);
		tlbsim_free(t);
	}
}

/*
 * What every model of the table must do, whatever it evicts: a first
 * reference misses, a TLB holds as many pages as it has entries (per set),
 * and geom_str() names it.
 */
static void check_every_model(void)
{
	char what[128], buf[256];

	for (size_t m = 0; tlb_models[m]; m++) {
		struct geometry g = GEOM_DEFAULT_INIT;
		struct tlbsim *t;
		unsigned int misses = 0;

		g.tlb_model = tlb_models[m]->name;
		for (unsigned int ways = 0; ways <= 4; ways += 4) {
			g.tlb_ways = ways;
			snprintf(what, sizeof(what), "%s, 16 entries, %u ways: a TLB", g.tlb_model,
				 ways);
			ok(tlbsim_new(&t, &g, 16) == 0, what);
			misses = 0;
			for (int round = 0; round < 3; round++)
				for (uint64_t p = 0; p < 16; p++)
					misses += tlbsim_access(t, p * 4096);
			snprintf(what, sizeof(what), "%s, %u ways: 16 pages miss once each",
				 g.tlb_model, ways);
			is_int(misses, 16, what);
			tlbsim_free(t);
		}
		g.tlb_ways = 0;
		snprintf(what, sizeof(what), "4 KiB pages; I-TLB fully associative %s 32/64/128 "
			 "entries; I-cache 32 KiB 8-way 64 B lines", g.tlb_model);
		is_str(geom_str(&g, buf, sizeof(buf)), what, "the geometry names the model");
	}
	ok(tlb_model_find(NULL) == tlb_models[0] &&
	   !strcmp(tlb_models[0]->name, GEOM_TLB_MODEL_DEFAULT),
	   "no model named: the default, the table's first");
	{
		struct geometry g = GEOM_DEFAULT_INIT;
		struct tlbsim *t;

		g.tlb_model = "MRU";
		is_int(tlbsim_new(&t, &g, 32), -EINVAL, "a model not in the table is refused");
	}
}

int main(void)
{
	check_against_reference();
	check_every_model();
	struct tlbsim *t;
	struct icache *c;

	/* 2 entries, LRU: A B A C B A -> A, B, C (evicts B), B (evicts A), A (evicts C) */
	{
		struct geometry g = { .page_size = 4096 };
		static const uint64_t seq[] = { 0, 1, 0, 2, 1, 0 };

		ok(tlbsim_new(&t, &g, 2) == 0, "2-entry fully associative TLB");
		is_int(replay(t, seq, 6, 4096), 5, "LRU: A B A C B A misses 5 times");
		is_int(tlbsim_stats(t)->refs, 6, "6 references");
		tlbsim_reset(t);
		is_int(tlbsim_stats(t)->misses, 0, "reset zeroes the counters");
		is_int(replay(t, seq, 6, 4096), 5, "and forgets the entries");
		tlbsim_free(t);
	}
	/* 4 entries: 2 sets of 2 ways vs fully associative. Pages 0, 2, 4 share set 0. */
	{
		static const uint64_t seq[] = { 0, 2, 4, 0, 1, 1 };
		struct geometry fa = { .page_size = 4096 };
		struct geometry sa = { .page_size = 4096, .tlb_ways = 2 };
		struct geometry dm = { .page_size = 4096, .tlb_ways = 1 };

		ok(tlbsim_new(&t, &fa, 4) == 0, "4-entry fully associative");
		is_int(replay(t, seq, 6, 4096), 4, "fully associative: 0 2 4 0 1 1 misses 4");
		tlbsim_free(t);
		ok(tlbsim_new(&t, &sa, 4) == 0, "4-entry 2-way");
		is_int(replay(t, seq, 6, 4096), 5, "2-way: page 4 evicts 0 from set 0, 0 misses again");
		tlbsim_free(t);
		ok(tlbsim_new(&t, &dm, 4) == 0, "4-entry direct-mapped");
		/* sets of one: 0 m, 2 m, 4 m (evicts 0), 0 m (evicts 4), 1 m, 1 hit */
		is_int(replay(t, seq, 6, 4096), 5, "direct-mapped: 5 misses");
		tlbsim_free(t);
	}
	/* pinned pages never miss and take no entry */
	{
		struct geometry g = { .page_size = 4096, .pins = { { 0x0, 0x2000 } }, .npins = 1 };
		static const uint64_t seq[] = { 0, 1, 2, 3, 0, 2 };

		ok(tlbsim_new(&t, &g, 1) == 0, "1 entry and a pinned range");
		is_int(replay(t, seq, 6, 4096), 3, "pinned pages 0 and 1 hit; 2 3 2 miss");
		is_int(tlbsim_stats(t)->pinned, 3, "3 pinned hits");
		tlbsim_free(t);
	}
	/* large pages and a pinned 8 MiB region */
	{
		struct geometry g = { .page_size = 8u << 20, .pins = { { 0xc0000000, 0xc0800000 } },
				      .npins = 1 };

		ok(tlbsim_new(&t, &g, 2) == 0, "8 MiB pages");
		is_int(tlbsim_access_range(t, 0xc0000000, 0x900000), 1,
		       "9 MiB from the pinned page: the second 8 MiB page misses");
		is_int(tlbsim_access_range(t, 0xc1000000, 16), 1, "a third page misses");
		is_int(tlbsim_access_range(t, 0xc0800010, 16), 0, "the second is still held");
		tlbsim_free(t);
	}
	/* a range across a page boundary */
	{
		struct geometry g = { .page_size = 4096 };

		ok(tlbsim_new(&t, &g, 32) == 0, "32 entries");
		is_int(tlbsim_access_range(t, 0xff0, 0x20), 2, "0xff0+0x20 touches 2 pages");
		is_int(tlbsim_access_range(t, 0x1000, 0x1000), 0, "page 1 again: a hit");
		is_int(tlbsim_access_range(t, 0x1000, 0x1001), 1, "one byte into page 2");
		is_int(tlbsim_stats(t)->refs, 5, "5 page references");
		tlbsim_free(t);
	}
	/* bad geometry is refused, with a message */
	{
		struct geometry w4 = { .page_size = 4096, .tlb_ways = 4 };
		struct geometry fa = { .page_size = 4096 };
		struct geometry gp = { .page_size = 3000 };

		is_int(tlbsim_new(&t, &w4, 6), -EINVAL, "6 entries cannot have 4 ways");
		is_int(tlbsim_new(&t, &w4, 12), -EINVAL, "3 sets is not a power of 2");
		is_int(tlbsim_new(&t, &gp, 8), -EINVAL, "3000-byte pages are refused");
		is_int(tlbsim_new(&t, &fa, 0), -EINVAL, "0 entries are refused");
	}
	/* I-cache: 256 B, 64 B lines, 2 ways -> 2 sets */
	{
		struct geom_icache g = { .size = 256, .line = 64, .ways = 2 };
		struct geom_icache bad = { .size = 32768, .line = 48, .ways = 8 };

		ok(icache_new(&c, &g) == 0, "256 B 2-way I-cache");
		is_int(icache_access_range(c, 0, 200), 4, "200 bytes from 0: lines 0-3 miss");
		is_int(icache_access_range(c, 0, 64), 0, "line 0 again hits");
		/* set 0 holds lines 0 and 2; line 4 evicts the LRU one (2) */
		is_int(icache_access_range(c, 4 * 64, 1), 1, "line 4 misses");
		is_int(icache_access_range(c, 0, 1), 0, "line 0 survived (it was used last)");
		is_int(icache_access_range(c, 2 * 64, 1), 1, "line 2 was evicted");
		is_int(icache_stats(c)->refs, 8, "8 line references");
		is_int(icache_stats(c)->misses, 6, "6 misses");
		icache_free(c);
		is_int(icache_new(&c, &bad), -EINVAL, "48-byte lines are refused");
	}
	return done_testing();
}
