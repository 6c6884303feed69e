// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_callgraph.c - "hotpack callgraph VMLINUX --root NAME": the static call
 * tree of a function, from the disassembly (disasm.c), with its total size,
 * the pages it spans in this image and the lower bound ceil(bytes / page).
 *
 * The tree is discovered breadth first, so each function sits under the
 * caller that reaches it in the fewest calls and is counted once; other
 * calls to it are printed as references. With samples, edges below the
 * root's own callees are followed only when the samples confirm them (a
 * callchain edge, or, for a profile without callchains, a sampled callee);
 * the others are only counted. "--edges" prints every call site instead.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/commands.h"
#include "cmd/pipeline.h"
#include "disasm/disasm.h"
#include "image/image.h"
#include "lib/cli.h"
#include "lib/hotpack.h"
#include "lib/util.h"
#include "lib/warn.h"
#include "lib/xalloc.h"
#include "profile/input.h"
#include "profile/profile.h"

struct cg_callee {
	uint32_t func;
	uint64_t first_site;	/* offset of its first call site */
};

/* One function of the tree. */
struct cg_tnode {
	uint32_t func;
	uint32_t parent;	/* tree node index, UINT32_MAX for the root */
	uint32_t depth;
	uint32_t nindirect;	/* indirect calls and jumps out of it */
	uint32_t nunconfirmed;	/* callees not followed: no sample confirms them */
	uint32_t *kids;		/* tree node indices of the callees it lists */
	uint32_t nkids;
	size_t capkids;
	bool expanded;
};

struct cg_tree {
	const struct kimage *img;
	struct disasm *d;
	struct cg_tnode *nodes;
	size_t nnodes, capnodes;
	uint32_t *node_of;	/* by function index; UINT32_MAX if not in the tree */
	/* callees of the function being walked */
	struct cg_callee *callees;
	size_t ncallees, capcallees;
	uint32_t indirect;
	uint64_t nicalls, nitails, ninit;
};

struct cg_opts_cmd {
	const char *root;
	unsigned int depth;
	uint64_t page;
	const struct profile *prof;
	bool edges;
};

static int collect_callee(const struct disasm_call *c, void *ctx)
{
	struct cg_tree *t = ctx;

	if (c->callee == DISASM_NO_FUNC) {
		t->indirect++;
		if (c->kind == DC_ICALL)
			t->nicalls++;
		else
			t->nitails++;
		return 0;
	}
	for (size_t i = 0; i < t->ncallees; i++)
		if (t->callees[i].func == c->callee)
			return 0;
	XGROW(t->callees, t->capcallees, t->ncallees + 1);
	t->callees[t->ncallees].func = c->callee;
	t->callees[t->ncallees].first_site = c->offset;
	t->ncallees++;
	return 0;
}

static const char *fname(const struct kimage *img, uint32_t f, char *buf, size_t len)
{
	return kfunc_key(img, &img->funcs[f], buf, len);
}

/* Does the profile confirm caller -> callee? */
static bool confirmed(const struct cg_tree *t, const struct profile *prof, uint32_t caller,
		      uint32_t callee)
{
	char b1[512], b2[512];
	struct prof_func *pc, *pe;
	struct prof_edge *e;
	uint64_t key;

	pe = profile_find_func(prof, fname(t->img, callee, b2, sizeof(b2)));
	if (!prof->nedges)
		return pe && pe->weight > 0;
	pc = profile_find_func(prof, fname(t->img, caller, b1, sizeof(b1)));
	if (!pc || !pe)
		return false;
	key = (uint64_t)pc->id << 32 | pe->id;
	HASH_FIND(hh, prof->edges, &key, sizeof(key), e);
	return e && e->weight > 0;
}

static uint32_t add_node(struct cg_tree *t, uint32_t func, uint32_t parent, uint32_t depth)
{
	uint32_t n = (uint32_t)t->nnodes;

	XGROW(t->nodes, t->capnodes, t->nnodes + 1);
	memset(&t->nodes[n], 0, sizeof(t->nodes[n]));
	t->nodes[n].func = func;
	t->nodes[n].parent = parent;
	t->nodes[n].depth = depth;
	t->node_of[func] = n;
	t->nnodes++;
	if (t->img->funcs[func].flags & KF_INIT)
		t->ninit++;
	return n;
}

static void add_kid(struct cg_tnode *p, uint32_t kid)
{
	XGROW(p->kids, p->capkids, p->nkids + 1);
	p->kids[p->nkids++] = kid;
}

/* Breadth first from the root: node order is discovery order. */
static int build_tree(struct cg_tree *t, uint32_t root, const struct cg_opts_cmd *o)
{
	int err;

	add_node(t, root, UINT32_MAX, 0);
	for (size_t i = 0; i < t->nnodes; i++) {
		uint32_t depth = t->nodes[i].depth;

		if (depth >= o->depth)
			continue;
		t->ncallees = 0;
		t->indirect = 0;
		err = disasm_func(t->d, t->nodes[i].func, collect_callee, t);
		if (err)
			return err;
		t->nodes[i].nindirect = t->indirect;
		t->nodes[i].expanded = true;
		for (size_t k = 0; k < t->ncallees; k++) {
			uint32_t f = t->callees[k].func;

			if (o->prof && depth >= 1 &&
			    !confirmed(t, o->prof, t->nodes[i].func, f)) {
				t->nodes[i].nunconfirmed++;
				continue;
			}
			/* the kid list keeps references to functions listed
			 * elsewhere too; printing tells them apart */
			if (t->node_of[f] == UINT32_MAX)
				add_node(t, f, (uint32_t)i, depth + 1);
			add_kid(&t->nodes[i], t->node_of[f]);
		}
	}
	return 0;
}

static void print_node_line(FILE *out, const struct cg_tree *t, uint32_t n, unsigned int indent,
			    bool ref)
{
	const struct cg_tnode *tn = &t->nodes[n];
	const struct kfunc *fn = &t->img->funcs[tn->func];
	char buf[512];

	fprintf(out, "%*s%s", (int)(2 * indent), "", fname(t->img, tn->func, buf, sizeof(buf)));
	if (ref) {
		fputs(" ^\n", out);	/* listed under another caller */
		return;
	}
	fprintf(out, " (%" PRIu64 " B)", fn->size);
	if (fn->flags & KF_INIT)
		fputs(" [init]", out);
	if (tn->nindirect)
		fprintf(out, " [%" PRIu32 " indirect]", tn->nindirect);
	if (tn->nunconfirmed)
		fprintf(out, " [+%" PRIu32 " not in samples]", tn->nunconfirmed);
	if (!tn->expanded && tn->nkids == 0 && fn->size)
		fputs(" ...", out);
	fputc('\n', out);
}

/* Depth first over tree edges; iterative, so deep trees cannot overflow. */
static void print_tree(FILE *out, const struct cg_tree *t)
{
	struct frame { uint32_t n; uint32_t next; } *stack;
	size_t sp = 0;

	stack = xcalloc(t->nnodes + 1, sizeof(*stack));
	print_node_line(out, t, 0, 0, false);
	stack[sp++] = (struct frame){ 0, 0 };
	while (sp) {
		struct frame *f = &stack[sp - 1];
		const struct cg_tnode *tn = &t->nodes[f->n];
		uint32_t kid;

		if (f->next >= tn->nkids) {
			sp--;
			continue;
		}
		kid = tn->kids[f->next++];
		if (t->nodes[kid].parent != f->n) {
			print_node_line(out, t, kid, (unsigned int)sp, true);
			continue;
		}
		print_node_line(out, t, kid, (unsigned int)sp, false);
		stack[sp++] = (struct frame){ kid, 0 };
	}
	free(stack);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_node_addr(const void *a, const void *b, void *ctx)
{
	const struct cg_tree *t = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	/* funcs are sorted by address, then name: the index is the order */
	return t->nodes[x].func < t->nodes[y].func ? -1 : t->nodes[x].func > t->nodes[y].func;
}

static void print_flat_and_totals(FILE *out, const struct cg_tree *t, const struct cg_opts_cmd *o)
{
	uint32_t *order = xcalloc(t->nnodes, sizeof(*order));
	uint64_t *pages = NULL, bytes = 0;
	size_t npages = 0, cappages = 0, distinct = 0;
	char buf[512];

	for (size_t i = 0; i < t->nnodes; i++)
		order[i] = (uint32_t)i;
	qsort_r(order, t->nnodes, sizeof(*order), cmp_node_addr, (void *)t);
	fprintf(out, "\nflat list (%zu functions, by address):\n", t->nnodes);
	fprintf(out, "  %-18s %8s %5s  %s\n", "address", "bytes", "depth", "function");
	for (size_t i = 0; i < t->nnodes; i++) {
		const struct kfunc *fn = &t->img->funcs[t->nodes[order[i]].func];

		fprintf(out, "  0x%016" PRIx64 " %8" PRIu64 " %5" PRIu32 "  %s\n", fn->addr,
			fn->size, t->nodes[order[i]].depth,
			fname(t->img, fn->index, buf, sizeof(buf)));
		bytes += fn->size;
		if (!fn->size)
			continue;
		for (uint64_t p = fn->addr / o->page; p <= (fn->addr + fn->size - 1) / o->page; p++) {
			XGROW(pages, cappages, npages + 1);
			pages[npages++] = p;
		}
	}
	if (npages) /* all sizes 0: pages is NULL, which qsort() must not get */
		qsort(pages, npages, sizeof(*pages), cmp_u64);
	for (size_t i = 0; i < npages; i++)
		if (!i || pages[i] != pages[i - 1])
			distinct++;
	fprintf(out, "\ntotal: %zu functions, %" PRIu64 " bytes\n", t->nnodes, bytes);
	fprintf(out, "pages spanned now: %zu (page size %" PRIu64 ")\n", distinct, o->page);
	fprintf(out, "lower bound: %" PRIu64 " (ceil(%" PRIu64 " / %" PRIu64 "))\n",
		(bytes + o->page - 1) / o->page, bytes, o->page);
	fprintf(out, "unknown edges: %" PRIu64 " indirect calls, %" PRIu64
		" indirect jumps (not followed)\n", t->nicalls, t->nitails);
	if (t->ninit)
		fprintf(out, "note: %" PRIu64 " of these functions are in .init.text\n", t->ninit);
	free(pages);
	free(order);
}

struct edge_print {
	FILE *out;
	const struct kimage *img;
};

static int print_edge(const struct disasm_call *c, void *ctx)
{
	struct edge_print *ep = ctx;
	char b1[512], b2[512];

	fprintf(ep->out, "%s+0x%" PRIx64 " %s %s%s\n", fname(ep->img, c->caller, b1, sizeof(b1)),
		c->offset,
		c->callee == DISASM_NO_FUNC ? "?" : fname(ep->img, c->callee, b2, sizeof(b2)),
		disasm_call_kind_name(c->kind), c->static_call ? " static_call" : "");
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void print_stats(FILE *out, const struct disasm *d, double t_open, double t_walk)
{
	const struct disasm_stats *s;

	if (!d)
		return;
	s = disasm_get_stats(d);
	fprintf(out, "# image read in %.3f s, disassembly and output in %.3f s\n", t_open,
		t_walk);
	fprintf(out, "# walked %" PRIu64 " functions, %" PRIu64 " bytes, %" PRIu64
		" instructions; %" PRIu64 " undecodable units, %" PRIu64 " without bytes\n",
		s->funcs, s->bytes, s->insns, s->bad, s->no_bytes);
	fprintf(out, "# %" PRIu64 " calls, %" PRIu64 " tail calls, %" PRIu64 " indirect calls, %"
		PRIu64 " indirect jumps; %" PRIu64 " tracing hooks dropped, %" PRIu64
		" static calls resolved, %" PRIu64 " to a NULL default, %" PRIu64
		" branches to no function start\n",
		s->calls, s->tails, s->icalls, s->itails, s->hooks, s->static_calls,
		s->static_null, s->outside);
}

enum { OPT_EVENT = 0x100 };	/* long-only options */

static void usage(FILE *out)
{
	fputs("usage: hotpack callgraph VMLINUX --root FUNCTION [options]\n"
	      "       hotpack callgraph VMLINUX --edges [--root FUNCTION]\n"
	      "\n"
	      "The static call tree of FUNCTION, from the machine code (x86_64, i386,\n"
	      "aarch64, ppc32, ppc64): a tree view, a flat list by address, the total\n"
	      "bytes, the pages the tree spans in VMLINUX now and the lower bound\n"
	      "ceil(bytes / page size).\n"
	      "\n"
	      "      --root NAME          the function at the root of the tree\n"
	      "  -d, --depth N            follow calls N levels deep (default: no limit)\n"
	      "  -s, --samples FILE       a profile of this kernel (perf script, addresses,\n"
	      "                           ftrace function_graph, .hprof): below the root's\n"
	      "                           own callees, follow only the edges the samples\n"
	      "                           confirm and count the others\n"
	      CLI_USAGE_EVENT
	      "  -p, --page-size SIZE     page size: 4096, 4K, 2M ... (default 4K)\n"
	      "      --edges              print every call site instead: CALLER+0xOFF CALLEE\n"
	      "                           KIND (KIND: call, tail, icall, itail; CALLEE ? if\n"
	      "                           unknown); with --root, only the tree's functions\n"
	      CLI_USAGE_OUTPUT
	      "      --stats              print the disassembly counters on stderr\n"
	      CLI_USAGE_QVH
	      "\n"
	      "Exit status: 0 done, 1 bad input or no such function, 2 bad command line.\n",
	      out);
}

int cmd_callgraph(int argc, char **argv)
{
	static const struct option longopts[] = {
		CLI_COMMON_LONGOPTS,
		{ "root", required_argument, NULL, 'R' },
		{ "depth", required_argument, NULL, 'd' },
		{ "samples", required_argument, NULL, 's' },
		{ "event", required_argument, NULL, OPT_EVENT },
		{ "page-size", required_argument, NULL, 'p' },
		{ "edges", no_argument, NULL, 'E' },
		{ "stats", no_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 },
	};
	struct cg_opts_cmd o = { .depth = UINT_MAX, .page = HP_DEFAULT_PAGE_SIZE };
	struct kimage *img = NULL;
	struct profile *prof = NULL;
	char *samples = NULL;
	struct input_opts io = { .reader = NULL };
	const char *output = NULL;
	struct cli_out out = { 0 };
	struct cg_tree t = { 0 };
	struct kfunc *root = NULL;
	bool stats = false;
	int c, err, ret = HP_EXIT_ERROR;
	double t0, t1 = 0, t2 = 0;

	optind = 1;
	/* -r and -e are still read, to say what they are now */
	while ((c = cli_getopt(argc, argv, CLI_COMMON_SHORTOPTS "d:s:p:r:e", longopts)) != -1) {
		if (cli_common_opt(c))
			continue;
		switch (c) {
		case 'R':
			o.root = optarg;
			break;
		case 'r':
			cli_retired("callgraph", "-r", "the root is --root NAME (-r is measure's "
				    "--repeat)");
			return HP_EXIT_USAGE;
		case 'e':
			cli_retired("callgraph", "-e", "every call site is --edges (-e is "
				    "--tlb-entries in report and verify)");
			return HP_EXIT_USAGE;
		case 'o':
			output = optarg;
			break;
		case 'd':
			if (cli_parse_uint("--depth", optarg, PARSE_C_BASE, 0, UINT_MAX - 1,
					   &o.depth))
				return HP_EXIT_USAGE;
			break;
		case 's':
			samples = optarg;
			break;
		case OPT_EVENT:
			if (input_parse_event(&io, optarg))
				return HP_EXIT_USAGE;
			break;
		case 'p':
			if (cli_parse_pow2("--page-size", optarg, &o.page))
				return HP_EXIT_USAGE;
			break;
		case 'E':
			o.edges = true;
			break;
		case 'S':
			stats = true;
			break;
		case 'h':
			usage(stdout);
			return HP_EXIT_OK;
		default:
			return HP_EXIT_USAGE;
		}
	}
	if (optind != argc - 1 || (!o.root && !o.edges)) {
		pr_err("callgraph: give one VMLINUX and --root FUNCTION (or --edges); "
		       "see hotpack callgraph --help");
		return HP_EXIT_USAGE;
	}
	if (cli_out_check_input(output, argv[optind], "the vmlinux") ||
	    (samples && cli_out_check_input(output, samples, "samples")))
		return HP_EXIT_USAGE;
	t0 = now();
	if (pipe_open_image(&img, argv[optind], &(struct sections_opts){ .quiet_assumed = true },
			    false))
		return HP_EXIT_ERROR;
	t1 = now();
	if (img->relocatable) {
		pr_err("%s: a relocatable object: its branch targets are relocations; "
		       "give the linked vmlinux", img->path);
		goto out;
	}
	if (o.root) {
		root = kimage_find_func_by_name(img, o.root);
		if (!root) {
			pr_err("%s: no function named '%s'; check the name with nm", img->path,
			       o.root);
			goto out;
		}
	}
	if (samples) {
		prof = profile_new();
		if (input_read_all(prof, img, &samples, 1, &io))
			goto out;
		o.prof = prof;
	}
	err = disasm_open(&t.d, img);
	if (!err)
		err = cli_out_open(&out, output);
	if (err)
		goto out;
	t.img = img;
	if (o.edges && !root) {
		struct edge_print ep = { out.f, img };

		for (size_t i = 0; i < img->nfuncs; i++)
			disasm_func(t.d, (uint32_t)i, print_edge, &ep);
		ret = HP_EXIT_OK;
		goto out_stats;
	}
	t.node_of = xcalloc(img->nfuncs, sizeof(*t.node_of));
	memset(t.node_of, 0xff, img->nfuncs * sizeof(*t.node_of));
	err = build_tree(&t, root->index, &o);
	if (err)
		goto out_stats;
	if (o.edges) {
		struct edge_print ep = { out.f, img };
		uint32_t *fs = xcalloc(t.nnodes, sizeof(*fs));

		/* in address order, like the whole-image listing */
		for (size_t i = 0; i < t.nnodes; i++)
			fs[i] = t.nodes[i].func;
		qsort(fs, t.nnodes, sizeof(*fs), cmp_u32);
		for (size_t i = 0; i < t.nnodes; i++)
			disasm_func(t.d, fs[i], print_edge, &ep);
		free(fs);
	} else {
		char depth[24] = "unlimited";

		if (o.depth != UINT_MAX)
			snprintf(depth, sizeof(depth), "%u", o.depth);
		fprintf(out.f, "# hotpack callgraph %s: root %s, %s, depth %s, page size %" PRIu64
			"%s\n", img->path, o.root, disasm_arch_name(t.d), depth, o.page,
			prof ? ", edges below depth 1 confirmed by samples" : "");
		fprintf(out.f, "# tree: callees in call-site order; ^ = listed under another "
			"caller\n");
		print_tree(out.f, &t);
		print_flat_and_totals(out.f, &t, &o);
	}
	ret = HP_EXIT_OK;
out_stats:
	t2 = now();
	if (stats)
		print_stats(stderr, t.d, t1 - t0, t2 - t1);
out:
	if (ret != HP_EXIT_OK)
		cli_out_abort(&out);
	else if (cli_out_commit(&out))
		ret = HP_EXIT_ERROR;
	for (size_t i = 0; i < t.nnodes; i++)
		free(t.nodes[i].kids);
	free(t.nodes);
	free(t.node_of);
	free(t.callees);
	disasm_close(t.d);
	profile_free(prof);
	kimage_close(img);
	return ret;
}
