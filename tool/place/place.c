// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * place.c - addresses from an order: the hot region laid out at the
 * functions' alignments, and the rest of the text shifted after it.
 */
#include "config.h"

#include <stdlib.h>

#include "lib/util.h"
#include "lib/xalloc.h"
#include "place/place.h"

/* Where @nd starts when the previous function ended at @at. */
static uint64_t place_align(const struct cg_node *nd, uint64_t at)
{
	return align_up(at, NONZERO(nd->align));
}

uint64_t place_order(const struct cgraph *cg, const uint32_t *order, size_t n,
		     uint64_t base, uint64_t *addr)
{
	uint64_t at = base;
	size_t i;

	for (i = 0; i < cg->nnodes; i++)
		addr[i] = UINT64_MAX;
	for (i = 0; i < n; i++) {
		const struct cg_node *nd = &cg->nodes[order[i]];

		at = place_align(nd, at);
		addr[order[i]] = at;
		at += nd->size;
	}
	return at;
}

size_t place_fit_bytes(const struct cgraph *cg, const uint32_t *order, size_t n,
		       uint64_t max_bytes)
{
	uint64_t at = 0;
	size_t i;

	if (!max_bytes)
		return n;
	for (i = 0; i < n; i++) {
		const struct cg_node *nd = &cg->nodes[order[i]];

		at = place_align(nd, at);
		if (at + nd->size > max_bytes)
			break;
		at += nd->size;
	}
	return i;
}

uint64_t place_insert(const struct kimage *img)
{
	uint64_t insert = UINT64_MAX;

	for (size_t i = 0; img && i < img->nfuncs; i++)
		if ((img->funcs[i].flags & KF_MOVABLE) && img->funcs[i].addr < insert)
			insert = img->funcs[i].addr;
	/* the main text's start, when code no function section holds lies
	 * between it and the first movable function (the sections stage) */
	if (img && img->text_from && img->text_from <= insert)
		insert = img->text_from;
	return insert;
}

void place_as_linked(const struct cgraph *cg, uint64_t *addr)
{
	size_t i;

	for (i = 0; i < cg->nnodes; i++)
		addr[i] = cg->img ? cg->img->funcs[cg->nodes[i].func].addr : UINT64_MAX;
}

struct moved {
	uint64_t orig, size;
};

static int cmp_moved(const void *a, const void *b)
{
	const struct moved *x = a, *y = b;

	return (x->orig > y->orig) - (x->orig < y->orig);
}

/* No image to lay out: shifted by the hot region less the bytes that moved
 * out from before them (their padding unknown). */
static uint64_t place_shift_rest(const struct cgraph *cg, const uint64_t *orig,
				 const uint32_t *order, size_t n, uint64_t insert, uint64_t end,
				 uint64_t *addr)
{
	struct moved *mv = xcalloc(n, sizeof(*mv));
	uint64_t *prefix = xcalloc(n + 1, sizeof(*prefix));
	size_t nmv = 0;

	for (size_t i = 0; i < n; i++)
		if (orig[order[i]] >= insert)
			mv[nmv++] = (struct moved){ orig[order[i]], cg->nodes[order[i]].size };
	qsort(mv, nmv, sizeof(*mv), cmp_moved);
	for (size_t i = 0; i < nmv; i++)
		prefix[i + 1] = prefix[i] + mv[i].size;
	for (size_t v = 0; v < cg->nnodes; v++) {
		size_t lo = 0, hi = nmv;

		if (addr[v] != UINT64_MAX)
			continue;
		if (orig[v] < insert) {
			addr[v] = orig[v];
			continue;
		}
		/* moved functions that sat below this one */
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (mv[mid].orig < orig[v])
				lo = mid + 1;
			else
				hi = mid;
		}
		addr[v] = orig[v] + (end - insert) - prefix[lo];
	}
	free(mv);
	free(prefix);
	return end;
}

/* The function whose extent @f moves with: its plain .text unit, or the
 * outermost function its start lies in (overlapping symbols). */
static uint32_t place_top(const struct kimage *img, uint32_t f)
{
	for (;;) {
		const struct kfunc *k = &img->funcs[f];

		if ((k->flags & KF_IN_UNIT) && k->unit != f)
			f = k->unit;
		else if (k->outer >= 0)
			f = (uint32_t)k->outer;
		else
			return f;
	}
}

/*
 * Where the code that stays lands (every function of the image at or after
 * @insert that does not move), as the linker lays it out after the hot
 * region ending at @end: each extent in its old order at its alignment, from
 * where the one before it now ends. A gap before it that its alignment does
 * not explain is either the script's ". = ALIGN(X)" (the address is a
 * multiple of X, X up to PLACE_MAX_SCRIPT_ALIGN, the old gap was just that
 * alignment and more than PLACE_MIN_SCRIPT_GAP bytes: it aligns the same way
 * again) or bytes with no symbol (a weak function's overridden section),
 * kept; always bytes when the link map showed such sections there
 * (KF_BYTES_BEFORE), wherever they happen to end. Fills @at by image
 * function (UINT64_MAX: moved, or below @insert).
 */
#define PLACE_MAX_SCRIPT_ALIGN (2ull << 20)
/* a symbol-less section that happens to end on a page is as likely as a
 * short script alignment: under this, a gap is taken for bytes */
#define PLACE_MIN_SCRIPT_GAP 64

void place_rest_as_linked(const struct kimage *img, const uint32_t *moved_funcs, size_t n,
			  uint64_t insert, uint64_t end, uint64_t *at)
{
	uint64_t pc = end, prev_end = insert;
	bool *moved = xcalloc(NONZERO(img->nfuncs), sizeof(*moved));

	for (size_t i = 0; i < n; i++)
		moved[place_top(img, moved_funcs[i])] = true;

	for (size_t i = 0; i < img->nfuncs; i++) {
		const struct kfunc *f = &img->funcs[i];
		uint64_t a = NONZERO(f->align), sz = kfunc_placed_size(f), gap, pad, x;
		uint32_t top = place_top(img, (uint32_t)i);

		at[i] = UINT64_MAX;
		if (f->addr < insert)
			continue;
		if (top != i) {
			/* inside another extent: laid out with it */
			if (at[top] != UINT64_MAX)
				at[i] = at[top] + (f->addr - img->funcs[top].addr);
			continue;
		}
		/* what lay before it stays, moved or not: the script's
		 * alignment, or bytes no symbol names */
		gap = f->addr > prev_end ? f->addr - prev_end : 0;
		pad = align_up(prev_end, a) - prev_end;
		x = addr_align(f->addr, PLACE_MAX_SCRIPT_ALIGN);
		if (gap > pad && x > a && gap - pad > PLACE_MIN_SCRIPT_GAP &&
		    align_up(prev_end, x) == f->addr && !(f->flags & KF_BYTES_BEFORE))
			pc = align_up(pc, x);
		else if (gap > pad)
			pc += gap - pad;
		if (!moved[i]) {
			at[i] = align_up(pc, a);
			pc = at[i] + sz;
		}
		if (f->addr + sz > prev_end)
			prev_end = f->addr + sz;
	}
	free(moved);
}

uint64_t place_relink(const struct cgraph *cg, const uint64_t *orig, const uint32_t *order,
		      size_t n, uint64_t insert, uint64_t page_size, uint64_t *addr)
{
	const struct kimage *img = cg->img;
	uint64_t base = align_up(insert, page_size);
	uint64_t end = place_order(cg, order, n, base, addr);
	uint32_t *funcs;
	uint64_t *at;

	if (!img)
		return place_shift_rest(cg, orig, order, n, insert, end, addr);
	funcs = xmallocarray(NONZERO(n), sizeof(*funcs));
	at = xmallocarray(NONZERO(img->nfuncs), sizeof(*at));
	for (size_t i = 0; i < n; i++)
		funcs[i] = cg->nodes[order[i]].func;
	place_rest_as_linked(img, funcs, n, insert, end, at);
	for (size_t v = 0; v < cg->nnodes; v++) {
		uint32_t f = cg->nodes[v].func;

		if (addr[v] != UINT64_MAX)
			continue;
		addr[v] = orig[v] < insert || at[f] == UINT64_MAX ? orig[v]
								   : at[f] + (orig[v] - img->funcs[f].addr);
	}
	free(at);
	free(funcs);
	return end;
}

uint64_t place_relink_funcs(const struct kimage *img, const uint32_t *funcs, size_t n,
			    uint64_t insert, uint64_t page_size, uint64_t *at)
{
	uint64_t pc = align_up(insert, page_size);
	uint64_t *hot = xmallocarray(NONZERO(img->nfuncs), sizeof(*hot));
	uint32_t *moved = xmallocarray(NONZERO(n), sizeof(*moved));
	size_t nmoved = 0;

	for (size_t i = 0; i < img->nfuncs; i++)
		hot[i] = UINT64_MAX;
	for (size_t i = 0; i < n; i++) {
		uint32_t top = place_top(img, funcs[i]);
		const struct kfunc *f = &img->funcs[top];

		/* listed before (itself or through its unit): where it went
		 * first; fixed, or below the region: where it is */
		if (hot[top] != UINT64_MAX || !(f->flags & KF_MOVABLE) || f->addr < insert)
			continue;
		hot[top] = align_up(pc, NONZERO(f->align));
		pc = hot[top] + kfunc_placed_size(f);
		moved[nmoved++] = top;
	}
	place_rest_as_linked(img, moved, nmoved, insert, pc, at);
	for (size_t i = 0; i < img->nfuncs; i++) {
		uint32_t top = place_top(img, (uint32_t)i);

		if (hot[top] != UINT64_MAX)
			at[i] = hot[top] + (img->funcs[i].addr - img->funcs[top].addr);
		else if (at[i] == UINT64_MAX)
			at[i] = img->funcs[i].addr;	/* below the region: stays */
	}
	free(moved);
	free(hot);
	return pc;
}
