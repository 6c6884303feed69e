// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_place.c - addresses from an order, worked out by hand: alignment
 * padding, nodes left out of the order, the byte cap, and where the rest of
 * the text lands when an order is relinked as the hot region.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "graph/graph.h"
#include "image/image.h"
#include "place/place.h"
#include "tap.h"

static void check_order(void)
{
	struct cgraph *cg = cg_new(NULL);
	uint32_t order[3] = { 0, 1, 2 }, rev[2] = { 2, 1 };
	uint64_t addr[3];

	cg_add_node(cg, 0, 100, 16, 5, true);
	cg_add_node(cg, 1, 4000, 64, 5, true);
	cg_add_node(cg, 2, 10, 16, 5, true);
	cg_finish(cg);
	/* 0 at 0..100; 1 aligned to 128..4128; 2 aligned to 4128..4138 */
	is_u64(place_order(cg, order, 3, 0, addr), 4138, "end after padding");
	is_u64(addr[0], 0, "the first node at the base");
	is_u64(addr[1], 128, "64-byte alignment pads");
	is_u64(addr[2], 4128, "16-byte alignment");
	/* from 0x1000: 2 at 0x1000..0x100a, 1 aligned to 0x1040..0x1fe0 */
	is_u64(place_order(cg, rev, 2, 0x1000, addr), 0x1fe0, "another order, another base");
	is_u64(addr[1], 0x1040, "padded after the 10-byte node");
	is_u64(addr[0], UINT64_MAX, "a node not in the order has no address");
	is_u64(place_order(cg, order, 0, 0x1000, addr), 0x1000, "an empty order ends at the base");
	is_int(place_fit_bytes(cg, order, 3, 0), 3, "no cap: all fit");
	is_int(place_fit_bytes(cg, order, 3, 4138), 3, "the cap counts the padding: exactly full");
	is_int(place_fit_bytes(cg, order, 3, 4137), 2, "one byte short: the last is cut");
	is_int(place_fit_bytes(cg, order, 3, 4127), 1, "the padding before 1 counts");
	is_int(place_fit_bytes(cg, order, 3, 99), 0, "nothing fits");
	place_as_linked(cg, addr);
	is_u64(addr[0], UINT64_MAX, "with no image, no linked address");
	cg_free(cg);
}

/*
 * n0 3000 B @0x10000, n1 2000 B @0x20000, n2 1000 B @0x10c00, n3 5000 B
 * @0x30800, all 16-byte aligned. Relink n3 then n1 as the hot region.
 */
static void check_relink(void)
{
	static const uint64_t addr0[4] = { 0x10000, 0x20000, 0x10c00, 0x30800 };
	struct cgraph *cg = cg_new(NULL);
	uint32_t order[2] = { 3, 1 };
	uint64_t a[4], end;

	cg_add_node(cg, 0, 3000, 16, 6, true);
	cg_add_node(cg, 1, 2000, 16, 3, true);
	cg_add_node(cg, 2, 1000, 16, 0, true);
	cg_add_node(cg, 3, 5000, 16, 1, true);
	cg_finish(cg);
	end = place_relink(cg, addr0, order, 2, 0x10000, 4096, a);
	is_u64(a[3], 0x10000, "n3 first at the page-aligned insert point");
	is_u64(a[1], 0x11390, "n1 after it at 16-byte alignment");
	is_u64(end, 0x11b60, "the hot region ends at 0x11b60");
	is_u64(a[0], 0x10000 + 0x1b60, "n0 shifted by the hot region (nothing moved from below it)");
	is_u64(a[2], 0x10c00 + 0x1b60, "n2 shifted the same");
	end = place_relink(cg, addr0, order, 2, 0x20000, 4096, a);
	is_u64(end, 0x21b60, "the hot region from the new insert point");
	is_u64(a[0], 0x10000, "below the insert point nothing moves");
	is_u64(a[2], 0x10c00, "nor n2");
	is_u64(a[3], 0x20000, "n3 at the new insert point");
	end = place_relink(cg, addr0, order, 2, 0x10001, 4096, a);
	is_u64(a[3], 0x11000, "the insert point is aligned up to the page");
	is_u64(end, 0x12b60, "the region ends 0x1b60 after it");
	is_u64(a[0], 0x10000, "a node below the insert point stays");
	is_u64(a[2], 0x10c00 + 0x12b60 - 0x10001, "n2 shifted by the region from the insert point");
	/* n1 alone (2000 B = 0x7d0) from 0x10000: n3 sat above it, so moves
	 * by the region less the bytes that left from below it. */
	end = place_relink(cg, addr0, &order[1], 1, 0x10000, 4096, a);
	is_u64(end, 0x107d0, "n1 alone: 0x7d0 bytes");
	is_u64(a[0], 0x10000 + 0x7d0, "n0 shifted by the region");
	is_u64(a[3], 0x30800, "n3: the region less the bytes n1 left below it, 0");
	cg_free(cg);
}

/*
 * With the image, the rest is laid out as the linker does (16-byte
 * alignment, page 0x1000, the region inserted at 0x1000):
 *   a @0x1000 0x100, b @0x1100 0x38, c @0x1140 0x20, 0x30 bytes no symbol
 *   names, d @0x1190 0x10, then the script's ALIGN(0x1000): e @0x2000 0x40
 *   with e_in inside it at 0x2010, h @0x2040 0x40, i @0x2080 0x10.
 * Relink h alone: the region 0x1000..0x1040; a at 0x1040, b 0x1140, c
 * 0x1180 (b's end 0x1178, aligned), the 0x30 bytes, d 0x11d0; e stays at
 * 0x2000 (the ALIGN takes the 0x40 back), e_in 0x2010; i takes h's place
 * 0x2040.
 */
static const struct kfunc relink_image[8] = {
	{ .name = "a", .addr = 0x1000, .size = 0x100, .align = 16, .outer = -1 },
	{ .name = "b", .addr = 0x1100, .size = 0x38, .align = 16, .outer = -1 },
	{ .name = "c", .addr = 0x1140, .size = 0x20, .align = 16, .outer = -1 },
	{ .name = "d", .addr = 0x1190, .size = 0x10, .align = 16, .outer = -1 },
	{ .name = "e", .addr = 0x2000, .size = 0x40, .align = 16, .outer = -1 },
	{ .name = "e_in", .addr = 0x2010, .size = 0x8, .align = 16, .outer = 4 },
	{ .name = "h", .addr = 0x2040, .size = 0x40, .align = 16, .outer = -1 },
	{ .name = "i", .addr = 0x2080, .size = 0x10, .align = 16, .outer = -1 },
};

/* relink_image's functions in @f, movable, each a graph node of @img */
static struct cgraph *relink_graph(struct kimage *img, struct kfunc *f)
{
	struct cgraph *cg = cg_new(img);

	memcpy(f, relink_image, sizeof(relink_image));
	for (uint32_t i = 0; i < 8; i++) {
		f[i].index = i;
		f[i].flags = KF_MOVABLE;
		cg_add_node(cg, i, f[i].size, 16, 1, true);
	}
	cg_finish(cg);
	return cg;
}

static void check_relink_image(void)
{
	struct kfunc f[8];
	struct kimage img = { .funcs = f, .nfuncs = 8 };
	struct cgraph *cg = relink_graph(&img, f);
	uint64_t orig[8], a[8];
	uint32_t order[1] = { 6 };

	place_as_linked(cg, orig);
	is_u64(place_relink(cg, orig, order, 1, 0x1000, 4096, a), 0x1040, "image: the region");
	is_u64(a[6], 0x1000, "image: h first");
	is_u64(a[0], 0x1040, "image: a after it");
	is_u64(a[2], 0x1180, "image: c at its alignment after b");
	is_u64(a[3], 0x11d0, "image: the bytes no symbol names kept before d");
	is_u64(a[4], 0x2000, "image: e where the script's alignment puts it");
	is_u64(a[5], 0x2010, "image: e_in inside e, with it");
	is_u64(a[7], 0x2040, "image: i takes h's place");
	/* the gap before e is the link map's symbol-less sections, not the
	 * script's ALIGN, though they end on a page: kept as bytes, e 0x40 on */
	f[4].flags |= KF_BYTES_BEFORE;
	place_relink(cg, orig, order, 1, 0x1000, 4096, a);
	is_u64(a[4], 0x2040, "image: e after the gap's bytes, kept, when the map shows sections there");
	is_u64(a[5], 0x2050, "image: e_in with it");
	is_u64(a[7], 0x2080, "image: i right after e");
	f[4].flags &= ~KF_BYTES_BEFORE;
	/* b and d in the region: d's 0x30 bytes stay, b's pad goes */
	order[0] = 1;
	is_u64(place_relink(cg, orig, order, 1, 0x1000, 4096, a), 0x1038, "image: b alone");
	is_u64(a[0], 0x1040, "image: a aligned after b (was 0x1038 unaligned)");
	is_u64(a[2], 0x1140, "image: c back where it was");
	cg_free(cg);
}

/*
 * An order file's functions (image functions, not graph nodes), on the
 * image of check_relink_image(): the same layout as place_relink() for the
 * same order; a function inside another moves with it; one listed twice
 * goes once; one that cannot move, or lies below the insert point, stays.
 */
static void check_relink_funcs(void)
{
	struct kfunc f[8];
	struct kimage img = { .funcs = f, .nfuncs = 8 };
	struct cgraph *cg = relink_graph(&img, f);
	uint64_t orig[8], a[8], at[8];
	uint32_t order[1] = { 6 }, h[2] = { 6, 6 }, in[1] = { 5 }, bh[2] = { 1, 6 }, ah[2] = { 0, 6 };
	bool same = true;

	place_as_linked(cg, orig);
	place_relink(cg, orig, order, 1, 0x1000, 4096, a);
	is_u64(place_relink_funcs(&img, h, 1, 0x1000, 4096, at), 0x1040, "funcs: h's region");
	for (uint32_t i = 0; i < 8; i++)
		same &= at[i] == a[i];
	ok(same, "funcs: every function where place_relink() puts it for the same order");
	is_u64(place_relink_funcs(&img, h, 2, 0x1000, 4096, at), 0x1040,
	       "funcs: h listed twice is placed once");
	is_u64(at[7], 0x2040, "funcs: and i still takes h's place");
	is_u64(place_relink_funcs(&img, in, 1, 0x1000, 4096, at), 0x1040,
	       "funcs: e_in listed moves e, the function it lies in, whole");
	is_u64(at[4], 0x1000, "funcs: e at the region's start");
	is_u64(at[5], 0x1010, "funcs: e_in inside it");
	f[1].flags = 0;
	is_u64(place_relink_funcs(&img, bh, 2, 0x1000, 4096, at), 0x1040,
	       "funcs: b cannot move, the region holds h alone");
	is_u64(at[1], 0x1140, "funcs: b laid out with the rest, after a");
	f[1].flags = KF_MOVABLE;
	is_u64(place_relink_funcs(&img, ah, 2, 0x1100, 4096, at), 0x2040,
	       "funcs: the region at the insert point aligned up to the page");
	is_u64(at[0], 0x1000, "funcs: a lies below the insert point and stays");
	is_u64(at[6], 0x2000, "funcs: h first in the region");
	cg_free(cg);
}

int main(void)
{
	check_order();
	check_relink();
	check_relink_image();
	check_relink_funcs();
	return done_testing();
}
