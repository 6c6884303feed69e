// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * symbolize.c - from parser events to profile data (the rules are written
 * out in docs/profiles.md).
 *
 * A frame resolves to a function of the image: by its symbol when it has one
 * (exact name or alias, then the name without clone suffixes, then another
 * clone of the same base name), else by its address minus the KASLR offset.
 * Frames in modules, user space, bpf or [unknown] are counted by reason and
 * skipped. Stacks give the leaf its self weight, each caller->callee pair an
 * edge and the whole stack a trace; ftrace call trees give each entry the
 * weight, parent->child edges and one trace; LBR calls give an edge and the
 * target's weight.
 *
 * The KASLR offset, when not given, is detected from the input itself: the
 * first events are held back until enough frames carry both a symbol+offset
 * and an address (offset = addr - (symbol + off), the most common value), or
 * until the hold is full, when address-only inputs try 2 MiB aligned offsets
 * (x86) and keep the one that resolves most addresses. Then the held events
 * are attributed and the rest streams through. Memory stays bounded by the
 * hold (SZ_HOLD_EVENTS) and the distinct functions.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#include "disasm/disasm.h"
#include "lib/warn.h"
#include "lib/xalloc.h"
#include "profile/build.h"
#include "profile/symbolize.h"

#define SZ_NONE UINT32_MAX
#define SZ_HOLD_EVENTS 4096u
#define SZ_HOLD_FRAMES (256u << 10)
#define SZ_VOTES_ENOUGH 1024u	/* symbol+offset frames that settle the offset */
#define SZ_PROBE_ADDRS 512u	/* addresses tried per candidate offset */
#define SZ_PROBE_MIN 64u	/* fewer addresses cannot tell an offset apart */
#define SZ_DEPTH_START 64u	/* call-tree depths held at first; they grow */

/* Image functions whose names carry clone suffixes, by base name. */
struct sz_base {
	char *base;
	const struct kfunc *hot;	/* lowest-address non-.cold clone */
	const struct kfunc *cold;	/* lowest-address .cold clone */
	UT_hash_handle hh;
};

struct sz_held {
	struct hp_event ev;	/* frames point into held_frames when replayed */
	size_t first;		/* index of the first frame in held_frames */
};

struct sz_vote {
	int64_t delta;
	uint64_t n;
};

/*
 * A direct-mapped cache of symbol -> result in front of the image's name
 * lookups (exact, alias, clone suffixes, kfunc_key, profile id): a profile
 * names the same few thousand functions millions of times. Names longer
 * than the inline buffer are not cached.
 */
#define SZ_CACHE_SIZE 8192u
#define SZ_CACHE_NAME 48

struct sz_cache_ent {
	uint32_t hash;
	uint32_t id;		/* SZ_NONE: known not to be in the image */
	char name[SZ_CACHE_NAME];
};

struct symbolizer {
	struct profile *prof;
	const struct kimage *img;
	const char *name;

	int64_t kaslr;
	bool kaslr_given;	/* --kaslr-offset: held for the fit check only */
	bool kaslr_settled;
	bool kaslr_detected;
	bool any_arch;		/* --any-arch: samples of another architecture warned about */
	struct disasm *dis;	/* for the fit check; NULL: not opened */
	uint64_t user_below;	/* a kernel image: addresses below are user space */

	/* events held back until the offset is settled */
	struct sz_held *held;
	size_t nheld, capheld;
	struct hp_frame *held_frames;
	size_t *held_symat;	/* arena offset or SIZE_MAX */
	size_t nheld_frames, capheld_frames;
	char *arena;
	size_t arenalen, arenacap;
	struct sz_vote *votes;
	size_t nvotes, capvotes;
	uint64_t nvoted;

	struct sz_base *bases;
	bool bases_built;
	struct sz_cache_ent *cache;
	uint32_t *idcache;	/* kfunc index -> profile id */

	/* per-event scratch */
	uint32_t *ids;
	size_t capids;
	uint32_t *trace;
	size_t captrace;
	uint32_t *depth_id;	/* per call-tree depth: the function open there */
	bool *depth_ok;
	size_t depth_cap;

	uint64_t dropped_frames[PROF_DROP_NR];
	uint64_t tree_matched, tree_missing;	/* call-tree entries: in the image, not */
	uint64_t in_overlap;	/* addresses where function symbols overlap */

	/* --addr-window: the window being filled */
	uint32_t win;		/* samples per window, 0: off */
	uint8_t *id_label;	/* by profile id: a KF_LABEL function */
	size_t cap_id_label;
	uint64_t last_line_left; /* sz_resolve(): bytes from the frame's address to
				  * the end of its RANGES_GAP line (0: no address) */
	uint64_t last_off;	/* sz_resolve(): the frame's offset in its function,
				 * UINT64_MAX when it gave none */
	uint32_t win_samples;	/* resolved samples in it so far (labels not counted) */
	uint32_t win_cap;	/* room in win_ids */
	uint32_t *win_ids;	/* its distinct functions, first seen first */
	uint32_t *win_ext;	/* by place in win_ids: the offsets its samples hit
				 * in this window (prof_trace.ext) */
	struct ranges *win_xr;	/* by place in win_ids: the same as ranges
				 * (prof_trace.xr) */
	bool win_whole;		/* a sample of it gave no offset */
	uint32_t win_n;

	/* LBR: the branch events of one record (same line) are one sample */
	bool rec_open;
	bool rec_matched;
	size_t rec_line;
	enum prof_drop rec_why;
	uint64_t nbranches, nrecords;
};

static bool is_digits(const char *s, size_t n)
{
	size_t i;

	if (!n)
		return false;
	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/*
 * Length of @name without its clone suffixes. GCC writes .constprop.N,
 * .isra.N, .part.N and .cold (older: .cold.N), clang's ThinLTO .llvm.N;
 * they may stack (foo.constprop.0.isra.0, foo.part.0.cold).
 */
static size_t sz_base_len(const char *name, bool *cold)
{
	size_t n = strlen(name), k;
	const char *dot, *num;

	*cold = false;
	for (;;) {
		dot = NULL;
		for (k = n; k > 0; k--)
			if (name[k - 1] == '.') {
				dot = name + k - 1;
				break;
			}
		if (!dot || dot == name)
			return n;
		num = dot + 1;
		k = (size_t)(name + n - num);
		if (k == 4 && !memcmp(num, "cold", 4)) {
			*cold = true;
			n = (size_t)(dot - name);
			continue;
		}
		if (!is_digits(num, k))
			return n;
		/* a number: the word before it must be a known suffix */
		{
			const char *w = dot, *ws;
			size_t wl;

			for (ws = w; ws > name && ws[-1] != '.'; ws--)
				;
			if (ws == name)
				return n;
			wl = (size_t)(w - ws);
			if ((wl == 9 && !memcmp(ws, "constprop", 9)) ||
			    (wl == 4 && !memcmp(ws, "isra", 4)) ||
			    (wl == 4 && !memcmp(ws, "part", 4)) ||
			    (wl == 4 && !memcmp(ws, "llvm", 4))) {
				n = (size_t)(ws - 1 - name);
			} else if (wl == 4 && !memcmp(ws, "cold", 4)) {
				*cold = true;
				n = (size_t)(ws - 1 - name);
			} else {
				return n;
			}
		}
	}
}

const char *symbolize_base_name(const char *name, char *buf, size_t len)
{
	bool cold;
	size_t n = sz_base_len(name, &cold);

	if (n == strlen(name) || n >= len)
		return name;
	memcpy(buf, name, n);
	buf[n] = '\0';
	return buf;
}

struct symbolizer *symbolize_new(struct profile *prof, const struct kimage *img,
				 const int64_t *kaslr_offset, const char *name)
{
	struct symbolizer *sz = xcalloc(1, sizeof(*sz));
	size_t i;

	sz->prof = prof;
	sz->img = img;
	sz->name = name;
	if (kaslr_offset) {
		sz->kaslr = *kaslr_offset;
		sz->kaslr_given = true;
	}
	if (!img)
		sz->kaslr_settled = true;
	/* A kernel lives in the top half of the address space: an address in
	 * the bottom half is a user-space sample, whatever the offset. */
	if (img && img->nfuncs) {
		if (img->funcs[0].addr >= img->arch->kernel_base)
			sz->user_below = img->arch->kernel_base;
	}
	if (img && img->nfuncs) {
		sz->idcache = xmallocarray(img->nfuncs, sizeof(*sz->idcache));
		for (i = 0; i < img->nfuncs; i++)
			sz->idcache[i] = SZ_NONE;
	}
	sz->depth_cap = SZ_DEPTH_START;
	sz->depth_id = xmallocarray(sz->depth_cap, sizeof(*sz->depth_id));
	sz->depth_ok = xcalloc(sz->depth_cap, sizeof(*sz->depth_ok));
	return sz;
}

static void win_ranges_free(struct symbolizer *sz)
{
	for (uint32_t i = 0; sz->win_xr && i < sz->win_cap; i++)
		ranges_release(&sz->win_xr[i]);
	free(sz->win_xr);
	sz->win_xr = NULL;
}

void symbolize_free(struct symbolizer *sz)
{
	struct sz_base *b, *tmp;

	if (!sz)
		return;
	HASH_ITER(hh, sz->bases, b, tmp) {
		HASH_DEL(sz->bases, b);
		free(b->base);
		free(b);
	}
	free(sz->held);
	free(sz->held_frames);
	free(sz->held_symat);
	free(sz->arena);
	free(sz->votes);
	free(sz->idcache);
	free(sz->cache);
	free(sz->ids);
	free(sz->trace);
	free(sz->depth_id);
	free(sz->depth_ok);
	free(sz->win_ids);
	free(sz->win_ext);
	win_ranges_free(sz);
	free(sz->id_label);
	disasm_close(sz->dis);
	free(sz);
}

int64_t symbolize_kaslr_offset(const struct symbolizer *sz, bool *detected)
{
	if (detected)
		*detected = sz->kaslr_detected;
	return sz->kaslr;
}

void symbolize_tree_entries(const struct symbolizer *sz, uint64_t *matched, uint64_t *missing)
{
	*matched = sz->tree_matched;
	*missing = sz->tree_missing;
}

const uint64_t *symbolize_dropped_frames(const struct symbolizer *sz)
{
	return sz->dropped_frames;
}

static void sz_build_bases(struct symbolizer *sz)
{
	const struct kimage *img = sz->img;
	struct sz_base *b;
	size_t i, n;
	bool cold;

	sz->bases_built = true;
	for (i = 0; i < img->nfuncs; i++) {
		const struct kfunc *fn = &img->funcs[i];

		n = sz_base_len(fn->name, &cold);
		if (n == strlen(fn->name) || !n)
			continue;
		HASH_FIND(hh, sz->bases, fn->name, n, b);
		if (!b) {
			b = xcalloc(1, sizeof(*b));
			b->base = xstrndup(fn->name, n);
			HASH_ADD_KEYPTR(hh, sz->bases, b->base, n, b);
		}
		/* funcs are sorted by address: the first seen is the lowest */
		if (cold && !b->cold)
			b->cold = fn;
		else if (!cold && !b->hot)
			b->hot = fn;
	}
}

/* The image function a symbol names, across clone suffixes. */
static const struct kfunc *sz_find_by_name(struct symbolizer *sz, const char *sym)
{
	const struct kfunc *fn;
	struct sz_base *b;
	char buf[512];
	size_t n;
	bool cold;

	fn = kimage_find_func_by_name(sz->img, sym);
	if (fn)
		return fn;
	n = sz_base_len(sym, &cold);
	if (!n || n >= sizeof(buf))
		return NULL;
	memcpy(buf, sym, n);
	buf[n] = '\0';
	if (n != strlen(sym)) {
		fn = kimage_find_func_by_name(sz->img, buf);
		if (fn && !cold)
			return fn;
	}
	if (!sz->bases_built)
		sz_build_bases(sz);
	HASH_FIND(hh, sz->bases, buf, n, b);
	if (b) {
		if (cold && b->cold)
			return b->cold;
		if (b->hot)
			return b->hot;
		if (!fn)
			return b->cold;
	}
	return fn;
}

/* The profile id of an image function, by its kfunc_key(). */
static uint32_t sz_func_id(struct symbolizer *sz, const struct kfunc *fn)
{
	char keybuf[1024];
	uint32_t id;

	if (sz->idcache && sz->idcache[fn->index] != SZ_NONE)
		return sz->idcache[fn->index];
	id = profile_func_id(sz->prof, kfunc_key(sz->img, fn, keybuf, sizeof(keybuf)));
	if (sz->idcache)
		sz->idcache[fn->index] = id;
	if (fn->flags & KF_LABEL) {
		if (id >= sz->cap_id_label) {
			size_t old = sz->cap_id_label;

			XGROW(sz->id_label, sz->cap_id_label, (size_t)id + 1);
			memset(sz->id_label + old, 0, sz->cap_id_label - old);
		}
		sz->id_label[id] = 1;
	}
	return id;
}

/*
 * Resolve one frame to a profile id, or SZ_NONE with *why set. *at_start
 * tells whether the frame is at the function's first byte (LBR calls).
 */
static uint32_t sz_resolve(struct symbolizer *sz, const struct hp_frame *fr, enum prof_drop *why,
			   bool *at_start)
{
	const struct kfunc *fn = NULL;
	uint32_t id;

	*at_start = false;
	sz->last_off = fr->has_off ? fr->off : UINT64_MAX;
	sz->last_line_left = 0;
	switch (fr->dso) {
	case HP_DSO_MODULE:
		*why = PROF_DROP_MODULE;
		return SZ_NONE;
	case HP_DSO_USER:
		*why = PROF_DROP_USER;
		return SZ_NONE;
	case HP_DSO_BPF:
		*why = PROF_DROP_BPF;
		return SZ_NONE;
	case HP_DSO_UNKNOWN:
		*why = PROF_DROP_UNKNOWN;
		return SZ_NONE;
	default:
		break;
	}
	if (!sz->img) {
		if (!fr->sym || !*fr->sym) {
			*why = PROF_DROP_UNKNOWN;
			return SZ_NONE;
		}
		*at_start = !fr->has_off || fr->off == 0;
		return profile_func_id(sz->prof, fr->sym);
	}
	if (fr->sym && *fr->sym) {
		uint32_t h = 2166136261u;	/* FNV-1a */
		struct sz_cache_ent *ce;
		const char *c;
		size_t n;

		for (c = fr->sym; *c; c++)
			h = (h ^ (uint8_t)*c) * 16777619u;
		n = (size_t)(c - fr->sym);
		if (!sz->cache)
			sz->cache = xcalloc(SZ_CACHE_SIZE, sizeof(*sz->cache));
		ce = &sz->cache[h & (SZ_CACHE_SIZE - 1)];
		if (ce->hash == h && ce->name[0] && !strcmp(ce->name, fr->sym)) {
			if (ce->id == SZ_NONE)
				*why = PROF_DROP_NOT_IN_IMAGE;
			else
				*at_start = !fr->has_off || fr->off == 0;
			return ce->id;
		}
		fn = sz_find_by_name(sz, fr->sym);
		id = fn ? sz_func_id(sz, fn) : SZ_NONE;
		if (n < SZ_CACHE_NAME) {
			ce->hash = h;
			ce->id = id;
			memcpy(ce->name, fr->sym, n + 1);
		}
		if (!fn) {
			*why = PROF_DROP_NOT_IN_IMAGE;
			return SZ_NONE;
		}
		*at_start = !fr->has_off || fr->off == 0;
		return id;
	} else if (fr->has_addr && fr->addr < sz->user_below) {
		*why = PROF_DROP_USER;
		return SZ_NONE;
	} else if (fr->has_addr) {
		uint64_t a = fr->addr - (uint64_t)sz->kaslr;

		fn = kimage_find_func_containing(sz->img, a);
		if (fn && kimage_addr_in_overlap(sz->img, fn, a))
			sz->in_overlap++;
		if (fn) {
			*at_start = a == fn->addr;
			sz->last_off = a - fn->addr;
			sz->last_line_left = RANGES_GAP - (a & (RANGES_GAP - 1));
		}
	} else {
		*why = PROF_DROP_UNKNOWN;
		return SZ_NONE;
	}
	if (!fn) {
		*why = PROF_DROP_NOT_IN_IMAGE;
		return SZ_NONE;
	}
	return sz_func_id(sz, fn);
}

void symbolize_set_any_arch(struct symbolizer *sz, bool any_arch)
{
	sz->any_arch = any_arch;
}

void symbolize_set_window(struct symbolizer *sz, uint32_t n)
{
	free(sz->win_ids);
	free(sz->win_ext);
	win_ranges_free(sz);
	sz->win = n;
	sz->win_samples = sz->win_n = 0;
	/* labels do not count toward a window: room for as many again */
	sz->win_cap = 2 * n;
	sz->win_ids = n ? xmallocarray(sz->win_cap, sizeof(*sz->win_ids)) : NULL;
	sz->win_ext = n ? xmallocarray(2 * (size_t)sz->win_cap, sizeof(*sz->win_ext)) : NULL;
	sz->win_xr = n ? xcalloc(sz->win_cap, sizeof(*sz->win_xr)) : NULL;
	sz->win_whole = false;
}

/* The window is complete (or the input ended): its path and arcs. */
static void sz_window_flush(struct symbolizer *sz)
{
	uint32_t i;

	if (sz->win_n >= 2) {
		uint32_t prev = SZ_NONE;

		struct prof_trace *t = profile_add_trace(sz->prof, sz->win_ids, sz->win_n, 1);

		/* what this time ran of each function, so that the model
		 * replays this window's pages, not all its functions ran */
		profile_trace_extent_add(t, sz->win_ext, sz->win_xr, sz->win_whole);
		profile_add_seq(sz->prof, t);
		/* arcs between the functions that could move: over a label
		 * (the exception entry between a syscall's caller and handler) */
		for (i = 0; i < sz->win_n; i++) {
			uint32_t id = sz->win_ids[i];

			if (id < sz->cap_id_label && sz->id_label[id])
				continue;
			if (prev != SZ_NONE && prev != id)
				profile_add_edge(sz->prof, prev, id, sz->win_samples);
			prev = id;
		}
	}
	sz->win_samples = sz->win_n = 0;
	sz->win_whole = false;
}

/* One resolved sample of an address list joins the window: function @id
 * at byte @off of it (UINT64_MAX: no offset), @line_left bytes before the
 * end of its RANGES_GAP line (0: its address is not known). */
static void sz_window_add(struct symbolizer *sz, uint32_t id, uint64_t off, uint64_t line_left)
{
	uint32_t i;

	for (i = 0; i < sz->win_n && sz->win_ids[i] != id; i++)
		;
	if (i == sz->win_n && sz->win_n < sz->win_cap) {
		sz->win_ids[sz->win_n++] = id;
		sz->win_ext[2 * i] = sz->win_ext[2 * i + 1] = 0;
		sz->win_xr[i].n = 0;	/* its room kept for the next window */
	}
	if (i < sz->win_n) {
		/* as profile_add_weight_at(): past 4 GiB is no function's */
		uint64_t hi = off + (line_left ? line_left : 1);

		/* from the sample to the end of its line: the most a stream of
		 * block entries says ran there (what the I-cache fetched of it) */
		if (hi >= UINT32_MAX) {
			sz->win_whole = true;
		} else {
			extent_widen(&sz->win_ext[2 * i], &sz->win_ext[2 * i + 1], (uint32_t)off,
				     (uint32_t)hi);
			ranges_add(&sz->win_xr[i], (uint32_t)off, (uint32_t)hi);
		}
	}
	/* a label's samples join the window but do not count toward its
	 * length: the windows (and their arcs) stay those of the code
	 * around it */
	if (id < sz->cap_id_label && sz->id_label[id])
		return;
	if (++sz->win_samples == sz->win)
		sz_window_flush(sz);
}

static uint32_t *sz_ids(struct symbolizer *sz, size_t n)
{
	if (n > sz->capids)
		XGROW(sz->ids, sz->capids, n);
	if (n > sz->captrace)
		XGROW(sz->trace, sz->captrace, n);
	return sz->ids;
}

static void sz_count(struct symbolizer *sz, bool matched, enum prof_drop why)
{
	sz->prof->nsamples++;
	if (matched)
		sz->prof->matched++;
	else
		sz->prof->dropped[why]++;
}

/* A sampled stack, leaf first. */
static void sz_stack(struct symbolizer *sz, const struct hp_event *ev)
{
	enum prof_drop why = PROF_DROP_UNKNOWN, w0 = PROF_DROP_UNKNOWN;
	uint32_t *ids = sz_ids(sz, ev->nframes + 1), *tr = sz->trace;
	uint64_t off0 = UINT64_MAX, line0 = 0;
	size_t i, nt = 0;
	bool at;

	for (i = 0; i < ev->nframes; i++) {
		ids[i] = sz_resolve(sz, &ev->frames[i], &why, &at);
		if (i == 0) {
			off0 = sz->last_off;
			line0 = sz->last_line_left;
		}
		if (ids[i] == SZ_NONE) {
			sz->dropped_frames[why]++;
			if (i == 0)
				w0 = why;
		}
	}
	if (!ev->nframes || ids[0] == SZ_NONE) {
		sz_count(sz, false, w0);
	} else {
		sz_count(sz, true, w0);
		/* the sampled IP says which of the function's bytes ran */
		if (off0 != UINT64_MAX)
			profile_add_weight_at(sz->prof, ids[0], ev->weight, off0);
		else
			profile_add_weight(sz->prof, ids[0], ev->weight);
		if (sz->win && ev->nframes == 1)
			sz_window_add(sz, ids[0], off0, line0);
	}
	for (i = 0; i + 1 < ev->nframes; i++)
		if (ids[i] != SZ_NONE && ids[i + 1] != SZ_NONE && ids[i] != ids[i + 1])
			profile_add_edge(sz->prof, ids[i + 1], ids[i], ev->weight);
	for (i = ev->nframes; i-- > 0;) {
		if (ids[i] == SZ_NONE || (nt && tr[nt - 1] == ids[i]))
			continue;
		tr[nt++] = ids[i];
	}
	/* a stack says what called what, not which bytes ran */
	if (nt >= 2)
		profile_trace_extent_add(profile_add_trace(sz->prof, tr, (uint32_t)nt, ev->weight),
					 NULL, NULL, true);
}

/* Room for call-tree depth @d. No depth is cut: the ftrace reader's lines
 * (1 MiB at most) bound it to half a million. */
static void sz_depth_room(struct symbolizer *sz, uint32_t d)
{
	size_t old = sz->depth_cap, cap = old;

	if (d < old)
		return;
	while (cap <= d)
		cap *= 2;
	sz->depth_id = xreallocarray(sz->depth_id, cap, sizeof(*sz->depth_id));
	sz->depth_ok = xreallocarray(sz->depth_ok, cap, sizeof(*sz->depth_ok));
	memset(sz->depth_ok + old, 0, (cap - old) * sizeof(*sz->depth_ok));
	sz->depth_cap = cap;
}

/* An ftrace call tree: entries in order, with depths (0 = root). */
static void sz_tree(struct symbolizer *sz, const struct hp_event *ev)
{
	enum prof_drop why = PROF_DROP_UNKNOWN, w0 = PROF_DROP_UNKNOWN;
	uint32_t *tr, id, d, maxd = 0;
	size_t i, nt = 0;
	bool at;

	sz_ids(sz, ev->nframes + 1);
	tr = sz->trace;
	for (i = 0; i < ev->nframes; i++) {
		d = ev->frames[i].depth;
		id = sz_resolve(sz, &ev->frames[i], &why, &at);
		if (id == SZ_NONE) {
			sz->dropped_frames[why]++;
			sz->tree_missing += why == PROF_DROP_NOT_IN_IMAGE;
			if (!nt && i == 0)
				w0 = why;
		} else {
			sz->tree_matched++;
		}
		sz_depth_room(sz, d);
		/* entries deeper than d belong to finished calls */
		while (maxd > d)
			sz->depth_ok[maxd--] = false;
		if (id != SZ_NONE) {
			profile_add_weight(sz->prof, id, ev->weight);
			if (d > 0 && sz->depth_ok[d - 1] && sz->depth_id[d - 1] != SZ_NONE &&
			    sz->depth_id[d - 1] != id)
				profile_add_edge(sz->prof, sz->depth_id[d - 1], id, ev->weight);
			tr[nt++] = id;
		}
		sz->depth_id[d] = id;
		sz->depth_ok[d] = true;
		if (d > maxd)
			maxd = d;
	}
	for (d = 0; d <= maxd; d++)
		sz->depth_ok[d] = false;
	sz_count(sz, nt > 0, w0);
	if (nt) {
		struct prof_trace *t = profile_add_trace(sz->prof, tr, (uint32_t)nt, ev->weight);

		t->traced = true;
		profile_trace_extent_add(t, NULL, NULL, true);	/* names, no offsets */
	}
}

/* An LBR entry: a call when the target is a function's first byte. */
static void sz_branch(struct symbolizer *sz, const struct hp_event *ev)
{
	enum prof_drop why = PROF_DROP_UNKNOWN;
	uint32_t from, to;
	bool at_from, at_to;

	if (ev->nframes < 2)
		return;
	to = sz_resolve(sz, &ev->frames[1], &why, &at_to);
	if (to == SZ_NONE) {
		sz->dropped_frames[why]++;
		if (!sz->rec_matched && sz->rec_why == PROF_DROP_NR)
			sz->rec_why = why;
		return;
	}
	sz->rec_matched = true;	/* the record is this kernel's */
	if (!at_to)
		return;	/* a return or a jump inside a function: not a call */
	profile_add_weight(sz->prof, to, ev->weight);
	from = sz_resolve(sz, &ev->frames[0], &why, &at_from);
	if (from == SZ_NONE)
		sz->dropped_frames[why]++;
	else if (from != to)
		profile_add_edge(sz->prof, from, to, ev->weight);
}

/* The LBR record being read is complete: count it as one sample. */
static void sz_record_close(struct symbolizer *sz)
{
	if (!sz->rec_open)
		return;
	sz->rec_open = false;
	sz_count(sz, sz->rec_matched,
		 sz->rec_why == PROF_DROP_NR ? PROF_DROP_UNKNOWN : sz->rec_why);
}

static void sz_process(struct symbolizer *sz, const struct hp_event *ev)
{
	if (ev->kind == HP_EV_BRANCH) {
		if (sz->rec_open && ev->line != sz->rec_line)
			sz_record_close(sz);
		if (!sz->rec_open) {
			sz->rec_open = true;
			sz->rec_matched = false;
			sz->rec_line = ev->line;
			sz->rec_why = PROF_DROP_NR;
			sz->nrecords++;
		}
		sz->nbranches++;
	} else if (sz->rec_open) {
		/* the record's own callchain (-g) counts the sample instead */
		if (ev->line == sz->rec_line)
			sz->rec_open = false;
		else
			sz_record_close(sz);
	}
	switch (ev->kind) {
	case HP_EV_STACK:
		sz_stack(sz, ev);
		break;
	case HP_EV_TRACE:
		sz_tree(sz, ev);
		break;
	case HP_EV_BRANCH:
		sz_branch(sz, ev);
		break;
	case HP_EV_RELEASE:	/* checked on arrival, never held */
	case HP_EV_BUILD_ID:
	case HP_EV_ARCH:
		break;
	}
}

static void sz_vote(struct symbolizer *sz, int64_t delta)
{
	size_t i;

	sz->nvoted++;
	for (i = 0; i < sz->nvotes; i++)
		if (sz->votes[i].delta == delta) {
			sz->votes[i].n++;
			return;
		}
	if (sz->nvotes >= 64)
		return;	/* noise: a real offset gathers its votes early */
	XGROW(sz->votes, sz->capvotes, sz->nvotes + 1);
	sz->votes[sz->nvotes].delta = delta;
	sz->votes[sz->nvotes].n = 1;
	sz->nvotes++;
}

/* A frame with symbol+offset and address votes for addr - (sym + off). */
static void sz_collect_vote(struct symbolizer *sz, const struct hp_frame *fr)
{
	const struct kfunc *fn;
	uint64_t a;

	if (!fr->has_addr || !fr->sym || !fr->has_off || fr->dso != HP_DSO_KERNEL)
		return;
	fn = kimage_find_func_by_name(sz->img, fr->sym);
	if (fn)
		a = fn->addr;
	else if (!kimage_symbol_addr(sz->img, fr->sym, &a))
		return;
	sz_vote(sz, (int64_t)(fr->addr - (a + fr->off)));
}

/* Hold a copy of an event (its frames and names) until the offset is known. */
static void sz_hold(struct symbolizer *sz, const struct hp_event *ev)
{
	struct sz_held *h;
	size_t i, n;

	XGROW(sz->held, sz->capheld, sz->nheld + 1);
	h = &sz->held[sz->nheld++];
	h->ev = *ev;
	h->first = sz->nheld_frames;
	if (sz->nheld_frames + ev->nframes > sz->capheld_frames) {
		XGROW(sz->held_frames, sz->capheld_frames, sz->nheld_frames + ev->nframes);
		sz->held_symat = xreallocarray(sz->held_symat, sz->capheld_frames,
					       sizeof(*sz->held_symat));
	}
	for (i = 0; i < ev->nframes; i++) {
		const struct hp_frame *fr = &ev->frames[i];
		size_t at = sz->nheld_frames++;

		sz->held_frames[at] = *fr;
		sz->held_symat[at] = SIZE_MAX;
		if (fr->sym) {
			n = strlen(fr->sym) + 1;
			if (sz->arenalen + n > sz->arenacap)
				XGROW(sz->arena, sz->arenacap, sz->arenalen + n);
			memcpy(sz->arena + sz->arenalen, fr->sym, n);
			sz->held_symat[at] = sz->arenalen;
			sz->arenalen += n;
		}
		sz_collect_vote(sz, fr);
	}
}

/* How many of the held kernel addresses resolve with offset @off. */
static size_t sz_probe(struct symbolizer *sz, int64_t off)
{
	size_t i, hits = 0, tried = 0;

	for (i = 0; i < sz->nheld_frames && tried < SZ_PROBE_ADDRS; i++) {
		const struct hp_frame *fr = &sz->held_frames[i];

		if (!fr->has_addr || fr->sym || fr->dso != HP_DSO_KERNEL ||
		    fr->addr < sz->user_below)
			continue;
		tried++;
		if (kimage_find_func_containing(sz->img, fr->addr - (uint64_t)off))
			hits++;
	}
	return hits;
}

/* sz_probe() for the bottom-half addresses. */
static size_t sz_probe_low(struct symbolizer *sz, int64_t off)
{
	size_t i, hits = 0, tried = 0;

	for (i = 0; i < sz->nheld_frames && tried < SZ_PROBE_ADDRS; i++) {
		const struct hp_frame *fr = &sz->held_frames[i];

		if (!fr->has_addr || fr->sym || fr->dso != HP_DSO_KERNEL ||
		    fr->addr >= sz->user_below)
			continue;
		tried++;
		if (kimage_find_func_containing(sz->img, fr->addr - (uint64_t)off))
			hits++;
	}
	return hits;
}

/*
 * Bare addresses in the bottom half given for a kernel are user-space
 * samples, unless they are vmlinux-relative: then one offset, minus the
 * image's own _text or _stext, resolves nearly all of them. Any other shift
 * is not tried there: text is so dense that random addresses resolve too.
 */
static bool sz_settle_relative(struct symbolizer *sz)
{
	static const char *const bases[] = { "_text", "_stext" };
	size_t i, low = 0, hits;
	int64_t off;
	uint64_t base;

	if (!sz->user_below)
		return false;
	for (i = 0; i < sz->nheld_frames && low < SZ_PROBE_ADDRS; i++) {
		const struct hp_frame *fr = &sz->held_frames[i];

		if (fr->has_addr && !fr->sym && fr->dso == HP_DSO_KERNEL &&
		    fr->addr < sz->user_below)
			low++;
	}
	if (low < SZ_PROBE_MIN)
		return false;
	for (i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
		if (!kimage_symbol_addr(sz->img, bases[i], &base))
			continue;
		off = -(int64_t)base;
		hits = sz_probe_low(sz, off);
		if (hits * 10 >= low * 9) {
			sz->kaslr = off;
			sz->kaslr_detected = true;
			sz->user_below = 0;
			pr_info("%s: addresses are relative to %s (%zu of %zu resolve)", sz->name,
				bases[i], hits, low);
			return true;
		}
	}
	return false;
}

/*
 * Do the held bare kernel addresses fit the image at offset @off? A sampled
 * instruction pointer starts an instruction and a caller frame (a return
 * address) follows a call; shifted by a wrong offset, or from another
 * kernel, they land anywhere in the code, mostly mid-instruction and rarely
 * after a call. Dense text resolves them to some function all the same.
 */
struct sz_fit {
	size_t leaves, starts;		/* sampled IPs in a function; on an insn start */
	size_t callers, after_call;	/* caller frames in a function; after a call */
};

static bool sz_fit_frame(struct symbolizer *sz, const struct hp_frame *fr)
{
	return fr->has_addr && !fr->sym && fr->dso == HP_DSO_KERNEL && fr->addr >= sz->user_below;
}

/* What @a is in its function: see disasm_insn_at(); 0 without code. */
static unsigned int sz_insn_at(struct symbolizer *sz, const struct kfunc *fn, uint64_t a)
{
	const uint8_t *code = fn && fn->size ? kimage_bytes(sz->img, fn->addr, fn->size) : NULL;

	return code ? disasm_insn_at(sz->dis, code, fn->size, fn->addr, a) : 0;
}

/* Returns false when there is no disassembler for the image. */
static bool sz_fit(struct symbolizer *sz, int64_t off, struct sz_fit *f)
{
	const struct kimage *img = sz->img;
	size_t i, j;

	memset(f, 0, sizeof(*f));
	if (!sz->dis && (!disasm_supported(img->machine, img->elfclass) ||
			 disasm_open_arch(&sz->dis, img->machine, img->elfclass, img->big_endian)))
		return false;
	for (i = 0; i < sz->nheld; i++) {
		const struct sz_held *h = &sz->held[i];

		if (h->ev.kind != HP_EV_STACK)
			continue;
		for (j = 0; j < h->ev.nframes; j++) {
			const struct hp_frame *fr = &sz->held_frames[h->first + j];
			uint64_t a = fr->addr - (uint64_t)off;
			const struct kfunc *fn;

			if (!sz_fit_frame(sz, fr))
				continue;
			if (j == 0 && f->leaves < SZ_PROBE_ADDRS) {
				fn = kimage_find_func_containing(img, a);
				if (fn && kimage_bytes(img, fn->addr, fn->size)) {
					f->leaves++;
					f->starts += !!(sz_insn_at(sz, fn, a) & DISASM_AT_START);
				}
			} else if (j > 0 && f->callers < SZ_PROBE_ADDRS) {
				/* the call may be a function's last instruction */
				fn = kimage_find_func_containing(img, a - 1);
				if (fn && kimage_bytes(img, fn->addr, fn->size)) {
					f->callers++;
					f->after_call +=
						!!(sz_insn_at(sz, fn, a) & DISASM_AT_AFTER_CALL);
				}
			}
		}
	}
	return true;
}

/* Genuine samples: nearly every IP on an instruction start (x86; on the
 * fixed-width architectures every aligned address is one), most callers
 * after a call (interrupted contexts are not). */
static bool sz_fit_leaves_bad(const struct sz_fit *f)
{
	return f->leaves >= SZ_PROBE_MIN && f->starts * 4 < f->leaves * 3;
}

static bool sz_fit_callers_bad(const struct sz_fit *f)
{
	return f->callers >= SZ_PROBE_MIN && f->after_call * 2 < f->callers;
}

static bool sz_fits(struct symbolizer *sz, int64_t off)
{
	struct sz_fit f;

	return !sz_fit(sz, off, &f) || (!sz_fit_leaves_bad(&f) && !sz_fit_callers_bad(&f));
}

/* The offset settled, the error that says which check failed. */
static int sz_check_fit(struct symbolizer *sz)
{
	struct sz_fit f;
	char off[40];

	if (!sz_fit(sz, sz->kaslr, &f))
		return 0;
	pr_debug("%s: fit: %zu of %zu sampled addresses start an instruction, %zu of %zu "
		 "callers follow a call", sz->name, f.starts, f.leaves, f.after_call, f.callers);
	snprintf(off, sizeof(off), "%s%#" PRIx64, sz->kaslr < 0 ? "-" : "",
		 (uint64_t)llabs(sz->kaslr));
	if (sz_fit_callers_bad(&f)) {
		pr_err("%s: samples of another kernel, or a wrong KASLR offset: only %zu of %zu "
		       "caller frames follow a call instruction at offset %s (return addresses "
		       "do); give the vmlinux they were recorded on%s", sz->name, f.after_call,
		       f.callers, off, sz->kaslr_given ? " and check --kaslr-offset" : "");
		return -EINVAL;
	}
	if (sz_fit_leaves_bad(&f)) {
		pr_err("%s: samples of another kernel, or a wrong KASLR offset: only %zu of %zu "
		       "sampled addresses start an instruction at offset %s (sampled ones do); "
		       "give the vmlinux they were recorded on%s", sz->name, f.starts, f.leaves,
		       off, sz->kaslr_given ? " and check --kaslr-offset" : "");
		return -EINVAL;
	}
	return 0;
}

/* Choose the offset from the votes, or by aligning the bare addresses. */
static void sz_settle(struct symbolizer *sz)
{
	const struct kimage *img = sz->img;
	size_t i, best = 0, nprobe = 0;

	sz->kaslr_settled = true;
	if (sz->kaslr_given)
		return;
	if (sz->nvotes) {
		for (i = 1; i < sz->nvotes; i++)
			if (sz->votes[i].n > sz->votes[best].n ||
			    (sz->votes[i].n == sz->votes[best].n &&
			     llabs(sz->votes[i].delta) < llabs(sz->votes[best].delta)))
				best = i;
		/* A real relocation moves the whole kernel by whole pages and
		 * every frame agrees; a minority or an odd shift means the
		 * names matched by accident (another kernel or program). */
		if (sz->votes[best].n * 2 <= sz->nvoted || (sz->votes[best].delta & 0xfff)) {
			pr_warn("%s: the symbol+offset frames do not agree on a KASLR offset "
				"(at most %" PRIu64 " of %" PRIu64 " give the same page-aligned "
				"one); using 0: are the samples from this kernel? "
				"--kaslr-offset sets it", sz->name, sz->votes[best].n,
				sz->nvoted);
			return;
		}
		sz->kaslr = sz->votes[best].delta;
		sz->kaslr_detected = true;
		pr_info("%s: KASLR offset %s%#" PRIx64 " (from %" PRIu64 " of %" PRIu64
			" symbol+offset frames)", sz->name, sz->kaslr < 0 ? "-" : "",
			(uint64_t)llabs(sz->kaslr), sz->votes[best].n, sz->nvoted);
		return;
	}
	if (sz_settle_relative(sz))
		return;
	for (i = 0; i < sz->nheld_frames; i++)
		if (sz->held_frames[i].has_addr && !sz->held_frames[i].sym &&
		    sz->held_frames[i].dso == HP_DSO_KERNEL &&
		    sz->held_frames[i].addr >= sz->user_below)
			nprobe++;
	if (!nprobe || !img->nfuncs)
		return;
	{
		size_t hits0 = sz_probe(sz, 0), besthits = hits0, tried = 0, h, second = 0;
		int64_t bestoff = 0;
		int64_t step = (int64_t)img->arch->kaslr_align;
		uint64_t lo = img->funcs[0].addr;
		uint64_t hi = img->funcs[img->nfuncs - 1].addr + img->funcs[img->nfuncs - 1].size;

		if (nprobe > SZ_PROBE_ADDRS)
			nprobe = SZ_PROBE_ADDRS;
		/*
		 * The kernel moves in steps of the architecture's KASLR
		 * alignment (x86: CONFIG_PHYSICAL_ALIGN, 2 MiB). Candidates: the
		 * offsets that put a sampled address inside the image's text;
		 * most matching addresses wins, the smallest offset on ties.
		 * An architecture that is not probed gets offset 0.
		 */
		if (step && hits0 < nprobe) {
			for (i = 0; i < sz->nheld_frames && tried < 8; i++) {
				const struct hp_frame *fr = &sz->held_frames[i];
				int64_t o, olo, ohi;

				if (!fr->has_addr || fr->sym || fr->dso != HP_DSO_KERNEL ||
				    fr->addr < sz->user_below)
					continue;
				if (kimage_find_func_containing(img, fr->addr - (uint64_t)bestoff))
					continue;
				tried++;
				olo = (int64_t)(fr->addr - hi) / step;
				ohi = (int64_t)(fr->addr - lo) / step;
				if (ohi - olo > 4096)
					continue;	/* not a kernel address of this image */
				for (o = olo - 1; o <= ohi + 1; o++) {
					int64_t off = o * step;

					if (!off)
						continue;
					h = sz_probe(sz, off);
					if (off == bestoff)
						continue;
					if (h > besthits ||
					    (h == besthits && llabs(off) < llabs(bestoff))) {
						if (besthits > second)
							second = besthits;
						besthits = h;
						bestoff = off;
					} else if (h > second) {
						second = h;
					}
				}
			}
		}
		/*
		 * Text is nearly all functions, so any shift lands most addresses
		 * in some function: trust an alignment only when it resolves
		 * nearly all of enough addresses, clearly better than any other.
		 */
		pr_debug("%s: alignment: best %+" PRId64 " resolves %zu, next best %zu, "
			 "offset 0 %zu, of %zu", sz->name, bestoff, besthits, second, hits0,
			 nprobe);
		if (bestoff && (nprobe < SZ_PROBE_MIN || besthits * 10 < nprobe * 9 ||
				(besthits - second) * 20 < nprobe || !sz_fits(sz, bestoff)))
			bestoff = 0;
		sz->kaslr = bestoff;
		sz->kaslr_detected = bestoff != 0;
		if (bestoff)
			pr_info("%s: KASLR offset %s%#" PRIx64 " (by alignment: %zu of %zu "
				"addresses resolve, %zu without an offset)", sz->name,
				bestoff < 0 ? "-" : "", (uint64_t)llabs(bestoff), besthits,
				nprobe, hits0);
		else
			pr_info("%s: KASLR offset 0 (addresses used as linked: %zu of %zu "
				"resolve)", sz->name, hits0, nprobe);
	}
}

/* Settle the offset, check the fit, attribute the held events in order. */
static int sz_release(struct symbolizer *sz)
{
	size_t i;
	int err;

	sz_settle(sz);
	for (i = 0; i < sz->nheld_frames; i++)
		sz->held_frames[i].sym = sz->held_symat[i] == SIZE_MAX ?
						 NULL : sz->arena + sz->held_symat[i];
	err = sz_check_fit(sz);
	for (i = 0; i < sz->nheld && !err; i++) {
		struct hp_event ev = sz->held[i].ev;

		ev.frames = sz->held_frames + sz->held[i].first;
		sz_process(sz, &ev);
	}
	free(sz->held);
	free(sz->held_frames);
	free(sz->held_symat);
	free(sz->arena);
	sz->held = NULL;
	sz->held_frames = NULL;
	sz->held_symat = NULL;
	sz->arena = NULL;
	sz->nheld = sz->capheld = sz->nheld_frames = sz->capheld_frames = 0;
	sz->arenalen = sz->arenacap = 0;
	return err;
}

/* The release the input says it was recorded on, against the image's. */
static int sz_check_release(const struct symbolizer *sz, const struct hp_event *ev)
{
	char rel[128];

	if (!sz->img || !kimage_release(sz->img, rel, sizeof(rel)) || !strcmp(rel, ev->text))
		return 0;
	pr_err("%s:%zu: samples of another kernel: recorded on Linux %s (perf's '# os "
	       "release'), but %s is Linux %s; give the vmlinux of the kernel they were "
	       "recorded on", sz->name, ev->line, ev->text, sz->img->path, rel);
	return -EINVAL;
}

/* The architecture the input says it was recorded on, against the image's:
 * another one's addresses and names are other code. */
static int sz_check_arch(const struct symbolizer *sz, const struct hp_event *ev)
{
	const char *mine = sz->img ? sz->img->arch->name : NULL;

	if (!mine || !strcmp(mine, "unknown") || !strcmp(mine, ev->text))
		return 0;
	if (sz->any_arch) {
		pr_warn("%s:%zu: samples recorded on %s, used for %s's %s (--any-arch)",
			sz->name, ev->line, ev->text, sz->img->path, mine);
		return 0;
	}
	pr_err("%s:%zu: samples of another architecture: recorded on %s (perf's '# arch'), "
	       "but %s is %s; give the vmlinux of the kernel they were recorded on, or "
	       "--any-arch to use them anyway", sz->name, ev->line, ev->text, sz->img->path,
	       mine);
	return -EINVAL;
}

int symbolize_event(const struct hp_event *ev, void *ctx)
{
	struct symbolizer *sz = ctx;

	if (ev->kind == HP_EV_RELEASE)
		return sz_check_release(sz, ev);
	if (ev->kind == HP_EV_ARCH)
		return sz_check_arch(sz, ev);
	if (ev->kind == HP_EV_BUILD_ID)
		return sz->img ? build_check_id(sz->img, ev->text, sz->name, ev->line,
						"its [kernel.kallsyms] entry") : 0;

	if (!sz->kaslr_settled) {
		sz_hold(sz, ev);
		if (sz->nheld >= SZ_HOLD_EVENTS || sz->nheld_frames >= SZ_HOLD_FRAMES ||
		    sz->nvoted >= SZ_VOTES_ENOUGH)
			return sz_release(sz);
		return 0;
	}
	sz_process(sz, ev);
	return 0;
}

int symbolize_finish(struct symbolizer *sz)
{
	int err;

	if (!sz->kaslr_settled) {
		err = sz_release(sz);
		if (err)
			return err;
	}
	sz_record_close(sz);
	if (sz->win)
		sz_window_flush(sz);
	if (sz->in_overlap)
		pr_warn("%s: %" PRIu64 " sampled address%s fell where function symbols of %s "
			"overlap (one function's extent holds another's start); each went to "
			"the innermost function that holds it", sz->name, sz->in_overlap,
			sz->in_overlap == 1 ? "" : "es", sz->img->path);
	if (sz->nbranches)
		pr_info("%s: %" PRIu64 " LBR branch entr%s used, in %" PRIu64 " sample%s", sz->name,
			sz->nbranches, sz->nbranches == 1 ? "y" : "ies", sz->nrecords,
			sz->nrecords == 1 ? "" : "s");
	return 0;
}
