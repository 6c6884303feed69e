/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * order_read.h - an order file read back: any of the formats emit writes
 * (lds, ld-section-ordering, gold, lld, list), each line resolved to the
 * one function of an image it names. For verify (did the order reach the
 * linked kernel) and report --order (what an existing order does on other
 * samples).
 */
#ifndef HP_ORDER_READ_H
#define HP_ORDER_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct kfunc;
struct kimage;

/* One function an order file lists: @old is the image's function the line
 * names; @new is the caller's (verify: the same function in NEW). */
struct order_item {
	char *text;		/* as written (section, object(section) or name) */
	const struct kfunc *old, *new;
};

struct order_file {
	struct order_item *items;
	size_t n, cap;
	size_t lines;		/* lines naming a function or trying to */
	size_t unresolved;	/* lines naming no single function of the image */
	const char *format;	/* a static name; "empty" when no line was read */
	char named[32];		/* the format its header names, "" when none */
	/* set before reading: a line the linker applies to every function it
	 * names (a section name without its object, a name the image has more
	 * than once) lists each of them, as the link lays them out (report);
	 * unset, such a line names no single function (verify) */
	bool every_match;
	const struct kimage *img;	/* what the lines were resolved against */
};

/**
 * order_file_read_stream() - read an order file from @in (@path for the
 * messages) and resolve each line against @img; a line that names no
 * single function counts in @of->unresolved. 0 or a negative errno (binary
 * data, a read error), said with the file and line.
 */
int order_file_read_stream(FILE *in, const char *path, const struct kimage *img,
			   struct order_file *of);

/** order_file_read() - the same from the file @path. */
int order_file_read(const char *path, const struct kimage *img, struct order_file *of);

void order_file_free(struct order_file *of);

#endif
