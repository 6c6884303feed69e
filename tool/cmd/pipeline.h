/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pipeline.h - the stages every analysing command runs first (order, report,
 * verify): the image (its ELF, its input-section names, the DWARF files of
 * its static functions), the profile read from the inputs, the call graph; and
 * the command-line options of those stages, parsed in one place so that they
 * mean the same in every command.
 */
#ifndef HP_PIPELINE_H
#define HP_PIPELINE_H

#include <getopt.h>

#include "emit/emit.h"
#include "graph/graph.h"
#include "image/image.h"
#include "layout/layout.h"
#include "lib/cli.h"
#include "model/model.h"
#include "profile/input.h"
#include "profile/profile.h"
#include "sections/sections.h"

#define PIPE_PATH_ROOTS_MAX 64	/* --path-root options at most */

struct pipe_opts {
	struct sections_opts sections;
	bool dwarf_files;	/* --dwarf-files: run the srcfile stage */
	struct input_opts input;
	struct cg_opts graph;
	int static_edges;	/* -1: automatic (on when the profile has no edges) */
	/* --path-root: the call chains through these make explicit paths */
	const char *path_roots[PIPE_PATH_ROOTS_MAX];
	size_t npath_roots;
};

/* getopt_long values of the shared options; commands use values below 0x200. */
enum pipe_opt {
	PIPE_OPT_MAP = 0x200,
	PIPE_OPT_OBJECT,
	PIPE_OPT_INPUT_FORMAT,
	PIPE_OPT_KASLR,
	PIPE_OPT_MIN_MATCH,
	PIPE_OPT_ANY_ARCH,
	PIPE_OPT_BUILDID_LIST,
	PIPE_OPT_STATIC,
	PIPE_OPT_NO_STATIC,
	PIPE_OPT_DWARF,
	PIPE_OPT_WEIGHT,
	PIPE_OPT_WEIGHT_OF,
	PIPE_OPT_ADDR_WINDOW,
	PIPE_OPT_COVERAGE,	/* the layout options order and report share */
	PIPE_OPT_MAX_HOT,
	PIPE_OPT_SEARCH,
	PIPE_OPT_PATH_ROOT,
	PIPE_OPT_EVENT,
	PIPE_OPT_REPEATS,
};

/* How samples are read against the image: verify and profile take these too. */
#define PIPE_INPUT_LONGOPTS                                                            \
	{ "input-format", required_argument, NULL, PIPE_OPT_INPUT_FORMAT },            \
	{ "kaslr-offset", required_argument, NULL, PIPE_OPT_KASLR },                   \
	{ "min-match", required_argument, NULL, PIPE_OPT_MIN_MATCH },                  \
	{ "any-arch", no_argument, NULL, PIPE_OPT_ANY_ARCH },                          \
	{ "buildid-list", required_argument, NULL, PIPE_OPT_BUILDID_LIST },            \
	{ "event", required_argument, NULL, PIPE_OPT_EVENT }

#define PIPE_LONGOPTS                                                                  \
	{ "map", required_argument, NULL, PIPE_OPT_MAP },                              \
	{ "object", required_argument, NULL, PIPE_OPT_OBJECT },                        \
	PIPE_INPUT_LONGOPTS,                                                           \
	{ "static-edges", no_argument, NULL, PIPE_OPT_STATIC },                        \
	{ "no-static-edges", no_argument, NULL, PIPE_OPT_NO_STATIC },                  \
	{ "dwarf-files", no_argument, NULL, PIPE_OPT_DWARF },                          \
	{ "weight", required_argument, NULL, PIPE_OPT_WEIGHT },                        \
	{ "weight-of", required_argument, NULL, PIPE_OPT_WEIGHT_OF },                  \
	{ "addr-window", required_argument, NULL, PIPE_OPT_ADDR_WINDOW },              \
	{ "repeats", required_argument, NULL, PIPE_OPT_REPEATS }

#define PIPE_LAYOUT_LONGOPTS                                                           \
	{ "coverage", required_argument, NULL, PIPE_OPT_COVERAGE },                    \
	{ "max-hot-bytes", required_argument, NULL, PIPE_OPT_MAX_HOT },                \
	{ "search", required_argument, NULL, PIPE_OPT_SEARCH },                        \
	{ "path-root", required_argument, NULL, PIPE_OPT_PATH_ROOT }

#define PIPE_LAYOUT_USAGE                                                              \
"      --coverage FRACTION  place functions up to this share of the heat (default 1)\n" \
"      --max-hot-bytes SIZE place no more than SIZE bytes, padding counted\n"         \
"                           (default 0: no cap)\n"                                 \
"      --search WHEN        auto (default), on or off: the pages algorithm's\n"   \
"                           last step, a search on the simulated misses; auto\n" \
"                           is on, but off on windows of an address stream\n"   \
"                           (--addr-window, or a .hprof made with it)\n"  \
"      --path-root FUNC     the sampled call chains through FUNC make one\n"     \
"                           explicit path, packed to its bound as a\n"          \
"                           function_graph tree is (repeatable)\n"

/**
 * pipe_parse_layout_opt() - --coverage, --max-hot-bytes and --search into @lo;
 * the same returns as pipe_parse_opt().
 */
int pipe_parse_layout_opt(struct layout_opts *lo, int c, const char *arg);

/**
 * pipe_check_search() - --search on asks for a step @algo (NULL: every
 * algorithm, report --algo all) does not have: a usage error, printed.
 * Returns 0 or -EINVAL.
 */
int pipe_check_search(const struct layout_opts *lo, const struct layout_algo *algo);

/* The --help lines of the shared options; one %s: input_format_usage(). */
#define PIPE_REPEATS_USAGE                                                             \
"      --repeats RULE       windows of an address stream that repeat weigh:\n"    \
"                           count (each time, default), sqrt (the square\n"    \
"                           root of their repeats) or log (1 + log2): the\n"   \
"                           paths that ran a few times count beside the\n"     \
"                           loop that ran most\n"

#define PIPE_USAGE                                                                     \
"      --map FILE           the link map (vmlinux.map); default: VMLINUX.map\n"       \
"      --object FILE        vmlinux.o for section names; default: VMLINUX.o\n"        \
"      --input-format FMT   %s\n"        /* input_format_usage() */                \
"      --kaslr-offset OFF   runtime minus link address of the samples\n"              \
"      --min-match FRACTION fail when fewer samples match (default 0.5)\n"            \
CLI_USAGE_SAMPLES("VMLINUX")                                                           \
"      --weight UNIT        period (default: a perf sample weighs its period)\n"   \
"                           or events (each weighs 1, as other inputs do)\n"     \
"      --weight-of FILE=W   the input FILE's weights times W (a positive real);\n"   \
"                           FILE=P%%: FILE weighs P%% of the total (50%%: as\n"      \
"                           much as all the other inputs together)\n"            \
"      --addr-window N      address lists: each N samples in a row (in the\n"      \
"                           order they happened) also give a path and arcs\n"     \
"                           of the functions they hit (default 0: off)\n"          \
PIPE_REPEATS_USAGE                                                                     \
"      --static-edges, --no-static-edges\n"                                           \
"                           add direct calls from the code (default: when the\n"     \
"                           samples carry no call chains, or --addr-window)\n"      \
"      --dwarf-files        tell static functions of one name apart by their\n"      \
"                           DWARF source file (libbfd; slow on big images)\n"

void pipe_opts_init(struct pipe_opts *o);

/**
 * pipe_parse_opt() - handle getopt_long's @c if it is a shared option.
 * Returns 1 when handled, 0 when @c is not one of them, -EINVAL (printed)
 * for a bad value.
 */
int pipe_parse_opt(struct pipe_opts *o, int c, const char *arg);

/**
 * pipe_open_image() - the image stages in their order: read the ELF at
 * @path, name its functions' input sections as @so says, and with
 * @dwarf_files read the DWARF source files of static functions of one name.
 * Returns 0, or -errno after printing why; then *out is NULL.
 */
int pipe_open_image(struct kimage **out, const char *path, const struct sections_opts *so,
		    bool dwarf_files);

/**
 * pipe_check_output() - refuse an @output that is one of the command's
 * inputs: @vmlinux (may be NULL), the link map or object file given in @so
 * or found beside the vmlinux, or one of @inputs. Returns 0 or -EINVAL
 * (printed by cli_out_check_input()).
 */
int pipe_check_output(const char *output, const char *vmlinux, const struct sections_opts *so,
		      char *const *inputs, int ninputs);

struct pipe {
	struct kimage *img;
	struct profile *prof;
	struct cgraph *cg;
};

/**
 * pipe_load() - open @vmlinux, read @inputs into a profile, build the call
 * graph (with static edges as the options say) and add the explicit paths
 * of --path-root (layout_traced_roots()). On error everything is
 * freed and -errno returned after printing why.
 */
int pipe_load(struct pipe *p, struct pipe_opts *o, const char *vmlinux, char *const *inputs,
	      int ninputs);

/**
 * pipe_build_graph() - the call graph of @prof against @img, with static
 * edges as the options say (automatic: when the profile has no edges, or
 * its paths are windows of an address stream). Returns 0 or -errno.
 */
int pipe_build_graph(struct cgraph **out, const struct kimage *img, const struct profile *prof,
		     struct pipe_opts *o);

/**
 * pipe_window_paths() - the profile's paths are windows of an address stream:
 * read with --addr-window, or from a .hprof that kept their sequence.
 */
bool pipe_window_paths(const struct pipe *p, const struct pipe_opts *o);

void pipe_free(struct pipe *p);

/**
 * pipe_machine_geometry() - unless g->given (a geometry option was parsed),
 * the geometry of @img's machine into *g: the preset its embedded kernel
 * config (IKCONFIG) names, else the one its arch descriptor names, else
 * the arch's default geometry.
 */
void pipe_machine_geometry(struct geometry *g, const struct kimage *img);

/**
 * pipe_insert_addr() - where the order goes: the lowest address of a
 * movable function of @img, as the order fragment placed at the start of
 * the text puts it. Returns 0, or -ENOENT when nothing can move (printed,
 * naming @vmlinux).
 */
int pipe_insert_addr(const struct kimage *img, const char *vmlinux, uint64_t *insert);

/**
 * pipe_summarize() - what @order (@n nodes) does, the summary order's header
 * and report both print (emit_summary_print()), so that they describe one
 * layout: @after is where the nodes land with the order linked at the
 * insert address (place_relink()), @now where they are; @now_r and @after_r
 * the model's figures for them under @mo (its first TLB size is said).
 */
void pipe_summarize(const struct cgraph *cg, const uint32_t *order, size_t n, const uint64_t *now,
		    const uint64_t *after, const struct model_opts *mo,
		    const struct model_result *now_r, const struct model_result *after_r,
		    struct emit_summary *s);

/** Warn that the model predicts the order of @algo to be worse than now. */
void pipe_summary_warn(const struct emit_summary *s, const char *algo);

#endif
