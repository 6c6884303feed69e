// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_report.c - "hotpack report VMLINUX SAMPLES...": what a layout would
 * do, before any kernel is rebuilt. For the image as linked ("now") and
 * for the chosen algorithm (or all of them), the model's figures: weighted
 * mean pages per hot-path run against the bounds, the executed set's pages,
 * simulated I-TLB misses for each TLB size and I-cache misses; then the
 * heaviest paths one by one; optionally the page heat map as SVG. Every
 * table names the geometry it assumed.
 *
 * The order is placed where the main text starts (place_insert(): the lowest
 * movable function, or the end of the fixed text before it), page-aligned,
 * as the order fragment does; the other functions follow it as the linker
 * lays them out (place_relink()).
 *
 * With --order FILE, an order made before (from other samples, or shipped
 * profiles) gets a column of its own beside the one the algorithm makes from
 * these samples: what that order does on this workload before any kernel is
 * relinked with it, and how far it is from what these samples could reach.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/commands.h"
#include "cmd/pipeline.h"
#include "emit/emit.h"
#include "emit/json.h"
#include "emit/order_read.h"
#include "emit/svg.h"
#include "graph/graph.h"
#include "image/image.h"
#include "layout/layout.h"
#include "layout/layout_traced.h"
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

struct report_opts {
	struct pipe_opts pipe;
	struct layout_opts layout;
	const char *algo;	/* a name or "all" */
	const char *svg;
	const char *order_path;	/* --order: an existing order to cost */
	bool json;		/* the report as JSON (docs/json.md) */
	const char *output;	/* -o: the report (text or JSON); NULL stdout */
	FILE *out;		/* where the report is being written */
	struct model_opts model;	/* its geometry is also layout.geom */
	unsigned int show_paths;
	int replay;		/* -1 auto, 0 paths, 1 nodes */
	bool time;
};

static void report_usage(FILE *f)
{
	fprintf(f,
"usage: hotpack report [options] VMLINUX SAMPLES...\n"
"\n"
"Predict what an order does: pages per hot path now and after, against the\n"
"lower bound, and simulated I-TLB and I-cache misses, per algorithm.\n"
"\n"
"  -a, --algo NAME|all      algorithm to report (default: %s), or all side by side\n"
"  -O, --order FILE         also cost the order FILE (any format of hotpack order\n"
"                           -f, made for this build, e.g. from other samples):\n"
"                           a column \"order\", the samples' functions it places,\n"
"                           and its misses against the algorithm's order made\n"
"                           from these samples\n"
"  -p, --page-size SIZE     page size: 4K (default), 16K, 64K, 2M, 8M, 16M, ...\n"
"  -e, --tlb-entries LIST   I-TLB sizes simulated (default 32,64,128)\n"
"      --tlb-ways N         set-associative with N ways (default 0: fully\n"
"                           associative); every size / N a power of 2\n"
"      --tlb-model NAME     the TLB's replacement model (default LRU, the only one)\n"
"      --pin START-END      addresses that never miss (pinned entries), repeatable\n"
"      --icache SIZE,LINE,WAYS  I-cache model (default 32K,64,8)\n"
"      --no-icache          no I-cache figures\n"
GEOM_PRESET_USAGE
"      --budget RUNS        path runs replayed, 1 or more (default %u)\n"
"      --replay paths|nodes replay the hot paths (default when there are any) or\n"
"                           the functions' sample weights (always, when there\n"
"                           are no paths)\n"
"  -n, --paths N            heaviest paths listed one by one (default 10, 0: none)\n"
CLI_USAGE_OUTPUT
"      --svg FILE           write the picture to FILE: pages per run, per path\n"
"                           and the heat map, now and after; '-': stdout, the\n"
"                           SVG alone (the text report only with -o FILE)\n"
"      --json               the report as one JSON object (docs/json.md)\n"
"      --time               add each algorithm's run time (not deterministic)\n"
PIPE_LAYOUT_USAGE
PIPE_USAGE
CLI_USAGE_QVH
"\n"
"Exit status: 0 ok, 1 error (bad input, nothing matched), 2 usage.\n",
		layout_default_name(), MODEL_DEFAULT_BUDGET, input_format_usage());
}

enum {
	OPT_BUDGET = 256, OPT_REPLAY, OPT_PATHS, OPT_SVG, OPT_TIME, OPT_JSON,
};

static const struct option report_longopts[] = {
	{ "algo", required_argument, NULL, 'a' },
	{ "order", required_argument, NULL, 'O' },
	GEOM_TLB_LONGOPTS,
	GEOM_CACHE_LONGOPTS,
	{ "budget", required_argument, NULL, OPT_BUDGET },
	{ "replay", required_argument, NULL, OPT_REPLAY },
	{ "paths", required_argument, NULL, OPT_PATHS },
	{ "svg", required_argument, NULL, OPT_SVG },
	{ "time", no_argument, NULL, OPT_TIME },
	{ "json", no_argument, NULL, OPT_JSON },
	PIPE_LAYOUT_LONGOPTS,
	PIPE_LONGOPTS,
	CLI_COMMON_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

static int report_parse(int argc, char **argv, struct report_opts *o)
{
	int c;
	uint64_t v;

	o->algo = layout_default_name();
	o->layout.coverage = 1.0;
	pipe_opts_init(&o->pipe);
	o->pipe.sections.need_function_sections = true;
	o->show_paths = 10;
	o->replay = -1;
	model_opts_default(&o->model);
	optind = 1;
	while ((c = cli_getopt(argc, argv, CLI_COMMON_SHORTOPTS "a:O:p:e:n:", report_longopts)) != -1) {
		int shared = cli_common_opt(c);

		if (!shared)
			shared = pipe_parse_opt(&o->pipe, c, optarg);
		if (!shared)
			shared = pipe_parse_layout_opt(&o->layout, c, optarg);
		if (!shared) {
			shared = geom_parse_opt(&o->model.geom, c, optarg);
			if (shared == 2)
				return 1;
		}
		if (shared < 0)
			return -EINVAL;
		if (shared)
			continue;
		switch (c) {
		case 'a': o->algo = optarg; break;
		case 'O': o->order_path = optarg; break;
		case OPT_BUDGET:
			if (cli_parse_u64("--budget", optarg, 0, 1, 1000000000, &o->model.budget))
				return -EINVAL;
			break;
		case OPT_REPLAY:
			if (!strcmp(optarg, "paths"))
				o->replay = 0;
			else if (!strcmp(optarg, "nodes"))
				o->replay = 1;
			else {
				pr_err("--replay: '%s' is not paths or nodes; give one of the two", optarg);
				return -EINVAL;
			}
			break;
		case 'n':
		case OPT_PATHS:
			if (cli_parse_u64("--paths", optarg, 0, 0, CLI_LIST_MAX, &v))
				return -EINVAL;
			o->show_paths = (unsigned int)v;
			break;
		case OPT_SVG: o->svg = optarg; break;
		case OPT_TIME: o->time = true; break;
		case OPT_JSON: o->json = true; break;
		case 'o': o->output = optarg; break;
		case 'h': report_usage(stdout); return 1;
		default:
			return -EINVAL;
		}
	}
	if (argc - optind < 2) {
		pr_err("give the vmlinux and at least one samples file ('-' for stdin); "
		       "see hotpack report --help");
		return -EINVAL;
	}
	if (input_check_paths(argv + optind + 1, argc - optind - 1))
		return -EINVAL;
	if (o->json && o->svg && !strcmp(o->svg, "-")) {
		pr_err("--json and --svg - both write to stdout; give --svg a file");
		return -EINVAL;
	}
	if (pipe_check_output(o->svg, argv[optind], &o->pipe.sections, argv + optind + 1,
			      argc - optind - 1) ||
	    pipe_check_output(o->output, argv[optind], &o->pipe.sections, argv + optind + 1,
			      argc - optind - 1))
		return -EINVAL;
	/* (no --order: no input to check) */
	if (cli_out_check_input(o->output, o->order_path, "the order file") ||
	    cli_out_check_input(o->svg, o->order_path, "the order file"))
		return -EINVAL;
	if (o->svg && o->output && strcmp(o->svg, "-") && cli_same_file(o->svg, o->output)) {
		pr_err("--svg %s: is also the report's output (-o); give them two files",
		       o->svg);
		return -EINVAL;
	}
	if (strcmp(o->algo, "all") && !layout_find(o->algo)) {
		pr_err("--algo: unknown algorithm '%s'; give all or one of hotpack --list-algos",
		       o->algo);
		return -EINVAL;
	}
	if (strcmp(o->algo, "all") && pipe_check_search(&o->layout, layout_find(o->algo)))
		return -EINVAL;
	/* checked now so that a value the simulators refuse (--tlb-ways 3,
	 * ways not dividing a size) is a usage error, said before any input
	 * is read */
	if (geom_check(&o->model.geom) || tlbsim_check_model(&o->model.geom))
		return -EINVAL;
	o->layout.geom = o->model.geom;
	return 0;
}

/* One column of the report: a layout and what the model made of it. */
struct report_col {
	const char *name;
	uint64_t *addr;
	struct model_result r;
	struct model_result rl;	/* in the large pages, when the geometry has them */
	double ms;
	size_t placed;
	struct layout_traced traced;	/* what the explicit traces got */
	struct emit_summary sum;	/* what order's header says of it */
	struct layout_search_outcome searched;	/* pages' search */
	bool from_file;		/* --order's: no search, no summary of its own */
	uint32_t *order;	/* with --order, an algorithm's: the nodes it placed */
};

/*
 * An order file costed on these samples (--order): what it names of the
 * image, which of the samples' functions it places, and the algorithm's
 * column it is measured against (the order these samples make themselves).
 */
struct report_order {
	const char *format;
	size_t lines, listed, unresolved;	/* its lines; the functions they
						 * name; the lines naming none */
	size_t placed;			/* the samples' functions in the order */
	uint64_t weight, placed_weight;	/* the samples' weight; theirs */
	size_t col, vs;			/* its column; the best algorithm's */
	bool far;			/* past REPORT_ORDER_FAR at the first size */
	uint32_t *funcs;		/* the image functions it lists, in order */
	bool *in_order;			/* per node: in its hot region */
	/* it with the samples' functions it lacks placed after it, in the
	 * best algorithm's order: what these samples' own code would bring */
	size_t nlacking;
	struct model_result lacking;
};

/* Past this many times the misses of the order the samples make, the order
 * was made from other code: say how to mix these samples in. */
#define REPORT_ORDER_FAR 1.5

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

/* @m misses against @b past REPORT_ORDER_FAR (never against none) */
static bool ratio_far(uint64_t m, uint64_t b)
{
	return b && ratio(m, b) > REPORT_ORDER_FAR;
}

static double pct_of(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

/* The table of @g's figures: col[i].r, or with @large col[i].rl. */
static void print_summary(const struct report_opts *o, const struct geometry *g, bool large,
			  const struct report_col *col, size_t n)
{
	fprintf(o->out, "%-10s %9s %13s %7s %11s", "layout", "pages/run", "bound(fixed)", "bound",
	       "set pages");
	for (size_t k = 0; k < g->ntlb; k++)
		fprintf(o->out, " %8s%-3u", "miss", g->tlb_entries[k]);
	if (g->icache.size)
		fprintf(o->out, " %12s", "icache-miss");
	if (o->time)
		fprintf(o->out, " %9s", "time(ms)");
	fprintf(o->out, "\n");
	for (size_t i = 0; i < n; i++) {
		const struct model_result *r = large ? &col[i].rl : &col[i].r;
		char set[32];

		snprintf(set, sizeof(set), "%zu/%zu", r->set_pages, r->set_bound);
		fprintf(o->out, "%-10s %9.2f %13.2f %7.2f %11s", col[i].name, model_mean_pages(r),
		       model_mean_fixed_bound(r), model_mean_bound(r), set);
		for (size_t k = 0; k < g->ntlb; k++)
			fprintf(o->out, " %11" PRIu64, r->tlb_misses[k]);
		if (g->icache.size)
			fprintf(o->out, " %12" PRIu64, r->icache_misses);
		if (o->time)
			fprintf(o->out, " %9.1f", col[i].ms);
		fprintf(o->out, "\n");
	}
}

/* Each algorithm's order in the words of order's header: the same layout. */
static void print_orders(const struct report_opts *o, const struct report_col *col, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		if (col[i].from_file)
			continue;
		fprintf(o->out, "\norder (%s), as hotpack order writes it:\n", col[i].name);
		emit_summary_print(o->out, "  ", &col[i].sum);
		emit_search_print(o->out, "  ", &col[i].searched);
	}
}

static void print_paths(const struct report_opts *o, const struct cgraph *cg,
			const struct report_col *col, size_t n)
{
	size_t shown = cg->npaths < o->show_paths ? cg->npaths : o->show_paths;

	if (!shown)
		return;
	fprintf(o->out, "\nheaviest hot paths (%zu of %zu), pages each:\n", shown, cg->npaths);
	fprintf(o->out, "%4s %10s %6s %6s %6s", "#", "weight", "funcs", "bound", "fixed");
	for (size_t i = 0; i < n; i++)
		fprintf(o->out, " %9.9s", col[i].name);
	fprintf(o->out, "  root\n");
	for (size_t p = 0; p < shown; p++) {
		const struct model_path *mp = &col[0].r.paths[p];
		const struct cg_path *cp = &cg->paths[p];
		const char *root = cg->img ? cg->img->funcs[cg->nodes[cp->nodes[0]].func].name : "?";

		fprintf(o->out, "%4zu %10" PRIu64 " %6u %6u %6u", p + 1, mp->weight, mp->nfuncs, mp->bound,
		       mp->fixed_bound);
		for (size_t i = 0; i < n; i++)
			fprintf(o->out, " %9u", col[i].r.paths[p].pages);
		fprintf(o->out, "  %s%s\n", root, layout_traced_is(cg, &o->layout, p) ? " (traced)" : "");
	}
}

/* Per layout, the explicit traces at their reachable bound, and why the
 * step left an algorithm's order as it was. */
static void print_traced(const struct report_opts *o, const struct cgraph *cg,
			 const struct report_col *col, size_t n)
{
	size_t ntr = 0;

	for (size_t p = 0; p < cg->npaths; p++)
		ntr += layout_traced_is(cg, &o->layout, p);
	if (!ntr)
		return;
	fprintf(o->out, "\nexplicit paths at their reachable bound:\n");
	for (size_t i = 0; i < n; i++) {
		const struct layout_traced *t = &col[i].traced;
		/* now and an order file: no step ran, the model's count */
		bool made = i && !col[i].from_file;
		size_t at = 0;

		/* the step's count, which knows the bounds paths leave each other */
		for (size_t p = 0; !made && p < cg->npaths; p++)
			at += layout_traced_is(cg, &o->layout, p) &&
			      col[i].r.paths[p].pages <= col[i].r.paths[p].fixed_bound;
		if (made)
			at = t->at_bound;
		fprintf(o->out, "%-10s %zu of %zu", col[i].name, at, ntr);
		if (made && !t->packed)
			fprintf(o->out, "; not packed first: model: packing costs %" PRIu64 " misses more "
			       "than it saves (the paths %" PRIu64 " -> %" PRIu64 ", the rest "
			       "%" PRIu64 " -> %" PRIu64 ")", t->path_misses[1] + t->node_misses[1] -
			       t->path_misses[0] - t->node_misses[0], t->path_misses[0],
			       t->path_misses[1], t->node_misses[0], t->node_misses[1]);
		fprintf(o->out, "\n");
		/* the paths off their bound, and why (the step's own count) */
		for (size_t k = 0; made && t->packed && k < t->nshown; k++) {
			char why[512];

			if (t->path[k].why != LAYOUT_TRACED_AT_BOUND)
				fprintf(o->out, "  %s\n", layout_traced_why(cg, t, k, why, sizeof(why)));
		}
	}
}

/* Functions with weight of their own that no path runs: what a path replay
 * leaves out. */
static void off_paths(const struct cgraph *cg, size_t *n, uint64_t *w, uint64_t *all)
{
	bool *on = xcalloc(cg->nnodes, sizeof(*on));

	for (size_t i = 0; i < cg->npaths; i++)
		for (uint32_t j = 0; j < cg->paths[i].n; j++)
			on[cg->paths[i].nodes[j]] = true;
	for (size_t v = 0; v < cg->nnodes; v++) {
		*all += cg->nodes[v].weight;
		if (on[v] || !cg->nodes[v].weight)
			continue;
		(*n)++;
		*w += cg->nodes[v].weight;
	}
	free(on);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* What the weights of @prof count, for the heat scale. */
static const char *heat_unit(const struct profile *prof)
{
	switch (prof->units) {
	case PROF_UNIT_EVENTS: return "events (samples, calls, trace entries)";
	case PROF_UNIT_PERIOD: return "perf sample periods";
	case PROF_UNIT_EVENTS | PROF_UNIT_PERIOD: return "events and sample periods, mixed";
	default: return "sample weight";
	}
}

/* The picture of the report's layouts (svg.h) into o->svg. */
static int report_svg(const struct report_opts *o, const struct pipe *p,
		      const struct report_col *col, size_t ncol, const char *vmlinux,
		      char *const *inputs, int ninputs)
{
	struct svg_strip *st = xcalloc(ncol, sizeof(*st));
	uint64_t *heat = xcalloc(NONZERO(p->cg->nnodes), sizeof(*heat));
	struct cli_out out = { 0 };
	char geo[320], *work = NULL;
	size_t wlen = 0;
	FILE *w = open_memstream(&work, &wlen);
	struct svg_info in = {
		.image = vmlinux, .geometry = geom_str(&o->model.geom, geo, sizeof(geo)),
		.heat_unit = heat_unit(p->prof), .page_size = o->model.geom.page_size,
		.tlb_entries = o->model.geom.tlb_entries[0], .max_paths = o->show_paths,
	};
	int err;

	if (!w) {
		pr_err("the SVG: out of memory; free some and retry");
		free(st);
		free(heat);
		return -ENOMEM;
	}
	for (int i = 0; i < ninputs; i++)
		fprintf(w, "%s%s", i ? ", " : "", inputs[i]);
	fprintf(w, "; %zu functions, %zu hot paths", p->cg->nnodes, p->cg->npaths);
	fclose(w);
	in.workload = work;
	for (size_t i = 0; i < ncol; i++)
		st[i] = (struct svg_strip){ col[i].name, col[i].addr, &col[i].r };
	layout_heat(p->cg, heat);
	err = cli_out_open(&out, o->svg);
	if (!err) {
		err = svg_heatmap(out.f, p->cg, heat, st, ncol, &in);
		if (err)
			cli_out_abort(&out);
		else
			err = cli_out_commit(&out);
	}
	free(work);
	free(st);
	free(heat);
	return err;
}

/* pages' search, as the text's "search:" line: "search": {what, gain_pct,
 * sizes, why}; nothing when it was not asked for (every other layout). */
static void json_search(struct json *j, const struct layout_search_outcome *s)
{
	static const char *const what[] = {
		[LAYOUT_SEARCH_NOT_RUN] = "not run", [LAYOUT_SEARCH_NOT_KEPT] = "not kept",
		[LAYOUT_SEARCH_KEPT] = "kept",
	};

	if (s->what == LAYOUT_SEARCH_NOT_ASKED)
		return;
	json_object(j, "search");
	json_str(j, "what", what[s->what]);
	if (s->what != LAYOUT_SEARCH_NOT_RUN) {
		json_num(j, "gain_pct", s->gain_pct);
		json_u64(j, "sizes", s->nsizes);
	}
	if (s->what != LAYOUT_SEARCH_KEPT)
		json_str(j, "why", s->why);
	json_end(j);
}

/* @m misses against @b, and their ratio (null against none) */
static void json_vs(struct json *j, uint64_t m, uint64_t b)
{
	json_u64(j, "misses", m);
	json_u64(j, "against_misses", b);
	if (b)
		json_num(j, "ratio", ratio(m, b));
	else
		json_null(j, "ratio");
}

/* @name: per TLB size of @g, @m's misses against @b's */
static void json_ratios(struct json *j, const char *name, const struct geometry *g,
			const uint64_t *m, const uint64_t *b)
{
	json_array(j, name);
	for (size_t k = 0; k < g->ntlb; k++) {
		json_object(j, NULL);
		json_u64(j, "entries", g->tlb_entries[k]);
		json_vs(j, m[k], b[k]);
		json_end(j);
	}
	json_end(j);
}

/* --order's lines as "order_file" (null without it). */
static void json_order_file(struct json *j, const struct report_opts *o, const struct cgraph *cg,
			    const struct report_col *col, const struct report_order *ro,
			    const struct geometry *large)
{
	const struct geometry *g = &o->model.geom;

	if (!o->order_path) {
		json_null(j, "order_file");
		return;
	}
	json_object(j, "order_file");
	json_str(j, "path", o->order_path);
	json_str(j, "format", ro->format);
	json_u64(j, "lines", ro->lines);
	json_u64(j, "listed", ro->listed);
	json_u64(j, "unresolved_lines", ro->unresolved);
	json_u64(j, "functions", cg->nnodes);
	json_u64(j, "placed", ro->placed);
	json_u64(j, "weight", ro->weight);
	json_u64(j, "placed_weight", ro->placed_weight);
	json_str(j, "against", col[ro->vs].name);
	json_ratios(j, "ratio", g, col[ro->col].r.tlb_misses, col[ro->vs].r.tlb_misses);
	json_bool(j, "far", ro->far);
	json_object(j, "with_lacking");
	json_u64(j, "functions", ro->nlacking);
	json_ratios(j, "ratio", g, ro->lacking.tlb_misses, col[ro->vs].r.tlb_misses);
	json_end(j);
	if (large) {
		json_object(j, "large_pages");
		json_u64(j, "page_size", large->page_size);
		json_u64(j, "entries", large->tlb_entries[0]);
		json_vs(j, col[ro->col].rl.tlb_misses[0], col[ro->vs].rl.tlb_misses[0]);
		json_end(j);
	} else {
		json_null(j, "large_pages");
	}
	if (g->icache.size) {
		json_object(j, "icache");
		json_vs(j, col[ro->col].r.icache_misses, col[ro->vs].r.icache_misses);
		json_end(j);
	} else {
		json_null(j, "icache");
	}
	json_end(j);
}

/* The hot paths the model replays with the bytes each function ran in
 * them (cg_path.ext), not the functions' whole extents. */
static size_t paths_with_bytes(const struct cgraph *cg)
{
	size_t n = 0;

	for (size_t i = 0; i < cg->npaths; i++)
		n += cg->paths[i].ext != NULL;
	return n;
}

/* The report as JSON (docs/json.md): what the text says, by name. */
static int report_json(const struct report_opts *o, const struct cgraph *cg,
		       const struct report_col *col, size_t ncol, const char *vmlinux,
		       char *const *inputs, int ninputs, uint64_t insert, size_t off_n,
		       uint64_t off_w, uint64_t all_w, const struct geometry *large,
		       const struct report_order *ro)
{
	size_t shown = cg->npaths < o->show_paths ? cg->npaths : o->show_paths;
	const struct model_result *r0 = &col[0].r;
	struct cli_out out = { 0 };
	struct json j;
	int err = cli_out_open(&out, o->output);

	if (err)
		return err;
	json_begin(&j, out.f, "hotpack-report", 1);
	json_object(&j, "image");
	json_str(&j, "path", vmlinux);
	json_str(&j, "arch", cg->img->arch->name);
	json_end(&j);
	json_strings(&j, "inputs", inputs, ninputs);
	json_u64(&j, "functions", cg->nnodes);
	json_u64(&j, "hot_paths", cg->npaths);
	json_u64(&j, "arcs", cg->narcs);
	json_geometry(&j, "geometry", &o->model.geom);
	json_object(&j, "replay");
	json_u64(&j, "runs", r0->runs);
	json_str(&j, "of", r0->node_stream ? "functions" : r0->sequence ? "paths-in-order"
							    : "paths-by-weight");
	json_u64(&j, "paths_with_bytes", r0->node_stream ? 0 : paths_with_bytes(cg));
	json_addr(&j, "order_start", align_up(insert, o->model.geom.page_size));
	json_object(&j, "not_replayed");
	json_u64(&j, "functions", off_n);
	json_u64(&j, "weight", off_w);
	json_u64(&j, "total_weight", all_w);
	json_end(&j);
	json_end(&j);
	for (int pass = large ? 0 : 1; pass < 2; pass++) {
		/* the machine's large pages first, as in the text */
		const struct geometry *g = pass ? &o->model.geom : large;

		if (!pass) {
			json_object(&j, "large_pages");
			json_geometry(&j, "geometry", large);
		}
		json_array(&j, "layouts");
		for (size_t i = 0; i < ncol; i++) {
			json_object(&j, NULL);
			json_str(&j, "name", col[i].name);
			json_model(&j, pass ? &col[i].r : &col[i].rl, g);
			if (o->time)
				json_num(&j, "time_ms", col[i].ms);
			json_search(&j, &col[i].searched);
			json_end(&j);
		}
		json_end(&j);
		if (!pass)
			json_end(&j);
	}
	json_order_file(&j, o, cg, col, ro, large);
	json_array(&j, "paths");
	for (size_t p = 0; p < shown; p++) {
		const struct model_path *mp = &r0->paths[p];

		json_object(&j, NULL);
		json_u64(&j, "rank", p + 1);
		json_str(&j, "root", cg->img->funcs[cg->nodes[cg->paths[p].nodes[0]].func].name);
		json_bool(&j, "traced", layout_traced_is(cg, &o->layout, p));
		json_u64(&j, "weight", mp->weight);
		json_u64(&j, "functions", mp->nfuncs);
		json_u64(&j, "bytes", mp->bytes);
		json_u64(&j, "bound", mp->bound);
		json_u64(&j, "bound_fixed", mp->fixed_bound);
		json_object(&j, "pages");
		for (size_t i = 0; i < ncol; i++)
			json_u64(&j, col[i].name, col[i].r.paths[p].pages);
		json_end(&j);
		json_end(&j);
	}
	json_end(&j);
	return json_commit(&j, &out);
}

/*
 * The image functions @funcs (@n, in order) linked as the hot region the way
 * the algorithms' orders are (place_relink_funcs()): each node's address in
 * @addr, and in @hot whether it landed in the region.
 */
static void order_relink(const struct report_opts *o, const struct cgraph *cg,
			 const uint32_t *funcs, size_t n, uint64_t insert, uint64_t *addr,
			 bool *hot)
{
	const struct kimage *img = cg->img;
	uint64_t base = align_up(insert, o->model.geom.page_size), end;
	uint64_t *at = xmallocarray(NONZERO(img->nfuncs), sizeof(*at));

	end = place_relink_funcs(img, funcs, n, insert, o->model.geom.page_size, at);
	for (size_t v = 0; v < cg->nnodes; v++) {
		addr[v] = at[cg->nodes[v].func];
		hot[v] = addr[v] >= base && addr[v] < end;
	}
	free(at);
}

/*
 * --order: read the order file against the image, link it as the hot
 * region the way the algorithms' orders are (place_relink_funcs()), and
 * count the samples' functions it places.
 */
static int report_order_place(const struct report_opts *o, const struct cgraph *cg,
			      const char *vmlinux, uint64_t insert, struct report_col *c,
			      struct report_order *ro)
{
	const struct kimage *img = cg->img;
	struct order_file of = { .every_match = true };
	uint32_t *funcs;
	int err = order_file_read(o->order_path, img, &of);

	if (err)
		goto out;
	ro->format = of.format;
	ro->lines = of.lines;
	ro->listed = of.n;
	ro->unresolved = of.unresolved;
	if (!of.n) {
		pr_err("%s: %s; no line names a function of %s: an order for another "
		       "build? make one for this vmlinux with hotpack order", o->order_path,
		       of.unresolved ? "every line names no single function" : "no order in it",
		       vmlinux);
		err = -EINVAL;
		goto out;
	}
	if (of.unresolved)
		pr_warn("%s: %zu of %zu lines name no single function of %s and are left out "
			"(an order for another build, or a name the image has more than once)",
			o->order_path, of.unresolved, of.lines, vmlinux);
	funcs = xmallocarray(of.n, sizeof(*funcs));
	for (size_t i = 0; i < of.n; i++)
		funcs[i] = (uint32_t)(of.items[i].old - img->funcs);
	c->name = "order";
	c->from_file = true;
	c->addr = xmallocarray(NONZERO(cg->nnodes), sizeof(uint64_t));
	ro->in_order = xcalloc(NONZERO(cg->nnodes), sizeof(*ro->in_order));
	order_relink(o, cg, funcs, of.n, insert, c->addr, ro->in_order);
	for (size_t v = 0; v < cg->nnodes; v++) {
		ro->placed += ro->in_order[v];
		ro->weight += cg->nodes[v].weight;
		ro->placed_weight += ro->in_order[v] ? cg->nodes[v].weight : 0;
	}
	ro->funcs = funcs;
out:
	order_file_free(&of);
	return err;
}

/*
 * --order: the file's functions, then those of the samples' functions it
 * does not place, in the best algorithm's order (@best), linked the same
 * way and costed: how much of the gap to @best is code the order lacks.
 * What it still misses above @best is its arrangement of the code it places.
 */
static int report_order_lacking(const struct report_opts *o, const struct cgraph *cg,
				uint64_t insert, const struct report_col *best,
				struct report_order *ro)
{
	uint32_t *funcs = xmallocarray(ro->listed + NONZERO(best->placed), sizeof(*funcs));
	uint64_t *addr = xmallocarray(NONZERO(cg->nnodes), sizeof(*addr));
	bool *hot = xcalloc(NONZERO(cg->nnodes), sizeof(*hot));
	size_t n = ro->listed;
	int err;

	memcpy(funcs, ro->funcs, ro->listed * sizeof(*funcs));
	for (size_t i = 0; i < best->placed; i++)
		if (!ro->in_order[best->order[i]])
			funcs[n++] = cg->nodes[best->order[i]].func;
	order_relink(o, cg, funcs, n, insert, addr, hot);
	for (size_t v = 0; v < cg->nnodes; v++)
		ro->nlacking += !ro->in_order[v] && hot[v];
	err = model_eval(cg, addr, &o->model, &ro->lacking);
	free(hot);
	free(addr);
	free(funcs);
	return err;
}

/* Per TLB size of @g, @m's misses against @b's: "N entries R.RRx" each */
static void print_ratios(FILE *out, const struct geometry *g, const uint64_t *m,
			 const uint64_t *b)
{
	for (size_t k = 0; k < g->ntlb; k++) {
		if (b[k])
			fprintf(out, "%s %u entries %.2fx", k ? "," : "", g->tlb_entries[k],
				ratio(m[k], b[k]));
		else
			fprintf(out, "%s %u entries %" PRIu64 " against 0", k ? "," : "",
				g->tlb_entries[k], m[k]);
	}
}

/* --order's lines after the table: what it placed, and how far its misses
 * are from those of the order these samples make. */
static void print_order_file(const struct report_opts *o, const struct cgraph *cg,
			     const struct report_col *col, const struct report_order *ro,
			     const char *vmlinux, const struct geometry *large)
{
	const struct model_result *r = &col[ro->col].r, *b = &col[ro->vs].r;
	const struct geometry *g = &o->model.geom;
	char ps[32], lp[32];

	fprintf(o->out, "\norder %s (%s format): %zu lines name %zu functions of %s",
		o->order_path, ro->format, ro->lines - ro->unresolved, ro->listed, vmlinux);
	if (ro->unresolved)
		fprintf(o->out, ", %zu name none", ro->unresolved);
	fprintf(o->out, "\n  it places %zu of these samples' %zu functions, %.1f%% of their "
		"sample weight; the other %zu (%.1f%%) stay where the image has them\n",
		ro->placed, cg->nnodes, pct_of(ro->placed_weight, ro->weight),
		cg->nnodes - ro->placed, 100.0 - pct_of(ro->placed_weight, ro->weight));
	fprintf(o->out, "  misses against %s's order made from these samples (%s pages):",
		col[ro->vs].name, geom_size_str(g->page_size, ps, sizeof(ps)));
	print_ratios(o->out, g, r->tlb_misses, b->tlb_misses);
	fprintf(o->out, "\n");
	fprintf(o->out, "  with the %zu of these samples' functions it lacks placed after it, as "
		"%s's order has them:", ro->nlacking, col[ro->vs].name);
	print_ratios(o->out, g, ro->lacking.tlb_misses, b->tlb_misses);
	fprintf(o->out, "; the rest of the gap is how it arranges the code it places\n");
	if (large) {
		/* what the machine's own mapping of the core text makes of it */
		const struct geom_preset *pr = geom_preset_find(g->name);
		uint64_t m = col[ro->col].rl.tlb_misses[0], mb = col[ro->vs].rl.tlb_misses[0];

		fprintf(o->out, "  in %s pages (%s, %u entries): %" PRIu64 " against %" PRIu64
			" misses", geom_size_str(large->page_size, ps, sizeof(ps)),
			pr && pr->large_code ? pr->large_code : "core text", large->tlb_entries[0],
			m, mb);
		if (mb)
			fprintf(o->out, ", %.2fx", ratio(m, mb));
		fprintf(o->out, "\n");
	}
	if (g->icache.size && b->icache_misses)
		fprintf(o->out, "  I-cache: %" PRIu64 " against %" PRIu64 " misses, %.2fx\n",
			r->icache_misses, b->icache_misses, ratio(r->icache_misses, b->icache_misses));
	if (ro->far)
		fprintf(o->out, "  the order was made from code paths other than these samples': "
			"mix them into its inputs, e.g. hotpack VMLINUX ITS-INPUTS... THESE "
			"--weight-of THESE=50%% (docs/profiles.md, \"Mixing profiles\")\n");
	if (ro->far && large && !ratio_far(col[ro->col].rl.tlb_misses[0],
					   col[ro->vs].rl.tlb_misses[0]))
		fprintf(o->out, "  (far in %s pages only: this machine maps the core text in %s "
			"pages, where the order is within %.1fx; the %s figures are those of "
			"modules and of %s-page machines, the I-cache's the difference this one "
			"sees)\n",
			geom_size_str(g->page_size, ps, sizeof(ps)),
			geom_size_str(large->page_size, lp, sizeof(lp)), REPORT_ORDER_FAR, ps, ps);
}

static int report_run(struct report_opts *o, char *vmlinux, char **inputs, int ninputs)
{
	struct pipe p = { 0 };
	struct kimage *img;
	struct cgraph *cg;
	struct report_col *col = NULL;
	size_t ncol = 0, nn = 1;
	uint32_t *order = NULL;
	uint64_t insert = 0, off_w = 0, all_w = 0;
	size_t off_n = 0, with_bytes;
	char geo[320];
	struct cli_out rep = { 0 };
	struct model_opts large = o->model;
	struct report_order ro = { 0 };
	bool have_large;
	int err;

	err = pipe_load(&p, &o->pipe, vmlinux, inputs, ninputs);
	if (err)
		return err;
	img = p.img;
	cg = p.cg;
	pipe_machine_geometry(&o->model.geom, img);
	o->layout.geom = o->model.geom;
	large = o->model;
	have_large = geom_large(&o->model.geom, &large.geom);
	o->layout.window_paths = pipe_window_paths(&p, &o->pipe);
	nn = NONZERO(cg->nnodes);
	err = pipe_insert_addr(img, vmlinux, &insert);
	if (err)
		goto out;
	o->model.replay_nodes = o->replay == 1;
	if (o->replay == 0 && !cg->npaths)
		pr_warn("--replay paths: the samples have no call paths (addresses only); "
			"replaying the functions' sample weights instead");
	if (cg->npaths && o->replay != 1)
		off_paths(cg, &off_n, &off_w, &all_w);
	col = xcalloc(2 + 16, sizeof(*col));
	order = xmallocarray(nn, sizeof(*order));

	/* now */
	col[0].name = "now";
	col[0].addr = xmallocarray(nn, sizeof(uint64_t));
	place_as_linked(cg, col[0].addr);
	err = model_eval(cg, col[0].addr, &o->model, &col[0].r);
	if (!err && have_large)
		err = model_eval(cg, col[0].addr, &large, &col[0].rl);
	if (err)
		goto out;
	ncol = 1;
	if (o->order_path) {
		ro.col = ncol;
		err = report_order_place(o, cg, vmlinux, insert, &col[ncol], &ro);
		if (err)
			goto out;
		ncol++;
		err = model_eval(cg, col[ro.col].addr, &o->model, &col[ro.col].r);
		if (!err && have_large)
			err = model_eval(cg, col[ro.col].addr, &large, &col[ro.col].rl);
		if (err)
			goto out;
	}
	for (size_t a = 0; layout_algos[a] && ncol < 18; a++) {
		const struct layout_algo *al = layout_algos[a];
		struct report_col *c = &col[ncol];
		struct layout_opts lo;
		double t0;

		if (strcmp(o->algo, "all") && strcmp(o->algo, al->name))
			continue;
		t0 = now_ms();
		lo = o->layout;
		lo.search_out = &c->searched;
		err = layout_run_traced(al, cg, &lo, order, &c->placed, &c->traced);
		c->ms = now_ms() - t0;
		if (err)
			goto out;
		c->name = al->name;
		if (o->order_path) {
			c->order = xmallocarray(nn, sizeof(*c->order));
			memcpy(c->order, order, c->placed * sizeof(*order));
		}
		c->addr = xmallocarray(nn, sizeof(uint64_t));
		place_relink(cg, col[0].addr, order, c->placed, insert, o->model.geom.page_size,
			     c->addr);
		ncol++;
		err = model_eval(cg, c->addr, &o->model, &c->r);
		if (!err && have_large)
			err = model_eval(cg, c->addr, &large, &c->rl);
		if (err)
			goto out;
		pipe_summarize(cg, order, c->placed, col[0].addr, c->addr, &o->model, &col[0].r,
			       &c->r, &c->sum);
		if (strcmp(o->algo, "all"))
			pipe_summary_warn(&c->sum, c->name);
	}

	/* the order file against the best order these samples make */
	for (size_t i = ro.col + 1; o->order_path && i < ncol; i++)
		if (!ro.vs || col[i].r.tlb_misses[0] < col[ro.vs].r.tlb_misses[0])
			ro.vs = i;
	if (o->order_path) {
		ro.far = ratio_far(col[ro.col].r.tlb_misses[0], col[ro.vs].r.tlb_misses[0]);
		err = report_order_lacking(o, cg, insert, &col[ro.vs], &ro);
		if (err)
			goto out;
	}
	if (off_n)
		pr_warn("%zu functions with %.1f%% of the sample weight are on no hot path and not "
			"replayed; see --replay nodes", off_n,
			pct_of(off_w, all_w));
	/* the SVG first: a report on stdout must mean the command worked */
	if (o->svg) {
		err = report_svg(o, &p, col, ncol, vmlinux, inputs, ninputs);
		/* --svg -: stdout is the SVG's alone; the text goes to -o FILE */
		if (err || (!strcmp(o->svg, "-") && (!o->output || !strcmp(o->output, "-"))))
			goto out;
	}
	if (o->json) {
		err = report_json(o, cg, col, ncol, vmlinux, inputs, ninputs, insert, off_n, off_w,
				  all_w, have_large ? &large.geom : NULL, &ro);
		goto out;
	}
	if (!err)
		err = cli_out_open(&rep, o->output);
	if (err)
		goto out;
	o->out = rep.f;
	fprintf(o->out, "hotpack report: %s (%s), %d input%s: %zu functions, %zu hot paths, %zu arcs\n",
	       vmlinux, img->arch->name, ninputs, ninputs == 1 ? "" : "s", cg->nnodes, cg->npaths,
	       cg->narcs);
	fprintf(o->out, "geometry: %s\n", geom_str(&o->model.geom, geo, sizeof(geo)));
	fprintf(o->out, "replay: %" PRIu64 " runs of %s", col[0].r.runs,
	       col[0].r.node_stream ? "single functions by sample weight"
	       : col[0].r.sequence ? "hot paths in the order they ran" : "hot paths by weight");
	with_bytes = col[0].r.node_stream ? 0 : paths_with_bytes(cg);
	if (with_bytes)
		fprintf(o->out, ", %zu of the %zu with the bytes each of their functions ran "
			"(.hprof 2.5 textent, 2.6 tranges; the others, the functions' extents)",
			with_bytes, cg->npaths);
	fprintf(o->out, "; the order starts at %#" PRIx64 " (page-aligned)\n\n",
		align_up(insert, o->model.geom.page_size));
	if (off_n) {
		/* mixed inputs (e.g. ftrace paths and address samples): the
		 * replay runs the paths, whose weights are not in the same unit
		 * as the samples'; say what is left out and how to see it */
		fprintf(o->out, "not replayed: %zu functions with sample weight on no hot path (%" PRIu64
		       " of %" PRIu64 ", %.1f%%); --replay nodes replays every function's "
		       "sample weight instead\n\n",
		       off_n, off_w, all_w, pct_of(off_w, all_w));
	}
	if (have_large) {
		/* the machine's own pages first, then what the 4 KiB figures are for */
		const struct geom_preset *pr = geom_preset_find(o->model.geom.name);
		char lp[32];

		fprintf(o->out, "%s in %s pages (I-TLB %u entries of them):\n",
		       pr && pr->large_code ? pr->large_code : "core text",
		       geom_size_str(large.geom.page_size, lp, sizeof(lp)),
		       large.geom.tlb_entries[0]);
		print_summary(o, &large.geom, true, col, ncol);
		fprintf(o->out, "\n%s:\n", geom_meaning(&o->model.geom, geo, sizeof(geo)));
	} else if (o->model.geom.name) {
		fprintf(o->out, "%s:\n", geom_meaning(&o->model.geom, geo, sizeof(geo)));
	}
	print_summary(o, &o->model.geom, false, col, ncol);
	if (o->order_path)
		print_order_file(o, cg, col, &ro, vmlinux, have_large ? &large.geom : NULL);
	print_orders(o, col, ncol);
	print_paths(o, cg, col, ncol);
	print_traced(o, cg, col, ncol);
	err = cli_out_commit(&rep);
out:
	for (size_t i = 0; col && i < ncol; i++) {
		free(col[i].addr);
		free(col[i].order);
		model_result_free(&col[i].r);
		model_result_free(&col[i].rl);
	}
	if (col && ncol < 18)
		free(col[ncol].addr);
	free(col);
	free(order);
	free(ro.funcs);
	free(ro.in_order);
	model_result_free(&ro.lacking);
	pipe_free(&p);
	return err;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { 0 };
	int err = report_parse(argc, argv, &o);

	if (err)
		return err > 0 ? HP_EXIT_OK : HP_EXIT_USAGE;
	err = report_run(&o, argv[optind], argv + optind + 1, argc - optind - 1);
	return err ? HP_EXIT_ERROR : HP_EXIT_OK;
}
