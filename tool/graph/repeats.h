/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * repeats.h - how much a window of an address stream weighs when it repeats.
 * A loop that runs the same window of functions ten thousand times gives the
 * graph ten thousand times its heat and arcs, and the layout packs the
 * workload's one loop at the cost of every path that ran a few times; on a
 * workload the profile never saw, those are the paths that matter
 * (bench/RESULTS.md, "Repeated windows"). Under the sqrt rule a window
 * seen c times weighs sqrt(c) times, under log 1 + log2(c) times, and each
 * function's heat, each edge and each trace is scaled by the share its
 * windows keep.
 */
#ifndef HP_REPEATS_H
#define HP_REPEATS_H

#include <stdint.h>

#include "profile/profile.h"

enum repeats_rule {
	REPEATS_COUNT,		/* every time (the samples as they are) */
	REPEATS_SQRT,		/* the square root of the times a window was seen */
	REPEATS_LOG,		/* 1 + log2 of them */
};

struct repeats_edge;

/* The factors of one profile's weights under a rule. */
struct repeats {
	double *func;		/* per profile function id */
	double *trace;		/* per trace id */
	double rest;		/* a function in no window: the windows' mean */
	struct repeats_edge *edges;	/* uthash on caller << 32 | callee */
};

/**
 * repeats_parse() - "count", "sqrt" or "log" into @rule; 0, or -EINVAL
 * after saying what is wanted.
 */
int repeats_parse(const char *arg, enum repeats_rule *rule);

/* The rule's name, as --repeats takes it. */
const char *repeats_name(enum repeats_rule rule);

/* What a window weighs under the rule, for messages: "... weighs %s of its
 * repeats" ("1 + log2", "the square root"). */
const char *repeats_weighs(enum repeats_rule rule);

/**
 * repeats_compute() - the factors of @prof's weights under @rule, from its
 * sequence of windows (profile.seq; a profile without one keeps its
 * weights: every factor 1). Returns false when every factor is 1.
 */
bool repeats_compute(struct repeats *r, const struct profile *prof, enum repeats_rule rule);

/* The factor of the edge @caller -> @callee (profile function ids). */
double repeats_edge(const struct repeats *r, uint32_t caller, uint32_t callee);

/* @w times @f, rounded, and never 0 for a non-zero @w. */
uint64_t repeats_scale(uint64_t w, double f);

void repeats_free(struct repeats *r);

#endif
