// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_image.c - the ELF model on a fixture built at test time:
 *   test_image DIR ARCH le|be
 * where DIR holds hotcold (linked, with hotcold.map) and hotcold.o from
 * tests/fixtures/build.sh. Checks architecture and byte order, functions and
 * their extents, movability from the map (the sections stage) and from the
 * object, the two static functions named same_name kept apart, lookups by
 * name and address, and the fallback when no map is given.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "image/image.h"
#include "tap.h"
#include "lib/warn.h"
#include "sections/sections.h"
#include "sections/srcfile.h"

static void check_linked(const char *dir, const char *arch, bool be)
{
	char path[4096], map[4096], buf[256];
	struct sections_opts o = { 0 };
	struct kimage *img;
	struct kfunc *a, *b, *s, *s2;
	uint64_t v;

	snprintf(path, sizeof(path), "%s/hotcold", dir);
	snprintf(map, sizeof(map), "%s/hotcold.map", dir);
	o.map_path = map;
	is_int(kimage_open(&img, path), 0, "linked image opens");
	if (!img)
		return;
	a = kimage_find_func_by_name(img, "hot_a");
	ok(a && !a->section && !(a->flags & KF_MOVABLE) && img->secnames == KSEC_NONE,
	   "opening reads the ELF only: no section names yet");
	is_int(sections_name(img, &o), 0, "section names read from its map");
	is_str(img->arch->name, arch, "architecture");
	is_int(img->big_endian, be, "byte order");
	is_int(img->secnames, KSEC_MAP, "section names from the map");
	a = kimage_find_func_by_name(img, "hot_a");
	b = kimage_find_func_by_name(img, "cold_1");
	ok(a && b, "hot_a and cold_1 found");
	if (!a || !b)
		goto out;
	is_str(a->section, ".text.hot_a", "hot_a's input section");
	ok(a->flags & KF_MOVABLE, "hot_a may move");
	ok(a->object && strstr(a->object, "hotcold.o"), "hot_a's object from the map");
	ok(b->size >= 3000, "cold_1 holds its padding");
	ok(kimage_find_func_containing(img, a->addr + a->size - 1) == a,
	   "address lookup: last byte of hot_a");
	ok(kimage_find_func_containing(img, b->addr + 100) == b, "address lookup inside cold_1");
	ok(kimage_find_func_containing(img, 1) == NULL, "address lookup outside any function");
	ok(kimage_bytes(img, a->addr, a->size) != NULL, "hot_a's code bytes");
	s = kimage_find_func_by_name(img, "same_name");
	ok(s && (s->flags & KF_DUPNAME), "same_name flagged as not unique");
	s2 = s && s->next_same_name >= 0 ? &img->funcs[s->next_same_name] : NULL;
	ok(s2 && s2 != s && s2->addr != s->addr, "both static same_name functions kept");
	if (s && s2) {
		char k1[256];

		snprintf(k1, sizeof(k1), "%s", kfunc_key(img, s, buf, sizeof(buf)));
		ok(strcmp(k1, kfunc_key(img, s2, buf, sizeof(buf))) != 0,
		   "the two same_name keys differ");
		ok(kimage_find_func_by_key(img, k1) == s, "key leads back to its function");
		ok(strstr(k1, "hotcold.o") != NULL, "key qualified by the object file");
	}
	ok(kimage_symbol_addr(img, "sink", &v), "data symbol address");
	s = kimage_find_func_by_name(img, "asm_entry");
	ok(s && (s->flags & KF_ASM) && !(s->flags & KF_MOVABLE) && s->size >= 4,
	   "untyped assembly entry: a function that never moves");
	ok(!kimage_find_func_by_name(img, "__asm_entry_end"), "region marker is not code");
	s = kimage_find_func_by_name(img, "asm_local");
	ok(s && (s->flags & KF_ASM) && !(s->flags & KF_MOVABLE) && s->size >= 4,
	   "a local label with a size: code of its own, that never moves");
	ok(!kimage_find_func_by_name(img, "asm_local_place"),
	   "a local label without one: a place inside other code");
	s = kimage_find_func_by_name(img, "head_vector");
	ok(s && (s->flags & KF_ASM) && !(s->flags & KF_MOVABLE),
	   "a local label in .head.text: an exception vector, code of its own");
	is_int(kimage_find_func_by_name(img, "no_such_function") == NULL, 1, "unknown name");
out:
	kimage_close(img);
}

static void check_object(const char *dir)
{
	char path[4096];
	struct kimage *img;
	struct kfunc *f;

	snprintf(path, sizeof(path), "%s/hotcold.o", dir);
	if (kimage_open(&img, path)) {
		/* ppc64 ELFv1 objects are refused with a message: that is right. */
		ok(strstr(dir, "ppc64") != NULL, "object refused only for ppc64 ELFv1");
		return;
	}
	ok(img->relocatable, "object is relocatable");
	f = kimage_find_func_by_name(img, "hot_b");
	ok(f && (f->flags & KF_MOVABLE), "object: hot_b alone in its section may move");
	is_str(f ? f->section : NULL, ".text.hot_b", "object: hot_b's section");
	ok(f && kimage_find_func_by_name(img, "hot_c")->addr != f->addr,
	   "object: sections get distinct addresses");
	kimage_close(img);
}

static void check_assumed(const char *dir)
{
	char path[4096];
	struct sections_opts o = { .no_auto = true };
	struct kimage *img;
	struct kfunc *f, *g;

	snprintf(path, sizeof(path), "%s/hotcold", dir);
	hp_verbosity = 0;
	if (kimage_open(&img, path) || sections_name(img, &o)) {
		ok(0, "opens without a map");
		kimage_close(img);
		return;
	}
	srcfile_fill_dupnames(img);
	hp_verbosity = 1;
	is_int(img->secnames, KSEC_ASSUMED, "no map: section names assumed");
	f = kimage_find_func_by_name(img, "hot_c");
	is_str(f ? f->section : NULL, ".text.hot_c", "assumed name of hot_c");
	f = kimage_find_func_by_name(img, "same_name");
	g = f && f->next_same_name >= 0 ? &img->funcs[f->next_same_name] : NULL;
#ifdef HAVE_BFD
	ok(f && g && f->srcfile && g->srcfile && strcmp(f->srcfile, g->srcfile),
	   "no map: DWARF files tell the two same_name apart");
#else
	ok(f && g && !f->srcfile, "without libbfd: no DWARF file names");
#endif
	kimage_close(img);
}

static void check_errors(const char *dir)
{
	struct kimage *img;
	char junk[] = "this is not an ELF file at all";

	hp_verbosity = 0;
	ok(kimage_open(&img, "/nonexistent/vmlinux") < 0 && !img, "missing file fails");
	ok(kimage_open_mem(&img, junk, sizeof(junk), "junk") < 0 && !img,
	   "not ELF fails");
	(void)dir;
	hp_verbosity = 1;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: test_image DIR ARCH le|be\n");
		return 2;
	}
	check_linked(argv[1], argv[2], !strcmp(argv[3], "be"));
	check_object(argv[1]);
	check_assumed(argv[1]);
	check_errors(argv[1]);
	return done_testing();
}
