// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_geometry.c - the one geometry parser and printer: options parsed and
 * printed back as every figure names them, every accepted spelling, and
 * every refused value with the message it gets.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/geometry.h"
#include "tap.h"

/* stderr goes to a file while an option is parsed, so the message can be read */
static char msg[512];

static int parse_quiet(struct geometry *g, int c, const char *arg)
{
	FILE *f = tmpfile();
	int saved, ret;
	size_t n;

	fflush(stderr);
	saved = dup(2);
	dup2(fileno(f), 2);
	ret = c ? geom_parse_opt(g, c, arg) : geom_check(g);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(f);
	n = fread(msg, 1, sizeof(msg) - 1, f);
	msg[n] = '\0';
	if (n && msg[n - 1] == '\n')
		msg[n - 1] = '\0';
	fclose(f);
	return ret;
}

/* Options applied to the default geometry, printed. */
static const char *parsed(const char *const *opts, char *buf, size_t len)
{
	struct geometry g;

	geom_default(&g);
	for (size_t i = 0; opts[i]; i += 2) {
		int c = opts[i][1] == '-' ? 0 : opts[i][1];

		if (!strcmp(opts[i], "--tlb-ways"))
			c = GEOM_OPT_TLB_WAYS;
		else if (!strcmp(opts[i], "--pin"))
			c = GEOM_OPT_PIN;
		else if (!strcmp(opts[i], "--icache"))
			c = GEOM_OPT_ICACHE;
		else if (!strcmp(opts[i], "--no-icache"))
			c = GEOM_OPT_NO_ICACHE;
		if (parse_quiet(&g, c, opts[i + 1]) != 1)
			return msg;
		if (c == GEOM_OPT_NO_ICACHE)
			i--;
	}
	if (parse_quiet(&g, 0, NULL))
		return msg;
	return geom_str(&g, buf, len);
}

static void check_printed(void)
{
	static const struct {
		const char *opts[12];
		const char *want;
	} t[] = {
		{ { NULL },
		  "4 KiB pages; I-TLB fully associative LRU 32/64/128 entries; "
		  "I-cache 32 KiB 8-way 64 B lines" },
		{ { "-p", "2M", "-e", "8,16", "--tlb-ways", "4", "--no-icache", NULL },
		  "2 MiB pages; I-TLB 4-way LRU 8/16 entries" },
		{ { "-e", "32,64", "--tlb-ways", "4", "--pin", "0xffffffff81000000-0xffffffff81010000",
		    "--icache", "16K,32,4", NULL },
		  "4 KiB pages; I-TLB 4-way LRU 32/64 entries, 1 pinned range; "
		  "I-cache 16 KiB 4-way 32 B lines" },
		{ { "-p", "8M", "-e", "8", "--pin", "0xc0000000-0xc0800000", "--pin", "1-2",
		    "--no-icache", NULL },
		  "8 MiB pages; I-TLB fully associative LRU 8 entries, 2 pinned ranges" },
		{ { "--icache", "1M,128,16", "-p", "1G", NULL },
		  "1 GiB pages; I-TLB fully associative LRU 32/64/128 entries; "
		  "I-cache 1 MiB 16-way 128 B lines" },
	};
	char buf[256];

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		is_str(parsed(t[i].opts, buf, sizeof(buf)), t[i].want, t[i].want);
}

/* Every spelling each option takes. */
static void check_spellings(void)
{
	static const struct {
		const char *arg;
		uint64_t bytes;
	} page[] = {
		{ "4K", 4096 }, { "4k", 4096 }, { "4096", 4096 }, { "0x1000", 4096 },
		{ "16K", 16384 }, { "64K", 65536 }, { "2M", 2u << 20 }, { "2m", 2u << 20 },
		{ "16M", 16u << 20 }, { "1G", 1u << 30 }, { "1K", 1024 },
	}, size[] = {
		{ "4K", 4096 }, { "16k", 16384 }, { "64KiB", 65536 }, { "64kib", 65536 },
		{ "64KB", 65536 }, { "2M", 2u << 20 }, { "8MiB", 8u << 20 }, { "16M", 16u << 20 },
		{ "1G", 1u << 30 }, { "4096", 4096 }, { "1", 1 },
	};
	struct geometry g;
	uint64_t v;
	char what[64];

	for (size_t i = 0; i < sizeof(page) / sizeof(page[0]); i++) {
		geom_default(&g);
		snprintf(what, sizeof(what), "-p %s", page[i].arg);
		ok(geom_parse_opt(&g, 'p', page[i].arg) == 1 && g.page_size == page[i].bytes, what);
	}
	for (size_t i = 0; i < sizeof(size) / sizeof(size[0]); i++) {
		snprintf(what, sizeof(what), "size %s", size[i].arg);
		ok(geom_parse_size(size[i].arg, &v) == 0 && v == size[i].bytes, what);
	}
	geom_default(&g);
	ok(geom_parse_opt(&g, 'e', "8,16,32,64,128,256,512,1024") == 1 && g.ntlb == 8 &&
	   g.tlb_entries[7] == 1024, "-e: up to 8 sizes");
	ok(geom_parse_opt(&g, 'e', "1048576") == 1 && g.ntlb == 1, "-e: up to 1048576 entries");
	ok(geom_parse_opt(&g, 'e', "16,") == 1 && g.ntlb == 1 && g.tlb_entries[0] == 16,
	   "-e: a trailing comma");
	ok(geom_parse_opt(&g, GEOM_OPT_TLB_WAYS, "0") == 1 && g.tlb_ways == 0,
	   "--tlb-ways 0: fully associative");
	ok(geom_parse_opt(&g, GEOM_OPT_TLB_WAYS, "16") == 1 && g.tlb_ways == 16, "--tlb-ways 16");
	ok(geom_parse_opt(&g, GEOM_OPT_PIN, "4096-8192") == 1 && g.npins == 1 &&
	   g.pins[0].start == 4096 && g.pins[0].end == 8192, "--pin in decimal");
	ok(geom_parse_opt(&g, GEOM_OPT_PIN, "0xc0000000-0xc0800000") == 1 && g.npins == 2 &&
	   g.pins[1].end == 0xc0800000, "--pin in hex");
	ok(geom_parse_opt(&g, GEOM_OPT_ICACHE, "64KiB,64,4") == 1 && g.icache.size == 65536 &&
	   g.icache.line == 64 && g.icache.ways == 4, "--icache 64KiB,64,4");
	ok(geom_parse_opt(&g, GEOM_OPT_NO_ICACHE, NULL) == 1 && !g.icache.size, "--no-icache");
	is_int(geom_parse_opt(&g, 'x', "1"), 0, "other options are left to the caller");
}

/* Every refused value, with its message; the geometry is left as it was. */
static void check_refused(void)
{
	static const struct {
		int opt;
		const char *arg, *want;
	} t[] = {
		{ 'p', "3000", "--page-size: '3000' is not a page size; give a power of two from "
			       "1K to 1G (e.g. 4K, 16K, 64K, 2M)" },
		{ 'p', "512", "--page-size: '512' is not a page size; give a power of two from "
			      "1K to 1G (e.g. 4K, 16K, 64K, 2M)" },
		{ 'p', "2G", "--page-size: '2G' is not a page size; give a power of two from "
			     "1K to 1G (e.g. 4K, 16K, 64K, 2M)" },
		{ 'e', "0", "--tlb-entries 0: give up to 8 sizes, e.g. 32,64,128" },
		{ 'e', "32,x", "--tlb-entries 32,x: give up to 8 sizes, e.g. 32,64,128" },
		{ 'e', "32;64", "--tlb-entries 32;64: give up to 8 sizes, e.g. 32,64,128" },
		{ 'e', "32,,64", "--tlb-entries 32,,64: give up to 8 sizes, e.g. 32,64,128" },
		{ 'e', "1048577", "--tlb-entries 1048577: give up to 8 sizes, e.g. 32,64,128" },
		{ 'e', "1,2,3,4,5,6,7,8,9",
		  "--tlb-entries 1,2,3,4,5,6,7,8,9: give up to 8 sizes, e.g. 32,64,128" },
		{ 'e', "", "--tlb-entries: give at least one size, e.g. 32" },
		{ GEOM_OPT_TLB_WAYS, "x",
		  "--tlb-ways: 'x' is not a whole number from 0 to 1048576; give one in decimal or 0x hex" },
		{ GEOM_OPT_TLB_WAYS, "-1",
		  "--tlb-ways: '-1' is not a whole number from 0 to 1048576; give one in decimal or 0x hex" },
		{ GEOM_OPT_TLB_WAYS, "4k",
		  "--tlb-ways: '4k' is not a whole number from 0 to 1048576; give one in decimal or 0x hex" },
		{ GEOM_OPT_TLB_WAYS, "1048577",
		  "--tlb-ways: '1048577' is not a whole number from 0 to 1048576; give one in decimal or 0x hex" },
		{ GEOM_OPT_PIN, "5-3", "--pin 5-3: give START-END addresses (0xc0000000-0xc0800000), "
				       "END above START, at most 8 ranges" },
		{ GEOM_OPT_PIN, "5-5", "--pin 5-5: give START-END addresses (0xc0000000-0xc0800000), "
				       "END above START, at most 8 ranges" },
		{ GEOM_OPT_PIN, "0x1000", "--pin 0x1000: give START-END addresses "
					  "(0xc0000000-0xc0800000), END above START, at most 8 "
					  "ranges" },
		{ GEOM_OPT_PIN, "1-2x", "--pin 1-2x: give START-END addresses "
					"(0xc0000000-0xc0800000), END above START, at most 8 ranges" },
		{ GEOM_OPT_ICACHE, "32K,48,8",
		  "--icache 32K,48,8: give SIZE,LINE,WAYS with power-of-2 sizes, e.g. 32K,64,8" },
		{ GEOM_OPT_ICACHE, "32K,64",
		  "--icache 32K,64: give SIZE,LINE,WAYS with power-of-2 sizes, e.g. 32K,64,8" },
		{ GEOM_OPT_ICACHE, "32K,64,0",
		  "--icache 32K,64,0: give SIZE,LINE,WAYS with power-of-2 sizes, e.g. 32K,64,8" },
		{ GEOM_OPT_ICACHE, "2G,64,8",
		  "--icache 2G,64,8: give SIZE,LINE,WAYS with power-of-2 sizes, e.g. 32K,64,8" },
		{ GEOM_OPT_ICACHE, "64,128,1",
		  "--icache 64,128,1: give SIZE,LINE,WAYS with power-of-2 sizes, e.g. 32K,64,8" },
		{ GEOM_OPT_ICACHE, "32K,64,8x",
		  "--icache 32K,64,8x: give SIZE,LINE,WAYS with power-of-2 sizes, e.g. 32K,64,8" },
		{ GEOM_OPT_ICACHE, "32K,64,-1",
		  "--icache 32K,64,-1: give SIZE,LINE,WAYS with power-of-2 sizes, e.g. 32K,64,8" },
		{ 'e', "32, 64", "--tlb-entries 32, 64: give up to 8 sizes, e.g. 32,64,128" },
		{ GEOM_OPT_PIN, "-1-5", "--pin -1-5: give START-END addresses "
					"(0xc0000000-0xc0800000), END above START, at most 8 ranges" },
	};
	struct geometry g, def;
	char what[160];

	geom_default(&def);
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		g = def;
		snprintf(what, sizeof(what), "refused: %s", t[i].arg);
		is_int(parse_quiet(&g, t[i].opt, t[i].arg), -EINVAL, what);
		is_str(msg + strlen("hotpack: error: "), t[i].want, "  with its message");
		if (t[i].opt == 'e')
			continue;	/* the list is parsed in place */
		ok(!memcmp(&g, &def, sizeof(g)), "  and the geometry unchanged");
	}
	/* a ninth range */
	g = def;
	for (int i = 0; i < GEOM_MAX_PINS; i++)
		geom_parse_opt(&g, GEOM_OPT_PIN, "1-2");
	is_int(parse_quiet(&g, GEOM_OPT_PIN, "1-2"), -EINVAL, "a ninth --pin is refused");
	is_int((int)g.npins, GEOM_MAX_PINS, "  and 8 are kept");
}

/* What each value can be on its own but not with the rest: geom_check(). */
static void check_combined(void)
{
	static const struct {
		const char *opts[8];
		const char *want;
	} t[] = {
		{ { "--tlb-ways", "3", NULL },
		  "I-TLB of 32 entries cannot have 3 ways; the sets (entries / ways) must be a "
		  "whole power of 2" },
		{ { "-e", "32,64", "--tlb-ways", "64", NULL },
		  "I-TLB of 32 entries cannot have 64 ways; the sets (entries / ways) must be a "
		  "whole power of 2" },
		{ { "-e", "12", "--tlb-ways", "4", NULL },
		  "I-TLB of 12 entries cannot have 4 ways; the sets (entries / ways) must be a "
		  "whole power of 2" },
		{ { "--icache", "32K,64,3", NULL },
		  "I-cache of 32768 bytes, 64-byte lines, 3 ways: lines must be a power of 2 and "
		  "size / (line * ways) a whole power of 2 (e.g. 32K, 64, 8)" },
		{ { "--icache", "4K,2,1", NULL },
		  "I-cache of 4096 bytes, 2-byte lines, 1 ways: lines must be a power of 2 and "
		  "size / (line * ways) a whole power of 2 (e.g. 32K, 64, 8)" },
	};
	char buf[256];
	struct geometry g;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		is_str(parsed(t[i].opts, buf, sizeof(buf)) + strlen("hotpack: error: "), t[i].want,
		       "refused together, with its message");
	/* what the parser cannot produce but a caller can */
	geom_default(&g);
	g.page_size = 3000;
	is_int(parse_quiet(&g, 0, NULL), -EINVAL, "a 3000-byte page is refused");
	is_str(msg, "hotpack: error: page size 3000; give a power of 2 from 1 KiB to 1 GiB "
		    "(4K, 16K, 64K, 2M, 8M, 16M)", "  with its message");
	geom_default(&g);
	g.tlb_entries[1] = 0;
	is_int(parse_quiet(&g, 0, NULL), -EINVAL, "a TLB of no entries is refused");
	is_str(msg, "hotpack: error: I-TLB of 0 entries; give 1 to 1048576 entries",
	       "  with its message");
	geom_default(&g);
	g.pins[0] = (struct geom_pin){ 8, 8 };
	g.npins = 1;
	is_int(parse_quiet(&g, 0, NULL), -EINVAL, "an empty pinned range is refused");
	is_str(msg, "hotpack: error: pinned range 0x8-0x8 is empty; give START-END with END "
		    "above START", "  with its message");
	geom_default(&g);
	g.tlb_model = "PLRU";
	is_str(geom_str(&g, buf, sizeof(buf)),
	       "4 KiB pages; I-TLB fully associative PLRU 32/64/128 entries; I-cache 32 KiB 8-way "
	       "64 B lines", "the TLB model named");
	geom_default(&g);
	g.ntlb = 0;
	is_str(geom_str(&g, buf, sizeof(buf)),
	       "4 KiB pages; I-TLB fully associative LRU no entries; I-cache 32 KiB 8-way 64 B "
	       "lines", "no TLB sizes: named so");
}

static void check_size_str(void)
{
	char buf[32];
	uint64_t v;

	is_str(geom_size_str(4096, buf, sizeof(buf)), "4 KiB", "4 KiB");
	is_str(geom_size_str(2u << 20, buf, sizeof(buf)), "2 MiB", "2 MiB");
	is_str(geom_size_str(1u << 30, buf, sizeof(buf)), "1 GiB", "1 GiB");
	is_str(geom_size_str(4097, buf, sizeof(buf)), "4097 B", "4097 B");
	is_str(geom_size_str(6144, buf, sizeof(buf)), "6 KiB", "6 KiB");
	ok(geom_parse_size("3K", &v) == -EINVAL, "3K is not a power of 2");
	ok(geom_parse_size("0", &v) == -EINVAL, "0 is refused");
	ok(geom_parse_size("4Kx", &v) == -EINVAL, "trailing junk is refused");
	ok(geom_parse_size("-4K", &v) == -EINVAL, "negative is refused");
	ok(geom_parse_size("", &v) == -EINVAL, "empty is refused");
	ok(geom_parse_size("K", &v) == -EINVAL, "a unit alone is refused");
	ok(geom_parse_size("99999999999999999999", &v) == -EINVAL, "overflow is refused");
	ok(geom_parse_size("17179869184G", &v) == -EINVAL, "overflow by the unit is refused");
}

int main(void)
{
	check_printed();
	check_spellings();
	check_refused();
	check_combined();
	check_size_str();
	return done_testing();
}
