// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_sections.c - the sections stage on this test program itself
 * (/proc/self/exe): a tiny GNU ld link map, written here from the addresses
 * of two of its functions, parsed into input-section names and objects; an
 * object's plain .text holding both, moved whole as one unit; a map that
 * is not one, and one that cannot be opened; and without a map the
 * assumed names: .text.<name>, .text.unlikely.<name> for a .cold part, and
 * nothing for a function between a fixed region's markers; and a fill in
 * the map that shows more alignment than the guess.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "image/image.h"
#include "lib/warn.h"
#include "sections/linkmap.h"
#include "sections/sections.h"
#include "tap.h"

/* Two functions the map will place, each alone in its input section. */
__attribute__((noinline)) int map_one(int x);
__attribute__((noinline)) int map_two(int x);

__attribute__((noinline)) int map_one(int x)
{
	return x * 3 + 1;
}

__attribute__((noinline)) int map_two(int x)
{
	return map_one(x) ^ 0x55;
}

/* A function aligned past the usual 16, as an assembly unit's .align is. */
__attribute__((noinline, aligned(1024))) int map_aligned(int x);

__attribute__((noinline, aligned(1024))) int map_aligned(int x)
{
	return x - 7;
}

/* A function inside the kernel's sched region, and a GCC-style cold part:
 * never run, only read as symbols. */
__asm__(".pushsection .text\n"
	".globl __sched_text_start\n"
	"__sched_text_start:\n"
	".globl in_sched_region\n"
	".type in_sched_region, @function\n"
	"in_sched_region:\n"
	".skip 16\n"
	".size in_sched_region, 16\n"
	".globl __sched_text_end\n"
	"__sched_text_end:\n"
	".type hot_path.cold, @function\n"
	"hot_path.cold:\n"
	".skip 16\n"
	".size hot_path.cold, 16\n"
	".popsection\n");

static struct kimage *open_self(void)
{
	struct kimage *img = NULL;

	if (kimage_open(&img, "/proc/self/exe"))
		return NULL;
	return img;
}

/* The map ld writes: a name too long for its column puts the address on
 * the next line; one input section .text holding many functions; ld's
 * closing "OUTPUT(...)" line unless @cut. */
static char *tiny_map(const struct kfunc *one, const struct kfunc *two, bool cut)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fprintf(f, "Archive member included to satisfy reference by file (symbol)\n\n"
		   "Linker script and memory map\n\n"
		   ".text           0x%" PRIx64 "   0x1000\n"
		   " *(.text .text.*)\n"
		   " .text.map_one\n"
		   "                0x%016" PRIx64 "       0x%" PRIx64 " tests/one.o\n"
		   "                0x%016" PRIx64 "                map_one\n"
		   " *fill*         0x%016" PRIx64 "        0x2 cccc\n"
		   " .text.map_two  0x%016" PRIx64 "       0x%" PRIx64 " lib.a(two.o)\n",
		one->addr < two->addr ? one->addr : two->addr, one->addr, one->size, one->addr,
		one->addr + one->size, two->addr, two->size);
	if (!cut)
		fprintf(f, "\nOUTPUT(test elf64-x86-64)\n");
	fclose(f);
	return buf;
}

static void check_map(void)
{
	struct kimage *img = open_self();
	struct kfunc *one, *two;
	char *map;
	FILE *in;

	if (!ok(img, "the test program opens as an image"))
		return;
	one = kimage_find_func_by_name(img, "map_one");
	two = kimage_find_func_by_name(img, "map_two");
	if (!ok(one && two && !one->section, "map_one and map_two found, no names yet"))
		goto out;
	/* without its last line, a map that lists two functions of many is cut */
	map = tiny_map(one, two, true);
	in = map ? fmemopen(map, strlen(map), "r") : NULL;
	if (!ok(in, "the cut map text is written"))
		goto out;
	hp_verbosity = 0;
	is_int(linkmap_read_stream(img, in, "cut.map"), -EINVAL,
	       "a map cut short (functions of .text missing, no OUTPUT line): refused");
	hp_verbosity = 1;
	ok(!(one->flags & KF_MOVABLE) && img->secnames != KSEC_MAP, "and nothing taken from it");
	fclose(in);
	free(map);
	map = tiny_map(one, two, false);
	in = map ? fmemopen(map, strlen(map), "r") : NULL;
	if (!ok(in, "the map text is written"))
		goto out;
	is_int(linkmap_read_stream(img, in, "tiny.map"), 0, "the tiny map reads");
	fclose(in);
	free(map);
	is_str(one->section, ".text.map_one", "name alone on its line: map_one's section");
	is_str(one->object, "tests/one.o", "map_one's object");
	is_str(two->section, ".text.map_two", "name and address on one line: map_two's");
	is_str(two->object, "lib.a(two.o)", "map_two's object, an archive member");
	ok((one->flags & KF_MOVABLE) && (two->flags & KF_MOVABLE), "both may move");
	is_int(img->secnames, KSEC_MAP, "names from a link map");
	is_str(img->secnames_from, "tiny.map", "and which map");
out:
	kimage_close(img);
}

/*
 * A map whose fill before map_aligned's section shows more alignment than
 * the guess (the low bit of its address, up to the architecture's 16):
 * @gap bytes of fill after a section that ends before it, with a script
 * assignment line between the two when @assign; the section named @sec
 * (.text.map_aligned, or a cold function's .text.unlikely.map_aligned);
 * with @anon the gap is an input section no symbol starts (a weak
 * default its override replaced), not a fill. *@flags gets its flags.
 */
static uint32_t align_after(uint64_t gap, bool assign, const char *sec, bool anon,
			    uint32_t *flags)
{
	struct kimage *img = open_self();
	struct kfunc *f = img ? kimage_find_func_by_name(img, "map_aligned") : NULL;
	uint32_t got = 0;
	char *buf = NULL;
	size_t len = 0;
	FILE *out, *in;

	if (!f || !f->index)
		goto out;
	/* the symbol-less section from just past the function before it:
	 * no function starts in it, whatever the compiler put there */
	if (anon)
		gap = f->addr - (img->funcs[f->index - 1].addr + 1);
	out = open_memstream(&buf, &len);
	fprintf(out, "Linker script and memory map\n\n"
		     ".text           0x%" PRIx64 "   0x%" PRIx64 "\n"
		     " .text.before   0x%016" PRIx64 "       0x%" PRIx64 " before.o\n"
		     "%s"
		     " %s   0x%016" PRIx64 "       0x%" PRIx64 "%s\n"
		     " %s\n"
		     "                0x%016" PRIx64 "       0x%" PRIx64 " aligned.o\n"
		     "\nOUTPUT(test elf64-x86-64)\n",
		f->addr - gap - 64, f->size + gap + 64, f->addr - gap - 64, (uint64_t)64,
		assign ? "                0x0000000000000000                . = ALIGN (0x400)\n" : "",
		anon ? ".text.weak_default" : "*fill*        ", f->addr - gap, gap,
		anon ? " weak.o" : "", sec, f->addr, f->size);
	fclose(out);
	in = fmemopen(buf, len, "r");
	hp_verbosity = 0;
	if (in && !linkmap_read_stream(img, in, "aligned.map")) {
		got = f->align;
		if (flags)
			*flags = f->flags;
	}
	hp_verbosity = 1;
	if (in)
		fclose(in);
out:
	free(buf);
	if (img)
		kimage_close(img);
	return got;
}

static uint32_t align_after_fill(uint64_t gap, bool assign)
{
	return align_after(gap, assign, ".text.map_aligned", false, NULL);
}

static void check_align_from_fill(void)
{
	struct kimage *img = open_self();
	struct kfunc *f = img ? kimage_find_func_by_name(img, "map_aligned") : NULL;
	uint64_t low, guess;

	if (!ok(f && !(f->addr & 1023), "map_aligned is at a 1 KiB boundary"))
		goto out;
	low = f->addr & -f->addr;
	guess = img->arch->func_align;
	is_int(f->align, guess, "without a map: the guess (the low bit, up to the arch's usual)");
	is_int(align_after_fill(guess / 2 + guess / 4, false), guess,
	       "a fill the guess explains: the guess kept");
	is_int(align_after_fill(1000, false), low < 4096 ? low : 4096,
	       "a fill only more explains: the low bit of its address, up to a page");
	is_int(align_after_fill(1000, true), guess, "the same after a script's assignment: kept");
	is_int(align_after_fill(0, false), guess, "no fill: the guess kept");
	/* a cold function's section: GCC aligns it to the instruction only
	 * (x86: a byte), unless a fill shows more */
	is_int(align_after(0, false, ".text.unlikely.map_aligned", false, NULL),
	       img->arch->cold_align ? img->arch->cold_align : guess,
	       "a cold section: the architecture's cold alignment, not the guess");
	is_int(align_after(1000, false, ".text.unlikely.map_aligned", false, NULL),
	       low < 4096 ? low : 4096, "a cold section a fill shows aligned more: that");
	{
		uint32_t fl = 0, fl2 = 0;

		align_after(0, false, ".text.map_aligned", true, &fl);
		align_after(1000, false, ".text.map_aligned", false, &fl2);
		ok((fl & KF_BYTES_BEFORE) && !(fl2 & KF_BYTES_BEFORE),
		   "a section no symbol starts before it: its gap is bytes (KF_BYTES_BEFORE); "
		   "a fill is not");
	}
out:
	if (img)
		kimage_close(img);
}

/* An object's plain .text holding both functions (an assembly file's):
 * one unit, the first function standing for the section, the other
 * moving with it. */
static void check_plain_text(void)
{
	struct kimage *img = open_self();
	struct kfunc *one, *two, *lo, *hi;
	char *buf = NULL;
	size_t len = 0;
	uint64_t size;
	FILE *f, *in;

	if (!ok(img, "the test program opens as an image"))
		return;
	one = kimage_find_func_by_name(img, "map_one");
	two = kimage_find_func_by_name(img, "map_two");
	if (!ok(one && two, "map_one and map_two found"))
		goto out;
	lo = one->addr < two->addr ? one : two;
	hi = lo == one ? two : one;
	size = hi->addr + hi->size - lo->addr;
	f = open_memstream(&buf, &len);
	if (!ok(f, "a map text"))
		goto out;
	fprintf(f, "Linker script and memory map\n\n"
		   ".text           0x%" PRIx64 "   0x%" PRIx64 "\n"
		   " *(.text .text.*)\n"
		   " .text          0x%016" PRIx64 "       0x%" PRIx64 " arch/x/lib/copy.o\n"
		   "\nOUTPUT(test elf64-x86-64)\n", lo->addr, size, lo->addr, size);
	fclose(f);
	in = fmemopen(buf, len, "r");
	is_int(in ? linkmap_read_stream(img, in, "plain.map") : -1, 0, "a map of one plain .text reads");
	if (in)
		fclose(in);
	ok((lo->flags & (KF_MOVABLE | KF_UNIT)) == (KF_MOVABLE | KF_UNIT),
	   "its first function is a unit that may move");
	is_str(lo->section, ".text", "named after the section, .text");
	is_str(lo->object, "arch/x/lib/copy.o", "and qualified by its object");
	ok(lo->unit_size == size, "the unit is the whole section's bytes");
	ok((hi->flags & KF_IN_UNIT) && !(hi->flags & KF_MOVABLE) && hi->unit == lo->index,
	   "the later function goes with it, not on its own");
	is_str(hi->object, "arch/x/lib/copy.o", "and has the section's object");
out:
	free(buf);
	kimage_close(img);
}

static void check_not_a_map(void)
{
	static char text[] = ".text 0x1000 0x10\n .text.map_one 0x1000 0x10 one.o\n";
	struct sections_opts o = { .map_path = "/nonexistent/vmlinux.map" };
	struct kimage *img = open_self();
	FILE *in = fmemopen(text, strlen(text), "r");

	if (!ok(img && in, "image and text open"))
		goto out;
	hp_verbosity = 0;
	is_int(linkmap_read_stream(img, in, "notamap"), -EINVAL,
	       "no \"Linker script and memory map\" line: refused");
	is_int(sections_name(img, &o), -ENOENT, "--map of a missing file: refused");
	hp_verbosity = 1;
	is_int(img->secnames, KSEC_NONE, "and no names taken");
out:
	if (in)
		fclose(in);
	kimage_close(img);
}

static void check_assumed(void)
{
	struct sections_opts o = { .no_auto = true, .quiet_assumed = true };
	struct kimage *img = open_self();
	struct kfunc *f;
	size_t i, n = 0;

	if (!ok(img, "image opens"))
		return;
	is_int(sections_name(img, &o), 0, "no map, no object: names assumed");
	is_int(img->secnames, KSEC_ASSUMED, "the image says so");
	f = kimage_find_func_by_name(img, "map_two");
	is_str(f ? f->section : NULL, ".text.map_two", "a function of .text: .text.<name>");
	ok(f && (f->flags & KF_MOVABLE), "and it may move");
	f = kimage_find_func_by_name(img, "hot_path.cold");
	is_str(f ? f->section : NULL, ".text.unlikely.hot_path",
	       "a .cold part: .text.unlikely.<name of its function>");
	ok(f && (f->flags & KF_COLD) && (f->flags & KF_MOVABLE), "cold, and may move");
	f = kimage_find_func_by_name(img, "in_sched_region");
	ok(f && (f->flags & KF_FIXED) && !(f->flags & KF_MOVABLE) && !f->section,
	   "between __sched_text_start and _end: fixed, no name");
	for (i = 0; i < img->nfuncs; i++)
		n += (img->funcs[i].flags & KF_MOVABLE) != 0;
	ok(n && img->nmovable == n, "nmovable counts the movable functions");
	kimage_close(img);
}

int main(void)
{
	check_map();
	check_plain_text();
	check_not_a_map();
	check_assumed();
	check_align_from_fill();
	return done_testing();
}
