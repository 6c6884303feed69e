/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tlbsim.h - an instruction-TLB simulator: a number of entries, fully
 * associative or set-associative, LRU replacement within a set, one page
 * size, and pinned address ranges that always hit and take no entry (the
 * MPC8xx's CONFIG_PIN_TLB: the pinned entries are not counted in @entries).
 */
#ifndef HP_TLBSIM_H
#define HP_TLBSIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/geometry.h"

struct tlb_stats {
	uint64_t refs;		/* page references (pinned included) */
	uint64_t misses;
	uint64_t pinned;	/* references that hit a pinned range */
};

struct tlbsim;

/**
 * tlbsim_new() - a cold TLB of @entries with @g's page size, ways and pinned
 * ranges. Returns 0, or -EINVAL after saying what is wrong.
 */
int tlbsim_new(struct tlbsim **out, const struct geometry *g, unsigned int entries);
/** 0 when @g names a model of the table (or none); else says so, -EINVAL. */
int tlbsim_check_model(const struct geometry *g);
void tlbsim_free(struct tlbsim *t);
/** Forget every entry and zero the counters. */
void tlbsim_reset(struct tlbsim *t);

/** One fetch from @addr's page. Returns true on a miss. */
bool tlbsim_access(struct tlbsim *t, uint64_t addr);
/** Fetches from every page of [addr, addr+size), lowest first; returns the misses. */
unsigned int tlbsim_access_range(struct tlbsim *t, uint64_t addr, uint64_t size);

const struct tlb_stats *tlbsim_stats(const struct tlbsim *t);

#endif
