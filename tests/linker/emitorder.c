// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * emitorder.c - test helper for tests/linkers.test: write a given order of
 * functions of a linked fixture in one of emit's formats, exactly as
 * `hotpack order` would, but with the order chosen by the test, so the test
 * can link with it and check that the linker honoured every line.
 *
 *   emitorder IMAGE MAP FORMAT FUNC...    FUNC: name, or name@object
 *
 * Prints the order on stdout and "left out: N" on stderr.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/pipeline.h"
#include "emit/emit.h"
#include "graph/graph.h"
#include "image/image.h"
#include "lib/warn.h"
#include "lib/xalloc.h"

static const struct kfunc *find(const struct kimage *img, const char *spec)
{
	char *name = xstrdup(spec), *obj = strchr(name, '@');
	const struct kfunc *f;

	if (obj)
		*obj++ = 0;
	for (f = kimage_find_func_by_name(img, name); f;
	     f = f->next_same_name >= 0 ? &img->funcs[f->next_same_name] : NULL)
		if (!obj || (f->object && !strcmp(f->object, obj)))
			break;
	free(name);
	return f;
}

int main(int argc, char **argv)
{
	struct sections_opts opts = { 0 };
	struct kimage *img = NULL;
	struct cgraph *cg;
	struct emit_info info = { .algo = "test", .page_size = 4096 };
	uint32_t *order;
	size_t left = 0, kept;
	int i, fmt, n = argc - 4;

	if (argc < 5) {
		fprintf(stderr, "usage: emitorder IMAGE MAP FORMAT FUNC...\n");
		return 2;
	}
	fmt = emit_format_from_name(argv[3]);
	if (fmt < 0) {
		fprintf(stderr, "emitorder: unknown format %s\n", argv[3]);
		return 2;
	}
	opts.map_path = argv[2];
	if (pipe_open_image(&img, argv[1], &opts, false))
		return 1;
	cg = cg_new(img);
	order = xmalloc((size_t)n * sizeof(*order));
	for (i = 0; i < n; i++) {
		const struct kfunc *f = find(img, argv[4 + i]);

		if (!f) {
			fprintf(stderr, "emitorder: %s: no function %s\n", argv[1], argv[4 + i]);
			return 1;
		}
		order[i] = cg_add_node(cg, f->index, f->size, f->align, 1, true);
	}
	cg_finish(cg);
	kept = emit_filter((enum emit_format)fmt, cg, order, (size_t)n);
	left = (size_t)n - kept;
	if (emit_order(stdout, (enum emit_format)fmt, cg, order, kept, &info))
		return 1;
	fprintf(stderr, "left out: %zu\n", left);
	free(order);
	cg_free(cg);
	kimage_close(img);
	return 0;
}
