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

struct icache_geom {
	uint32_t size;		/* bytes; 0: no I-cache model */
	uint32_t line;		/* bytes, power of 2 */
	uint32_t ways;		/* size / (line * ways) sets, a power of 2 */
};

#define ICACHE_DEFAULT_SIZE (32u * 1024)
#define ICACHE_DEFAULT_LINE 64u
#define ICACHE_DEFAULT_WAYS 8u

struct icache_stats {
	uint64_t refs;		/* line references */
	uint64_t misses;
};

struct icache;

/** icache_new() - a cold cache. Returns 0 or -EINVAL after saying what is wrong. */
int icache_new(struct icache **out, const struct icache_geom *g);
void icache_free(struct icache *c);
void icache_reset(struct icache *c);

/** Fetch every line of [addr, addr+size); returns the misses. */
unsigned int icache_access_range(struct icache *c, uint64_t addr, uint64_t size);

const struct icache_stats *icache_stats(const struct icache *c);

/** "32 KiB 8-way I-cache, 64 B lines". */
const char *icache_geom_str(const struct icache_geom *g, char *buf, size_t len);

#endif
