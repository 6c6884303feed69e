/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * namemap.h - the names of a profile made on another build, mapped to the
 * functions of this image: a clone suffix that changed (foo.constprop.0
 * here foo.constprop.1 or foo), a static function's object or source file
 * that moved (dup@a/x.o here dup@b/x.o). Only a mapping with one answer is
 * made; names with several candidates are left out and counted.
 */
#ifndef HP_NAMEMAP_H
#define HP_NAMEMAP_H

#include <stddef.h>
#include <stdint.h>

#include "image/image.h"
#include "profile/profile.h"

struct namemap_counts {
	size_t clone;		/* across clone suffixes, one candidate */
	size_t file;		/* name@FILE: of several, the one of that file */
	size_t name;		/* name@FILE: the image has one function of the name */
	size_t ambiguous;	/* several candidates and nothing to choose: left out */
	uint64_t ambiguous_weight;
};

/**
 * namemap_keys() - for each function of @p whose key @img lacks, the key of
 * the one image function it maps to, else NULL: an array of p->nfuncs
 * (namemap_free()), or NULL when nothing maps. @c counts each way.
 */
char **namemap_keys(const struct profile *p, const struct kimage *img,
		    struct namemap_counts *c);

void namemap_free(char **keys, size_t n);

#endif
