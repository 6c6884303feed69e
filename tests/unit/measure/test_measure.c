// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_measure.c - the measure module's parts that need no PMU: reading
 * /proc/tlbmiss-style files (the seeds' format), statistics, and the seeds'
 * arithmetic checked against their own figures (332449 misses x 23 cycles =
 * 7646327 cycles, about 16% of a 48 MHz second).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "measure/measure.h"
#include "tap.h"

static const char seeds[] =
	"I-TLB userspace misses: 142369\n"
	"I-TLB kernel misses: 118288\n"
	"D-TLB userspace misses: 222916\n"
	"D-TLB kernel misses: 207773\n"
	"*\n"
	"\n"
	"I-TLB kernel misses: 118290\n";

static void test_file(void)
{
	struct mcounter_file f;
	FILE *in = fmemopen((void *)seeds, sizeof(seeds) - 1, "r");
	uint64_t v = 0;

	is_int(mcounter_file_read(in, "seeds", &f), 0, "counters: the seeds' file reads");
	fclose(in);
	is_int(f.n, 4, "counters: four names, the repeated one once");
	is_str(f.c[0].name, "I-TLB userspace misses", "counters: first name trimmed");
	is_int(mcounter_file_get(&f, "I-TLB kernel misses", &v), 0, "counters: lookup by name");
	is_u64(v, 118290, "counters: a repeated name keeps the last value");
	is_int(mcounter_file_get(&f, "I-TLB misses", &v), -1, "counters: unknown name");
	mcounter_file_free(&f);

	in = fmemopen((void *)"no counters here\n*\n", 19, "r");
	is_int(mcounter_file_read(in, "junk", &f), -22, "counters: a file with none is refused");
	fclose(in);
	mcounter_file_free(&f);

	in = fmemopen((void *)"a: 18446744073709551616\nb: -1\nc: 12x\n", 37, "r");
	is_int(mcounter_file_read(in, "wrap", &f), -22,
	       "counters: past 2^64, negative or with junk is no counter");
	fclose(in);
	mcounter_file_free(&f);

	ok(mcounter_is_miss("I-TLB kernel misses"), "miss: 'misses' counts");
	ok(mcounter_is_miss("iTLB MISS"), "miss: any case");
	ok(!mcounter_is_miss("I-TLB kernel hits"), "miss: other counters do not");
}

static void test_stats(void)
{
	double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 }, share = 0;
	struct mstat s = mstat_of(v, 8);

	ok(fabs(s.mean - 5.0) < 1e-12, "stat: mean 5");
	/* sum of squares 32 over n-1 = 7 */
	ok(fabs(s.stddev - sqrt(32.0 / 7.0)) < 1e-12, "stat: sample stddev");
	s = mstat_of(v, 1);
	ok(s.mean == 2.0 && s.stddev == 0.0, "stat: one value, no spread");

	/* The seeds: 139190 + 116319 + 38667 + 38273 = 332449 misses x 23. */
	ok(measure_cost(332449, 23, 48000000, &share) == 7646327.0, "cost: 7646327 cycles");
	ok(fabs(share - 0.15929847916) < 1e-9, "cost: 15.93% of 48 MHz x 1 s");
	measure_cost(10, 23, 0, &share);
	ok(share < 0, "cost: no total, no share");
	ok(measure_default_miss_cycles() >= 20, "cost: a default penalty");
}

int main(void)
{
	test_file();
	test_stats();
	return done_testing();
}
