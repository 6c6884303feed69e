// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_emit.c - every output format on a hand-made image of four functions,
 * two of which are static functions of one name: one with a known object
 * file (qualified in ld scripts), one without (left out, never merged).
 */
#include "config.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit.h"
#include "image/image.h"
#include "layout/layout.h"
#include "tap.h"
#include "lib/warn.h"

static struct kfunc funcs[] = {
	{ .name = "ksys_read", .addr = 0x1000, .size = 200, .section = ".text.ksys_read",
	  .flags = KF_MOVABLE, .next_same_name = -1 },
	{ .name = "helper", .addr = 0x2000, .size = 50, .section = ".text.helper",
	  .object = "fs/a.o", .flags = KF_MOVABLE | KF_DUPNAME, .next_same_name = 2 },
	{ .name = "helper", .addr = 0x3000, .size = 50, .section = ".text.helper",
	  .flags = KF_MOVABLE | KF_DUPNAME, .next_same_name = -1 },
	{ .name = "vfs_read", .addr = 0x4000, .size = 300, .section = ".text.unlikely.vfs_read",
	  .flags = KF_MOVABLE, .next_same_name = -1 },
};

static char *run(struct kimage *img, enum emit_format fmt, size_t *left)
{
	struct cgraph *cg = cg_new(img);
	uint32_t order[4] = { 3, 0, 1, 2 };
	struct emit_info info = { .algo = "c3", .page_size = 4096 };
	char *buf = NULL;
	size_t len = 0, i, n;
	FILE *f = open_memstream(&buf, &len);

	for (i = 0; i < 4; i++)
		cg_add_node(cg, (uint32_t)i, funcs[i].size, 16, 1, true);
	cg_finish(cg);
	n = emit_filter(fmt, cg, order, 4);
	*left = 4 - n;
	emit_order(f, fmt, cg, order, n, &info);
	fclose(f);
	cg_free(cg);
	return buf;
}

/* the header's search: line for one outcome */
static char *search_line(int what, double gain, size_t nsizes,
			 const char *why)
{
	struct layout_search_outcome o = { .what = what, .gain_pct = gain, .nsizes = nsizes };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	snprintf(o.why, sizeof(o.why), "%s", why);
	emit_search_print(f, " * ", &o);
	fclose(f);
	return buf;
}

static void check_search_line(void)
{
	char *s;

	s = search_line(LAYOUT_SEARCH_KEPT, 4.44, 5, "");
	is_str(s, " * search: kept: 4.4% fewer misses in the model than the pick, "
		  "on average over its 5 TLB sizes\n", "search: kept, the gain over the sizes");
	free(s);
	s = search_line(LAYOUT_SEARCH_NOT_KEPT, -1.04, 1, "fewer misses by less than the margin");
	is_str(s, " * search: not kept (fewer misses by less than the margin): 1.0% more misses "
		  "in the model than the pick, at its one TLB size\n",
	       "search: a loss says more, one size no average");
	free(s);
	s = search_line(LAYOUT_SEARCH_NOT_KEPT, -0.01, 2, "no move lowered the misses");
	ok(strstr(s, ": 0.0% fewer misses") != NULL, "search: no -0.0");
	free(s);
	s = search_line(LAYOUT_SEARCH_NOT_RUN, 0, 0, "no paths to replay");
	is_str(s, " * search: not run: no paths to replay\n", "search: not run and why");
	free(s);
}

int main(void)
{
	struct kimage img = { .path = (char *)"vmlinux", .funcs = funcs,
			      .nfuncs = 4, .secnames = KSEC_MAP };
	size_t i, left;
	char *s;

	img.arch = hp_arch_lookup(EM_X86_64, ELFCLASS64);
	for (i = 0; i < 4; i++) {
		funcs[i].index = (uint32_t)i;
		if (i != 2)
			HASH_ADD_KEYPTR(hh_name, img.by_name, funcs[i].name,
					strlen(funcs[i].name), &funcs[i]);
	}
	hp_verbosity = 0;

	s = run(&img, EMIT_LDS, &left);
	ok(strstr(s, "/* hotpack ") == s, "lds: header comment first");
	ok(strstr(s, "\n. = ALIGN(4096);\n*(.text.unlikely.vfs_read)\n*(.text.ksys_read)\n"
		     "*:fs/a.o(.text.helper) :fs/a.o(.text.helper)\n") != NULL, "lds: order, alignment, qualified name");
	is_int(left, 1, "lds: the unqualifiable helper left out");
	ok(!strstr(s, "//"), "lds: only /* */ comments");
	free(s);

	s = run(&img, EMIT_GOLD, &left);
	is_str(s, ".text.unlikely.vfs_read\n.text.ksys_read\n.text*\n",
	       "gold: section names only, then the catch-all that puts them first");
	is_int(left, 2, "gold: both helpers left out (no object patterns)");
	free(s);

	s = run(&img, EMIT_LLD, &left);
	is_str(s, "vfs_read\nksys_read\n", "lld: symbols, shared names left out");
	free(s);

	s = run(&img, EMIT_LD_SECTION_ORDERING, &left);
	ok(strstr(s, ".text : {\n\t*(.text.unlikely.vfs_read)\n\t*(.text.ksys_read)\n") &&
	   strstr(s, "}\n"), "ld-section-ordering: an output-section body");
	free(s);

	s = run(&img, EMIT_LIST, &left);
	ok(strstr(s, "# hotpack") == s && strstr(s, "\nvfs_read\nksys_read\nhelper\nhelper\n"),
	   "list: names with a # header");
	free(s);

	check_search_line();
	is_int(emit_format_from_name("gold"), EMIT_GOLD, "format by name");
	is_int(emit_format_from_name("nope"), -1, "unknown format");
	HASH_CLEAR(hh_name, img.by_name);
	return done_testing();
}
