// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_order.c - the main job: `hotpack [order] VMLINUX SAMPLES... -o order.lds`.
 * Reads the image, reads and symbolizes the samples, builds the call graph,
 * runs the chosen algorithm and writes the order for the chosen linker.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "cmd/pipeline.h"
#include "emit/emit.h"
#include "graph/graph.h"
#include "image/image.h"
#include "layout/layout.h"
#include "layout/layout_traced.h"
#include "lib/cli.h"
#include "lib/geometry.h"
#include "lib/hotpack.h"
#include "lib/warn.h"
#include "lib/xalloc.h"
#include "model/model.h"
#include "place/place.h"
#include "profile/input.h"
#include "profile/profile.h"

struct order_opts {
	struct pipe_opts pipe;
	struct layout_opts layout;
	const char *algo;
	const char *output;
	enum emit_format format;
	bool werror;
	bool implicit;		/* called as hotpack VMLINUX SAMPLES... */
};

static void order_usage(FILE *f)
{
	char *intro = xasprintf("Write a linker order that packs the hot functions of SAMPLES "
				"into as few pages as possible. SAMPLES: %s; '-' reads "
				"standard input.", profile_readers_list(READERS_WHAT));
	char *text = cli_wrap(intro, 0);

	fprintf(f,
"usage: hotpack [order] [options] VMLINUX SAMPLES...\n"
"\n"
"%s\n"
"\n"
CLI_USAGE_OUTPUT
"  -f, --format FMT         lds (default), gold, lld, ld-section-ordering, list\n"
"  -a, --algo NAME          layout algorithm (default: %s; see --list-algos)\n"
"      --list-algos         list the layout algorithms\n"
"  -p, --page-size SIZE     page size the layout packs for (default 4K)\n"
"  -e, --tlb-entries N,...  I-TLB sizes the layout packs for, all at once\n"
"                           (default 32,64,128)\n"
GEOM_PRESET_USAGE
PIPE_LAYOUT_USAGE
PIPE_USAGE
"      --werror             treat warnings as errors\n"
CLI_USAGE_QVH
"\n"
"Exit status: 0 ok, 1 error (bad input, nothing matched), 2 usage.\n",
		text, layout_default_name(), input_format_usage());
	free(text);
	free(intro);
}

enum {
	OPT_WERROR = 256, OPT_LIST_ALGOS,
};

static const struct option order_longopts[] = {
	CLI_COMMON_LONGOPTS,
	{ "format", required_argument, NULL, 'f' },
	{ "algo", required_argument, NULL, 'a' },
	{ "page-size", required_argument, NULL, 'p' },
	{ "tlb-entries", required_argument, NULL, GEOM_OPT_TLB_ENTRIES },
	GEOM_PRESET_LONGOPTS,
	PIPE_LAYOUT_LONGOPTS,
	PIPE_LONGOPTS,
	{ "werror", no_argument, NULL, OPT_WERROR },
	{ "list-algos", no_argument, NULL, OPT_LIST_ALGOS },
	{ NULL, 0, NULL, 0 },
};

static int order_parse(int argc, char **argv, struct order_opts *o)
{
	int c, f;

	pipe_opts_init(&o->pipe);
	o->pipe.sections.need_function_sections = true;
	o->algo = layout_default_name();
	geom_default(&o->layout.geom);
	o->layout.coverage = 1.0;
	optind = 1;
	while ((c = cli_getopt(argc, argv, CLI_COMMON_SHORTOPTS "f:a:p:e:", order_longopts)) != -1) {
		f = cli_common_opt(c);
		if (!f)
			f = pipe_parse_opt(&o->pipe, c, optarg);
		if (!f)
			f = pipe_parse_layout_opt(&o->layout, c, optarg);
		if (f < 0)
			return -EINVAL;
		if (f)
			continue;
		switch (c) {
		case 'o': o->output = optarg; break;
		case 'f':
			f = emit_format_from_name(optarg);
			if (f < 0) {
				pr_err("--format: unknown format '%s'; use lds, gold, lld, "
				       "ld-section-ordering or list", optarg);
				return -EINVAL;
			}
			o->format = (enum emit_format)f;
			break;
		case 'a': o->algo = optarg; break;
		case 'p':	/* of the geometry, page size, TLB sizes and presets */
		case GEOM_OPT_TLB_ENTRIES:
		case GEOM_OPT_PRESET:
		case GEOM_OPT_LIST_PRESETS:
		case GEOM_OPT_CONFIG:
			f = geom_parse_opt(&o->layout.geom, c, optarg);
			if (f < 0)
				return -EINVAL;
			if (f == 2)
				return 1;
			break;
		case OPT_WERROR: o->werror = true; break;
		case OPT_LIST_ALGOS: {
			size_t i;

			for (i = 0; layout_algos[i]; i++)
				printf("%-10s %s%s\n", layout_algos[i]->name, layout_algos[i]->desc,
				       strcmp(layout_algos[i]->name, layout_default_name()) ? ""
											   : " (default)");
			return 1;
		}
		case 'h': order_usage(stdout); return 1;
		default:
			return -EINVAL;
		}
	}
	/* "hotpack -a cds report V S": a command's name where the vmlinux
	 * goes is that command misplaced, never a vmlinux called "report" */
	if (optind < argc && o->implicit && cmd_is_command(argv[optind])) {
		pr_err("'%s' is a command: put it first (hotpack [-q|-v] %s [options] ...); "
		       "a vmlinux of that name is ./%s", argv[optind], argv[optind],
		       argv[optind]);
		return -EINVAL;
	}
	if (argc - optind < 2) {
		pr_err("give the vmlinux and at least one samples file ('-' for stdin); "
		       "see hotpack --help");
		return -EINVAL;
	}
	if (input_check_paths(argv + optind + 1, argc - optind - 1))
		return -EINVAL;
	if (pipe_check_output(o->output, argv[optind], &o->pipe.sections, argv + optind + 1,
			      argc - optind - 1))
		return -EINVAL;
	if (!layout_find(o->algo)) {
		pr_err("--algo: unknown algorithm '%s'; see hotpack --list-algos", o->algo);
		return -EINVAL;
	}
	return pipe_check_search(&o->layout, layout_find(o->algo));
}

/*
 * What the order does, as report says it (pipe_summarize()): pages now and
 * with the order linked at the start of the movable text, and the model's
 * misses, on the geometry the layout packed for.
 */
static int order_summary(const struct cgraph *cg, const char *vmlinux, const uint32_t *order,
			 size_t n, const struct geometry *g, struct emit_summary *s)
{
	uint64_t *now = xmallocarray(cg->nnodes, sizeof(*now));
	uint64_t *after = xmallocarray(cg->nnodes, sizeof(*after));
	struct model_result rn = { 0 }, ra = { 0 };
	struct model_opts mo;
	uint64_t insert;
	int err;

	model_opts_default(&mo);
	mo.geom = *g;
	err = pipe_insert_addr(cg->img, vmlinux, &insert);
	if (!err) {
		place_as_linked(cg, now);
		place_relink(cg, now, order, n, insert, g->page_size, after);
		err = model_eval(cg, now, &mo, &rn);
	}
	if (!err)
		err = model_eval(cg, after, &mo, &ra);
	if (!err)
		pipe_summarize(cg, order, n, now, after, &mo, &rn, &ra, s);
	model_result_free(&rn);
	model_result_free(&ra);
	free(now);
	free(after);
	return err;
}

static int order_run(struct order_opts *o, char *vmlinux, char **inputs, int ninputs)
{
	struct pipe p = { 0 };
	struct cgraph *cg;
	struct cli_out out = { 0 };
	struct emit_info info = { 0 };
	struct emit_summary sum = { 0 };
	struct layout_traced traced = { 0 };
	struct layout_search_outcome searched = { 0 };
	uint32_t *order = NULL;
	size_t n = 0, left_out = 0;
	int err;

	err = pipe_load(&p, &o->pipe, vmlinux, inputs, ninputs);
	if (err)
		return err;
	cg = p.cg;
	pipe_machine_geometry(&o->layout.geom, p.img);
	o->layout.window_paths = pipe_window_paths(&p, &o->pipe);
	o->layout.search_out = &searched;
	if (!err) {
		order = xmallocarray(cg->nnodes, sizeof(*order));
		err = layout_run_traced(layout_find(o->algo), cg, &o->layout, order, &n,
					&traced);
	}
	if (!err) {
		/* What cannot be named exactly is left out before anything is
		 * counted, so the header describes exactly the lines written. */
		size_t all = n;

		n = emit_filter(o->format, cg, order, n);
		left_out = all - n;
	}
	if (!err && !n && o->layout.max_hot_bytes) {
		pr_err("--max-hot-bytes %" PRIu64 " leaves no room for the hottest function; "
		       "raise it", o->layout.max_hot_bytes);
		err = -EINVAL;
	}
	if (!err && !n) {
		pr_err("%s: none of the sampled functions can move (%zu of %zu functions are "
		       "movable); build with -ffunction-sections%s", vmlinux,
		       p.img->nmovable, p.img->nfuncs,
		       p.img->secnames == KSEC_ASSUMED ? " and give the link map (--map)" : "");
		err = -ENOENT;
	}
	if (!err) {
		info.algo = o->algo;
		info.inputs = inputs;
		info.ninputs = ninputs;
		info.page_size = o->layout.geom.page_size;
		info.prof = p.prof;
		info.geom = &o->layout.geom;
		info.traced = &traced;
		info.search = &searched;
		info.summary = &sum;
		err = order_summary(cg, vmlinux, order, n, &o->layout.geom, &sum);
	}
	if (!err) {
		pipe_summary_warn(&sum, o->algo);
		err = cli_out_open(&out, o->output);
	}
	if (!err) {
		err = emit_order(out.f, o->format, cg, order, n, &info);
		if (!err && o->werror && hp_warn_count()) {
			pr_err("warnings with --werror; nothing was written");
			err = -EINVAL;
		}
		if (err)
			cli_out_abort(&out);
		else
			err = cli_out_commit(&out);
	}
	if (!err)
		pr_info("%zu function%s (%" PRIu64 " bytes) placed: %zu page%s of %" PRIu64
			" bytes, now spread over %zu; lower bound %zu; all %zu hot functions: "
			"%zu pages (now %zu)%s", n, n == 1 ? "" : "s", sum.bytes, sum.pages_after,
			sum.pages_after == 1 ? "" : "s", info.page_size, sum.pages_now,
			sum.pages_bound, sum.hot, sum.set_after, sum.set_now,
			left_out ? " (see the warnings for functions left out)" : "");
	free(order);
	pipe_free(&p);
	return err;
}

static int order_main(int argc, char **argv, bool implicit)
{
	struct order_opts o = { .implicit = implicit };
	int err = order_parse(argc, argv, &o);

	if (err)
		return err > 0 ? HP_EXIT_OK : HP_EXIT_USAGE;
	err = order_run(&o, argv[optind], argv + optind + 1, argc - optind - 1);
	return err ? HP_EXIT_ERROR : HP_EXIT_OK;
}

int cmd_order(int argc, char **argv)
{
	return order_main(argc, argv, false);
}

int cmd_order_implicit(int argc, char **argv)
{
	return order_main(argc, argv, true);
}
