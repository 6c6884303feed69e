// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pipeline.c - image (ELF, input-section names, DWARF files), profile, graph:
 * the first stages of order, report and verify, and their shared options.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <inttypes.h>

#include "arch/arch.h"
#include "image/ikconfig.h"
#include "cmd/pipeline.h"
#include "layout/layout_traced.h"
#include "lib/geometry.h"
#include "lib/cli.h"
#include "lib/warn.h"
#include "lib/xalloc.h"
#include "place/place.h"
#include "sections/srcfile.h"

void pipe_opts_init(struct pipe_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->input.min_match = 0.5;
	o->static_edges = -1;
}

int pipe_parse_opt(struct pipe_opts *o, int c, const char *arg)
{
	switch (c) {
	case PIPE_OPT_MAP: o->sections.map_path = arg; return 1;
	case PIPE_OPT_OBJECT: o->sections.object_path = arg; return 1;
	case PIPE_OPT_INPUT_FORMAT:
		return input_parse_format(&o->input, arg) ? -EINVAL : 1;
	case PIPE_OPT_KASLR:
		if (cli_parse_s64("--kaslr-offset", arg, &o->input.kaslr_offset))
			return -EINVAL;
		o->input.have_kaslr = true;
		return 1;
	case PIPE_OPT_MIN_MATCH:
		if (cli_parse_double("--min-match", arg, 0, 1, &o->input.min_match))
			return -EINVAL;
		return 1;
	case PIPE_OPT_ANY_ARCH: o->input.any_arch = true; return 1;
	case PIPE_OPT_BUILDID_LIST: o->input.build_id_list = arg; return 1;
	case PIPE_OPT_EVENT:
		return input_parse_event(&o->input, arg) ? -EINVAL : 1;
	case PIPE_OPT_STATIC: o->static_edges = 1; return 1;
	case PIPE_OPT_NO_STATIC: o->static_edges = 0; return 1;
	case PIPE_OPT_DWARF: o->dwarf_files = true; return 1;
	case PIPE_OPT_WEIGHT:
		return input_parse_weight(&o->input, arg) ? -EINVAL : 1;
	case PIPE_OPT_WEIGHT_OF:
		return input_parse_weight_of(&o->input, arg) ? -EINVAL : 1;
	case PIPE_OPT_ADDR_WINDOW:
		return input_parse_addr_window(&o->input, arg) ? -EINVAL : 1;
	case PIPE_OPT_REPEATS:
		return repeats_parse(arg, &o->graph.repeats) ? -EINVAL : 1;
	case PIPE_OPT_PATH_ROOT:
		if (o->npath_roots == PIPE_PATH_ROOTS_MAX) {
			pr_err("--path-root: at most %d; give fewer", PIPE_PATH_ROOTS_MAX);
			return -EINVAL;
		}
		o->path_roots[o->npath_roots++] = arg;
		return 1;
	default: return 0;
	}
}

int pipe_parse_layout_opt(struct layout_opts *lo, int c, const char *arg)
{
	switch (c) {
	case PIPE_OPT_COVERAGE:
		return cli_parse_double("--coverage", arg, 1e-9, 1.0, &lo->coverage) ? -EINVAL : 1;
	case PIPE_OPT_MAX_HOT:
		return cli_parse_size("--max-hot-bytes", arg, &lo->max_hot_bytes) ? -EINVAL : 1;
	case PIPE_OPT_SEARCH:
		if (!strcmp(arg, "auto"))
			lo->search = LAYOUT_SEARCH_AUTO;
		else if (!strcmp(arg, "on"))
			lo->search = LAYOUT_SEARCH_ON;
		else if (!strcmp(arg, "off"))
			lo->search = LAYOUT_SEARCH_OFF;
		else {
			pr_err("--search: '%s' is not on, off or auto; give one of the three", arg);
			return -EINVAL;
		}
		return 1;
	default:
		return 0;
	}
}

int pipe_check_search(const struct layout_opts *lo, const struct layout_algo *algo)
{
	if (lo->search != LAYOUT_SEARCH_ON || !algo || algo->searches)
		return 0;
	pr_err("--search on: the %s algorithm has no search (only pages has); give "
	       "--algo pages, or leave --search out", algo->name);
	return -EINVAL;
}

int pipe_open_image(struct kimage **out, const char *path, const struct sections_opts *so,
		    bool dwarf_files)
{
	int err = kimage_open(out, path);

	if (!err)
		err = sections_name(*out, so);
	/* Static functions of one name need something to tell them apart;
	 * without DWARF their keys stay qualified by address. */
	if (!err && dwarf_files)
		srcfile_fill_dupnames(*out);
	if (err) {
		kimage_close(*out);
		*out = NULL;
	}
	return err;
}

int pipe_check_output(const char *output, const char *vmlinux, const struct sections_opts *so,
		      char *const *inputs, int ninputs)
{
	int i, err = cli_out_check_input(output, vmlinux, "the vmlinux");

	if (!err)
		err = cli_out_check_input(output, so->map_path, "the link map");
	if (!err)
		err = cli_out_check_input(output, so->object_path, "the object file");
	/* What sections_name() may read beside the vmlinux when not told */
	if (!err && vmlinux && !so->no_auto && !so->map_path && !so->object_path) {
		char *map = xasprintf("%s.map", vmlinux), *obj = xasprintf("%s.o", vmlinux);

		err = cli_out_check_input(output, map, "the link map beside the vmlinux");
		if (!err)
			err = cli_out_check_input(output, obj, "the object file beside the vmlinux");
		free(map);
		free(obj);
	}
	for (i = 0; i < ninputs && !err; i++)
		err = cli_out_check_input(output, inputs[i], "samples");
	return err;
}

int pipe_load(struct pipe *p, struct pipe_opts *o, const char *vmlinux, char *const *inputs,
	      int ninputs)
{
	int err;

	memset(p, 0, sizeof(*p));
	p->prof = profile_new();
	err = pipe_open_image(&p->img, vmlinux, &o->sections, o->dwarf_files);
	if (!err)
		err = input_read_all(p->prof, p->img, inputs, ninputs, &o->input);
	if (!err)
		err = pipe_build_graph(&p->cg, p->img, p->prof, o);
	if (!err && o->npath_roots)
		err = layout_traced_roots(p->cg, o->path_roots, o->npath_roots);
	if (err)
		pipe_free(p);
	return err;
}

int pipe_build_graph(struct cgraph **out, const struct kimage *img, const struct profile *prof,
		     struct pipe_opts *o)
{
	/* Static edges connect sampled functions when nothing else does;
	 * --addr-window's edges say what ran together, not who calls whom, so
	 * they keep the calls wanted (a .hprof with a sequence was made with
	 * windows too). */
	o->graph.static_edges = o->static_edges < 0 ?
					prof->nedges == 0 || o->input.addr_window || prof->nseq :
					o->static_edges;
	if (!o->graph.static_edge_weight)
		o->graph.static_edge_weight = 1;
	return cg_build(out, img, prof, &o->graph);
}

bool pipe_window_paths(const struct pipe *p, const struct pipe_opts *o)
{
	return o->input.addr_window || p->prof->nseq;
}

void pipe_free(struct pipe *p)
{
	cg_free(p->cg);
	profile_free(p->prof);
	kimage_close(p->img);
	memset(p, 0, sizeof(*p));
}

void pipe_machine_geometry(struct geometry *g, const struct kimage *img)
{
	const struct geom_preset *p = geom_preset_find(img->arch->geom_preset);
	const struct geom_preset *cp = NULL;
	char *config;
	size_t len;

	if (g->given)
		return;
	/* the config a kernel embeds (IKCONFIG) knows the CPU family, which
	 * the ELF machine does not (an 8xx and a 44x are both EM_PPC) */
	if (kimage_ikconfig(img, &config, &len) == 1) {
		if (geom_preset_from_config_text(config, len, &cp))
			pr_warn("%s: its embedded kernel config (IKCONFIG) has no CONFIG_ line; "
				"the image's machine decides the geometry", img->path);
		free(config);
		if (cp) {
			pr_info("%s: its embedded kernel config (IKCONFIG) picks geometry %s",
				img->path, cp->name);
			p = cp;
		}
	}
	*g = p ? p->geom : img->arch->geom;
}

int pipe_insert_addr(const struct kimage *img, const char *vmlinux, uint64_t *insert)
{
	*insert = place_insert(img);
	if (*insert != UINT64_MAX)
		return 0;
	pr_err("%s: no function can move (no section names); give the link map (--map) "
	       "or vmlinux.o (--object)", vmlinux);
	return -ENOENT;
}

void pipe_summarize(const struct cgraph *cg, const uint32_t *order, size_t n, const uint64_t *now,
		    const uint64_t *after, const struct model_opts *mo,
		    const struct model_result *now_r, const struct model_result *after_r,
		    struct emit_summary *s)
{
	uint64_t page = mo->geom.page_size;
	uint32_t *all = xmallocarray(cg->nnodes ? cg->nnodes : 1, sizeof(*all));

	memset(s, 0, sizeof(*s));
	s->placed = n;
	for (size_t i = 0; i < n; i++)
		s->bytes += cg->nodes[order[i]].size;
	s->pages_now = layout_pages_used(cg, order, n, now, page);
	s->pages_after = layout_pages_used(cg, order, n, after, page);
	s->pages_bound = layout_pages_bound(cg, order, n, page);
	s->hot = cg->nnodes;
	for (size_t v = 0; v < cg->nnodes; v++) {
		all[v] = (uint32_t)v;
		s->fixed += !(cg->img->funcs[cg->nodes[v].func].flags & KF_MOVABLE);
	}
	s->set_now = layout_pages_used(cg, all, cg->nnodes, now, page);
	s->set_after = layout_pages_used(cg, all, cg->nnodes, after, page);
	s->set_bound = layout_pages_bound(cg, all, cg->nnodes, page);
	s->tlb_entries = mo->geom.ntlb ? mo->geom.tlb_entries[0] : 0;
	s->misses_now = now_r->tlb_misses[0];
	s->misses_after = after_r->tlb_misses[0];
	free(all);
}

void pipe_summary_warn(const struct emit_summary *s, const char *algo)
{
	if (emit_summary_worse(s))
		pr_warn("%s: the model predicts more %u-entry I-TLB misses with this order than "
			"with the current layout (%" PRIu64 " against %" PRIu64 "); the samples "
			"may be too few to order by (one per function?): profile longer, and see "
			"hotpack report", algo, s->tlb_entries, s->misses_after, s->misses_now);
}
