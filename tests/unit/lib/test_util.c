// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_util.c - lib/util.h arithmetic and lib/xalloc.h's overflow checks at
 * their edges: 0, 1, the top bit, and counts whose product wraps.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/util.h"
#include "lib/xalloc.h"
#include "tap.h"

/* The exit status of fn() run in a child with stderr closed, -1 if it did not exit. */
static int child_status(void (*fn)(void))
{
	pid_t pid;
	int st;

	fflush(stdout);		/* the child's exit(1) would print the TAP so far again */
	pid = fork();
	if (pid == 0) {
		fclose(stderr);
		fn();
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static volatile size_t big = SIZE_MAX / 2 + 2;

static void wrap_mallocarray(void) { free(xmallocarray(big, 2)); }
static void wrap_reallocarray(void) { free(xreallocarray(NULL, 2, big)); }
static void wrap_calloc(void) { free(xcalloc(big, 4)); }
static void fits_mallocarray(void) { free(xmallocarray(16, 16)); }

int main(void)
{
	uint64_t pairs[] = { 5, 50, 1, 10, 5, 51, UINT64_MAX, 0, 0, 1 };
	uint64_t plain[] = { 3, UINT64_MAX, 0, 1ull << 63, 2 };
	uint64_t z = 0, seven = 7;
	char *p;

	ok(!is_pow2(0), "0 is not a power of two");
	ok(is_pow2(1) && is_pow2(4096) && is_pow2(1ull << 63), "1, 4096, 2^63 are");
	ok(!is_pow2(3) && !is_pow2(UINT64_MAX) && !is_pow2(4097), "3, 2^64-1, 4097 are not");

	is_u64(align_up(0, 4096), 0, "align_up 0");
	is_u64(align_up(1, 4096), 4096, "align_up 1 -> one page");
	is_u64(align_up(4096, 4096), 4096, "align_up of an aligned value is itself");
	is_u64(align_up(4097, 16), 4112, "align_up 4097 to 16");
	is_u64(align_up(12345, 1), 12345, "align_up to 1 changes nothing");
	is_u64(align_down(4097, 4096), 4096, "align_down 4097");
	is_u64(align_down(4095, 4096), 0, "align_down below one page");
	is_u64(align_down(UINT64_MAX, 1ull << 63), 1ull << 63, "align_down at the top");

	is_int(ilog2_u64(0), 0, "ilog2 0");
	is_int(ilog2_u64(1), 0, "ilog2 1");
	is_int(ilog2_u64(4096), 12, "ilog2 4096");
	is_int(ilog2_u64(4097), 12, "ilog2 rounds down");
	is_int(ilog2_u64(UINT64_MAX), 63, "ilog2 2^64-1");

	is_u64(NONZERO(z), 1, "NONZERO(0) is 1");
	is_u64(NONZERO(seven), 7, "NONZERO(7) is 7");
	is_u64(NONZERO(seven++), 7, "NONZERO evaluates once");
	is_u64(seven, 8, "... and once only");

	qsort(plain, 5, sizeof(*plain), cmp_u64);
	ok(plain[0] == 0 && plain[1] == 2 && plain[2] == 3 && plain[3] == 1ull << 63 &&
	   plain[4] == UINT64_MAX, "cmp_u64 sorts across the sign bit");
	qsort(pairs, 5, 2 * sizeof(*pairs), cmp_u64);
	ok(pairs[0] == 0 && pairs[2] == 1 && pairs[4] == 5 && pairs[6] == 5 &&
	   pairs[8] == UINT64_MAX && pairs[9] == 0, "cmp_u64 orders pairs by the first");
	is_int(cmp_u64(&pairs[0], &pairs[0]), 0, "equal is 0");

	p = xmallocarray(0, 8);
	ok(p != NULL, "xmallocarray(0, n) is a pointer to free");
	free(p);
	is_int(child_status(fits_mallocarray), 0, "xmallocarray 16 x 16 fits");
	is_int(child_status(wrap_mallocarray), 1, "xmallocarray whose product wraps: exit 1");
	is_int(child_status(wrap_reallocarray), 1, "xreallocarray whose product wraps: exit 1");
	is_int(child_status(wrap_calloc), 1, "xcalloc whose product wraps: exit 1");
	return done_testing();
}
