/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * buildid.h - which build an image is: its GNU build-id (the linker's
 * NT_GNU_BUILD_ID note, `ld --build-id`), which perf records too, so that a
 * profile can name the kernel it came from and be checked against another.
 */
#ifndef HP_BUILDID_H
#define HP_BUILDID_H

#include <stddef.h>

#include "image/image.h"

/* Room for the longest id written as hex (a note's descriptor of 64 bytes). */
#define KIMAGE_BUILD_ID_LEN (2 * 64 + 1)

/**
 * kimage_build_id() - the GNU build-id of @img as lowercase hex into @buf
 * (of @len bytes, KIMAGE_BUILD_ID_LEN for any id); NULL when the image has
 * no such note (linked without --build-id) or @len is too small.
 */
const char *kimage_build_id(const struct kimage *img, char *buf, size_t len);

#endif
