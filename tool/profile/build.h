/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * build.h - the build a profile came from (architecture, kernel release,
 * GNU build-id), as a line "ARCH RELEASE BUILDID" (.hprof "build"), and the
 * check of a profile's builds against the image it is read with
 * (docs/profiles.md, "Does the profile fit this kernel?").
 */
#ifndef HP_BUILD_H
#define HP_BUILD_H

#include <stdbool.h>
#include <stddef.h>

#include "image/image.h"
#include "profile/profile.h"

/* Room for a build line: an arch name, a release, the longest build-id. */
#define BUILD_LINE_LEN 512

/** @img's build line into @buf ("-" for a release or id it lacks); returns @buf. */
const char *build_of_image(const struct kimage *img, char *buf, size_t len);

/**
 * build_check() - the builds @b of the profile @name against @img: the same
 * build-id, or an unknown one, is silent; another build of the same release
 * and architecture a note (names are matched); another release a warning
 * naming both; another architecture an error, a warning with @any_arch.
 * Returns 0, or -EINVAL after printing why.
 */
int build_check(const struct prof_builds *b, const char *name, const struct kimage *img,
		bool any_arch);

/* What a line that may name a build-id is (build_id_line()). */
enum build_id_kind {
	BUILD_ID_NONE,		/* not a build-id line */
	BUILD_ID_OTHER,		/* a module's, a library's, the vdso's */
	BUILD_ID_KERNEL,	/* [kernel.kallsyms] or a vmlinux path */
};

#define BUILD_ID_HEX_LEN 129	/* the longest id (64 bytes) in hex, and its NUL */

/**
 * build_id_line() - a build-id line as perf prints it: `perf buildid-list`'s
 * "BUILDID DSO", or `perf script -v`'s "build id event received for DSO:
 * BUILDID [SIZE]" (perf script --header prints none). For the kernel's, the
 * id in lowercase into @hex (of @len, BUILD_ID_HEX_LEN).
 */
enum build_id_kind build_id_line(const char *p, char *hex, size_t len);

/**
 * build_check_id() - the kernel build-id @id that an input names (at
 * @file:@line, @line 0 for none; from @what, e.g. "perf buildid-list")
 * against @img's: 0 when they agree or @img has no build-id note, else
 * -EINVAL after printing both.
 */
int build_check_id(const struct kimage *img, const char *id, const char *file, size_t line,
		   const char *what);

#endif
