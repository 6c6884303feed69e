/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * icache.h - an instruction-cache model: size, line size, ways, LRU within
 * a set, physically contiguous code assumed (set = line number % sets).
 * Where core kernel text sits in 2 MiB pages (x86_64) the I-TLB sees few
 * pages, and the honest figure is I-cache misses; this module gives it.
 */
#ifndef HP_ICACHE_H
#define HP_ICACHE_H

#include <stddef.h>
#include <stdint.h>

#include "lib/geometry.h"

struct icache_stats {
	uint64_t refs;		/* line references */
	uint64_t misses;
};

struct icache;

/** icache_new() - a cold cache. Returns 0 or -EINVAL after saying what is wrong. */
int icache_new(struct icache **out, const struct geom_icache *g);
void icache_free(struct icache *c);
void icache_reset(struct icache *c);

/** Fetch every line of [addr, addr+size); returns the misses. */
unsigned int icache_access_range(struct icache *c, uint64_t addr, uint64_t size);

const struct icache_stats *icache_stats(const struct icache *c);

#endif
