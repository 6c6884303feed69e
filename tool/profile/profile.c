// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * profile.c - the name-keyed profile: functions with weights, edges and
 * deduplicated traces. Adding is commutative, so profiles from many machines
 * merge in any order to the same result.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "profile/profile.h"

struct profile *profile_new(void)
{
	return xcalloc(1, sizeof(struct profile));
}

static void trace_ranges_free(struct prof_trace *t)
{
	if (!t->xr)
		return;
	for (uint32_t i = 0; i < t->n; i++)
		ranges_release(&t->xr[i]);
	free(t->xr);
	t->xr = NULL;
}

void profile_free(struct profile *p)
{
	struct prof_edge *e, *etmp;
	struct prof_trace *t, *ttmp;
	size_t i;

	if (!p)
		return;
	HASH_CLEAR(hh, p->by_name);
	for (i = 0; i < p->nfuncs; i++) {
		free(p->funcs[i]->name);
		free(p->funcs[i]);
	}
	free(p->funcs);
	HASH_ITER(hh, p->edges, e, etmp) {
		HASH_DEL(p->edges, e);
		free(e);
	}
	HASH_ITER(hh, p->traces, t, ttmp) {
		HASH_DEL(p->traces, t);
		free(t->ids);
		free(t->ext);
		trace_ranges_free(t);
		free(t);
	}
	for (i = 0; i < p->nprov; i++)
		free(p->provenance[i]);
	free(p->provenance);
	profile_builds_release(&p->builds);
	free(p->seq);
	free(p);
}

struct prof_func *profile_find_func(const struct profile *p, const char *name)
{
	struct prof_func *f;

	HASH_FIND_STR(p->by_name, name, f);
	return f;
}

uint32_t profile_func_id(struct profile *p, const char *name)
{
	struct prof_func *f = profile_find_func(p, name);

	if (f)
		return f->id;
	f = xcalloc(1, sizeof(*f));
	f->name = xstrdup(name);
	f->id = (uint32_t)p->nfuncs;
	XGROW(p->funcs, p->capfuncs, p->nfuncs + 1);
	p->funcs[p->nfuncs++] = f;
	HASH_ADD_KEYPTR(hh, p->by_name, f->name, strlen(f->name), f);
	return f->id;
}

/* Weights are sums of periods: one that would wrap stays at UINT64_MAX and
 * marks the profile, so that the hottest function cannot drop to 0. */
static void add_sat(struct profile *p, uint64_t *sum, uint64_t w)
{
	if (__builtin_add_overflow(*sum, w, sum)) {
		*sum = UINT64_MAX;
		p->overflowed = true;
	}
}

void profile_add_weight_only(struct profile *p, uint32_t id, uint64_t w)
{
	add_sat(p, &p->funcs[id]->weight, w);
	add_sat(p, &p->total_weight, w);
}

void profile_add_weight(struct profile *p, uint32_t id, uint64_t w)
{
	profile_add_weight_only(p, id, w);
	p->funcs[id]->ext_whole = true;
}

void profile_func_extent_add(struct prof_func *f, uint32_t lo, uint32_t hi, bool whole)
{
	f->ext_whole |= whole;
	extent_widen(&f->ext_lo, &f->ext_hi, lo, hi);
}

void profile_add_weight_at(struct profile *p, uint32_t id, uint64_t w, uint64_t off)
{
	profile_add_weight_only(p, id, w);
	/* an offset past 4 GiB is no function's: count the whole of it */
	if (off >= UINT32_MAX)
		p->funcs[id]->ext_whole = true;
	else
		profile_func_extent_add(p->funcs[id], (uint32_t)off, (uint32_t)off + 1, false);
}

bool profile_func_extent(const struct prof_func *f, uint32_t *lo, uint32_t *hi)
{
	if (f->ext_whole || !f->ext_hi)
		return false;
	*lo = f->ext_lo;
	*hi = f->ext_hi;
	return true;
}

void profile_add_edge(struct profile *p, uint32_t caller, uint32_t callee, uint64_t w)
{
	uint64_t key = (uint64_t)caller << 32 | callee;
	struct prof_edge *e;

	HASH_FIND(hh, p->edges, &key, sizeof(key), e);
	if (!e) {
		e = xcalloc(1, sizeof(*e));
		e->key = key;
		e->caller = caller;
		e->callee = callee;
		HASH_ADD(hh, p->edges, key, sizeof(e->key), e);
		p->nedges++;
	}
	add_sat(p, &e->weight, w);
}

struct prof_trace *profile_add_trace(struct profile *p, const uint32_t *ids, uint32_t n,
				     uint64_t w)
{
	struct prof_trace *t;
	size_t len = (size_t)n * sizeof(*ids);

	if (!n)
		return NULL;
	HASH_FIND(hh, p->traces, ids, len, t);
	if (!t) {
		t = xcalloc(1, sizeof(*t));
		t->ids = xmalloc(len);
		memcpy(t->ids, ids, len);
		t->n = n;
		t->id = (uint32_t)p->ntraces;
		HASH_ADD_KEYPTR(hh, p->traces, t->ids, len, t);
		p->ntraces++;
	}
	add_sat(p, &t->weight, w);
	return t;
}

void profile_trace_extent_add(struct prof_trace *t, const uint32_t *ext,
			      const struct ranges *xr, bool whole)
{
	struct ranges u = { 0 };

	if (t->ext_whole || whole) {
		/* whole absorbs: what the other times ran is not known */
		t->ext_whole = true;
		free(t->ext);
		t->ext = NULL;
		trace_ranges_free(t);
		return;
	}
	if (!ext)
		return;
	if (!t->ext)
		t->ext = xcalloc(2 * (size_t)t->n, sizeof(*t->ext));
	for (uint32_t i = 0; i < t->n; i++) {
		uint32_t *e = &t->ext[2 * i];
		bool mine = t->xr && t->xr[i].n, theirs = xr && xr[i].n;

		if (!ext[2 * i + 1])
			continue;
		if (e[1] || theirs) {
			/* what ran is the union of both sides' */
			ranges_add_side(&u, mine ? &t->xr[i] : NULL, e[0], e[1]);
			ranges_add_side(&u, xr ? &xr[i] : NULL, ext[2 * i], ext[2 * i + 1]);
			if (u.n >= 2) {
				if (!t->xr)
					t->xr = xcalloc(t->n, sizeof(*t->xr));
				ranges_release(&t->xr[i]);
				t->xr[i] = u;
				memset(&u, 0, sizeof(u));
			} else if (mine) {
				ranges_release(&t->xr[i]);
			}
			u.n = 0;
		}
		extent_widen(&e[0], &e[1], ext[2 * i], ext[2 * i + 1]);
	}
	ranges_release(&u);
}

const struct ranges *profile_trace_ranges(const struct prof_trace *t, uint32_t i)
{
	if (t->ext_whole || !t->xr || i >= t->n || t->xr[i].n < 2)
		return NULL;
	return &t->xr[i];
}

bool profile_trace_extent(const struct prof_trace *t, uint32_t i, uint32_t *lo, uint32_t *hi)
{
	if (t->ext_whole || !t->ext || i >= t->n || !t->ext[2 * i + 1])
		return false;
	*lo = t->ext[2 * i];
	*hi = t->ext[2 * i + 1];
	return true;
}

void profile_add_seq(struct profile *p, const struct prof_trace *t)
{
	XGROW(p->seq, p->capseq, p->nseq + 1);
	p->seq[p->nseq++] = t->id;
}

/*
 * A fleet merge of 10,000 profiles would keep 10,000 "input" lines: each
 * kind of line (its first word) keeps its PROF_PROV_PER_KIND smallest in
 * byte order, and "more KIND" says that some were left out. The smallest
 * of a union are the smallest of the parts' smallest, so merge stays
 * associative and commutative, and memory does not grow with the inputs.
 */
#define PROF_PROV_PER_KIND 64
#define PROF_PROV_MORE "more "

static bool same_kind(const char *a, const char *b, size_t len)
{
	return !strncmp(a, b, len) && (a[len] == ' ' || !a[len]);
}

/* A provenance line as hprof_write() writes it: no leading blanks, line
 * ends inside become blanks. Kept in that form, so that which lines a kind
 * keeps (compared below) is the same before and after a write and read. */
static char *prov_line(const char *line)
{
	char *c, *l;

	line += strspn(line, " \t\r\n");
	l = xstrdup(line);
	for (c = l; *c; c++)
		if (*c == '\n' || *c == '\r')
			*c = ' ';
	return l;
}

static void profile_add_prov_line(struct profile *p, const char *line)
{
	size_t i, len = strcspn(line, " "), n = 0, max = SIZE_MAX;
	char *more;

	/* Merging the same profile twice must not repeat its history. */
	for (i = 0; i < p->nprov; i++) {
		if (!strcmp(p->provenance[i], line))
			return;
		if (same_kind(p->provenance[i], line, len)) {
			n++;
			if (max == SIZE_MAX || strcmp(p->provenance[i], p->provenance[max]) > 0)
				max = i;
		}
	}
	if (n < PROF_PROV_PER_KIND) {
		XGROW(p->provenance, p->capprov, p->nprov + 1);
		p->provenance[p->nprov++] = xstrdup(line);
		return;
	}
	if (strcmp(line, p->provenance[max]) < 0) {
		free(p->provenance[max]);
		p->provenance[max] = xstrdup(line);
	}
	if (!strncmp(line, PROF_PROV_MORE, strlen(PROF_PROV_MORE)))
		return;		/* too many kinds left out: no marker of markers */
	more = xasprintf(PROF_PROV_MORE "%.*s", (int)len, line);
	profile_add_prov_line(p, more);
	free(more);
}

void profile_add_provenance(struct profile *p, const char *raw)
{
	char *line = prov_line(raw);

	profile_add_prov_line(p, line);
	free(line);
}

void profile_builds_add(struct prof_builds *b, const char *line)
{
	size_t i, max = 0;

	for (i = 0; i < b->n; i++) {
		if (!strcmp(b->v[i], line))
			return;
		if (strcmp(b->v[i], b->v[max]) > 0)
			max = i;
	}
	if (b->n < PROF_BUILDS_MAX) {
		XGROW(b->v, b->cap, b->n + 1);
		b->v[b->n++] = xstrdup(line);
		return;
	}
	/* the smallest are kept: those of a union are its parts' smallest */
	b->more = true;
	if (strcmp(line, b->v[max]) < 0) {
		free(b->v[max]);
		b->v[max] = xstrdup(line);
	}
}

void profile_builds_merge(struct prof_builds *dst, const struct prof_builds *src)
{
	size_t i;

	for (i = 0; i < src->n; i++)
		profile_builds_add(dst, src->v[i]);
	dst->more |= src->more;
}

void profile_builds_release(struct prof_builds *b)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		free(b->v[i]);
	free(b->v);
	memset(b, 0, sizeof(*b));
}

void profile_merge(struct profile *dst, const struct profile *src)
{
	profile_merge_renamed(dst, src, NULL);
}

void profile_merge_renamed(struct profile *dst, const struct profile *src, char *const *names)
{
	uint32_t *map = xcalloc(src->nfuncs, sizeof(*map));
	struct prof_trace **tmap = xcalloc(src->ntraces, sizeof(*tmap));
	uint32_t *ids = NULL;
	size_t cap = 0, i;
	struct prof_edge *e, *etmp;
	struct prof_trace *t, *ttmp;

	for (i = 0; i < src->nfuncs; i++) {
		map[i] = profile_func_id(dst, names && names[i] ? names[i] : src->funcs[i]->name);
		add_sat(dst, &dst->funcs[map[i]]->weight, src->funcs[i]->weight);
		profile_func_extent_add(dst->funcs[map[i]], src->funcs[i]->ext_lo,
					src->funcs[i]->ext_hi, src->funcs[i]->ext_whole);
	}
	add_sat(dst, &dst->total_weight, src->total_weight);
	HASH_ITER(hh, src->edges, e, etmp)
		profile_add_edge(dst, map[e->caller], map[e->callee], e->weight);
	HASH_ITER(hh, src->traces, t, ttmp) {
		XGROW(ids, cap, t->n);
		for (i = 0; i < t->n; i++)
			ids[i] = map[t->ids[i]];
		tmap[t->id] = profile_add_trace(dst, ids, t->n, t->weight);
		tmap[t->id]->traced |= t->traced;
		profile_trace_extent_add(tmap[t->id], t->ext, t->xr, t->ext_whole);
	}
	for (i = 0; i < src->nseq; i++)
		profile_add_seq(dst, tmap[src->seq[i]]);
	for (i = 0; i < src->nprov; i++)
		profile_add_provenance(dst, src->provenance[i]);
	profile_builds_merge(&dst->builds, &src->builds);
	add_sat(dst, &dst->nsamples, src->nsamples);
	add_sat(dst, &dst->matched, src->matched);
	for (i = 0; i < PROF_DROP_NR; i++)
		add_sat(dst, &dst->dropped[i], src->dropped[i]);
	dst->overflowed |= src->overflowed;
	dst->units |= src->units;	/* a union: associative and commutative */
	free(ids);
	free(tmap);
	free(map);
}

static uint64_t scaled(uint64_t v, double w)
{
	double x = (double)v * w + 0.5;

	return x >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)x;
}

void profile_scale(struct profile *p, double w)
{
	struct prof_edge *e, *etmp;
	struct prof_trace *t, *ttmp;

	p->total_weight = 0;
	for (size_t i = 0; i < p->nfuncs; i++) {
		p->funcs[i]->weight = scaled(p->funcs[i]->weight, w);
		p->total_weight += p->funcs[i]->weight;
	}
	HASH_ITER(hh, p->edges, e, etmp)
		e->weight = scaled(e->weight, w);
	HASH_ITER(hh, p->traces, t, ttmp)
		t->weight = scaled(t->weight, w);
}

static const struct profile *sort_prof;

static int cmp_edge_names(const void *a, const void *b)
{
	const struct prof_edge *x = *(const struct prof_edge *const *)a;
	const struct prof_edge *y = *(const struct prof_edge *const *)b;
	int c = strcmp(sort_prof->funcs[x->caller]->name, sort_prof->funcs[y->caller]->name);

	return c ? c : strcmp(sort_prof->funcs[x->callee]->name,
			      sort_prof->funcs[y->callee]->name);
}

struct prof_edge **profile_sorted_edges(const struct profile *p)
{
	struct prof_edge **v = xcalloc(p->nedges, sizeof(*v));
	struct prof_edge *e, *etmp;
	size_t n = 0;

	HASH_ITER(hh, p->edges, e, etmp)
		v[n++] = e;
	sort_prof = p;
	qsort(v, n, sizeof(*v), cmp_edge_names);
	sort_prof = NULL;
	return v;
}
