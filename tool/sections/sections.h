/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sections.h - the stage after opening the image: name each function's
 * input section and so decide which functions may move. A function may move
 * only when it sat alone in an input section of its own (.text.<name>,
 * .text.unlikely.<name>, ... from -ffunction-sections). In a linked vmlinux
 * the input-section names are gone, so they come from the Kbuild link map
 * (vmlinux.map) or from vmlinux.o (linkmap.h); without either they are
 * assumed (.text.<name>) and the kernel's fixed regions are left alone.
 */
#ifndef HP_SECTIONS_H
#define HP_SECTIONS_H

#include <stdbool.h>

#include "image/image.h"

struct sections_opts {
	const char *map_path;	/* link map; NULL: look for vmlinux.map beside it */
	const char *object_path;/* vmlinux.o; NULL: look beside it */
	bool no_auto;		/* do not look for files beside the image */
	bool quiet_assumed;	/* no warning when section names are assumed
				 * (commands that never move anything) */
	bool need_function_sections;	/* an image that says it was built
				 * without -ffunction-sections is an error
				 * (commands that order) */
};

/**
 * sections_name() - set kfunc.section, .object and the movable flags of
 * @img's functions, and img->secnames, ->secnames_from and ->nmovable; say
 * on stderr when the names are assumed. A relocatable image named its
 * sections itself. @opts may be NULL (look beside the image, warn).
 * Returns 0, or -errno after printing why (a map or object that does not
 * describe the image, a file that cannot be read; with
 * need_function_sections, an image not built with -ffunction-sections: no
 * function in a section of its own in the map or object, or, with neither,
 * DWARF producer strings without the option).
 */
int sections_name(struct kimage *img, const struct sections_opts *opts);

#endif
