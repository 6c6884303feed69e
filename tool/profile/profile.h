/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * profile.h - the in-memory profile: per-function weights, caller->callee
 * edges, and traces (ordered function sequences with a weight: a call tree
 * from ftrace, or a sampled call stack root first). Keyed by function name
 * (kfunc_key() for names that are not unique), so a profile survives a
 * rebuild and can be written as .hprof and merged.
 *
 * Memory is bounded by the distinct functions, edges and traces, never by
 * the input's size.
 */
#ifndef HP_PROFILE_H
#define HP_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <uthash.h>

#include "lib/ranges.h"

struct prof_func {
	char *name;
	uint64_t weight;	/* samples in this function (self) */
	uint32_t id;		/* index in profile.funcs */
	/* the offsets its samples hit, [ext_lo, ext_hi) (ext_hi 0: none), so
	 * the model replays the pages that ran, not all it spans; ext_whole:
	 * a sample gave no offset (a name, a call tree), so all of it counts */
	uint32_t ext_lo, ext_hi;
	bool ext_whole;
	UT_hash_handle hh;
};

struct prof_edge {
	uint64_t key;		/* (caller << 32) | callee */
	uint32_t caller, callee;
	uint64_t weight;
	UT_hash_handle hh;
};

struct prof_trace {
	uint32_t *ids;		/* function ids in execution order */
	uint32_t n;
	uint64_t weight;	/* how many times this exact trace was seen */
	uint32_t id;		/* the order it was first seen in (profile.seq) */
	bool traced;		/* an explicit trace (an ftrace call tree), not a
				 * sampled stack: the layout packs it to its bound */
	/* per position, the bytes of its function that the samples of this
	 * trace's windows hit, [ext[2i], ext[2i + 1]) (0 0: none known), the
	 * union over every time it ran: a visit touches its own pages, not
	 * those of all the function's samples. NULL: none known; ext_whole:
	 * some time it ran said none, so the function's extent counts. */
	uint32_t *ext;
	/* per position, when its windows ran bytes more than RANGES_GAP apart,
	 * those ranges (their hull ext's), so that a visit fetches the lines
	 * it ran and not all between; NULL or n 0: ext's one range */
	struct ranges *xr;
	bool ext_whole;
	UT_hash_handle hh;	/* keyed on the id bytes */
};

/* Why samples (or frames) were not attributed to a function. */
enum prof_drop {
	PROF_DROP_MODULE,	/* in a module (.ko) */
	PROF_DROP_USER,		/* user space */
	PROF_DROP_BPF,
	PROF_DROP_UNKNOWN,	/* [unknown] or no symbol */
	PROF_DROP_NOT_IN_IMAGE,	/* a name or address this vmlinux does not have */
	PROF_DROP_NR,
};

/*
 * The builds a profile's data came from, each "ARCH RELEASE BUILDID" ("-"
 * for what is unknown): the image its samples were matched against, or the
 * .hprof "build" lines it read. A union, at most PROF_BUILDS_MAX of them
 * (the smallest in byte order, so merges stay associative), @more when
 * some were left out.
 */
struct prof_builds {
	char **v;
	size_t n, cap;
	bool more;
};

#define PROF_BUILDS_MAX 64

struct profile {
	struct prof_func **funcs;	/* by id */
	size_t nfuncs, capfuncs;
	struct prof_func *by_name;
	struct prof_edge *edges;	/* uthash */
	size_t nedges;
	struct prof_trace *traces;	/* uthash */
	size_t ntraces;
	char **provenance;		/* header lines: tool, inputs, dates */
	size_t nprov, capprov;
	struct prof_builds builds;	/* where the data came from (.hprof "build") */
	uint64_t total_weight;		/* all weight attributed to functions */
	uint64_t nsamples;		/* events read */
	uint64_t matched;		/* events attributed to a function */
	uint64_t dropped[PROF_DROP_NR];	/* events not attributed, by reason */
	unsigned int units;		/* PROF_UNIT_* of the weights added (0: unknown) */
	bool overflowed;		/* a sum passed UINT64_MAX: held there, to be
					 * refused by the reader (never wrapped) */
	/* the traces by id in the order they happened, when the reader knows
	 * it (--addr-window's windows); not kept in .hprof */
	uint32_t *seq;
	size_t nseq, capseq;
};

/* What a weight counts; a profile whose units has both bits mixes them. */
#define PROF_UNIT_EVENTS 1u	/* samples, call trees, addresses (with counts) */
#define PROF_UNIT_PERIOD 2u	/* perf sample periods (cycles, ns, misses, ...) */

struct profile *profile_new(void);
void profile_free(struct profile *p);

/** The id of function @name, created with weight 0 if new. */
uint32_t profile_func_id(struct profile *p, const char *name);
struct prof_func *profile_find_func(const struct profile *p, const char *name);

/* self weight from a sample with no offset: the whole function ran */
void profile_add_weight(struct profile *p, uint32_t id, uint64_t w);
/* self weight whose extent the caller gives (profile_func_extent_add()) */
void profile_add_weight_only(struct profile *p, uint32_t id, uint64_t w);
/* self weight from a sample at byte @off of the function */
void profile_add_weight_at(struct profile *p, uint32_t id, uint64_t w, uint64_t off);
/* widen [*@lo, *@hi) (*@hi 0: empty) to take in [@l, @h) (@h <= @l: nothing) */
static inline void extent_widen(uint32_t *lo, uint32_t *hi, uint32_t l, uint32_t h)
{
	if (h <= l)
		return;
	if (!*hi || l < *lo)
		*lo = l;
	if (h > *hi)
		*hi = h;
}
/* widen @f's extent by [@lo, @hi) (@hi 0: nothing), or make it whole */
void profile_func_extent_add(struct prof_func *f, uint32_t lo, uint32_t hi, bool whole);
/* @f's extent when its samples all had offsets; false: the whole function */
bool profile_func_extent(const struct prof_func *f, uint32_t *lo, uint32_t *hi);
void profile_add_edge(struct profile *p, uint32_t caller, uint32_t callee, uint64_t w);
/** Add @w to the trace @ids (created if new); returns it, NULL when @n is 0. */
struct prof_trace *profile_add_trace(struct profile *p, const uint32_t *ids, uint32_t n,
				     uint64_t w);
/**
 * Widen each position of @t by @ext (2 per position, as prof_trace.ext;
 * NULL: nothing) and its ranges by @xr (per position, as prof_trace.xr;
 * NULL: ext's), or make it whole (@whole: a time it ran gave no offsets).
 */
void profile_trace_extent_add(struct prof_trace *t, const uint32_t *ext,
			      const struct ranges *xr, bool whole);
/** @t's ranges at position @i when it has more than one; else NULL. */
const struct ranges *profile_trace_ranges(const struct prof_trace *t, uint32_t i);
/** @t's extent at position @i when known; false: the function's counts. */
bool profile_trace_extent(const struct prof_trace *t, uint32_t i, uint32_t *lo, uint32_t *hi);
/** The trace @t happened next (profile.seq). */
void profile_add_seq(struct profile *p, const struct prof_trace *t);
void profile_add_provenance(struct profile *p, const char *line);

/** Add the build @line ("ARCH RELEASE BUILDID") to @b, a set (see prof_builds). */
void profile_builds_add(struct prof_builds *b, const char *line);
/** Add all of @src to @dst (a union, associative and commutative). */
void profile_builds_merge(struct prof_builds *dst, const struct prof_builds *src);
/** Free what @b holds and empty it. */
void profile_builds_release(struct prof_builds *b);

/**
 * Add all of @src to @dst (by name): merge is associative and commutative,
 * but for the sequences (profile.seq), which go one after the other.
 */
void profile_merge(struct profile *dst, const struct profile *src);

/** profile_merge(), function i of @src added as @names[i] when that is not NULL. */
void profile_merge_renamed(struct profile *dst, const struct profile *src, char *const *names);

/** Multiply every weight of @p (functions, edges, traces) by @w, rounding. */
void profile_scale(struct profile *p, double w);

/** Edges sorted by (caller name, callee name); caller frees. For output. */
struct prof_edge **profile_sorted_edges(const struct profile *p);

#endif
