// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_parse.c - lib/parse.h and the option parsers of lib/cli.h on what
 * strto*() would let through: NaN, infinity, overflow, a sign on an unsigned
 * value, blanks and trailing junk; and the suffixes and bases they take.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>

#include "lib/cli.h"
#include "lib/parse.h"
#include "tap.h"

static int u64(const char *s, unsigned int flags, uint64_t *v)
{
	*v = 0xdead;
	return parse_u64(s, flags, v);
}

int main(void)
{
	const unsigned int size = PARSE_C_BASE | PARSE_SUFFIX;
	uint64_t v;
	int64_t sv;
	double d;
	unsigned int u;

	ok(!u64("0", 0, &v) && v == 0, "0");
	ok(!u64("4096", 0, &v) && v == 4096, "4096");
	ok(!u64("18446744073709551615", 0, &v) && v == UINT64_MAX, "2^64-1");
	is_int(u64("18446744073709551616", 0, &v), -ERANGE, "2^64 is out of range");
	is_u64(v, 0xdead, "... and *out is left alone");
	is_int(u64("99999999999999999999999", 0, &v), -ERANGE, "far past 2^64");
	is_int(u64("-1", 0, &v), -EINVAL, "-1 is not unsigned");
	is_int(u64("+1", 0, &v), -EINVAL, "no sign on an unsigned value");
	is_int(u64(" 1", 0, &v), -EINVAL, "leading blank");
	is_int(u64("1 ", 0, &v), -EINVAL, "trailing blank");
	is_int(u64("12abc", 0, &v), -EINVAL, "trailing junk");
	is_int(u64("", 0, &v), -EINVAL, "empty");
	is_int(u64(NULL, 0, &v), -EINVAL, "NULL");
	is_int(u64("0x10", 0, &v), -EINVAL, "0x10 is not decimal");
	ok(!u64("0x10", PARSE_C_BASE, &v) && v == 16, "0x10 with C bases is 16");
	ok(!u64("010", 0, &v) && v == 10, "010 decimal is 10");
	ok(!u64("010", PARSE_C_BASE, &v) && v == 8, "010 with C bases is octal 8");
	is_int(u64("0x", PARSE_C_BASE, &v), -EINVAL, "0x with no digits");
	is_int(u64("4K", 0, &v), -EINVAL, "4K without suffixes");
	ok(!u64("4K", PARSE_SUFFIX, &v) && v == 4096, "4K");
	ok(!u64("4k", PARSE_SUFFIX, &v) && v == 4096, "4k");
	ok(!u64("2M", PARSE_SUFFIX, &v) && v == 2u << 20, "2M");
	ok(!u64("2MiB", PARSE_SUFFIX, &v) && v == 2u << 20, "2MiB");
	ok(!u64("64KB", PARSE_SUFFIX, &v) && v == 64u << 10, "64KB");
	ok(!u64("1G", PARSE_SUFFIX, &v) && v == 1u << 30, "1G");
	ok(!u64("0x10K", size, &v) && v == 16u << 10, "0x10K");
	is_int(u64("4KX", PARSE_SUFFIX, &v), -EINVAL, "junk after the suffix");
	is_int(u64("4KiBB", PARSE_SUFFIX, &v), -EINVAL, "two Bs");
	is_int(u64("B", PARSE_SUFFIX, &v), -EINVAL, "a suffix alone");
	is_int(u64("17179869184G", PARSE_SUFFIX, &v), -ERANGE, "2^34 G wraps");
	ok(!u64("17179869183G", PARSE_SUFFIX, &v) && v == 17179869183ull << 30,
	   "2^34-1 G fits");

	ok(!parse_s64("-0x200000", PARSE_C_BASE, &sv) && sv == -0x200000, "-0x200000");
	ok(!parse_s64("+12", 0, &sv) && sv == 12, "+12");
	ok(!parse_s64("9223372036854775807", 0, &sv) && sv == INT64_MAX, "INT64_MAX");
	is_int(parse_s64("9223372036854775808", 0, &sv), -ERANGE, "INT64_MAX + 1");
	is_int(parse_s64("--1", 0, &sv), -EINVAL, "two signs");
	is_int(parse_s64("- 1", 0, &sv), -EINVAL, "a blank after the sign");
	is_int(parse_s64("-", 0, &sv), -EINVAL, "a sign alone");

	ok(!parse_double("0.5", 0, &d) && d == 0.5, "0.5");
	ok(!parse_double("-2", 0, &d) && d == -2, "-2");
	ok(!parse_double("1e-9", 0, &d) && d == 1e-9, "1e-9");
	ok(!parse_double(".25", 0, &d) && d == 0.25, ".25");
	is_int(parse_double("nan", 0, &d), -EINVAL, "nan");
	is_int(parse_double("NaN", 0, &d), -EINVAL, "NaN");
	is_int(parse_double("-nan", 0, &d), -EINVAL, "-nan");
	is_int(parse_double("inf", 0, &d), -EINVAL, "inf");
	is_int(parse_double("-Infinity", 0, &d), -EINVAL, "-Infinity");
	is_int(parse_double("1e400", 0, &d), -ERANGE, "1e400 overflows");
	is_int(parse_double("-1e400", 0, &d), -ERANGE, "-1e400 overflows");
	is_int(parse_double("1e-400", 0, &d), -ERANGE, "1e-400 underflows");
	is_int(parse_double("0.5x", 0, &d), -EINVAL, "trailing junk");
	is_int(parse_double(" 0.5", 0, &d), -EINVAL, "leading blank");
	is_int(parse_double("", 0, &d), -EINVAL, "empty");
	is_int(parse_double("48M", 0, &d), -EINVAL, "48M without suffixes");
	ok(!parse_double("48M", PARSE_SUFFIX, &d) && d == 48e6, "48M is 48e6");
	ok(!parse_double("1.5k", PARSE_SUFFIX, &d) && d == 1500, "1.5k is 1500");
	is_int(parse_double("1e300G", PARSE_SUFFIX, &d), -ERANGE, "1e300G overflows");

	ok(!cli_parse_size("--x", "0x1000", &v) && v == 4096, "cli size 0x1000");
	is_int(cli_parse_size("--x", "-4K", &v), -EINVAL, "cli size -4K");
	ok(!cli_parse_pow2("--x", "2M", &v) && v == 2u << 20, "cli page 2M");
	is_int(cli_parse_pow2("--x", "3000", &v), -EINVAL, "cli page 3000");
	is_int(cli_parse_pow2("--x", "512", &v), -EINVAL, "cli page 512, below 1K");
	ok(!cli_parse_u64("--x", "5", 0, 1, 10, &v) && v == 5, "cli 5 in 1..10");
	is_int(cli_parse_u64("--x", "0", 0, 1, 10, &v), -EINVAL, "cli 0 below 1..10");
	is_int(cli_parse_u64("--x", "11", 0, 1, 10, &v), -EINVAL, "cli 11 above 1..10");
	ok(!cli_parse_uint("--x", "4294967295", 0, 0, UINT32_MAX, &u) && u == UINT32_MAX,
	   "cli uint 2^32-1");
	is_int(cli_parse_uint("--x", "4294967296", 0, 0, UINT32_MAX, &u), -EINVAL,
	       "cli uint 2^32");
	ok(!cli_parse_s64("--x", "-0x200000", &sv) && sv == -0x200000, "cli s64");
	ok(!cli_parse_double("--x", "1", 0, 1, &d) && d == 1, "cli double at the top");
	is_int(cli_parse_double("--x", "nan", 0, 1, &d), -EINVAL, "cli double nan");
	is_int(cli_parse_double("--x", "1.01", 0, 1, &d), -EINVAL, "cli double above");
	return done_testing();
}
