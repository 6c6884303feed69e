// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_profile.c - `hotpack profile` converts inputs of any format the
 * profile readers take (profile/readers.h) into one .hprof, symbolized
 * against a vmlinux when one is given; `hotpack merge` adds .hprof files
 * together. Both write their output whole or not at all.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "cmd/pipeline.h"
#include "emit/json.h"
#include "emit/lld_cg.h"
#include "graph/graph.h"
#include "image/image.h"
#include "lib/cli.h"
#include "lib/hotpack.h"
#include "lib/warn.h"
#include "lib/xalloc.h"
#include "profile/hprof.h"
#include "profile/input.h"
#include "profile/profile.h"

static void profile_usage(FILE *f)
{
	char *intro = xasprintf("Read kernel samples or traces and write them as one "
				"name-keyed .hprof profile. INPUT: %s; '-' reads standard "
				"input. Several inputs add up.", profile_readers_list(READERS_DESC));
	char *text = cli_wrap(intro, 0);

	fprintf(f,
"usage: hotpack profile [options] INPUT... [-o OUT.hprof]\n"
"       hotpack profile --format lld-cg --vmlinux VMLINUX INPUT... [-o OUT.cg]\n"
"\n"
"%s\n"
"\n"
CLI_USAGE_OUTPUT
"  -f, --format FMT         hprof (default), or lld-cg: the call graph the\n"
"                           layout would work on, as ld.lld's\n"
"                           --call-graph-ordering-file (CALLER CALLEE WEIGHT;\n"
"                           F F SAMPLES for a function's own); needs --vmlinux\n"
"      --static-edges, --no-static-edges\n"
"                           lld-cg: add direct calls from the code (default:\n"
"                           as hotpack order, when the samples carry no call\n"
"                           chains, or --addr-window)\n"
"      --vmlinux FILE       resolve frames against this kernel (needed for\n"
"                           bare addresses; names are kept as written without)\n"
"      --map FILE           the link map (vmlinux.map); default: beside VMLINUX\n"
"      --input-format FMT   %s\n"
"      --kaslr-offset OFF   runtime minus link address (default: detected)\n"
"      --min-match FRACTION fail when fewer kernel samples match (default 0.5)\n"
CLI_USAGE_SAMPLES("the vmlinux")
"      --weight UNIT        period (default: a perf sample weighs its period)\n"
"                           or events (each weighs 1, to add up with other\n"
"                           inputs' counts)\n"
"      --weight-of FILE=W   the input FILE's weights times W (a positive real);\n"
"                           FILE=P%%: FILE weighs P%% of the total (50%%: as\n"
"                           much as all the other inputs together)\n"
"      --addr-window N      address lists: each N samples in a row (in the\n"
"                           order they happened) also give a trace and edges\n"
"                           of the functions they hit (default 0: off)\n"
PIPE_REPEATS_USAGE
"                           (lld-cg)\n"
"      --sequence           also keep the order --addr-window's windows ran in\n"
"                           (.hprof 2.1 'seq', which the model replays)\n"
"      --json               the profile's statistics as one JSON object on\n"
"                           stdout (docs/json.md); the profile goes to -o FILE\n"
CLI_USAGE_QVH
"\n"
"Exit status: 0 ok, 1 error (bad input, too little matched), 2 usage.\n",
		text, input_format_usage());
	free(text);
	free(intro);
}

static void merge_usage(FILE *f)
{
	fprintf(f,
"usage: hotpack merge [options] A.hprof B.hprof... [-o OUT.hprof]\n"
"\n"
"Add .hprof profiles together: weights, edges, traces and counts sum by\n"
"function name. The result does not depend on the order of the inputs.\n"
"Adding perf periods to event counts is warned about (see --weight in\n"
"hotpack profile --help).\n"
"\n"
CLI_USAGE_OUTPUT
CLI_USAGE_QVH
"\n"
"Exit status: 0 ok, 1 error, 2 usage.\n");
}

enum { OPT_VMLINUX = 256, OPT_SEQUENCE, OPT_JSON };

enum profile_format { FORMAT_HPROF, FORMAT_LLD_CG };

/* pipeline.h's input options; not --object nor those of the call graph */
static const struct option profile_longopts[] = {
	CLI_COMMON_LONGOPTS,
	{ "format", required_argument, NULL, 'f' },
	{ "vmlinux", required_argument, NULL, OPT_VMLINUX },
	{ "map", required_argument, NULL, PIPE_OPT_MAP },
	PIPE_INPUT_LONGOPTS,
	{ "static-edges", no_argument, NULL, PIPE_OPT_STATIC },
	{ "no-static-edges", no_argument, NULL, PIPE_OPT_NO_STATIC },
	{ "weight", required_argument, NULL, PIPE_OPT_WEIGHT },
	{ "weight-of", required_argument, NULL, PIPE_OPT_WEIGHT_OF },
	{ "addr-window", required_argument, NULL, PIPE_OPT_ADDR_WINDOW },
	{ "repeats", required_argument, NULL, PIPE_OPT_REPEATS },
	{ "sequence", no_argument, NULL, OPT_SEQUENCE },
	{ "json", no_argument, NULL, OPT_JSON },
	{ NULL, 0, NULL, 0 },
};

/* @prof as a .hprof, or with @img as the call graph for lld (@po: how). */
static int write_profile(const struct profile *prof, const struct kimage *img,
			 enum profile_format fmt, struct pipe_opts *po, const char *output)
{
	struct cgraph *cg = NULL;
	struct cli_out out;
	int err;

	if (fmt == FORMAT_LLD_CG) {
		err = pipe_build_graph(&cg, img, prof, po);
		if (err)
			return err;
	}
	err = cli_out_open(&out, output);
	if (err) {
		cg_free(cg);
		return err;
	}
	err = cg ? emit_lld_cg(out.f, cg, NULL) : hprof_write(out.f, prof);
	cg_free(cg);
	if (err) {
		pr_err("%s: write error; nothing was written", output ? output : "standard output");
		cli_out_abort(&out);
		return err;
	}
	return cli_out_commit(&out);
}

/* The statistics of @prof, as written to @output, as JSON (docs/json.md). */
static int profile_json(const struct profile *prof, const char *vmlinux, char *const *inputs,
			int ninputs, const char *output)
{
	static const char *const drop_keys[PROF_DROP_NR] = {
		[PROF_DROP_MODULE] = "module", [PROF_DROP_USER] = "user",
		[PROF_DROP_BPF] = "bpf", [PROF_DROP_UNKNOWN] = "unknown",
		[PROF_DROP_NOT_IN_IMAGE] = "not_in_image",
	};
	struct cli_out out = { 0 };
	size_t traced = 0;
	struct json j;
	int err = cli_out_open(&out, NULL);

	if (err)
		return err;
	for (const struct prof_trace *t = prof->traces; t; t = t->hh.next)
		traced += t->traced;
	json_begin(&j, out.f, "hotpack-profile", 1);
	json_str(&j, "vmlinux", vmlinux);
	json_strings(&j, "inputs", inputs, ninputs);
	json_str(&j, "output", output);
	json_object(&j, "samples");
	json_u64(&j, "read", prof->nsamples);
	json_u64(&j, "matched", prof->matched);
	json_object(&j, "dropped");
	for (int i = 0; i < PROF_DROP_NR; i++)
		json_u64(&j, drop_keys[i], prof->dropped[i]);
	json_end(&j);
	json_end(&j);
	json_array(&j, "units");
	if (prof->units & PROF_UNIT_EVENTS)
		json_str(&j, NULL, "events");
	if (prof->units & PROF_UNIT_PERIOD)
		json_str(&j, NULL, "period");
	json_end(&j);
	json_u64(&j, "total_weight", prof->total_weight);
	json_u64(&j, "functions", prof->nfuncs);
	json_u64(&j, "edges", prof->nedges);
	json_u64(&j, "traces", prof->ntraces);
	json_u64(&j, "traced", traced);
	json_u64(&j, "sequence", prof->nseq);
	return json_commit(&j, &out);
}

int cmd_profile(int argc, char **argv)
{
	struct pipe_opts po;
	const char *output = NULL, *vmlinux = NULL;
	struct kimage *img = NULL;
	struct profile *prof;
	enum profile_format fmt = FORMAT_HPROF;
	bool sequence = false, json = false;
	char *line;
	int c, err, i;

	pipe_opts_init(&po);
	optind = 1;
	while ((c = cli_getopt(argc, argv, CLI_COMMON_SHORTOPTS "f:", profile_longopts)) != -1) {
		int shared = cli_common_opt(c);

		if (!shared)
			shared = pipe_parse_opt(&po, c, optarg);
		if (shared < 0)
			return HP_EXIT_USAGE;
		if (shared)
			continue;
		switch (c) {
		case 'o': output = optarg; break;
		case 'f':
			if (!strcmp(optarg, "hprof")) {
				fmt = FORMAT_HPROF;
			} else if (!strcmp(optarg, "lld-cg")) {
				fmt = FORMAT_LLD_CG;
			} else {
				pr_err("--format %s: not a profile format; give hprof or lld-cg",
				       optarg);
				return HP_EXIT_USAGE;
			}
			break;
		case OPT_VMLINUX: vmlinux = optarg; break;
		case OPT_SEQUENCE: sequence = true; break;
		case OPT_JSON: json = true; break;
		case 'h': profile_usage(stdout); return HP_EXIT_OK;
		default: return HP_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		pr_err("give at least one input ('-' for stdin); see hotpack profile --help");
		return HP_EXIT_USAGE;
	}
	if (input_check_paths(argv + optind, argc - optind))
		return HP_EXIT_USAGE;
	if (fmt == FORMAT_LLD_CG && !vmlinux) {
		pr_err("--format lld-cg names the image's functions; give --vmlinux");
		return HP_EXIT_USAGE;
	}
	if (json && (!output || !strcmp(output, "-"))) {
		pr_err("--json writes the statistics to stdout; give the profile -o FILE");
		return HP_EXIT_USAGE;
	}
	if (pipe_check_output(output, vmlinux, &po.sections, argv + optind, argc - optind))
		return HP_EXIT_USAGE;
	if (vmlinux) {
		err = pipe_open_image(&img, vmlinux, &po.sections, false);
		if (err)
			return HP_EXIT_ERROR;
	}
	prof = profile_new();
	line = xasprintf("tool hotpack %s", HOTPACK_VERSION);
	profile_add_provenance(prof, line);
	free(line);
	if (vmlinux) {
		line = xasprintf("vmlinux %s", vmlinux);
		profile_add_provenance(prof, line);
		free(line);
	}
	for (i = optind; i < argc; i++) {
		line = xasprintf("input %s", argv[i]);
		profile_add_provenance(prof, line);
		free(line);
	}
	err = input_read_all(prof, img, argv + optind, argc - optind, &po.input);
	/* lld-cg's graph is built from the windows in their order: keep it */
	if (!sequence && fmt != FORMAT_LLD_CG) {
		/* version 2, as before --sequence; .hprof inputs' own sequences too */
		free(prof->seq);
		prof->seq = NULL;
		prof->nseq = prof->capseq = 0;
	}
	if (!err)
		err = write_profile(prof, img, fmt, &po, output);
	if (!err && json)
		err = profile_json(prof, vmlinux, argv + optind, argc - optind, output);
	profile_free(prof);
	kimage_close(img);
	return err ? HP_EXIT_ERROR : HP_EXIT_OK;
}

int cmd_merge(int argc, char **argv)
{
	static const struct option longopts[] = {
		CLI_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct input_opts in = { .reader = profile_reader_find("hprof") };
	const char *output = NULL;
	struct profile *all, *one;
	int c, i, err = 0;

	optind = 1;
	while ((c = cli_getopt(argc, argv, CLI_COMMON_SHORTOPTS, longopts)) != -1) {
		if (cli_common_opt(c))
			continue;
		switch (c) {
		case 'o': output = optarg; break;
		case 'h': merge_usage(stdout); return HP_EXIT_OK;
		default: return HP_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		pr_err("give the .hprof files to merge; see hotpack merge --help");
		return HP_EXIT_USAGE;
	}
	if (input_check_paths(argv + optind, argc - optind))
		return HP_EXIT_USAGE;
	for (i = optind; i < argc; i++)
		if (cli_out_check_input(output, argv[i], "profile"))
			return HP_EXIT_USAGE;
	all = profile_new();
	for (i = optind; i < argc && !err; i++) {
		/* each file on its own first, so a damaged one adds nothing */
		one = profile_new();
		err = input_read(one, NULL, argv[i], &in);
		if (!err)
			profile_merge(all, one);
		if (!err && all->overflowed) {
			pr_err("%s: adding it takes a weight past 2^64-1; merge fewer profiles, "
			       "or profiles of --weight events", argv[i]);
			err = -EOVERFLOW;
		}
		profile_free(one);
	}
	if (!err)
		input_check_units(all, "merge");
	if (!err)
		err = write_profile(all, NULL, FORMAT_HPROF, NULL, output);
	profile_free(all);
	return err ? HP_EXIT_ERROR : HP_EXIT_OK;
}
