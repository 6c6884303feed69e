// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_verify.c - `hotpack verify OLD NEW SAMPLES...`: did the order reach the
 * linked kernel, and what did it buy? The samples are resolved against OLD
 * into the call graph `order` works on; each hot function is then looked up
 * in NEW (by name, and by object file for static names that repeat), and the
 * model costs both layouts: pages per hot path and for the whole executed
 * set, against the lower bound, and the I-TLB misses of replaying the paths.
 *
 * Whether the order was applied is judged from NEW itself: the hot region
 * the kernel patch marks (__hotpack_text_start/_end), the functions an order
 * file lists (--order) and whether they came out in that order, and, without
 * either, whether the hot functions moved at all. When it was not applied
 * the exit status is HP_EXIT_NOT_APPLIED and the message names the likely
 * cause: no -ffunction-sections, the kernel patch missing (or make run
 * without HOTPACK_ORDER), or an order file made for another build.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/commands.h"
#include "cmd/pipeline.h"
#include "emit/emit.h"
#include "emit/json.h"
#include "emit/order_read.h"
#include "graph/graph.h"
#include "image/image.h"
#include "lib/cli.h"
#include "lib/geometry.h"
#include "lib/hotpack.h"
#include "lib/util.h"
#include "lib/warn.h"
#include "lib/xalloc.h"
#include "model/model.h"
#include "model/tlbsim.h"
#include "place/place.h"
#include "profile/input.h"
#include "profile/profile.h"

#define VERIFY_NO_ADDR UINT64_MAX

struct verify_opts {
	struct sections_opts old_sections, new_sections;
	struct pipe_opts pipe;		/* the input options (pipe.sections unused) */
	struct model_opts model;
	const char *order_path;
	const char *output;		/* -o: the report (text or JSON); NULL stdout */
	FILE *out;			/* where the text report is being written */
	unsigned int show_paths;	/* heaviest paths listed */
	unsigned int show_funcs;	/* functions listed per problem */
	bool json;			/* the result as JSON (docs/json.md) */
};

static void verify_usage(FILE *f)
{
	fprintf(f,
"usage: hotpack verify [options] OLD NEW SAMPLES...\n"
"\n"
"Check that NEW (a vmlinux linked with hotpack's order) really has the order,\n"
"and compare it with OLD (the image SAMPLES were taken on): per hot path and\n"
"in total, pages touched before and after against the lower bound, and the\n"
"simulated I-TLB misses of replaying the paths.\n"
"\n"
"  -O, --order FILE         the order file NEW was linked with (any format of\n"
"                           hotpack order -f): check every listed function came\n"
"                           out in NEW, in that order, inside the hot region,\n"
"                           and where the model's packing puts it\n"
CLI_USAGE_OUTPUT
"  -p, --page-size SIZE     page size of the model (default 4K)\n"
"  -e, --tlb-entries LIST   I-TLB entries to simulate, e.g. 32,64,128 (default;\n"
"                           -t and --tlb are old spellings of it)\n"
"      --tlb-ways N         set-associative with N ways (default: fully assoc.)\n"
"      --tlb-model NAME     the TLB's replacement model (default LRU, the only one)\n"
GEOM_PRESET_USAGE
"  -n, --paths N            hot paths listed (default 10; 0: none)\n"
"      --list N             functions listed per problem (default 20)\n"
"      --json               the result as one JSON object (docs/json.md)\n"
"      --old-map FILE       OLD's link map (default: OLD.map, vmlinux.map beside)\n"
"      --new-map FILE       NEW's link map (default: NEW.map, vmlinux.map beside)\n"
"      --input-format FMT   %s\n"
"      --kaslr-offset OFF   runtime minus link address of the samples\n"
"      --min-match FRACTION fail when fewer samples match OLD (default 0.5)\n"
CLI_USAGE_SAMPLES("OLD")
CLI_USAGE_QVH
"\n"
"Exit status: 0 the order is in NEW, 1 error, 2 usage, 3 the order was not\n"
"applied (the message names the likely cause).\n", input_format_usage());
}

enum {
	OPT_LIST = 256, OPT_OLD_MAP, OPT_NEW_MAP, OPT_JSON,
};

static const struct option verify_longopts[] = {
	CLI_COMMON_LONGOPTS,
	{ "order", required_argument, NULL, 'O' },
	GEOM_TLB_LONGOPTS,
	{ "tlb", required_argument, NULL, 't' },	/* -e, --tlb-entries */
	{ "paths", required_argument, NULL, 'n' },
	{ "list", required_argument, NULL, OPT_LIST },
	{ "old-map", required_argument, NULL, OPT_OLD_MAP },
	{ "new-map", required_argument, NULL, OPT_NEW_MAP },
	{ "json", no_argument, NULL, OPT_JSON },
	PIPE_INPUT_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

/* One line of an order in any of emit's formats. */
static bool order_line(const char *s)
{
	if (!strncmp(s, "*(", 2) || !strncmp(s, "*:", 2) || !strncmp(s, ". = ALIGN", 9) ||
	    !strncmp(s, ".text", 5))
		return true;
	for (; *s; s++)		/* gold, lld, list: one section or symbol name */
		if (!isalnum((unsigned char)*s) && !strchr("_.$", *s))
			return false;
	return true;
}

/* @path exists and starts as an order file does (what verify -o used to
 * take): the header hotpack writes, or lines of an order. An empty file is
 * none (mktemp's, for the report). */
static bool is_order_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512];
	size_t seen = 0;
	bool order = true;

	if (!f)
		return false;
	while (order && seen < 3 && fgets(line, sizeof(line), f)) {
		char *s = line, *e = line + strlen(line);

		while (e > s && isspace((unsigned char)e[-1]))
			*--e = 0;
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			continue;
		seen++;
		if (seen == 1 && (!strncmp(s, "/* hotpack", 10) || !strncmp(s, "# hotpack", 9)))
			break;
		order = order_line(s);
	}
	fclose(f);
	return order && seen;
}

static int verify_parse(int argc, char **argv, struct verify_opts *o)
{
	int c;

	model_opts_default(&o->model);
	pipe_opts_init(&o->pipe);
	o->show_paths = 10;
	o->show_funcs = 20;
	optind = 1;
	while ((c = cli_getopt(argc, argv, CLI_COMMON_SHORTOPTS "O:p:e:t:n:", verify_longopts)) != -1) {
		int shared = cli_common_opt(c);

		if (!shared)
			shared = pipe_parse_opt(&o->pipe, c, optarg);
		if (!shared) {
			shared = geom_parse_opt(&o->model.geom, c == 't' ? GEOM_OPT_TLB_ENTRIES : c,
						optarg);
			if (shared == 2)
				return 1;
		}
		if (shared < 0)
			return -EINVAL;
		if (shared)
			continue;
		switch (c) {
		case 'O': o->order_path = optarg; break;
		case 'o': o->output = optarg; break;
		case 'n':
			if (cli_parse_uint("--paths", optarg, 0, 0, CLI_LIST_MAX, &o->show_paths))
				return -EINVAL;
			break;
		case OPT_LIST:
			if (cli_parse_uint("--list", optarg, 0, 0, CLI_LIST_MAX, &o->show_funcs))
				return -EINVAL;
			break;
		case OPT_OLD_MAP: o->old_sections.map_path = optarg; break;
		case OPT_NEW_MAP: o->new_sections.map_path = optarg; break;
		case OPT_JSON: o->json = true; break;
		case 'h': verify_usage(stdout); return 1;
		default:
			return -EINVAL;
		}
	}
	if (argc - optind < 3) {
		pr_err("give OLD, NEW and at least one samples file ('-' for stdin); "
		       "see hotpack verify --help");
		return -EINVAL;
	}
	if (input_check_paths(argv + optind + 2, argc - optind - 2) ||
	    tlbsim_check_model(&o->model.geom))
		return -EINVAL;
	/* -o was the order file: one given the old way is an input, never
	 * the place the report goes */
	if (o->output && is_order_file(o->output)) {
		char *now = xasprintf("%s is an order file, and -o is verify's output now; give "
				      "it with --order (-O) %s", o->output, o->output);

		cli_retired("verify", "-o", now);
		free(now);
		return -EINVAL;
	}
	if (o->output &&
	    (pipe_check_output(o->output, argv[optind], &o->old_sections, argv + optind + 2,
			       argc - optind - 2) ||
	     pipe_check_output(o->output, argv[optind + 1], &o->new_sections, NULL, 0) ||
	     (o->order_path && cli_out_check_input(o->output, o->order_path, "the order file"))))
		return -EINVAL;
	return 0;
}

/*
 * The function of NEW that is @f of OLD: by name; a name NEW has more than
 * once is told apart by the object file (from the maps), then by source file.
 */
static const struct kfunc *match_func(const struct kimage *nimg, const struct kfunc *f)
{
	const struct kfunc *c = kimage_find_func_by_name(nimg, f->name), *hit = NULL;
	size_t hits = 0;

	if (!c || !(c->flags & KF_DUPNAME))
		return c;
	for (; c; c = c->next_same_name >= 0 ? &nimg->funcs[c->next_same_name] : NULL) {
		if (f->object && c->object && !strcmp(f->object, c->object)) {
			hit = c;
			hits++;
		} else if (!f->object && f->srcfile && c->srcfile &&
			   !strcmp(f->srcfile, c->srcfile)) {
			hit = c;
			hits++;
		}
	}
	return hits == 1 ? hit : NULL;
}

/* What is wrong with one function of the order in NEW. */
enum fn_problem {
	FP_NONE,
	FP_MISSING,	/* NEW has no such function */
	FP_STAYED,	/* same address as in OLD: not moved */
	FP_OUTSIDE,	/* moved, but not into the hot region */
	FP_DISORDER,	/* lower address than the one listed before it */
	FP_NR,
};

static const char *const fp_what[FP_NR] = {
	[FP_MISSING] = "not in NEW",
	[FP_STAYED] = "did not move",
	[FP_OUTSIDE] = "moved, but not into the hot region",
	[FP_DISORDER] = "moved out of order",
};

struct verdict {
	bool have_region;
	uint64_t region_start, region_end;
	size_t listed, in_place, problems[FP_NR];
	/* of those in place in the hot region, the ones the model's packing
	 * (OLD's sizes and alignments, back to back) puts elsewhere */
	size_t layout_checked, layout_off;
	uint64_t layout_off_bytes;
	/* the sampled functions after the hot region the order did not list,
	 * and those the model's relink (place_rest_as_linked()) puts elsewhere */
	size_t rest_checked, rest_off;
	uint64_t rest_off_max;
	size_t hot, hot_moved, hot_in_region;	/* the sampled movable functions */
	bool hot_same_order;	/* their relative order in NEW is OLD's */
	size_t new_movable, new_funcs;
	enum ksecnames new_secnames;
	size_t nodes, missing;		/* sampled functions, and those NEW lacks */
	size_t pages_before, pages_after, pages_bound;	/* the executed set's pages */
	bool identical;		/* NEW is OLD, byte for byte */
	bool old_has_region;	/* OLD has a non-empty hot region ... */
	bool order_in_old;	/* ... holding the order file's functions, in order */
};

static void print_problem(const struct verify_opts *o, size_t *shown, enum fn_problem p,
			  const char *what, uint64_t old_addr, uint64_t new_addr)
{
	if (*shown >= o->show_funcs || o->json)
		return;
	if (!*shown)
		fprintf(o->out, "functions of the order that did not land in place:\n");
	(*shown)++;
	if (new_addr == VERIFY_NO_ADDR)
		fprintf(o->out, "  %-40s %s (old 0x%" PRIx64 ")\n", what, fp_what[p], old_addr);
	else
		fprintf(o->out, "  %-40s %s (old 0x%" PRIx64 ", new 0x%" PRIx64 ")\n", what, fp_what[p],
		       old_addr, new_addr);
}

/* Check each function of the order file in NEW. */
static void check_order(const struct verify_opts *o, struct order_file *of,
			const struct kimage *nimg, struct verdict *v)
{
	uint64_t prev = 0;
	size_t i, shown = 0;

	v->listed = of->n;
	for (i = 0; i < of->n; i++) {
		struct order_item *l = &of->items[i];
		enum fn_problem p = FP_NONE;

		l->new = match_func(nimg, l->old);
		if (!l->new)
			p = FP_MISSING;
		else if (v->have_region &&
			 (l->new->addr < v->region_start || l->new->addr >= v->region_end))
			p = l->new->addr == l->old->addr ? FP_STAYED : FP_OUTSIDE;
		else if (!v->have_region && l->new->addr == l->old->addr)
			p = FP_STAYED;
		else if (l->new->addr < prev)
			p = FP_DISORDER;
		if (p == FP_NONE) {
			v->in_place++;
			prev = l->new->addr;
		} else {
			v->problems[p]++;
			print_problem(o, &shown, p, l->text, l->old->addr,
				      l->new ? l->new->addr : VERIFY_NO_ADDR);
		}
	}
	if (shown && shown < v->listed - v->in_place)
		fprintf(o->out, "  ... and %zu more\n", v->listed - v->in_place - shown);
}

/* How far apart two addresses are, either way. */
static uint64_t addr_dist(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/*
 * The layout's model packs the listed functions back to back from the hot
 * region's start, each at its alignment as OLD tells it (the low bit of its
 * address up to the architecture's usual, or vmlinux.o's), and its page
 * figures hold only if the link does the same. Each function in place is
 * checked against that packing from where the one before it really ended,
 * so one error counts once; the bytes are how far each one was off, either
 * way (a link that aligns less than the model guessed places it earlier).
 */
static void check_layout(const struct order_file *of, struct verdict *v)
{
	uint64_t end = v->region_start;

	if (!v->have_region)
		return;
	for (size_t i = 0; i < of->n; i++) {
		const struct order_item *l = &of->items[i];
		uint64_t want;

		if (!l->new || l->new->addr < v->region_start || l->new->addr >= v->region_end ||
		    l->new->addr < end)
			continue;
		want = align_up(end, NONZERO(l->old->align));
		v->layout_checked++;
		if (l->new->addr != want) {
			v->layout_off++;
			v->layout_off_bytes += addr_dist(l->new->addr, want);
		}
		end = l->new->addr + kfunc_placed_size(l->old);
	}
}

/*
 * The code that stays: the model lays it out after the hot region as the
 * linker does (place_relink()); checked from NEW's region end, so that
 * only that rule is judged, on the sampled functions the order left where
 * they were in the text.
 */
static void check_rest(const struct order_file *of, const struct kimage *oimg,
		       const struct cgraph *cg, const uint64_t *new_addr, struct verdict *v)
{
	uint64_t insert = place_insert(oimg), *at;
	uint32_t *moved;
	size_t n = 0;

	/* only for an order that was applied: the region holds what moved */
	if (!v->have_region || v->region_end <= v->region_start || !v->in_place ||
	    insert == UINT64_MAX)
		return;
	moved = xmallocarray(NONZERO(of->n), sizeof(*moved));
	for (size_t i = 0; i < of->n; i++)
		if (of->items[i].new && of->items[i].new->addr >= v->region_start &&
		    of->items[i].new->addr < v->region_end)
			moved[n++] = of->items[i].old->index;
	at = xmallocarray(NONZERO(oimg->nfuncs), sizeof(*at));
	place_rest_as_linked(oimg, moved, n, insert, v->region_end, at);
	for (size_t i = 0; i < cg->nnodes; i++) {
		uint64_t want = at[cg->nodes[i].func], d;

		if (want == UINT64_MAX || new_addr[i] == VERIFY_NO_ADDR)
			continue;
		v->rest_checked++;
		d = addr_dist(new_addr[i], want);
		if (d) {
			v->rest_off++;
			if (d > v->rest_off_max)
				v->rest_off_max = d;
		}
	}
	free(at);
	free(moved);
}

/* Without an order file: did the sampled movable functions move at all? */
static void check_hot(const struct cgraph *cg, const uint64_t *old_addr,
		      const uint64_t *new_addr, struct verdict *v)
{
	uint64_t *pairs = xmallocarray(cg->nnodes, 2 * sizeof(*pairs));
	size_t i, n = 0;

	for (i = 0; i < cg->nnodes; i++) {
		if (!cg->nodes[i].movable || !cg->nodes[i].weight ||
		    new_addr[i] == VERIFY_NO_ADDR)
			continue;
		v->hot++;
		if (new_addr[i] != old_addr[i])
			v->hot_moved++;
		if (v->have_region && new_addr[i] >= v->region_start &&
		    new_addr[i] < v->region_end)
			v->hot_in_region++;
		pairs[2 * n] = old_addr[i];
		pairs[2 * n + 1] = new_addr[i];
		n++;
	}
	/* sorted by old address, are the new addresses still increasing? */
	qsort(pairs, n, 2 * sizeof(*pairs), cmp_u64);
	v->hot_same_order = true;
	for (i = 1; i < n; i++)
		if (pairs[2 * i + 1] < pairs[2 * i - 1])
			v->hot_same_order = false;
	free(pairs);
}

/* The name of a path for the table: first -> last (n functions). */
static void path_name(const struct cgraph *cg, const struct cg_path *p, char *buf, size_t len)
{
	const struct kimage *img = cg->img;
	const char *a = img->funcs[cg->nodes[p->nodes[0]].func].name;
	const char *z = img->funcs[cg->nodes[p->nodes[p->n - 1]].func].name;

	if (p->n == 1)
		snprintf(buf, len, "%s", a);
	else
		snprintf(buf, len, "%s -> %s", a, z);
}

static int cmp_path_weight(const void *a, const void *b, void *ctx)
{
	const struct model_result *r = ctx;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (r->paths[x].weight != r->paths[y].weight)
		return r->paths[x].weight > r->paths[y].weight ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* The indices of @r's paths, heaviest first (ties by index); caller frees. */
static size_t *paths_by_weight(const struct model_result *r)
{
	size_t *idx = xmallocarray(NONZERO(r->npaths), sizeof(*idx));

	for (size_t i = 0; i < r->npaths; i++)
		idx[i] = i;
	qsort_r(idx, r->npaths, sizeof(*idx), cmp_path_weight, (void *)r);
	return idx;
}

static double pct(uint64_t before, uint64_t after)
{
	return before ? 100.0 * ((double)after - (double)before) / (double)before : 0.0;
}

/* The machine's large pages first (x86_64's 2 MiB): @lb, @la costed in them. */
static void print_large(FILE *out, const struct geometry *g, const struct model_result *lb,
			const struct model_result *la)
{
	const struct geom_preset *pr = geom_preset_find(g->name);
	char lp[32], m[256];

	fprintf(out, "\n%s in %s pages:\n", pr && pr->large_code ? pr->large_code : "core text",
	       geom_size_str(g->large_page, lp, sizeof(lp)));
	fprintf(out, "  pages per path run (weighted mean): before %.2f, after %.2f, bound %.2f\n",
	       model_mean_pages(lb), model_mean_pages(la), model_mean_bound(la));
	fprintf(out, "  executed set pages: before %zu, after %zu, bound %zu\n", lb->set_pages,
	       la->set_pages, la->set_bound);
	fprintf(out, "  simulated I-TLB misses, %u entries: before %" PRIu64 ", after %" PRIu64
	       " (%+.1f%%)\n", g->large_entries, lb->tlb_misses[0], la->tlb_misses[0],
	       pct(lb->tlb_misses[0], la->tlb_misses[0]));
	if (g->icache.size)
		fprintf(out, "  simulated I-cache misses: before %" PRIu64 ", after %" PRIu64
		       " (%+.1f%%)\n", lb->icache_misses, la->icache_misses,
		       pct(lb->icache_misses, la->icache_misses));
	fprintf(out, "\n%s:\n", geom_meaning(g, m, sizeof(m)));
}

static void print_report(const struct verify_opts *o, const struct cgraph *cg,
			 const struct model_result *rb, const struct model_result *ra,
			 const struct model_result *lb, const struct model_result *la)
{
	char geom[256], name[160];
	size_t i, k, *idx;

	fprintf(o->out, "model: %s\n", geom_str(&o->model.geom, geom, sizeof(geom)));
	if (lb)
		print_large(o->out, &o->model.geom, lb, la);
	else if (o->model.geom.name)
		fprintf(o->out, "%s\n", geom_meaning(&o->model.geom, geom, sizeof(geom)));
	if (o->show_paths && rb->npaths) {
		size_t show = rb->npaths < o->show_paths ? rb->npaths : o->show_paths;

		idx = paths_by_weight(rb);
		fprintf(o->out, "\n%s (%zu of %zu, heaviest first):\n",
		       rb->node_stream ? "hot functions (the samples carry no paths)"
				       : "hot paths",
		       show, rb->npaths);
		fprintf(o->out, "  %10s %5s %9s %6s %6s %6s %10s %10s  %s\n", "weight", "funcs", "bytes",
		       "before", "after", "bound", "miss-before", "miss-after", "path");
		for (k = 0; k < show; k++) {
			const struct model_path *b = &rb->paths[idx[k]], *a = &ra->paths[idx[k]];

			if (rb->node_stream)
				snprintf(name, sizeof(name), "%s",
					 cg->img->funcs[cg->nodes[idx[k]].func].name);
			else
				path_name(cg, &cg->paths[idx[k]], name, sizeof(name));
			fprintf(o->out, "  %10" PRIu64 " %5u %9" PRIu64 " %6u %6u %6u %10" PRIu64
			       " %10" PRIu64 "  %s\n", b->weight, b->nfuncs, a->bytes, b->pages,
			       a->pages, a->bound, b->tlb_misses[0], a->tlb_misses[0], name);
		}
		fprintf(o->out, "  (pages: distinct %" PRIu64 "-byte pages; misses: %u-entry TLB during "
		       "the path's replayed runs)\n", o->model.geom.page_size, o->model.geom.tlb_entries[0]);
		free(idx);
	}
	fprintf(o->out, "\ntotal:\n");
	fprintf(o->out, "  pages per path run (weighted mean): before %.2f, after %.2f, bound %.2f\n",
	       model_mean_pages(rb), model_mean_pages(ra), model_mean_bound(ra));
	fprintf(o->out, "  executed set: %zu functions, %" PRIu64 " bytes: pages before %zu, after %zu, "
	       "bound %zu\n", ra->set_nodes, ra->set_bytes, rb->set_pages, ra->set_pages,
	       ra->set_bound);
	fprintf(o->out, "  simulated I-TLB misses, %" PRIu64 " path runs replayed (%" PRIu64
	       " page references):\n", ra->runs, ra->tlb_refs);
	for (i = 0; i < o->model.geom.ntlb; i++)
		fprintf(o->out, "    %4u entries: before %10" PRIu64 ", after %10" PRIu64 " (%+.1f%%)\n",
		       o->model.geom.tlb_entries[i], rb->tlb_misses[i], ra->tlb_misses[i],
		       pct(rb->tlb_misses[i], ra->tlb_misses[i]));
	if (o->model.geom.icache.size)
		fprintf(o->out, "  simulated I-cache misses: before %" PRIu64 ", after %" PRIu64
		       " (%+.1f%%)\n", rb->icache_misses, ra->icache_misses,
		       pct(rb->icache_misses, ra->icache_misses));
}

/* Are the files at @a and @b the same bytes? False when one cannot be read
 * (the image was read already, so that is no error of its own here). */
static bool same_bytes(const char *a, const char *b)
{
	static char ba[1 << 16], bb[1 << 16];
	struct stat sa, sb;
	FILE *fa, *fb;
	bool same;

	if (stat(a, &sa) || stat(b, &sb) || sa.st_size != sb.st_size)
		return false;
	if (sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino)
		return true;
	fa = fopen(a, "rb");
	fb = fopen(b, "rb");
	same = fa && fb;

	while (same) {
		size_t na = fread(ba, 1, sizeof(ba), fa), nb = fread(bb, 1, sizeof(bb), fb);

		same = na == nb && !memcmp(ba, bb, na) && !ferror(fa) && !ferror(fb);
		if (na < sizeof(ba))
			break;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

/* OLD linked with the order: its own hot region holds every listed function
 * in the listed order (then OLD and NEW were most likely given swapped). */
static void check_old(const struct kimage *oimg, const struct order_file *of,
		      struct verdict *v)
{
	uint64_t lo, hi, prev = 0;
	size_t i;

	v->old_has_region = kimage_symbol_addr(oimg, "__hotpack_text_start", &lo) &&
			    kimage_symbol_addr(oimg, "__hotpack_text_end", &hi) && hi > lo;
	v->order_in_old = v->old_has_region && of && of->n;
	for (i = 0; v->order_in_old && i < of->n; i++) {
		uint64_t a = of->items[i].old->addr;

		v->order_in_old = a >= lo && a < hi && a >= prev;
		prev = a;
	}
}

/* The cause of an order not applied: the commonest mistakes first. */
static const char *not_applied_cause(const struct verdict *v, const struct order_file *of)
{
	bool few_sections = v->new_secnames == KSEC_MAP || v->new_secnames == KSEC_OBJECT ?
		v->new_movable * 10 < v->new_funcs : false;
	bool new_region = v->have_region && v->region_end > v->region_start;

	if (v->identical)
		return "NEW is byte-identical to OLD: the kernel was not relinked with the "
		       "order (NEW is the saved old image, or make ran without "
		       "HOTPACK_ORDER=/abs/order.lds); relink with it, the same KCFLAGS, and "
		       "give the vmlinux it writes as NEW";
	if (of && !v->listed && !of->unresolved)
		return "the order file lists no function: it is empty (a failed `hotpack ... > "
		       "order.lds` leaves an empty file); write it with hotpack -o and relink";
	if (v->old_has_region && !new_region && (!of || v->order_in_old))
		return of ? "OLD and NEW are swapped: the order is in OLD (in its hot region, "
			    "in order) and NEW has no hot region; give the image the samples "
			    "were taken on first and the relinked one second"
			  : "OLD has a hot region and NEW has none: OLD and NEW are swapped "
			    "(the image the samples were taken on comes first), or NEW was "
			    "linked without HOTPACK_ORDER";
	if (of && !v->listed)
		return "the order file names no function of OLD: it was made for another "
		       "build, or OLD is not the image it was made from";
	if (v->missing * 10 >= v->nodes)
		return "NEW lacks many of the sampled functions: it is another build, not "
		       "OLD relinked with the order";
	if (few_sections)
		return "NEW was built without -ffunction-sections (few functions sit in a "
		       ".text.<name> section of their own): rebuild with "
		       "KCFLAGS=-ffunction-sections";
	if (of && v->problems[FP_DISORDER] * 2 > v->listed - v->in_place)
		return "the functions moved, but not in this order: NEW was linked with "
		       "another order file";
	if (!v->have_region && v->hot_moved && !v->hot_same_order)
		return "the sampled functions moved but are not packed (pages above the bound "
		       "not halved): NEW is another build or was linked with another order";
	if (!v->have_region)
		return "NEW has no __hotpack_text_start: the kernel patch from linker-scripts/ "
		       "is missing, or make ran without HOTPACK_ORDER=/abs/order.lds";
	if (v->region_end == v->region_start)
		return "the hot region is empty: the order file given to HOTPACK_ORDER was "
		       "empty (a failed `hotpack ... > order.lds` leaves one; write it with "
		       "-o) or matched no input section (an order made for another build, or "
		       "a kernel built without -ffunction-sections)";
	if (of && v->problems[FP_MISSING] == v->listed)
		return "none of the listed functions is in NEW: a wrong image or order file";
	return of ? "only part of the order is in place: a stale order file (made for "
		    "another build), or a relink that did not pick up the new order"
		  : "none of the sampled functions is in the hot region: an order made "
		    "from other samples or for another build";
}

/* Is the order applied in NEW? */
static bool verdict_applied(const struct verdict *v, const struct order_file *of)
{
	if (of)
		/* listed functions in NEW in order, but NEW without a hot region
		 * and OLD with the order in its own: the images are swapped */
		return v->listed && v->in_place == v->listed &&
		       !(v->order_in_old && !(v->have_region && v->region_end > v->region_start));
	if (v->have_region)
		return v->region_end > v->region_start && v->hot_in_region > 0;
	/* Nothing but addresses to go on: another build, or any other
	 * order, also "moves" every function, so the move must also
	 * pack OLD's functions (nearly all still there): at least half
	 * of the pages above the bound gone. */
	return v->hot_moved > 0 && !v->hot_same_order && v->missing * 10 < v->nodes &&
	       2 * ((long long)v->pages_after - (long long)v->pages_bound) <=
		       (long long)v->pages_before - (long long)v->pages_bound;
}

/* What the verdict rests on, for the text. */
static void print_findings(FILE *out, const struct verdict *v, const struct order_file *of)
{
	fprintf(out, "\n");
	if (v->have_region)
		fprintf(out, "hot region in NEW: 0x%" PRIx64 "-0x%" PRIx64 " (%" PRIu64
		       " bytes, __hotpack_text_start/_end)\n", v->region_start, v->region_end,
		       v->region_end - v->region_start);
	else
		fprintf(out, "hot region in NEW: none (no __hotpack_text_start symbol)\n");
	if (of)
		fprintf(out, "order file (%s format): %zu functions listed, %zu in place, %zu not in "
		       "NEW, %zu did not move, %zu outside the hot region, %zu out of order; "
		       "%zu lines named nothing in OLD\n", of->format, v->listed, v->in_place,
		       v->problems[FP_MISSING], v->problems[FP_STAYED],
		       v->problems[FP_OUTSIDE], v->problems[FP_DISORDER], of->unresolved);
	if (of && v->layout_checked)
		fprintf(out, "the model's layout: %zu of the %zu in the hot region where its packing "
		       "puts them%s", v->layout_checked - v->layout_off, v->layout_checked,
		       v->layout_off ? "" : "\n");
	if (of && v->layout_off)
		fprintf(out, "; %zu elsewhere, %" PRIu64 " bytes off in all (alignments the "
		       "link and the model do not agree on: the model's figures for NEW are off "
		       "by as much; hotpack order --object vmlinux.o takes them exact)\n",
		       v->layout_off, v->layout_off_bytes);
	if (of && v->rest_checked)
		fprintf(out, "the code that stays: %zu of the %zu sampled functions after the hot "
		       "region where the model's relink puts them%s", v->rest_checked - v->rest_off,
		       v->rest_checked, v->rest_off ? "" : "\n");
	if (of && v->rest_off)
		fprintf(out, "; %zu elsewhere, up to %" PRIu64 " bytes off (a gap or an alignment "
		       "the model does not know: its figures for NEW are off by as much)\n",
		       v->rest_off, v->rest_off_max);
	fprintf(out, "sampled movable functions: %zu, moved %zu", v->hot, v->hot_moved);
	if (v->have_region)
		fprintf(out, ", inside the hot region %zu", v->hot_in_region);
	fprintf(out, "%s\n", v->hot > 1 && v->hot_same_order ? ", relative order unchanged" : "");
}

/* Decide, print the verdict (@quiet, for --json: only the error), return
 * the exit status. */
static int print_verdict(FILE *out, const struct verdict *v, const struct order_file *of,
			 const char *newpath, bool quiet)
{
	const char *cause;

	if (!quiet)
		print_findings(out, v, of);
	if (verdict_applied(v, of)) {
		if (!quiet)
			fprintf(out, "verdict: the order is applied in %s\n", newpath);
		return HP_EXIT_OK;
	}
	cause = not_applied_cause(v, of);
	pr_err("%s: the order was not applied: %s", newpath, cause);
	if (!quiet)
		fprintf(out, "verdict: NOT applied: %s\n", cause);
	return HP_EXIT_NOT_APPLIED;
}

/* What verify_json() writes. */
struct verify_json_in {
	const char *oldpath, *newpath;
	char *const *inputs;
	int ninputs;
	const struct profile *prof;
	const struct cgraph *cg;
	const struct model_result *rb, *ra, *lb, *la;	/* lb, la: NULL without large pages */
	const struct verdict *v;
	const struct order_file *of;
};

/* The before and after figures under @g, as two objects. */
static void json_before_after(struct json *j, const struct model_result *b,
			      const struct model_result *a, const struct geometry *g)
{
	json_object(j, "before");
	json_model(j, b, g);
	json_end(j);
	json_object(j, "after");
	json_model(j, a, g);
	json_end(j);
}

/* The result as JSON (docs/json.md), on stdout. */
static int verify_json(const struct verify_opts *o, const struct verify_json_in *in,
		       bool applied)
{
	const struct verdict *v = in->v;
	const struct model_result *rb = in->rb, *ra = in->ra;
	size_t show = rb->npaths < o->show_paths ? rb->npaths : o->show_paths;
	size_t *idx = paths_by_weight(rb);
	struct geometry large;
	struct cli_out out = { 0 };
	char name[160];
	struct json j;
	int err = cli_out_open(&out, o->output);

	if (err) {
		free(idx);
		return err;
	}
	json_begin(&j, out.f, "hotpack-verify", 1);
	json_str(&j, "old", in->oldpath);
	json_str(&j, "new", in->newpath);
	json_strings(&j, "inputs", in->inputs, in->ninputs);
	json_object(&j, "samples");
	json_u64(&j, "read", in->prof->nsamples);
	json_u64(&j, "matched", in->prof->matched);
	json_end(&j);
	json_u64(&j, "functions", in->cg->nnodes);
	json_u64(&j, "hot_paths", in->cg->npaths);
	json_u64(&j, "missing_in_new", v->missing);
	json_geometry(&j, "geometry", &o->model.geom);
	if (in->lb && geom_large(&o->model.geom, &large)) {
		json_object(&j, "large_pages");
		json_geometry(&j, "geometry", &large);
		json_before_after(&j, in->lb, in->la, &large);
		json_end(&j);
	}
	json_before_after(&j, rb, ra, &o->model.geom);
	json_str(&j, "paths_of", rb->node_stream ? "functions" : "paths");
	json_array(&j, "paths");
	for (size_t k = 0; k < show; k++) {
		const struct model_path *b = &rb->paths[idx[k]], *a = &ra->paths[idx[k]];

		if (rb->node_stream)
			snprintf(name, sizeof(name), "%s",
				 in->cg->img->funcs[in->cg->nodes[idx[k]].func].name);
		else
			path_name(in->cg, &in->cg->paths[idx[k]], name, sizeof(name));
		json_object(&j, NULL);
		json_str(&j, "name", name);
		json_u64(&j, "weight", b->weight);
		json_u64(&j, "functions", b->nfuncs);
		json_u64(&j, "bytes", a->bytes);
		json_u64(&j, "bound", a->bound);
		json_u64(&j, "pages_before", b->pages);
		json_u64(&j, "pages_after", a->pages);
		json_u64(&j, "misses_before", b->tlb_misses[0]);
		json_u64(&j, "misses_after", a->tlb_misses[0]);
		json_end(&j);
	}
	json_end(&j);
	if (v->have_region) {
		json_object(&j, "hot_region");
		json_addr(&j, "start", v->region_start);
		json_addr(&j, "end", v->region_end);
		json_u64(&j, "bytes", v->region_end - v->region_start);
		json_end(&j);
	} else {
		json_null(&j, "hot_region");
	}
	if (in->of) {
		json_object(&j, "order_file");
		json_str(&j, "path", o->order_path);
		json_str(&j, "format", in->of->format);
		json_u64(&j, "listed", v->listed);
		json_u64(&j, "in_place", v->in_place);
		json_u64(&j, "not_in_new", v->problems[FP_MISSING]);
		json_u64(&j, "did_not_move", v->problems[FP_STAYED]);
		json_u64(&j, "outside_region", v->problems[FP_OUTSIDE]);
		json_u64(&j, "out_of_order", v->problems[FP_DISORDER]);
		json_u64(&j, "unresolved_lines", in->of->unresolved);
		json_u64(&j, "layout_checked", v->layout_checked);
		json_u64(&j, "layout_off", v->layout_off);
		json_u64(&j, "layout_off_bytes", v->layout_off_bytes);
		json_u64(&j, "rest_checked", v->rest_checked);
		json_u64(&j, "rest_off", v->rest_off);
		json_u64(&j, "rest_off_max_bytes", v->rest_off_max);
		json_end(&j);
	} else {
		json_null(&j, "order_file");
	}
	json_object(&j, "sampled_movable");
	json_u64(&j, "functions", v->hot);
	json_u64(&j, "moved", v->hot_moved);
	json_u64(&j, "in_region", v->hot_in_region);
	json_bool(&j, "same_order", v->hot > 1 && v->hot_same_order);
	json_end(&j);
	json_bool(&j, "applied", applied);
	json_str(&j, "cause", applied ? NULL : not_applied_cause(v, in->of));
	free(idx);
	return json_commit(&j, &out);
}

static int verify_run(struct verify_opts *o, char *oldpath, char *newpath, char **inputs,
		      int ninputs)
{
	struct kimage *oimg = NULL, *nimg = NULL;
	struct profile *prof = profile_new();
	struct cgraph *cg = NULL;
	struct model_result rb = { 0 }, ra = { 0 }, lb = { 0 }, la = { 0 };
	struct model_opts large;
	bool have_large = false;
	struct order_file of = { 0 };
	struct verdict v = { 0 };
	struct cli_out rep = { 0 };
	uint64_t *old_addr = NULL, *new_addr = NULL, *new_size = NULL, *model_addr = NULL;
	size_t i, missing = 0;
	int err, ret = HP_EXIT_ERROR;

	err = pipe_open_image(&oimg, oldpath, &o->old_sections, false);
	if (!err)
		err = pipe_open_image(&nimg, newpath, &o->new_sections, false);
	if (!err)
		err = input_read_all(prof, oimg, inputs, ninputs, &o->pipe.input);
	if (!err)
		err = cg_build(&cg, oimg, prof, &(struct cg_opts){ .static_edges = false });
	if (!err && !cg->nnodes) {
		pr_err("%s: no sampled function found in %s; are the samples from this "
		       "kernel?", inputs[0], oldpath);
		err = -ENOENT;
	}
	if (!err && o->order_path)
		err = order_file_read(o->order_path, oimg, &of);
	if (err)
		goto out;
	pipe_machine_geometry(&o->model.geom, oimg);
	large = o->model;
	have_large = geom_large(&o->model.geom, &large.geom);

	old_addr = xmallocarray(cg->nnodes, sizeof(*old_addr));
	new_addr = xmallocarray(cg->nnodes, sizeof(*new_addr));
	new_size = xmallocarray(cg->nnodes, sizeof(*new_size));
	model_addr = xmallocarray(cg->nnodes, sizeof(*model_addr));
	for (i = 0; i < cg->nnodes; i++) {
		const struct kfunc *f = &oimg->funcs[cg->nodes[i].func];
		const struct kfunc *g = match_func(nimg, f);

		old_addr[i] = f->addr;
		new_addr[i] = g ? g->addr : VERIFY_NO_ADDR;
		new_size[i] = g ? g->size : cg->nodes[i].size;
		/* a function NEW lacks is costed where it was */
		model_addr[i] = g ? g->addr : f->addr;
		if (!g) {
			if (missing < o->show_funcs)
				pr_warn("%s: %s (sampled in %s) not found; costed at its old "
					"address", newpath, f->name, oldpath);
			missing++;
		}
	}
	if (missing)
		pr_warn("%s: %zu of %zu sampled functions not found", newpath, missing,
			cg->nnodes);

	o->out = stdout;
	if (!o->json) {
		err = cli_out_open(&rep, o->output);
		if (err)
			goto out;
		o->out = rep.f;
		fprintf(o->out, "hotpack verify: %s -> %s\n", oldpath, newpath);
		fprintf(o->out, "samples: %" PRIu64 " read, %" PRIu64 " matched in OLD; %zu functions, "
		       "%zu paths\n", prof->nsamples, prof->matched, cg->nnodes, cg->npaths);
	}
	err = model_eval(cg, old_addr, &o->model, &rb);
	if (!err)
		err = model_eval_sized(cg, model_addr, new_size, &o->model, &ra);
	if (!err && have_large)
		err = model_eval(cg, old_addr, &large, &lb);
	if (!err && have_large)
		err = model_eval_sized(cg, model_addr, new_size, &large, &la);
	if (err)
		goto out;
	if (!o->json)
		print_report(o, cg, &rb, &ra, have_large ? &lb : NULL, have_large ? &la : NULL);

	v.have_region = kimage_symbol_addr(nimg, "__hotpack_text_start", &v.region_start) &&
			kimage_symbol_addr(nimg, "__hotpack_text_end", &v.region_end);
	v.new_movable = nimg->nmovable;
	v.new_funcs = nimg->nfuncs;
	v.new_secnames = nimg->secnames;
	if (!o->json)
		fprintf(o->out, "\n");
	if (o->order_path) {
		check_order(o, &of, nimg, &v);
		check_layout(&of, &v);
		check_rest(&of, oimg, cg, new_addr, &v);
	}
	check_hot(cg, old_addr, new_addr, &v);
	v.nodes = cg->nnodes;
	v.missing = missing;
	v.pages_before = rb.set_pages;
	v.pages_after = ra.set_pages;
	v.pages_bound = ra.set_bound < ra.set_pages ? ra.set_bound : ra.set_pages;
	v.identical = same_bytes(oldpath, newpath);
	check_old(oimg, o->order_path ? &of : NULL, &v);
	ret = print_verdict(o->out, &v, o->order_path ? &of : NULL, newpath, o->json);
	if (o->json) {
		struct verify_json_in in = { oldpath, newpath, inputs, ninputs, prof, cg, &rb, &ra,
					     have_large ? &lb : NULL, have_large ? &la : NULL,
					     &v, o->order_path ? &of : NULL };

		err = verify_json(o, &in, ret == HP_EXIT_OK);
	} else {
		err = cli_out_commit(&rep);
	}
out:
	if (err)
		cli_out_abort(&rep);
	model_result_free(&rb);
	model_result_free(&ra);
	model_result_free(&lb);
	model_result_free(&la);
	order_file_free(&of);
	free(old_addr);
	free(new_addr);
	free(new_size);
	free(model_addr);
	cg_free(cg);
	profile_free(prof);
	kimage_close(nimg);
	kimage_close(oimg);
	return err ? HP_EXIT_ERROR : ret;
}

int cmd_verify(int argc, char **argv)
{
	struct verify_opts o = { 0 };
	int err = verify_parse(argc, argv, &o);

	if (err > 0)
		return HP_EXIT_OK;
	if (err)
		return HP_EXIT_USAGE;
	return verify_run(&o, argv[optind], argv[optind + 1], argv + optind + 2,
			  argc - optind - 2);
}
