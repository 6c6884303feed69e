/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * srcfile.h - the DWARF source file of functions, read with libbfd: what
 * tells apart static functions of one name when no link map names their
 * object files. Absent (returns -ENOTSUP) in a --without-bfd build.
 */
#ifndef HP_SRCFILE_H
#define HP_SRCFILE_H

#include "image/image.h"

/**
 * srcfile_fill_dupnames() - set kfunc.srcfile for every function whose name
 * is not unique and whose object is unknown. Returns how many were found,
 * or -errno. An image without DWARF yields 0.
 */
int srcfile_fill_dupnames(struct kimage *img);

#endif
