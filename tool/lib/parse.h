/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse.h - the one checked reader of numbers in arguments: a whole string
 * into an integer, a size or a real, refusing what strto*() lets through
 * (leading blanks, a sign on an unsigned value, wrap-around, trailing junk,
 * NaN and infinity). Nothing is printed: an option says what it wanted with
 * cli_parse_*() (lib/cli.h); a part of a larger argument (a geometry, a
 * list) is judged by its caller, which names the whole.
 */
#ifndef HP_PARSE_H
#define HP_PARSE_H

#include <stdint.h>

/* What a number may look like besides decimal digits. */
#define PARSE_C_BASE	(1u << 0)	/* 0x hex and 0 octal, as C: addresses, sizes */
#define PARSE_SUFFIX	(1u << 1)	/* integers: K, M, G times 2^10, 2^20, 2^30, then
					 * an optional i and B (4K, 2MiB); reals: k or K,
					 * M, G times 10^3, 10^6, 10^9 (48M Hz) */

/*
 * Each returns 0 with *out set, -EINVAL when @s is not a number of that
 * form (NULL, empty, junk, NaN, infinity), or -ERANGE when it is one the
 * type cannot hold (past UINT64_MAX, "1e400"); *out is left alone on error.
 */
int parse_u64(const char *s, unsigned int flags, uint64_t *out);
/* An optional sign, then a magnitude up to INT64_MAX as parse_u64() reads it. */
int parse_s64(const char *s, unsigned int flags, int64_t *out);
/* A finite real as strtod() reads it, without leading blanks. */
int parse_double(const char *s, unsigned int flags, double *out);

#endif
