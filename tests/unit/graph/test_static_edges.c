// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_static_edges.c - the call graph's static arcs of an object's plain
 * .text moved whole as one unit, on this test program itself
 * (/proc/self/exe): the section's second function calls a hot function
 * outside the unit, and that function calls the second back. Both calls are
 * arcs of the unit's node, whichever of its functions makes or takes them;
 * the calls within the unit (each of its functions calls the other) are
 * none. The offsets of ue_second's samples are the unit's from where
 * ue_second lies in it.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph/graph.h"
#include "image/image.h"
#include "profile/profile.h"
#include "sections/linkmap.h"
#include "tap.h"

/* Never run, only read: ue_first and ue_second are one assembly object's
 * plain .text, ue_out a function of its own section. */
#if defined(__x86_64__)
#define UE_CALL "call"
#define UE_RET "ret"
#elif defined(__aarch64__)
#define UE_CALL "bl"
#define UE_RET "ret"
#endif

#ifdef UE_CALL
__asm__(".pushsection .text\n"
	".type ue_first, %function\n"
	"ue_first:\n"
	UE_CALL " ue_second\n"
	UE_RET "\n"
	".size ue_first, .-ue_first\n"
	".type ue_second, %function\n"
	"ue_second:\n"
	UE_CALL " ue_out\n"
	UE_CALL " ue_first\n"
	UE_RET "\n"
	".size ue_second, .-ue_second\n"
	".popsection\n"
	".pushsection .text.ue_out, \"ax\", %progbits\n"
	".type ue_out, %function\n"
	"ue_out:\n"
	UE_CALL " ue_second\n"
	UE_RET "\n"
	".size ue_out, .-ue_out\n"
	".popsection\n");
#endif

/* A link map: ue_first..ue_second one object's .text, ue_out alone. */
static int read_map(struct kimage *img, const struct kfunc *lo, uint64_t size,
		    const struct kfunc *out)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len), *in;
	int err = -1;

	if (!f)
		return -1;
	fprintf(f, "Linker script and memory map\n\n"
		   ".text           0x%" PRIx64 "   0x%" PRIx64 "\n"
		   " *(.text .text.*)\n"
		   " .text          0x%016" PRIx64 "       0x%" PRIx64 " arch/x/lib/copy.o\n"
		   " .text.ue_out   0x%016" PRIx64 "       0x%" PRIx64 " tests/out.o\n"
		   "\nOUTPUT(test elf64)\n",
		lo->addr, size, lo->addr, size, out->addr, out->size);
	fclose(f);
	in = fmemopen(buf, len, "r");
	if (in) {
		err = linkmap_read_stream(img, in, "unit.map");
		fclose(in);
	}
	free(buf);
	return err;
}

/* The weight of the arc @src -> @dst, 0 if there is none. */
static uint64_t arc_weight(const struct cgraph *cg, uint32_t src, uint32_t dst)
{
	for (size_t i = 0; i < cg->narcs; i++)
		if (cg->arcs[i].src == src && cg->arcs[i].dst == dst)
			return cg->arcs[i].weight;
	return 0;
}

static void check_unit_arcs(void)
{
	struct kimage *img = NULL;
	struct kfunc *first, *second, *out;
	struct profile *prof = NULL;
	struct cgraph *cg = NULL;
	uint32_t u, o;

	if (!ok(!kimage_open(&img, "/proc/self/exe"), "the test program opens as an image"))
		return;
	first = kimage_find_func_by_name(img, "ue_first");
	second = kimage_find_func_by_name(img, "ue_second");
	out = kimage_find_func_by_name(img, "ue_out");
	if (!ok(first && second && out && first->addr < second->addr,
		"ue_first, then ue_second, and ue_out found"))
		goto done;
	is_int(read_map(img, first, second->addr + second->size - first->addr, out), 0,
	       "the map reads");
	if (!ok((first->flags & KF_UNIT) && (second->flags & KF_IN_UNIT) &&
		second->unit == first->index && (out->flags & KF_MOVABLE),
		"ue_first stands for the unit, ue_second is in it, ue_out alone"))
		goto done;
	/* samples in both outside the unit's first function: no chains */
	prof = profile_new();
	profile_add_weight(prof, profile_func_id(prof, "ue_second"), 5);
	profile_add_weight(prof, profile_func_id(prof, "ue_out"), 10);
	if (!ok(!cg_build(&cg, img, prof, &(struct cg_opts){ .static_edges = true,
							      .static_edge_weight = 1 }),
		"the graph builds with static edges"))
		goto done;
	is_int(cg->nnodes, 2, "two nodes: the unit and ue_out");
	u = cg->node_of_func[first->index];
	o = cg->node_of_func[out->index];
	ok(u != UINT32_MAX && o != UINT32_MAX && cg->nodes[u].func == first->index,
	   "ue_second's samples are the unit's node's");
	is_u64(cg->nodes[u].weight, 5, "with their weight");
	is_u64(arc_weight(cg, u, o), 1, "ue_second's call to ue_out: an arc from the unit");
	is_u64(arc_weight(cg, o, u), 1, "ue_out's call to ue_second: an arc to the unit");
	is_u64(arc_weight(cg, u, u), 0, "the calls between ue_first and ue_second: no arc");
	is_int(cg->narcs, 2, "and no other");

	/* offsets: ue_second's are the unit's node's from where ue_second
	 * lies in it, for the node's extent as for a window's; ue_first and
	 * ue_second in a row are one position of the path, their union */
	cg_free(cg);
	cg = NULL;
	profile_free(prof);
	prof = profile_new();
	{
		uint32_t d = (uint32_t)(second->addr - first->addr), lo, hi;
		uint32_t f1 = profile_func_id(prof, "ue_first"), f2 = profile_func_id(prof, "ue_second");
		uint32_t fo = profile_func_id(prof, "ue_out"), ids[3] = { f1, f2, fo };
		uint32_t ext[6] = { 0, 1, 1, 2, 0, 1 };
		struct cg_path *p;

		profile_add_weight_at(prof, f2, 5, 1);
		profile_add_weight_at(prof, fo, 1, 0);
		profile_trace_extent_add(profile_add_trace(prof, ids, 3, 1), ext, NULL, false);
		if (!ok(!cg_build(&cg, img, prof, NULL), "the graph builds from a window's extents"))
			goto done;
		u = cg->node_of_func[first->index];
		o = cg->node_of_func[out->index];
		is_u64(cg->nodes[u].hot_off, d + 1, "the unit's extent: ue_second's offset in it");
		is_u64(cg->nodes[u].hot_len, 1, "... one byte");
		p = cg->npaths == 1 ? &cg->paths[0] : NULL;
		ok(p && p->n == 2 && p->nodes[0] == u && p->nodes[1] == o && p->ext,
		   "the window: the unit, then ue_out, with extents");
		if (p && p->ext) {
			lo = p->ext[0];
			hi = p->ext[1];
			ok(lo == 0 && hi == d + 2, "ue_first's and ue_second's bytes: one union in the unit");
			ok(p->ext[2] == 0 && p->ext[3] == 1, "ue_out's as sampled");
		}
	}
done:
	cg_free(cg);
	profile_free(prof);
	kimage_close(img);
}

int main(void)
{
#ifndef UE_CALL
	printf("1..0 # SKIP no call instruction written here for this host\n");
	return 0;
#endif
	check_unit_arcs();
	return done_testing();
}
