// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_namemap.c IMAGE - names of another build against IMAGE, build 1 of
 * tests/data/profile/buildfix.c with its link map (made by build.test):
 * clone suffixes that changed map when one function fits, a static's file
 * that moved maps by its path or base name, and several candidates (two
 * clones, statics keyed by address, a file that fits none) are left out.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "image/image.h"
#include "profile/namemap.h"
#include "sections/sections.h"
#include "tap.h"

static const struct {
	const char *from, *to;	/* to: NULL when left as it is */
} cases[] = {
	{ "hot_entry", NULL },			/* the image has it */
	{ "helper.constprop.0", "helper" },	/* the clone gone */
	{ "worker.isra.0", "worker.isra.1" },	/* another clone number */
	{ "lto_fn.llvm.1234", "lto_fn.llvm.98765" },
	{ "splitme.part.0", "splitme" },
	{ "helper.cold", NULL },		/* no .cold part to map it to */
	{ "twice.constprop.0", NULL },		/* two clones fit: left out */
	{ "gone_fn", NULL },			/* nothing of the name */
	{ "f_variant@old/buildfix.o", "f_variant" },	/* one of the name */
	{ "dup@0x1", NULL },		/* an address: another build's */
	{ "dup@nowhere/else.o", NULL },		/* no file fits */
};

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && !strcmp(s + n - t, tail) && (n == t || s[n - t - 1] == '/' ||
						       s[n - t - 1] == '@');
}

int main(int argc, char **argv)
{
	struct sections_opts so = { .quiet_assumed = true };
	struct profile *p = profile_new();
	struct namemap_counts c;
	struct kimage *img;
	char **keys;
	size_t i, n = sizeof(cases) / sizeof(cases[0]);
	uint32_t a, b;

	if (argc != 2 || kimage_open(&img, argv[1]) || sections_name(img, &so)) {
		fprintf(stderr, "usage: test_namemap IMAGE (with IMAGE.map or vmlinux.map)\n");
		return 99;
	}
	ok(img->secnames == KSEC_MAP, "the image's link map is read");
	for (i = 0; i < n; i++)
		profile_add_weight(p, profile_func_id(p, cases[i].from), 1 + i);
	/* the two statics by their object files, the old build's directory */
	a = profile_func_id(p, "dup@old/buildfix.o");
	b = profile_func_id(p, "dup@/elsewhere/old/buildfix2.c");
	profile_add_weight(p, a, 100);
	profile_add_weight(p, b, 200);
	keys = namemap_keys(p, img, &c);
	ok(keys != NULL, "names to map");
	for (i = 0; keys && i < n; i++) {
		const char *got = keys[profile_find_func(p, cases[i].from)->id];

		if (cases[i].to)
			is_str(got ? got : "(none)", cases[i].to, cases[i].from);
		else
		{
			char what[128];

			snprintf(what, sizeof(what), "%s: not mapped", cases[i].from);
			ok(!got, what);
		}
	}
	/* the image's statics are keyed by its own objects (as its map names them) */
	ok(keys && keys[a] && !strncmp(keys[a], "dup@", 4) && ends_with(keys[a], "buildfix.o") &&
	   strcmp(keys[a], "dup@old/buildfix.o"), "a static by its object's base name");
	ok(keys && keys[b] && !strncmp(keys[b], "dup@", 4) && ends_with(keys[b], "buildfix2.o"),
	   "... and by a source file's (another extension, another root)");
	is_int((int)c.clone, 4, "4 across clone suffixes");
	is_int((int)c.file, 2, "2 by their file");
	is_int((int)c.name, 1, "1 by the name alone");
	is_int((int)c.ambiguous, 3, "3 left out: two clones, an address key, no file");
	is_u64(c.ambiguous_weight, 7 + 10 + 11, "their weight counted");
	namemap_free(keys, p->nfuncs);
	profile_free(p);
	kimage_close(img);
	return done_testing();
}
