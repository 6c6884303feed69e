/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * filekind.h - binary files given where hotpack reads text or an ELF image,
 * told apart by their magic, so that the error names the command that
 * converts them (perf script, trace-cmd report, xz -d, extract-vmlinux).
 */
#ifndef HP_FILEKIND_H
#define HP_FILEKIND_H

#include <stdbool.h>
#include <stddef.h>

/**
 * filekind_advice() - for a file whose first @len bytes are @buf, what it is
 * and what to run on it ("perf.data (binary): give the text of perf script
 * ..."), or NULL when the kind is not one of those known.
 */
const char *filekind_advice(const void *buf, size_t len);

/** filekind_is_profile() - is it a recording (perf.data, trace.dat)? */
bool filekind_is_profile(const void *buf, size_t len);

/**
 * filekind_directory_error() - the error for @path, a directory given where
 * a file is read: "give @what in it (@path/@file)" when that file exists
 * there, else "give @otherwise". The image and the link map share it so
 * that both name the file a build directory holds.
 */
void filekind_directory_error(const char *path, const char *what, const char *file,
			      const char *otherwise);

#endif
