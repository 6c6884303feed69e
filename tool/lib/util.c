// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * util.c - the out-of-line part of util.h: the comparator qsort() takes by
 * address.
 */
#include "config.h"

#include "lib/util.h"

int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}
