// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * repeats.c - a repeated window's weight: each function's heat, each edge
 * and each trace scaled by what its windows weigh under the rule, from the
 * profile's sequence of windows.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#include "graph/repeats.h"
#include "lib/util.h"
#include "lib/warn.h"
#include "lib/xalloc.h"

struct repeats_edge {
	uint64_t key;		/* caller << 32 | callee */
	double kept, seen;	/* the windows' weights under the rule, and as seen */
	UT_hash_handle hh;
};

/* Each rule's name (as --repeats takes it) and what a window weighs under it. */
static const struct {
	const char *name, *weighs;
} rules[] = {
	[REPEATS_COUNT] = { "count", "all" },
	[REPEATS_SQRT] = { "sqrt", "the square root" },
	[REPEATS_LOG] = { "log", "1 + log2" },
};

int repeats_parse(const char *arg, enum repeats_rule *rule)
{
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (!strcmp(arg, rules[i].name)) {
			*rule = (enum repeats_rule)i;
			return 0;
		}
	pr_err("--repeats: '%s' is not count, sqrt or log", arg);
	return -EINVAL;
}

static void edge_add(struct repeats *r, uint32_t caller, uint32_t callee, double kept,
		     double seen)
{
	uint64_t key = (uint64_t)caller << 32 | callee;
	struct repeats_edge *e;

	HASH_FIND(hh, r->edges, &key, sizeof(key), e);
	if (!e) {
		e = xcalloc(1, sizeof(*e));
		e->key = key;
		HASH_ADD(hh, r->edges, key, sizeof(e->key), e);
	}
	e->kept += kept;
	e->seen += seen;
}

const char *repeats_name(enum repeats_rule rule)
{
	return rules[rule].name;
}

const char *repeats_weighs(enum repeats_rule rule)
{
	return rules[rule].weighs;
}

bool repeats_compute(struct repeats *r, const struct profile *prof, enum repeats_rule rule)
{
	uint64_t *times;
	double *kept, *seen, all_kept = 0, all_seen = 0;
	struct prof_trace *t, *tmp;

	memset(r, 0, sizeof(*r));
	r->rest = 1;
	r->func = xmallocarray(NONZERO(prof->nfuncs), sizeof(*r->func));
	r->trace = xmallocarray(NONZERO(prof->ntraces), sizeof(*r->trace));
	for (size_t i = 0; i < prof->nfuncs; i++)
		r->func[i] = 1;
	for (size_t i = 0; i < prof->ntraces; i++)
		r->trace[i] = 1;
	if (rule == REPEATS_COUNT || !prof->nseq)
		return false;
	times = xcalloc(prof->ntraces, sizeof(*times));
	for (size_t i = 0; i < prof->nseq; i++)
		times[prof->seq[i]]++;
	kept = xcalloc(NONZERO(prof->nfuncs), sizeof(*kept));
	seen = xcalloc(NONZERO(prof->nfuncs), sizeof(*seen));
	HASH_ITER(hh, prof->traces, t, tmp) {
		double c = (double)times[t->id], k;

		/* a trace that is no window (a stack, a call tree) keeps its weight */
		if (!times[t->id])
			continue;
		k = rule == REPEATS_LOG ? 1 + log2(c) : sqrt(c);
		r->trace[t->id] = k / c;
		all_kept += k;
		all_seen += c;
		for (uint32_t i = 0; i < t->n; i++) {
			kept[t->ids[i]] += k;
			seen[t->ids[i]] += c;
			if (i + 1 < t->n)
				edge_add(r, t->ids[i], t->ids[i + 1], k, c);
		}
	}
	if (all_seen)
		r->rest = all_kept / all_seen;
	for (size_t i = 0; i < prof->nfuncs; i++)
		r->func[i] = seen[i] ? kept[i] / seen[i] : r->rest;
	free(kept);
	free(seen);
	free(times);
	return true;
}

double repeats_edge(const struct repeats *r, uint32_t caller, uint32_t callee)
{
	uint64_t key = (uint64_t)caller << 32 | callee;
	struct repeats_edge *e;

	HASH_FIND(hh, r->edges, &key, sizeof(key), e);
	return e ? e->kept / e->seen : r->rest;
}

uint64_t repeats_scale(uint64_t w, double f)
{
	double v;

	if (!w || f == 1)
		return w;
	v = nearbyint((double)w * f);
	if (v < 1)
		return 1;
	return v >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)v;
}

void repeats_free(struct repeats *r)
{
	struct repeats_edge *e, *tmp;

	HASH_ITER(hh, r->edges, e, tmp) {
		HASH_DEL(r->edges, e);
		free(e);
	}
	free(r->func);
	free(r->trace);
	memset(r, 0, sizeof(*r));
}
