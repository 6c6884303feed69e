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

#endif
