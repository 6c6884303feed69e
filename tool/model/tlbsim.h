/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tlbsim.h - an instruction-TLB simulator: a number of entries, fully
 * associative or set-associative, LRU replacement within a set, one page
 * size, and pinned address ranges that always hit and take no entry (the
 * MPC8xx's CONFIG_PIN_TLB: the pinned entries are not counted in @entries).
 *
 * Every figure it produces must name its geometry: tlb_geom_str().
 */
#ifndef HP_TLBSIM_H
#define HP_TLBSIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* [start, end): fetches from here never miss. */
struct tlb_pin {
	uint64_t start, end;
};

struct tlb_geom {
	unsigned int entries;	/* > 0 */
	unsigned int ways;	/* 0 (or == entries): fully associative;
				 * else entries % ways == 0, sets = entries / ways
				 * must be a power of 2, set = page number % sets */
	uint64_t page_size;	/* bytes, power of 2, 1 KiB .. 1 GiB */
	const struct tlb_pin *pins;	/* borrowed; may be NULL */
	size_t npins;
};

struct tlb_stats {
	uint64_t refs;		/* page references (pinned included) */
	uint64_t misses;
	uint64_t pinned;	/* references that hit a pinned range */
};

struct tlbsim;

/** tlbsim_new() - a cold TLB. Returns 0, or -EINVAL after saying what is wrong. */
int tlbsim_new(struct tlbsim **out, const struct tlb_geom *g);
void tlbsim_free(struct tlbsim *t);
/** Forget every entry and zero the counters. */
void tlbsim_reset(struct tlbsim *t);

/** One fetch from @addr's page. Returns true on a miss. */
bool tlbsim_access(struct tlbsim *t, uint64_t addr);
/** Fetches from every page of [addr, addr+size), lowest first; returns the misses. */
unsigned int tlbsim_access_range(struct tlbsim *t, uint64_t addr, uint64_t size);

const struct tlb_stats *tlbsim_stats(const struct tlbsim *t);

/** "32-entry fully associative LRU I-TLB, 4 KiB pages" (+ ", 1 pinned range"). */
const char *tlb_geom_str(const struct tlb_geom *g, char *buf, size_t len);

/**
 * tlb_parse_size() - "4K", "16k", "64KiB", "2M", "8MiB", "16M", "4096": a
 * power-of-2 size in bytes into *out. Returns 0 or -EINVAL (no message).
 */
int tlb_parse_size(const char *s, uint64_t *out);
/** "4 KiB", "2 MiB", "4097 B": for figures. */
const char *tlb_size_str(uint64_t bytes, char *buf, size_t len);

#endif
