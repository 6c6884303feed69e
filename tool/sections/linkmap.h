/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linkmap.h - the input section of each function of a linked image, its
 * size and its object file, read from the GNU ld link map (vmlinux.map) or
 * from the relocatable object the image was linked from (vmlinux.o). The
 * sections stage (sections.h) decides which of them to read.
 */
#ifndef HP_LINKMAP_H
#define HP_LINKMAP_H

#include <stdio.h>

#include "image/image.h"

/**
 * linkmap_read() - input section names, sizes and objects from a GNU ld map.
 * Returns 0, or -errno after printing why; a map of another build is refused
 * and leaves no function movable.
 */
int linkmap_read(struct kimage *img, const char *path);

/** linkmap_read_stream() - the same from @in, named @path in messages. */
int linkmap_read_stream(struct kimage *img, FILE *in, const char *path);

/**
 * linkmap_read_object() - section names from a relocatable object (vmlinux.o),
 * its functions matched to the image's by name. Returns 0 or -errno (printed).
 */
int linkmap_read_object(struct kimage *img, const char *path);

#endif
