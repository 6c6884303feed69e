// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_qemu_model.c - the QEMU plugin's TLB and cache models on cases
 * computed by hand: LRU stack distances, fully associative TLBs of several
 * sizes at once, set-associative TLBs and the I-cache geometry, the MRU fast
 * path, and the argument parsers.
 */
#include "config.h"

#include "tap.h"
#include "tlbmodel.h"

/* Misses of each size over a page sequence. */
static void run_seq(struct tlbm_tlb *t, const uint64_t *seq, size_t n, unsigned *miss)
{
	size_t i;
	unsigned s;

	for (s = 0; s < t->nsizes; s++)
		miss[s] = 0;
	for (i = 0; i < n; i++) {
		uint32_t m = tlbm_tlb_access(t, seq[i]);

		for (s = 0; s < t->nsizes; s++)
			miss[s] += m >> s & 1;
	}
}

static void test_stack(void)
{
	struct tlbm_stack s;

	ok(tlbm_stack_init(&s, 3) == 0, "stack: init depth 3");
	/* A B C A D B: A at distance 2 (C, B above it); D pushes B out of a
	 * depth-3 stack, so B comes back cold. */
	is_int(tlbm_stack_access(&s, 0xa), TLBM_COLD, "stack: A cold");
	is_int(tlbm_stack_access(&s, 0xb), TLBM_COLD, "stack: B cold");
	is_int(tlbm_stack_access(&s, 0xc), TLBM_COLD, "stack: C cold");
	is_int(tlbm_stack_access(&s, 0xa), 2, "stack: A again at distance 2");
	is_int(tlbm_stack_access(&s, 0xa), 0, "stack: A right after itself at distance 0");
	is_int(tlbm_stack_access(&s, 0xd), TLBM_COLD, "stack: D cold, B falls off");
	is_int(tlbm_stack_access(&s, 0xb), TLBM_COLD, "stack: B cold again");
	is_int(tlbm_stack_access(&s, 0xd), 1, "stack: D at distance 1");
	is_int(s.used, 3, "stack: never deeper than its depth");
	tlbm_stack_free(&s);
}

static void test_fully_assoc(void)
{
	/* Cycling over 3 pages, 3 rounds: a 2-entry LRU TLB misses on every
	 * reference (9), a 4-entry one only on the first touch of each (3). */
	static const uint64_t cyc[] = { 1, 2, 3, 1, 2, 3, 1, 2, 3 };
	/* Loop page L calling f1..f4 on their own pages: L f1 L f2 L f3 L f4,
	 * twice. f_i's stack distance is 4 (L and the three other f's), L's
	 * is 1. */
	static const uint64_t calls[] = { 9, 1, 9, 2, 9, 3, 9, 4, 9, 1, 9, 2, 9, 3, 9, 4 };
	unsigned sizes[] = { 2, 4, 5 }, miss[3];
	struct tlbm_tlb t;
	const char *why = NULL;

	ok(tlbm_tlb_init(&t, sizes, 3, 0, &why) == 0, "fully associative: init 2:4:5");
	run_seq(&t, cyc, 9, miss);
	is_int(miss[0], 9, "3-page cycle: 2 entries miss every time");
	is_int(miss[1], 3, "3-page cycle: 4 entries miss only cold");
	is_int(miss[2], 3, "3-page cycle: 5 entries miss only cold");
	tlbm_tlb_free(&t);

	ok(tlbm_tlb_init(&t, sizes, 3, 0, &why) == 0, "fully associative: init again");
	run_seq(&t, calls, 16, miss);
	/* 5 cold misses; second round: f1..f4 at distance 4 miss with 2 and 4
	 * entries, hit with 5; L (distance 1) hits with 2 and more. */
	is_int(miss[0], 9, "loop calls: 2 entries: 5 cold + 4 f's");
	is_int(miss[1], 9, "loop calls: 4 entries: 5 cold + 4 f's (distance 4)");
	is_int(miss[2], 5, "loop calls: 5 entries: cold only");
	tlbm_tlb_free(&t);

	/* The MRU fast path changes nothing: A A B A with 1 entry: A miss,
	 * A hit, B miss, A miss. */
	sizes[0] = 1;
	ok(tlbm_tlb_init(&t, sizes, 1, 0, &why) == 0, "1 entry: init");
	is_int(tlbm_tlb_access(&t, 7), 1, "1 entry: A miss");
	is_int(tlbm_tlb_access(&t, 7), 0, "1 entry: A hit");
	is_int(tlbm_tlb_access(&t, 8), 1, "1 entry: B miss");
	is_int(tlbm_tlb_access(&t, 7), 1, "1 entry: A miss again");
	tlbm_tlb_free(&t);
}

static void test_set_assoc(void)
{
	struct tlbm_sa c;
	unsigned sizes[] = { 4 }, miss[1];
	struct tlbm_tlb t;
	const char *why = NULL;
	/* 0, 2, 4 share set 0 of a 2-set TLB; 1 is alone in set 1. */
	static const uint64_t seq[] = { 0, 2, 4, 0, 1, 4 };

	ok(tlbm_sa_init(&c, 2, 2) == 0, "2 sets x 2 ways: init");
	ok(!tlbm_sa_access(&c, 0), "sa: 0 miss (cold)");
	ok(!tlbm_sa_access(&c, 2), "sa: 2 miss (cold), set 0 full");
	ok(!tlbm_sa_access(&c, 4), "sa: 4 miss, evicts 0 (LRU of set 0)");
	ok(!tlbm_sa_access(&c, 0), "sa: 0 miss, evicts 2");
	ok(!tlbm_sa_access(&c, 1), "sa: 1 miss (cold, set 1)");
	ok(tlbm_sa_access(&c, 4), "sa: 4 hit (set 0 holds 0 and 4)");
	ok(tlbm_sa_access(&c, 0), "sa: 0 hit");
	ok(!tlbm_sa_access(&c, 2), "sa: 2 miss, evicts 4");
	tlbm_sa_free(&c);

	/* The same references in a 4-entry TLB: 2-way (2 sets) takes 5 misses
	 * (conflicts in set 0), fully associative only the 4 cold ones. */
	ok(tlbm_tlb_init(&t, sizes, 1, 2, &why) == 0, "4 entries 2-way: init");
	run_seq(&t, seq, 6, miss);
	is_int(miss[0], 5, "4 entries 2-way: 5 misses");
	tlbm_tlb_free(&t);
	ok(tlbm_tlb_init(&t, sizes, 1, 0, &why) == 0, "4 entries fully associative: init");
	run_seq(&t, seq, 6, miss);
	is_int(miss[0], 4, "4 entries fully associative: 4 cold misses");
	tlbm_tlb_free(&t);

	/* Direct-mapped (ways 1) 8 entries: pages 3 and 11 collide. */
	sizes[0] = 8;
	ok(tlbm_tlb_init(&t, sizes, 1, 1, &why) == 0, "8 entries direct-mapped: init");
	is_int(tlbm_tlb_access(&t, 3), 1, "dm: 3 miss");
	is_int(tlbm_tlb_access(&t, 11), 1, "dm: 11 miss, evicts 3");
	is_int(tlbm_tlb_access(&t, 4), 1, "dm: 4 miss (other set)");
	is_int(tlbm_tlb_access(&t, 3), 1, "dm: 3 miss again");
	is_int(tlbm_tlb_access(&t, 4), 0, "dm: 4 hit");
	tlbm_tlb_free(&t);

	why = NULL;
	sizes[0] = 16;
	ok(tlbm_tlb_init(&t, sizes, 1, 3, &why) == -1 && why, "16 entries 3 ways: refused");
	tlbm_tlb_free(&t);
	sizes[0] = 24;
	why = NULL;
	ok(tlbm_tlb_init(&t, sizes, 1, 4, &why) == -1 && why, "24 entries 4 ways (6 sets): refused");
	tlbm_tlb_free(&t);
}

static void test_icache(void)
{
	/* 32 KiB, 64 B lines, 8 ways: 64 sets. Lines 0, 64, ..., 512 are nine
	 * lines of set 0 (addresses 4 KiB apart: page-aligned functions), one
	 * more than it holds. */
	struct tlbm_sa c;
	unsigned i, miss = 0;

	ok(tlbm_sa_init(&c, 32768 / 64 / 8, 8) == 0, "icache 32K/64/8: init (64 sets)");
	for (i = 0; i < 8; i++)
		miss += !tlbm_sa_access(&c, (uint64_t)i * 64);
	is_int(miss, 8, "icache: eight lines of set 0, all cold");
	miss = 0;
	for (i = 0; i < 8; i++)
		miss += !tlbm_sa_access(&c, (uint64_t)i * 64);
	is_int(miss, 0, "icache: the eight again: all hit");
	ok(!tlbm_sa_access(&c, 8 * 64), "icache: a ninth line of set 0 misses, evicts line 0");
	ok(!tlbm_sa_access(&c, 0), "icache: line 0 misses, evicts line 64");
	ok(!tlbm_sa_access(&c, 64), "icache: line 64 misses");
	ok(!tlbm_sa_access(&c, 1), "icache: line 1 (set 1) cold miss");
	ok(tlbm_sa_access(&c, 1), "icache: line 1 hits");
	tlbm_sa_free(&c);
}

static void test_parse(void)
{
	unsigned sizes[TLBM_MAX_SIZES];
	uint64_t v = 0;

	is_int(tlbm_parse_sizes("8:16:32:64:128", sizes), 5, "sizes: five");
	is_int(sizes[0] * 1000 + sizes[4], 8128, "sizes: first and last");
	is_int(tlbm_parse_sizes("32", sizes), 1, "sizes: one");
	is_int(tlbm_parse_sizes("8::16", sizes), -1, "sizes: empty field refused");
	is_int(tlbm_parse_sizes("0", sizes), -1, "sizes: zero refused");
	is_int(tlbm_parse_sizes("8:x", sizes), -1, "sizes: junk refused");
	is_int(tlbm_parse_sizes("1:2:3:4:5:6:7:8:9:10:11:12:13:14:15:16:17", sizes), -1,
	       "sizes: more than 16 refused");
	ok(tlbm_parse_bytes("4K", &v) == 0 && v == 4096, "bytes: 4K");
	ok(tlbm_parse_bytes("2M", &v) == 0 && v == 2097152, "bytes: 2M");
	ok(tlbm_parse_bytes("16MiB", &v) == 0 && v == 16777216, "bytes: 16MiB");
	ok(tlbm_parse_bytes("0x1000", &v) == 0 && v == 4096, "bytes: 0x1000");
	ok(tlbm_parse_bytes("4096", &v) == 0 && v == 4096, "bytes: 4096");
	ok(tlbm_parse_bytes("4X", &v) == -1, "bytes: bad suffix refused");
	ok(tlbm_parse_bytes("", &v) == -1, "bytes: empty refused");
}

int main(void)
{
	test_stack();
	test_fully_assoc();
	test_set_assoc();
	test_icache();
	test_parse();
	return done_testing();
}
