/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elfcheck.h - what is wrong with a file given as the image, said before
 * libelf reads it: not a regular file, not an ELF file (and what it is),
 * truncated (at byte N of M), a damaged header or section table.
 */
#ifndef HP_ELFCHECK_H
#define HP_ELFCHECK_H

#include <stddef.h>

struct stat;

/**
 * elfcheck_file_type() - 0 for a regular file; else prints why @path (a
 * directory, a FIFO, a device) cannot be the image and returns -1.
 */
int elfcheck_file_type(const char *path, const struct stat *st);

/**
 * elfcheck_bytes() - 0 when the @size bytes of @path hold an ELF header,
 * section headers and sections that lie within them; else prints the one
 * error that says what is wrong and what to do, and returns -1.
 */
int elfcheck_bytes(const char *path, const void *buf, size_t size);

#endif
