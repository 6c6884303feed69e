// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_qemu_crosscheck.c - the QEMU plugin's models (tool/qemu/tlbmodel.c)
 * against the offline simulators hotpack predicts with (tool/model/tlbsim.c,
 * tool/model/icache.c), written independently: on the same reference streams,
 * with locality and without, they must count the same misses. The plugin
 * measures and `hotpack verify`/`report` predict; this keeps them one model.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "model/icache.h"
#include "tap.h"
#include "tlbmodel.h"
#include "model/tlbsim.h"

#define NREFS 200000

/* A deterministic stream of page numbers: mostly a hot working set that
 * drifts, sometimes a far page, so every TLB size sees hits and misses. */
static void make_stream(uint64_t *pages, size_t n, unsigned hot, unsigned seed)
{
	uint64_t x = seed, base = 1000;
	size_t i;

	for (i = 0; i < n; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		if ((x >> 60) == 0)
			pages[i] = 100000 + (x >> 33) % 5000;		/* far */
		else
			pages[i] = base + (x >> 33) % hot;		/* hot set */
		if (i % 5000 == 4999)
			base += hot / 4;				/* drift */
	}
}

static void crosscheck_tlb(const uint64_t *pages, size_t n, unsigned ways, const char *what)
{
	static const unsigned sizes[] = { 8, 16, 32, 64, 128 };
	struct tlbm_tlb t;
	struct tlbsim *ref[5];
	uint64_t mine[5] = { 0 };
	const char *why = "";
	char name[128];
	size_t i, s;

	ok(tlbm_tlb_init(&t, sizes, 5, ways, &why) == 0, "plugin model: init");
	for (s = 0; s < 5; s++) {
		struct geometry g = { .page_size = 4096, .tlb_ways = ways };

		ref[s] = NULL;
		tlbsim_new(&ref[s], &g, sizes[s]);
	}
	for (i = 0; i < n; i++) {
		uint32_t m = tlbm_tlb_access(&t, pages[i]);

		for (s = 0; s < 5; s++) {
			mine[s] += m >> s & 1;
			tlbsim_access(ref[s], pages[i] * 4096 + 123);
		}
	}
	for (s = 0; s < 5; s++) {
		snprintf(name, sizeof(name), "%s, %u entries: plugin model = tlbsim (%llu misses)",
			 what, sizes[s], (unsigned long long)mine[s]);
		is_int(mine[s], tlbsim_stats(ref[s])->misses, name);
		tlbsim_free(ref[s]);
	}
	tlbm_tlb_free(&t);
}

static void crosscheck_icache(const uint64_t *pages, size_t n)
{
	struct geom_icache g = { 32768, 64, 8 };
	struct icache *ref = NULL;
	struct tlbm_sa c;
	uint64_t mine = 0, last = TLBM_EMPTY;
	char name[96];
	size_t i;

	ok(icache_new(&ref, &g) == 0 && tlbm_sa_init(&c, 64, 8) == 0, "icache: both init 32K/64/8");
	for (i = 0; i < n; i++) {
		/* Reuse the stream as line numbers: a 1 MiB-wide hot set. */
		uint64_t line = pages[i];

		icache_access_range(ref, line * 64, 1);
		if (line != last && !tlbm_sa_access(&c, line))
			mine++;
		last = line;
	}
	snprintf(name, sizeof(name), "icache 32K/64/8: plugin model = icache.c (%llu misses)",
		 (unsigned long long)mine);
	is_int(mine, icache_stats(ref)->misses, name);
	icache_free(ref);
	tlbm_sa_free(&c);
}

int main(void)
{
	uint64_t *pages = malloc(NREFS * sizeof(*pages));

	if (!pages)
		return 1;
	make_stream(pages, NREFS, 40, 1);
	crosscheck_tlb(pages, NREFS, 0, "40-page hot set, fully associative");
	crosscheck_tlb(pages, NREFS, 4, "40-page hot set, 4-way");
	crosscheck_tlb(pages, NREFS, 1, "40-page hot set, direct-mapped");
	make_stream(pages, NREFS, 150, 7);
	crosscheck_tlb(pages, NREFS, 0, "150-page hot set, fully associative");
	crosscheck_tlb(pages, NREFS, 2, "150-page hot set, 2-way");
	make_stream(pages, NREFS, 700, 3);
	crosscheck_icache(pages, NREFS);
	free(pages);
	return done_testing();
}
