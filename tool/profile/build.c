// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * build.c - which build a profile came from, and whether that is the image
 * it is read with. A build line is "ARCH RELEASE BUILDID": the arch
 * descriptor's name, the release of linux_banner, the GNU build-id note;
 * "-" for a part the image does not have (a test program has no banner).
 * Profiles are keyed by names so that they serve other builds: only
 * another architecture is refused, since its names are other functions.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "image/buildid.h"
#include "lib/warn.h"
#include "profile/build.h"

const char *build_of_image(const struct kimage *img, char *buf, size_t len)
{
	char rel[128], id[KIMAGE_BUILD_ID_LEN];
	const char *r = kimage_release(img, rel, sizeof(rel));
	const char *i = kimage_build_id(img, id, sizeof(id));

	snprintf(buf, len, "%s %s %s", img->arch->name, r ? r : "-", i ? i : "-");
	return buf;
}

/* How far a build is from the image's, least first. */
enum build_fit {
	FIT_SAME,	/* the same build-id, or no id to tell */
	FIT_BUILD,	/* another build of the same release and arch */
	FIT_RELEASE,	/* another release */
	FIT_ARCH,	/* another architecture */
};

struct build_parts {
	char arch[128], rel[128], id[KIMAGE_BUILD_ID_LEN];
};

static bool split(const char *line, struct build_parts *p)
{
	return sscanf(line, "%127s %127s %128s", p->arch, p->rel, p->id) == 3;
}

static bool known_differ(const char *a, const char *b)
{
	return strcmp(a, "-") && strcmp(b, "-") && strcmp(a, b);
}

static enum build_fit fit(const struct build_parts *f, const struct build_parts *img)
{
	if (known_differ(f->arch, img->arch))
		return FIT_ARCH;
	if (known_differ(f->rel, img->rel))
		return FIT_RELEASE;
	if (known_differ(f->id, img->id))
		return FIT_BUILD;
	return FIT_SAME;
}

int build_check(const struct prof_builds *b, const char *name, const struct kimage *img,
		bool any_arch)
{
	struct build_parts mine, f, worst;
	enum build_fit w = FIT_SAME, k;
	char line[BUILD_LINE_LEN], of[64] = "";
	size_t i;

	memset(&worst, 0, sizeof(worst));

	if (!b->n)
		return 0;	/* written before 2.3, or without an image */
	if (!split(build_of_image(img, line, sizeof(line)), &mine))
		return 0;
	for (i = 0; i < b->n; i++) {
		if (!split(b->v[i], &f))
			continue;
		k = fit(&f, &mine);
		if (k > w) {
			w = k;
			worst = f;
		}
	}
	if (b->n > 1 || b->more)
		snprintf(of, sizeof(of), " (one of the %zu%s builds it adds up)", b->n,
			 b->more ? "+" : "");
	switch (w) {
	case FIT_SAME:
		return 0;
	case FIT_BUILD:
		pr_info("%s: from another build of Linux %s %s%s (build id %s; %s has %s): "
			"functions are matched by name", name, worst.rel, worst.arch, of,
			worst.id, img->path, mine.id);
		return 0;
	case FIT_RELEASE:
		pr_warn("%s: a profile of Linux %s%s, but %s is Linux %s: functions are matched "
			"by name, and those that changed are lost (see the share matched); a "
			"profile of %s fits better", name, worst.rel, of, img->path, mine.rel,
			mine.rel);
		return 0;
	case FIT_ARCH:
		if (any_arch) {
			pr_warn("%s: a profile of %s%s, used for %s's %s (--any-arch)", name,
				worst.arch, of, img->path, mine.arch);
			return 0;
		}
		pr_err("%s: a profile of %s%s, but %s is %s: its names are another "
		       "architecture's functions; give a profile of %s, or --any-arch to use "
		       "it anyway", name, worst.arch, of, img->path, mine.arch, mine.arch);
		return -EINVAL;
	}
	return 0;
}
