/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef HOTPACK_IMAGE_IKCONFIG_H
#define HOTPACK_IMAGE_IKCONFIG_H

#include <stddef.h>

#include "image/image.h"

/**
 * kimage_ikconfig() - the kernel config embedded in @img (CONFIG_IKCONFIG=y),
 * inflated into *@text (NUL-terminated, *@len bytes; the caller frees it).
 * Returns 1 when found, 0 when the image carries none, -errno after a
 * warning that says why when it carries one that cannot be read.
 */
int kimage_ikconfig(const struct kimage *img, char **text, size_t *len);

#endif
