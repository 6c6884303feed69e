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

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static bool hex_digit(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* A build-id has at least 32 hex digits (MD5; GNU ld's default SHA-1 has 40),
 * so no frame address is one. */
enum build_id_kind build_id_line(const char *p, char *hex, size_t len)
{
	static const char received[] = "build id event received for ";
	const char *id, *dso, *dso_end, *base, *q;
	size_t n, i;

	while (blank(*p))
		p++;
	if (!strncmp(p, received, sizeof(received) - 1)) {
		dso = p + sizeof(received) - 1;
		dso_end = strstr(dso, ": ");
		if (!dso_end)
			return BUILD_ID_NONE;
		id = dso_end + 2;
	} else {
		id = p;
		dso = dso_end = NULL;
	}
	for (n = 0; hex_digit(id[n]); n++)
		;
	if (n < 32 || n > 128 || (id[n] && !blank(id[n])))
		return BUILD_ID_NONE;
	if (!dso) {
		for (dso = id + n; blank(*dso); dso++)
			;
		for (dso_end = dso; *dso_end && !blank(*dso_end); dso_end++)
			;
		for (q = dso_end; blank(*q); q++)
			;
		if (dso == dso_end || *q)
			return BUILD_ID_NONE;
	}
	for (base = dso_end; base > dso && base[-1] != '/'; base--)
		;
	if (!((size_t)(dso_end - dso) == 17 && !memcmp(dso, "[kernel.kallsyms]", 17)) &&
	    strncmp(base, "vmlinux", 7))
		return BUILD_ID_OTHER;
	if (len < n + 1)
		return BUILD_ID_OTHER;
	for (i = 0; i < n; i++)
		hex[i] = (char)(id[i] >= 'A' && id[i] <= 'F' ? id[i] - 'A' + 'a' : id[i]);
	hex[n] = '\0';
	return BUILD_ID_KERNEL;
}

int build_check_id(const struct kimage *img, const char *id, const char *file, size_t line,
		   const char *what)
{
	char mine[KIMAGE_BUILD_ID_LEN], at[32] = "";

	if (!kimage_build_id(img, mine, sizeof(mine))) {
		pr_debug("%s: %s has no build-id note; the input's (%s) is not compared", file,
			 img->path, id);
		return 0;
	}
	if (!strcmp(mine, id))
		return 0;
	if (line)
		snprintf(at, sizeof(at), ":%zu", line);
	pr_err("%s%s: samples of another kernel build: %s names build id %s, but %s has "
	       "build id %s; give the vmlinux of that build (its debug package, or the "
	       "build tree it was booted from)", file, at, what, id, img->path, mine);
	return -EINVAL;
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
