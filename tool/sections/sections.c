// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sections.c - which input section each function of the image sat in: read
 * from the link map or vmlinux.o named on the command line or found beside
 * the image (linkmap.c), else assumed from the function's name with the
 * kernel's fixed regions (entry, noinstr, sched, ... between their start and
 * end markers) left where they are.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/warn.h"
#include "lib/xalloc.h"
#include "sections/linkmap.h"
#include "sections/producer.h"
#include "sections/sections.h"

/* Kernel regions whose code must stay where the linker script puts it. */
static const char *const fixed_regions[][2] = {
	{ "__entry_text_start", "__entry_text_end" },
	{ "__noinstr_text_start", "__noinstr_text_end" },
	{ "__sched_text_start", "__sched_text_end" },
	{ "__lock_text_start", "__lock_text_end" },
	{ "__cpuidle_text_start", "__cpuidle_text_end" },
	{ "__kprobes_text_start", "__kprobes_text_end" },
	{ "__irqentry_text_start", "__irqentry_text_end" },
	{ "__softirqentry_text_start", "__softirqentry_text_end" },
	{ "__indirect_thunk_start", "__indirect_thunk_end" },
	{ "__static_call_text_start", "__static_call_text_end" },
	{ "__x86_cpu_dev_start", "__x86_cpu_dev_end" },
	{ "_sinittext", "_einittext" },
	{ "__exittext_begin", "__exittext_end" },
	{ "__head_text_start", "__head_text_end" },
	{ "__hyp_text_start", "__hyp_text_end" },
	{ "__hyp_idmap_text_start", "__hyp_idmap_text_end" },
	{ "__idmap_text_start", "__idmap_text_end" },
	{ "__ref_text_start", "__ref_text_end" },
};

#define NFIXED (sizeof(fixed_regions) / sizeof(fixed_regions[0]))

/* Fixed region @r's bounds in @img, when it has both markers. */
static bool fixed_region(const struct kimage *img, size_t r, uint64_t *lo, uint64_t *hi)
{
	return kimage_symbol_addr(img, fixed_regions[r][0], lo) &&
	       kimage_symbol_addr(img, fixed_regions[r][1], hi);
}

static bool is_kernel(const struct kimage *img)
{
	return kimage_symbol_addr(img, "_stext", NULL) &&
	       kimage_symbol_addr(img, "_etext", NULL);
}

/* Without section names: functions in the main .text output section and
 * outside every fixed region are assumed to sit in .text.<name>. */
static void assume_sections(struct kimage *img)
{
	size_t i, r;

	for (i = 0; i < img->nfuncs; i++) {
		struct kfunc *f = &img->funcs[i];
		const char *sec = NULL, *cold;
		size_t k;

		for (k = 0; k < img->nsections; k++) {
			struct ksection *s = &img->sections[k];

			if (s->exec && f->addr >= s->addr && f->addr < s->addr + s->size)
				sec = s->name;
		}
		if (!sec || strcmp(sec, ".text") || (f->flags & KF_ASM))
			continue;
		for (r = 0; r < NFIXED; r++) {
			uint64_t lo, hi;

			if (fixed_region(img, r, &lo, &hi) && f->addr >= lo && f->addr < hi)
				break;
		}
		if (r < NFIXED) {
			f->flags |= KF_FIXED;
			continue;
		}
		/* GCC names a function's cold part's section after the function. */
		cold = strstr(f->name, ".cold");
		if (cold) {
			char *s = xasprintf(".text.unlikely.%.*s", (int)(cold - f->name), f->name);

			f->section = kimage_keep_string(img, s, strlen(s));
			free(s);
			f->flags |= KF_COLD;
		} else {
			char *s = xasprintf(".text.%s", f->name);

			f->section = kimage_keep_string(img, s, strlen(s));
			free(s);
		}
		f->flags |= KF_MOVABLE;
	}
	img->secnames = KSEC_ASSUMED;
}

/* img->nmovable; returns how many of them sit in a function section of
 * their own (a plain .text moved whole is not one). */
static size_t count_movable(struct kimage *img)
{
	size_t i, nsections = 0;

	img->nmovable = 0;
	for (i = 0; i < img->nfuncs; i++)
		if (img->funcs[i].flags & KF_MOVABLE) {
			img->nmovable++;
			nsections += !(img->funcs[i].flags & KF_UNIT);
		}
	return nsections;
}

/* vmlinux -> vmlinux.map / vmlinux.o beside it. */
static char *beside(const char *path, const char *suffix)
{
	char *p = xasprintf("%s%s", path, suffix);
	struct stat st;

	if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
		return p;
	free(p);
	return NULL;
}

#define REBUILD "rebuild with KCFLAGS=-ffunction-sections (and the kernel patch from " \
	"linker-scripts/ for the relink)"

/*
 * An order for an image built without -ffunction-sections matches no input
 * section: the link takes it without a word and nothing moves. Say so when
 * the image shows it: a map or object whose functions sit in no section of
 * their own, or, with section names assumed, GCC's producer strings
 * (name_linked()).
 */
static int check_function_sections(const struct kimage *img, size_t nsections)
{
	const char *from = img->secnames_from ? img->secnames_from : img->path;

	if (nsections)
		return 0;
	if (img->secnames == KSEC_MAP || img->secnames == KSEC_OBJECT) {
		pr_err("%s: no function sits in a .text.<name> input section of its own: %s "
		       "was not built with -ffunction-sections; " REBUILD, from, img->path);
		return -EINVAL;
	}
	return 0;
}

static int name_linked(struct kimage *img, const struct sections_opts *opts)
{
	char *auto_map = NULL, *auto_obj = NULL;
	int err = 0;

	if (!opts->no_auto && !opts->map_path && !opts->object_path) {
		auto_map = beside(img->path, ".map");
		if (!auto_map)
			auto_obj = beside(img->path, ".o");
	}
	if (opts->map_path || auto_map) {
		err = linkmap_read(img, opts->map_path ? opts->map_path : auto_map);
	} else if (opts->object_path || auto_obj) {
		err = linkmap_read_object(img, opts->object_path ? opts->object_path : auto_obj);
	} else {
		assume_sections(img);
		if (opts->need_function_sections && producer_function_sections(img->path) == 0) {
			pr_err("%s: not built with -ffunction-sections (no DWARF producer "
			       "string has it), so an order would match no input section; "
			       REBUILD ", and CONFIG_VMLINUX_MAP=y for the link map", img->path);
			err = -EINVAL;
		} else if (!opts->quiet_assumed && is_kernel(img))
			pr_warn("%s: no link map (vmlinux.map) or vmlinux.o beside it; "
				"input-section names are assumed (.text.<name>) and the "
				"kernel's fixed regions are left alone; pass --map to be exact",
				img->path);
		else if (!opts->quiet_assumed)
			pr_warn("%s: no link map or object file; input-section names are "
				"assumed (.text.<name>); pass --map to be exact", img->path);
	}
	free(auto_map);
	free(auto_obj);
	return err;
}

/*
 * Where the script's TEXT_TEXT, and so the hot region, begins: the end of
 * the last fixed region below the first movable function. What lies between
 * (arm64: init/main.o's plain .text and .text.unlikely, 384 bytes of code
 * no function section holds) is main text the hot region goes before; the
 * first movable function alone would leave it below the region.
 */
static void find_text_from(struct kimage *img)
{
	uint64_t first = UINT64_MAX, from = 0;

	for (size_t i = 0; i < img->nfuncs; i++)
		if ((img->funcs[i].flags & KF_MOVABLE) && img->funcs[i].addr < first)
			first = img->funcs[i].addr;
	for (size_t r = 0; first != UINT64_MAX && r < NFIXED; r++) {
		uint64_t lo, hi;

		if (fixed_region(img, r, &lo, &hi) && lo < hi && hi <= first && hi > from)
			from = hi;
	}
	/* in the same output section as the first movable function */
	for (size_t k = 0; from && k < img->nsections; k++) {
		const struct ksection *s = &img->sections[k];

		if (s->exec && first >= s->addr && first < s->addr + s->size &&
		    (from < s->addr || from > s->addr + s->size))
			from = 0;
	}
	img->text_from = from;
}

static const struct sections_opts default_opts;

int sections_name(struct kimage *img, const struct sections_opts *opts)
{
	size_t nsections;
	int err = 0;

	if (!opts)
		opts = &default_opts;
	/* A relocatable object named its sections itself (kimage_open()). */
	if (!img->relocatable)
		err = name_linked(img, opts);
	nsections = count_movable(img);
	find_text_from(img);
	if (!err && opts->need_function_sections)
		err = check_function_sections(img, nsections);
	return err;
}

