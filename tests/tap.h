/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tap.h - a tiny TAP producer for unit tests (after git's test-lib): each
 * check prints "ok N - what" or "not ok N - what" with got/want and the
 * source line, and done_testing() prints the plan and returns the status.
 */
#ifndef HP_TAP_H
#define HP_TAP_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static inline int tap_ok(int cond, const char *file, int line, const char *what)
{
	tap_n++;
	printf("%sok %d - %s\n", cond ? "" : "not ", tap_n, what);
	if (!cond) {
		tap_failed++;
		printf("#   failed at %s:%d\n", file, line);
	}
	return cond;
}

#define ok(cond, what) tap_ok(!!(cond), __FILE__, __LINE__, (what))

#define is_int(got, want, what)                                                        \
	do {                                                                           \
		long long g_ = (long long)(got), w_ = (long long)(want);               \
		if (!tap_ok(g_ == w_, __FILE__, __LINE__, (what)))                     \
			printf("#   got %lld, want %lld\n", g_, w_);                      \
	} while (0)

#define is_u64(got, want, what)                                                        \
	do {                                                                           \
		uint64_t g_ = (uint64_t)(got), w_ = (uint64_t)(want);                  \
		if (!tap_ok(g_ == w_, __FILE__, __LINE__, (what)))                     \
			printf("#   got %#" PRIx64 ", want %#" PRIx64 "\n", g_, w_);    \
	} while (0)

#define is_str(got, want, what)                                                        \
	do {                                                                           \
		const char *g_ = (got), *w_ = (want);                                  \
		int same_ = (g_ && w_) ? !strcmp(g_, w_) : g_ == w_;                   \
		if (!tap_ok(same_, __FILE__, __LINE__, (what)))                        \
			printf("#   got \"%s\", want \"%s\"\n", g_ ? g_ : "(null)",       \
			       w_ ? w_ : "(null)");                                       \
	} while (0)

static inline int done_testing(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
