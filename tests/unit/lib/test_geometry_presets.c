// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_geometry_presets.c - each preset against the numbers worked out by
 * hand from its source (docs/geometries.md): TLB sets (entries / ways), the
 * I-cache's sets (size / (line * ways)), the pinned ranges, the large pages;
 * each one passes the simulators' checks, loads by --geometry, prints its
 * name; an unknown name is refused with the list.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/geometry.h"
#include "tap.h"

struct want {
	const char *name;
	unsigned int ntlb, entries0, entries1, tlb_sets0;	/* sets of the first TLB */
	uint32_t icache_sets, icache_line;
	uint64_t pinned_bytes;			/* summed over the pins */
	uint64_t large_page;
	unsigned int large_entries;
};

/* By hand: mpc8xx 4096 / (16 * 2) = 128 I-cache sets; mpc8xx-pinned 32 - 4
 * pinned = 28 entries, 4 x 8 MiB pinned; ppc40x 16384 / (32 * 2) = 256;
 * ppc44x 64 - 1 bolted = 63, 32768 / (32 * 64) = 16 sets, 256 MiB pinned;
 * e500 64 / 4 = 16 TLB sets, 32768 / (32 * 8) = 128; x86_64 128 / 8 = 16
 * TLB sets, 32768 / (64 * 8) = 64; arm64 32768 / (64 * 2) = 256. */
static const struct want wants[] = {
	{ "mpc8xx", 1, 32, 0, 1, 128, 16, 0, 0, 0 },
	{ "mpc8xx-pinned", 1, 28, 0, 1, 128, 16, 32u << 20, 0, 0 },
	{ "ppc40x", 2, 4, 64, 1, 256, 32, 0, 16u << 20, 4 },
	{ "ppc44x", 2, 4, 63, 1, 16, 32, 256u << 20, 0, 0 },
	{ "e500", 2, 64, 512, 16, 128, 32, 0, 0, 0 },
	{ "x86_64", 1, 128, 0, 16, 64, 64, 0, 2u << 20, 8 },
	{ "x86_64-default", 3, 32, 64, 1, 64, 64, 0, 2u << 20, 8 },
	{ "arm64", 2, 10, 512, 1, 256, 64, 0, 2u << 20, 10 },
};

#define NWANTS (sizeof(wants) / sizeof(wants[0]))

static void check_preset(const struct want *w)
{
	const struct geom_preset *p = geom_preset_find(w->name);
	const struct geometry *g;
	struct geometry large, parsed;
	char what[128], buf[320];
	uint64_t pinned = 0;
	unsigned int ways;

	snprintf(what, sizeof(what), "%s: found", w->name);
	if (!ok(p != NULL, what))
		return;
	g = &p->geom;
	snprintf(what, sizeof(what), "%s: named itself", w->name);
	is_str(g->name, w->name, what);
	snprintf(what, sizeof(what), "%s: 4 KiB pages", w->name);
	is_u64(g->page_size, 4096, what);
	snprintf(what, sizeof(what), "%s: TLB sizes", w->name);
	ok(g->ntlb == w->ntlb && g->tlb_entries[0] == w->entries0 &&
	   (w->ntlb < 2 || g->tlb_entries[1] == w->entries1), what);
	ways = g->tlb_ways ? g->tlb_ways : g->tlb_entries[0];
	snprintf(what, sizeof(what), "%s: sets of the first TLB", w->name);
	is_int(g->tlb_entries[0] / ways, w->tlb_sets0, what);
	snprintf(what, sizeof(what), "%s: I-cache sets and line", w->name);
	ok(g->icache.size / (g->icache.line * g->icache.ways) == w->icache_sets &&
	   g->icache.line == w->icache_line, what);
	for (size_t i = 0; i < g->npins; i++)
		pinned += g->pins[i].end - g->pins[i].start;
	snprintf(what, sizeof(what), "%s: pinned bytes", w->name);
	is_u64(pinned, w->pinned_bytes, what);
	snprintf(what, sizeof(what), "%s: large pages", w->name);
	ok(g->large_page == w->large_page && g->large_entries == w->large_entries &&
	   geom_large(g, &large) == (w->large_page != 0), what);
	if (w->large_page) {
		snprintf(what, sizeof(what), "%s: the large geometry", w->name);
		ok(large.page_size == w->large_page && large.ntlb == 1 &&
		   large.tlb_entries[0] == w->large_entries && !large.npins &&
		   large.icache.size == g->icache.size && !geom_check(&large), what);
		snprintf(what, sizeof(what), "%s: says what its large pages map", w->name);
		ok(p->large_code != NULL, what);
	}
	snprintf(what, sizeof(what), "%s: the simulators take it", w->name);
	is_int(geom_check(g), 0, what);
	geom_default(&parsed);
	snprintf(what, sizeof(what), "%s: --geometry loads it", w->name);
	ok(geom_parse_opt(&parsed, GEOM_OPT_PRESET, w->name) == 1 && parsed.given, what);
	/* the same geometry as the table's, but for being the user's */
	parsed.given = false;
	snprintf(what, sizeof(what), "%s: --geometry loads it as it is", w->name);
	ok(!memcmp(&parsed, g, sizeof(parsed)), what);
	geom_str(g, buf, sizeof(buf));
	snprintf(what, sizeof(what), "%s: the printer names it", w->name);
	ok(!strncmp(buf, w->name, strlen(w->name)) && buf[strlen(w->name)] == ':', what);
}

/* Its message (one line naming every preset) is checked by tests/geometry.test. */
static void check_unknown(void)
{
	struct geometry g;

	geom_default(&g);
	ok(geom_parse_opt(&g, GEOM_OPT_PRESET, "pdp11") < 0, "unknown preset refused");
	ok(!g.name && !g.large_page, "the default is no preset, no large pages, and stays so");
}

int main(void)
{
	size_t n = 0;

	for (size_t i = 0; i < NWANTS; i++)
		check_preset(&wants[i]);
	while (geom_presets[n])
		n++;
	is_int(n, NWANTS, "every preset is checked");
	check_unknown();
	return done_testing();
}
