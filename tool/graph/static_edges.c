// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * static_edges.c - the direct and tail calls between functions, from the
 * disassembler's classified call sites: indirect calls (no callee) and
 * recursion are not edges.
 */
#include "config.h"

#include "disasm/disasm.h"
#include "graph/static_edges.h"
#include "lib/warn.h"

struct edges_walk {
	static_edge_cb cb;
	void *ctx;
};

static int call_cb(const struct disasm_call *c, void *ctx)
{
	struct edges_walk *w = ctx;

	if (c->callee == DISASM_NO_FUNC || c->callee == c->caller)
		return 0;
	return w->cb(c->caller, c->callee, w->ctx);
}

int static_edges(const struct kimage *img, const uint32_t *funcs, size_t n,
		 static_edge_cb cb, void *ctx)
{
	struct edges_walk w = { .cb = cb, .ctx = ctx };
	struct disasm *d;
	int err;

	if (!disasm_supported(img->machine, img->elfclass)) {
		pr_warn("%s: no disassembler for ELF machine %u; no static call edges",
			img->path, img->machine);
		return 0;
	}
	err = disasm_open(&d, img);
	if (err)
		return err;
	for (size_t i = 0; i < n && !err; i++)
		err = disasm_func(d, funcs[i], call_cb, &w);
	disasm_close(d);
	return err;
}
