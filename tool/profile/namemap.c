// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * namemap.c - a profile's names against another build's image. A name the
 * image has (kimage_find_func_by_key()) stays. Else:
 *
 *   name@FILE (a static name that was not unique): the image's functions
 *     of that name; one: it; several: the one whose object or source file
 *     is FILE as a path (extension aside, one a path suffix of the other),
 *     else the one of FILE's base name; an address key (name@0x...) says
 *     nothing across builds. None of that name: as a plain name below.
 *   name: the image's functions of the same base name (clone suffixes
 *     stripped, symbolize_base_name()) and the same kind (.cold or not);
 *     one: it.
 *
 * Several candidates and nothing to choose between them: not mapped (its
 * weight would be a guess), counted as ambiguous.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#include "lib/xalloc.h"
#include "profile/namemap.h"
#include "profile/symbolize.h"

#define NM_NAME 1024

/* Image functions by base name (clone suffixes stripped). */
struct nm_base {
	char *base;
	uint32_t *idx;
	size_t n, cap;
	UT_hash_handle hh;
};

struct namemap {
	const struct kimage *img;
	struct nm_base *bases;
	bool built;
};

static bool is_cold(const char *name, size_t baselen)
{
	return strstr(name + baselen, ".cold") != NULL;
}

static void nm_build(struct namemap *m)
{
	char buf[NM_NAME];
	struct nm_base *b;
	size_t i, n;

	m->built = true;
	for (i = 0; i < m->img->nfuncs; i++) {
		const char *base = symbolize_base_name(m->img->funcs[i].name, buf, sizeof(buf));

		n = strlen(base);
		HASH_FIND(hh, m->bases, base, n, b);
		if (!b) {
			b = xcalloc(1, sizeof(*b));
			b->base = xstrdup(base);
			HASH_ADD_KEYPTR(hh, m->bases, b->base, n, b);
		}
		XGROW(b->idx, b->cap, b->n + 1);
		b->idx[b->n++] = (uint32_t)i;
	}
}

/* The path @p without its extension: its length. */
static size_t stem_len(const char *p)
{
	const char *dot = strrchr(p, '.'), *slash = strrchr(p, '/');

	return dot && (!slash || dot > slash) ? (size_t)(dot - p) : strlen(p);
}

static const char *base_of(const char *p, size_t len, size_t *blen)
{
	const char *b = p + len;

	while (b > p && b[-1] != '/')
		b--;
	*blen = (size_t)(p + len - b);
	return b;
}

/* 2: @a and @b are one path (one a suffix of the other at a '/'), the
 * extension aside; 1: the same base name; 0: neither. */
static int file_fit(const char *a, const char *b)
{
	size_t la = stem_len(a), lb = stem_len(b), ba, bb;
	const char *sa, *sb;

	if (la >= lb ? (!memcmp(a + la - lb, b, lb) && (la == lb || a[la - lb - 1] == '/'))
		     : (!memcmp(b + lb - la, a, la) && b[lb - la - 1] == '/'))
		return 2;
	sa = base_of(a, la, &ba);
	sb = base_of(b, lb, &bb);
	return ba == bb && !memcmp(sa, sb, ba);
}

static int func_file_fit(const struct kfunc *f, const char *file)
{
	int x = f->object ? file_fit(f->object, file) : 0;
	int y = f->srcfile ? file_fit(f->srcfile, file) : 0;

	return x > y ? x : y;
}

/*
 * Of the @n candidates @idx, the one @file names best, uniquely; NULL when
 * none or several fit as well.
 */
static const struct kfunc *by_file(const struct kimage *img, const uint32_t *idx, size_t n,
				   const char *file)
{
	const struct kfunc *best = NULL;
	int fit, top = 0;
	size_t i, ntop = 0;

	if (!strncmp(file, "0x", 2))
		return NULL;	/* an address: another build's */
	for (i = 0; i < n; i++) {
		fit = func_file_fit(&img->funcs[idx[i]], file);
		if (fit > top) {
			top = fit;
			ntop = 0;
		}
		if (fit && fit == top) {
			ntop++;
			best = &img->funcs[idx[i]];
		}
	}
	return ntop == 1 ? best : NULL;
}

enum nm_how { NM_NONE, NM_CLONE, NM_FILE, NM_NAME_ONLY, NM_AMBIGUOUS };

/* Functions of exactly @name, into @idx (of @cap); their count. */
static size_t same_name(const struct kimage *img, const char *name, uint32_t *idx, size_t cap)
{
	const struct kfunc *f = kimage_find_func_by_name(img, name);
	size_t n = 0;

	if (f && strcmp(f->name, name))
		return 0;	/* an alias: taken by the exact lookup already */
	for (; f; f = f->next_same_name >= 0 ? &img->funcs[f->next_same_name] : NULL) {
		if (n < cap)
			idx[n] = f->index;
		n++;
	}
	return n;
}

static enum nm_how nm_find(struct namemap *m, const char *key, const struct kfunc **out)
{
	const struct kimage *img = m->img;
	const char *at = strchr(key, '@'), *base;
	char name[NM_NAME], buf[NM_NAME];
	uint32_t idx[64], *cand = NULL;
	size_t n, len = at ? (size_t)(at - key) : strlen(key), i, nc = 0, cap = 0;
	struct nm_base *b;
	enum nm_how how = NM_NONE;
	bool cold;

	if (len >= sizeof(name))
		return NM_NONE;
	memcpy(name, key, len);
	name[len] = '\0';
	if (at) {
		n = same_name(img, name, idx, sizeof(idx) / sizeof(idx[0]));
		if (n == 1) {
			*out = &img->funcs[idx[0]];
			return NM_NAME_ONLY;
		}
		if (n > sizeof(idx) / sizeof(idx[0]))
			return NM_AMBIGUOUS;
		if (n) {
			*out = by_file(img, idx, n, at + 1);
			return *out ? NM_FILE : NM_AMBIGUOUS;
		}
	}
	/* across clone suffixes, of the same kind (.cold parts to .cold parts) */
	base = symbolize_base_name(name, buf, sizeof(buf));
	cold = is_cold(name, strlen(base));
	if (!m->built)
		nm_build(m);
	HASH_FIND(hh, m->bases, base, strlen(base), b);
	if (!b)
		return NM_NONE;
	for (i = 0; i < b->n; i++) {
		const char *fn = img->funcs[b->idx[i]].name;

		if (is_cold(fn, strlen(base)) != cold)
			continue;
		XGROW(cand, cap, nc + 1);
		cand[nc++] = b->idx[i];
	}
	if (nc == 1) {
		*out = &img->funcs[cand[0]];
		how = NM_CLONE;
	} else if (nc > 1) {
		*out = at ? by_file(img, cand, nc, at + 1) : NULL;
		how = *out ? NM_CLONE : NM_AMBIGUOUS;
	}
	free(cand);
	return how;
}

char **namemap_keys(const struct profile *p, const struct kimage *img,
		    struct namemap_counts *c)
{
	struct namemap m = { .img = img };
	const struct kfunc *f;
	struct nm_base *b, *tmp;
	char **keys = NULL, kbuf[NM_NAME];
	size_t i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < p->nfuncs; i++) {
		const char *key = p->funcs[i]->name;

		if (kimage_find_func_by_key(img, key))
			continue;
		f = NULL;
		switch (nm_find(&m, key, &f)) {
		case NM_NONE: continue;
		case NM_AMBIGUOUS:
			c->ambiguous++;
			c->ambiguous_weight += p->funcs[i]->weight;
			continue;
		case NM_CLONE: c->clone++; break;
		case NM_FILE: c->file++; break;
		case NM_NAME_ONLY: c->name++; break;
		}
		if (!keys)
			keys = xcalloc(p->nfuncs, sizeof(*keys));
		keys[i] = xstrdup(kfunc_key(img, f, kbuf, sizeof(kbuf)));
	}
	HASH_ITER(hh, m.bases, b, tmp) {
		HASH_DEL(m.bases, b);
		free(b->base);
		free(b->idx);
		free(b);
	}
	return keys;
}

void namemap_free(char **keys, size_t n)
{
	size_t i;

	if (!keys)
		return;
	for (i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
}
