// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * layout_bench.c - ranks the layout algorithms on kernel-shaped profiles
 * built from a real vmlinux: its functions, sizes, alignments, object files
 * and which may move. Each case builds a call graph directly (no profile
 * reader involved), runs every algorithm, links its order as the hot region
 * (place_relink) and prints, per algorithm, the run time, the weighted mean
 * pages per path run against the bound, the executed set's pages, the
 * simulated I-TLB misses and the I-cache misses, as a markdown table.
 *
 * The cases (all deterministic: a fixed-seed generator):
 *   single     one read() path, for the lower-bound promise
 *   many       read, write, open, close, stat, fork+exec, pipe: 3 variants
 *              each with its own weight
 *   small-tlb  the same syscalls with deeper trees (more helpers), the
 *              MPC8xx-like case where a 32-entry TLB overflows
 *   stacks     the many-paths trees cut into sampled call stacks (perf -g)
 *   flat       samples without stacks (an address list): weights only
 *   timing     50,000 functions (sizes drawn from the image), 5,000 hot, 400
 *              paths: the time limit; needs no image
 *   timing-stacks  the same functions with 20,000 sampled stacks of 5-19
 * A path is: anchors (real functions of that syscall, by name) calling the
 * next, each also calling helpers drawn from its own object file (as the
 * link map says) and shared helpers (locks, allocators, user copies).
 *
 * usage: layout-bench [-p PAGE] [-e E1,E2,...] [-w WAYS] [-b RUNS] [-r REPEATS]
 *                     [-o DIR] [-v] VMLINUX CASE...
 * -r runs each algorithm REPEATS times and shows the median time; -v lists
 * every path's figures; -o DIR writes each case (but timing, which has no
 * image) as DIR/CASE.hprof, for hotpack order and report.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/pipeline.h"
#include "graph/graph.h"
#include "image/image.h"
#include "layout/layout.h"
#include "lib/geometry.h"
#include "lib/warn.h"
#include "lib/xalloc.h"
#include "model/model.h"
#include "place/place.h"
#include "profile/hprof.h"
#include "profile/input.h"
#include "profile/profile.h"

/* ---- a deterministic generator (splitmix64) ---- */
static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t rnd_below(uint32_t n)
{
	return n ? (uint32_t)(rnd() % n) : 0;
}

static void seed(const char *s)
{
	rng_state = 1469598103934665603ull;
	for (; *s; s++)
		rng_state = (rng_state ^ (uint8_t)*s) * 1099511628211ull;
}

/* ---- syscall anchors: real 6.1 functions, in call order ---- */
struct syscall_def {
	const char *name;
	uint64_t weight;
	const char *anchors[24];
};

static const struct syscall_def syscalls[] = {
	{ "read", 1000, { "syscall_enter_from_user_mode", "__x64_sys_read", "ksys_read",
			  "__fdget_pos", "__fget_light", "vfs_read", "rw_verify_area",
			  "generic_file_read_iter", "filemap_read", "filemap_get_pages",
			  "filemap_get_read_batch", "copy_page_to_iter", "folio_mark_accessed",
			  "touch_atime", "atime_needs_update", "current_time", "__f_unlock_pos",
			  "syscall_exit_to_user_mode", "exit_to_user_mode_prepare", NULL } },
	{ "write", 900, { "syscall_enter_from_user_mode", "__x64_sys_write", "ksys_write",
			  "__fdget_pos", "__fget_light", "vfs_write", "rw_verify_area",
			  "tty_write", "n_tty_write", "pty_write",
			  "tty_insert_flip_string_and_push_buffer", "_copy_from_user",
			  "__f_unlock_pos", "syscall_exit_to_user_mode",
			  "exit_to_user_mode_prepare", NULL } },
	{ "open", 300, { "syscall_enter_from_user_mode", "__x64_sys_openat", "do_sys_openat2",
			 "getname", "getname_flags", "strncpy_from_user", "get_unused_fd_flags",
			 "alloc_fd", "do_filp_open", "path_openat", "alloc_empty_file",
			 "__alloc_file", "path_init", "walk_component", "lookup_fast",
			 "__d_lookup_rcu", "step_into", "complete_walk", "may_open",
			 "inode_permission", "generic_permission", "vfs_open", "do_dentry_open",
			 "terminate_walk" } },
	{ "close", 300, { "syscall_enter_from_user_mode", "__x64_sys_close", "close_fd",
			  "pick_file", "filp_close", "fput", "task_work_add",
			  "exit_to_user_mode_prepare", "task_work_run", "__fput", "dput",
			  "mntput", "file_free_rcu", "syscall_exit_to_user_mode", NULL } },
	{ "stat", 250, { "syscall_enter_from_user_mode", "__x64_sys_newfstatat", "vfs_fstatat",
			 "vfs_statx", "getname_flags", "filename_lookup", "path_lookupat",
			 "path_init", "walk_component", "lookup_fast", "complete_walk",
			 "terminate_walk", "vfs_getattr", "vfs_getattr_nosec", "generic_fillattr",
			 "path_put", "cp_new_stat", "syscall_exit_to_user_mode", NULL } },
	{ "fork-exec", 60, { "syscall_enter_from_user_mode", "__x64_sys_vfork", "kernel_clone",
			     "copy_process", "sched_fork", "dup_mmap", "copy_page_range",
			     "wake_up_new_task", "__x64_sys_execve", "do_execveat_common",
			     "alloc_bprm", "copy_strings", "bprm_execve", "load_elf_binary",
			     "begin_new_exec", "mmput", "exit_mmap", "unmap_vmas",
			     "free_pgtables", "setup_arg_pages", "start_thread",
			     "syscall_exit_to_user_mode", NULL } },
	{ "pipe", 200, { "syscall_enter_from_user_mode", "__x64_sys_pipe2", "do_pipe2",
			 "__do_pipe_flags", "create_pipe_files", "alloc_pipe_info",
			 "pipe_write", "copy_page_from_iter", "__wake_up_common_lock", "pipe_read",
			 "copy_page_to_iter", "anon_pipe_buf_release", "pipe_release",
			 "free_pipe_info", "syscall_exit_to_user_mode", NULL } },
};

static const char *const common_helpers[] = {
	"mutex_lock", "mutex_unlock", "kfree", "__kmalloc", "kmem_cache_alloc",
	"kmem_cache_free", "__cond_resched", "_copy_to_user", "down_read", "up_read",
	"fput", "fd_install", "putname", "mark_page_accessed", NULL,
};

/* ---- graph building ---- */
struct gen {
	const struct kimage *img;
	struct cgraph *cg;
	uint32_t *node_of;	/* func -> node */
	uint64_t *w;		/* node weight, accumulated */
	uint32_t *byobj;	/* funcs sorted by object */
	size_t nbyobj;
	uint32_t *tmp;
	size_t ntmp, captmp;
	/* paths and arcs collected before the graph is finished */
	struct { uint32_t *f; uint32_t n; uint64_t w; } *paths;
	size_t npaths, cappaths;
	struct { uint32_t a, b; uint64_t w; } *arcs;
	size_t narcs, caparcs;
	size_t missing;
};

static const struct kimage *sort_img;

static int cmp_obj(const void *a, const void *b)
{
	const struct kfunc *x = &sort_img->funcs[*(const uint32_t *)a];
	const struct kfunc *y = &sort_img->funcs[*(const uint32_t *)b];
	int c = strcmp(x->object ? x->object : "", y->object ? y->object : "");

	if (c)
		return c;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static bool usable(const struct kfunc *f)
{
	return (f->flags & KF_MOVABLE) && !(f->flags & (KF_INIT | KF_COLD)) && f->size &&
	       f->size < 4096 && f->object;
}

static void gen_init(struct gen *g, const struct kimage *img)
{
	memset(g, 0, sizeof(*g));
	g->img = img;
	g->node_of = xmalloc(img->nfuncs * sizeof(*g->node_of));
	memset(g->node_of, 0xff, img->nfuncs * sizeof(*g->node_of));
	g->byobj = xmalloc(img->nfuncs * sizeof(*g->byobj));
	for (size_t i = 0; i < img->nfuncs; i++)
		if (usable(&img->funcs[i]))
			g->byobj[g->nbyobj++] = (uint32_t)i;
	sort_img = img;
	qsort(g->byobj, g->nbyobj, sizeof(*g->byobj), cmp_obj);
}

static void gen_free(struct gen *g)
{
	for (size_t i = 0; i < g->npaths; i++)
		free(g->paths[i].f);
	free(g->paths);
	free(g->arcs);
	free(g->node_of);
	free(g->byobj);
	free(g->tmp);
	free(g->w);
}

/* A random usable helper from the object file of function f. */
static int32_t helper_of(struct gen *g, uint32_t f)
{
	const char *obj = g->img->funcs[f].object;
	size_t lo = 0, hi = g->nbyobj, first, last;

	if (!obj)
		return -1;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const char *mo = g->img->funcs[g->byobj[mid]].object;

		if (strcmp(mo, obj) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	first = lo;
	for (last = first; last < g->nbyobj && !strcmp(g->img->funcs[g->byobj[last]].object, obj);
	     last++)
		;
	if (last == first)
		return -1;
	return (int32_t)g->byobj[first + rnd_below((uint32_t)(last - first))];
}

static int32_t func_named(struct gen *g, const char *name)
{
	const struct kfunc *f = kimage_find_func_by_name(g->img, name);

	if (!f) {
		g->missing++;
		return -1;
	}
	return (int32_t)f->index;
}

static void push_tmp(struct gen *g, uint32_t f)
{
	XGROW(g->tmp, g->captmp, g->ntmp + 1);
	g->tmp[g->ntmp++] = f;
}

static void add_path(struct gen *g, const uint32_t *f, uint32_t n, uint64_t w)
{
	XGROW(g->paths, g->cappaths, g->npaths + 1);
	g->paths[g->npaths].f = xmalloc(n * sizeof(*f));
	memcpy(g->paths[g->npaths].f, f, n * sizeof(*f));
	g->paths[g->npaths].n = n;
	g->paths[g->npaths].w = w;
	g->npaths++;
}

static void add_arc(struct gen *g, uint32_t a, uint32_t b, uint64_t w)
{
	XGROW(g->arcs, g->caparcs, g->narcs + 1);
	g->arcs[g->narcs].a = a;
	g->arcs[g->narcs].b = b;
	g->arcs[g->narcs].w = w;
	g->narcs++;
}

/*
 * One syscall variant: anchors in order, each calling up to @helpers
 * helpers of its own object and, now and then, a shared helper. With
 * @stacks, the root-to-leaf call stacks become the paths instead.
 */
static void gen_syscall(struct gen *g, const struct syscall_def *s, int variant,
			unsigned int helpers, bool stacks)
{
	static const uint64_t share[3] = { 60, 30, 10 };
	uint64_t w = s->weight * share[variant] / 10;
	uint32_t stack[64];
	uint32_t depth = 0;
	int32_t prev = -1;

	g->ntmp = 0;
	for (size_t i = 0; i < 24 && s->anchors[i]; i++) {
		int32_t a = func_named(g, s->anchors[i]);
		unsigned int nh;

		if (a < 0)
			continue;
		push_tmp(g, (uint32_t)a);
		if (prev >= 0)
			add_arc(g, (uint32_t)prev, (uint32_t)a, w);
		if (depth < 63)
			stack[depth++] = (uint32_t)a;
		prev = a;
		nh = rnd_below(helpers + 1);
		for (unsigned int h = 0; h < nh; h++) {
			int32_t f = helper_of(g, (uint32_t)a);

			/* each variant keeps 80% of the helpers */
			if (f < 0 || rnd_below(10) >= 8 - 2 * (variant == 2))
				continue;
			push_tmp(g, (uint32_t)f);
			add_arc(g, (uint32_t)a, (uint32_t)f, w);
			if (stacks) {
				stack[depth] = (uint32_t)f;
				add_path(g, stack, depth + 1, 1 + w * (1 + rnd_below(4)) / 8);
			}
		}
		if (rnd_below(10) < 3) {
			size_t nc = 0;
			int32_t c;

			while (common_helpers[nc])
				nc++;
			c = func_named(g, common_helpers[rnd_below((uint32_t)nc)]);
			if (c >= 0) {
				push_tmp(g, (uint32_t)c);
				add_arc(g, (uint32_t)a, (uint32_t)c, w);
				if (stacks) {
					stack[depth] = (uint32_t)c;
					add_path(g, stack, depth + 1, 1 + w / 4);
				}
			}
		}
	}
	if (!stacks && g->ntmp)
		add_path(g, g->tmp, (uint32_t)g->ntmp, w);
}

static uint32_t node_for(struct gen *g, uint32_t f)
{
	if (g->node_of[f] == UINT32_MAX) {
		const struct kfunc *k = &g->img->funcs[f];

		g->node_of[f] = cg_add_node(g->cg, f, k->size, k->align ? k->align : 1, 0,
					    (k->flags & KF_MOVABLE) != 0);
	}
	return g->node_of[f];
}

/* Nodes in address order (as cg_build makes them), weights = calls. */
static struct cgraph *gen_finish(struct gen *g)
{
	uint32_t *fs = xmalloc((g->img->nfuncs + 1) * sizeof(*fs)), nf = 0;
	uint32_t *buf = NULL;
	size_t cap = 0;
	bool *mark = xcalloc(g->img->nfuncs, sizeof(*mark));

	g->cg = cg_new(g->img);
	for (size_t i = 0; i < g->npaths; i++)
		for (uint32_t j = 0; j < g->paths[i].n; j++)
			if (!mark[g->paths[i].f[j]]) {
				mark[g->paths[i].f[j]] = true;
				fs[nf++] = g->paths[i].f[j];
			}
	for (size_t i = 0; i < g->narcs; i++)
		for (int e = 0; e < 2; e++) {
			uint32_t f = e ? g->arcs[i].b : g->arcs[i].a;

			if (!mark[f]) {
				mark[f] = true;
				fs[nf++] = f;
			}
		}
	/* funcs are sorted by address: sorting indices sorts by address */
	for (uint32_t i = 1; i < nf; i++)
		for (uint32_t j = i; j && fs[j - 1] > fs[j]; j--) {
			uint32_t t = fs[j];

			fs[j] = fs[j - 1];
			fs[j - 1] = t;
		}
	for (uint32_t i = 0; i < nf; i++)
		node_for(g, fs[i]);
	for (size_t i = 0; i < g->npaths; i++) {
		XGROW(buf, cap, g->paths[i].n);
		for (uint32_t j = 0; j < g->paths[i].n; j++) {
			buf[j] = g->node_of[g->paths[i].f[j]];
			g->cg->nodes[buf[j]].weight += g->paths[i].w;
			g->cg->total_weight += g->paths[i].w;
		}
		cg_add_path(g->cg, buf, g->paths[i].n, g->paths[i].w);
	}
	for (size_t i = 0; i < g->narcs; i++)
		cg_add_arc(g->cg, g->node_of[g->arcs[i].a], g->node_of[g->arcs[i].b], g->arcs[i].w);
	cg_finish(g->cg);
	free(buf);
	free(fs);
	free(mark);
	return g->cg;
}

static struct cgraph *case_syscalls(struct gen *g, const char *name, unsigned int helpers,
				    bool stacks, bool only_read)
{
	seed(name);
	for (size_t s = 0; s < sizeof(syscalls) / sizeof(syscalls[0]); s++) {
		for (int v = 0; v < (only_read ? 1 : 3); v++)
			gen_syscall(g, &syscalls[s], v, helpers, stacks);
		if (only_read)
			break;
	}
	return gen_finish(g);
}

/* Weights only, on 1,500 functions, Zipf-like (weight ~ 100000 / rank). */
static struct cgraph *case_flat(struct gen *g)
{
	uint32_t *pick = xmalloc(g->nbyobj * sizeof(*pick));
	size_t n = 0;

	seed("flat");
	g->cg = cg_new(g->img);
	for (size_t i = 0; i < g->nbyobj; i++)
		if (rnd_below(10) < 2 && n < 1500)
			pick[n++] = g->byobj[i];
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j && pick[j - 1] > pick[j]; j--) {
			uint32_t t = pick[j];

			pick[j] = pick[j - 1];
			pick[j - 1] = t;
		}
	for (size_t i = 0; i < n; i++) {
		const struct kfunc *k = &g->img->funcs[pick[i]];
		uint64_t w = 100000 / (1 + rnd_below((uint32_t)n));

		cg_add_node(g->cg, pick[i], k->size, k->align ? k->align : 1, w ? w : 1, true);
	}
	cg_finish(g->cg);
	free(pick);
	return g->cg;
}

/*
 * 50,000 functions with sizes drawn from the image, 5,000 hot, and either
 * 400 paths of 30-79 functions (traces) or, with @stacks, 20,000 sampled
 * call stacks of 5-19 (perf -g on a busy machine).
 */
static struct cgraph *case_timing(const struct kimage *img, uint64_t **orig, bool stacks)
{
	struct cgraph *cg = cg_new(NULL);
	const size_t nf = 50000, nhot = 5000, npaths = stacks ? 20000 : 400;
	uint32_t path[80];
	uint64_t at = 0x1000000;

	seed("timing");
	*orig = xmalloc(nf * sizeof(**orig));
	for (size_t i = 0; i < nf; i++) {
		const struct kfunc *k = &img->funcs[rnd_below((uint32_t)img->nfuncs)];
		uint64_t sz = k->size && k->size < 65536 ? k->size : 64;

		at = (at + 15) & ~15ull;
		(*orig)[i] = at;
		at += sz;
		/* the hot ones are every tenth: scattered, as in a real kernel */
		cg_add_node(cg, (uint32_t)i, sz, 16, i % 10 ? 0 : 1 + 100000 / (1 + i / 10), true);
	}
	for (size_t p = 0; p < npaths; p++) {
		uint32_t n = stacks ? 5 + rnd_below(15) : 30 + rnd_below(50);
		uint32_t base = rnd_below((uint32_t)nhot);
		uint64_t w = 1 + (stacks ? 100000 : 10000) / (1 + p);

		for (uint32_t j = 0; j < n; j++) {
			/* mostly near the path's base (a subsystem), sometimes shared */
			uint32_t h = rnd_below(10) < 8 ? (base + rnd_below(200)) % (uint32_t)nhot
						       : rnd_below(100);

			path[j] = h * 10;
			if (j)
				cg_add_arc(cg, path[j / 2], path[j], w);
		}
		cg_add_path(cg, path, n, w);
	}
	cg_finish(cg);
	return cg;
}

/* ---- evaluation ---- */
static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static bool verbose;
static const char *outdir;	/* -o: write each case's profile here as .hprof */

/* The case as a name-keyed profile, so hotpack order/report can read it. */
static int write_hprof(const struct cgraph *cg, const char *name)
{
	struct profile *prof = profile_new();
	uint32_t *ids = xmalloc((cg->nnodes ? cg->nnodes : 1) * sizeof(*ids));
	uint32_t *buf = NULL;
	size_t cap = 0;
	char path[4096], key[512], line[160];
	FILE *f;
	int err = 0;

	snprintf(line, sizeof(line), "layout-bench case %s (synthetic, from %s)", name,
		 cg->img->path);
	profile_add_provenance(prof, line);
	for (size_t i = 0; i < cg->nnodes; i++) {
		ids[i] = profile_func_id(prof, kfunc_key(cg->img, &cg->img->funcs[cg->nodes[i].func],
							 key, sizeof(key)));
		profile_add_weight(prof, ids[i], cg->nodes[i].weight);
	}
	for (size_t i = 0; i < cg->narcs; i++)
		profile_add_edge(prof, ids[cg->arcs[i].src], ids[cg->arcs[i].dst],
				 cg->arcs[i].weight);
	for (size_t i = 0; i < cg->npaths; i++) {
		XGROW(buf, cap, cg->paths[i].n);
		for (uint32_t j = 0; j < cg->paths[i].n; j++)
			buf[j] = ids[cg->paths[i].nodes[j]];
		profile_add_trace(prof, buf, cg->paths[i].n, cg->paths[i].weight);
	}
	/* synthetic: every unit of weight counts as a matched sample */
	prof->nsamples = prof->matched = cg->total_weight;
	snprintf(path, sizeof(path), "%s/%s.hprof", outdir, name);
	f = fopen(path, "w");
	if (!f) {
		pr_err_errno(-errno, "%s: cannot write", path);
		err = -EIO;
	} else {
		err = hprof_write(f, prof);
		if (fclose(f) && !err)
			err = -EIO;
	}
	free(buf);
	free(ids);
	profile_free(prof);
	return err;
}
static unsigned int repeats = 1;	/* runs per algorithm; the median is shown */

static void row(const char *algo, double ms, const struct model_result *r,
		const struct model_opts *mo)
{
	if (verbose)
		for (size_t i = 0; i < r->npaths; i++)
			printf("#   %s path %zu: weight %" PRIu64 ", %u functions, %u pages, "
			       "bound %u (fixed in place %u), %" PRIu64 " runs, %" PRIu64 " misses\n",
			       algo, i, r->paths[i].weight, r->paths[i].nfuncs, r->paths[i].pages,
			       r->paths[i].bound, r->paths[i].fixed_bound, r->paths[i].runs, r->paths[i].tlb_misses[0]);
	printf("| %-9s | %8.1f | %6.2f | %6.2f | %6.2f | %4zu / %-4zu |", algo, ms,
	       model_mean_pages(r), model_mean_fixed_bound(r), model_mean_bound(r), r->set_pages,
	       r->set_bound);
	for (size_t k = 0; k < mo->geom.ntlb; k++)
		printf(" %8" PRIu64 " |", r->tlb_misses[k]);
	if (mo->geom.icache.size)
		printf(" %8" PRIu64 " |", r->icache_misses);
	printf("\n");
}

static int bench_case(const struct kimage *img, const char *name, const struct model_opts *mo)
{
	const struct geometry *mg = &mo->geom;
	struct gen g;
	struct cgraph *cg;
	uint64_t *orig = NULL, *addr, insert = UINT64_MAX;
	struct layout_opts lo = { .geom = *mg, .coverage = 1.0 };
	struct model_result r;
	uint32_t *order;
	char geo[256];
	double t0;
	size_t n;

	gen_init(&g, img);
	if (!strcmp(name, "single"))
		cg = case_syscalls(&g, name, 4, false, true);
	else if (!strcmp(name, "many"))
		cg = case_syscalls(&g, name, 3, false, false);
	else if (!strcmp(name, "small-tlb"))
		cg = case_syscalls(&g, name, 8, false, false);
	else if (!strcmp(name, "stacks"))
		cg = case_syscalls(&g, name, 3, true, false);
	else if (!strcmp(name, "flat"))
		cg = case_flat(&g);
	else if (!strcmp(name, "timing"))
		cg = case_timing(img, &orig, false);
	else if (!strcmp(name, "timing-stacks"))
		cg = case_timing(img, &orig, true);
	else {
		pr_err("unknown case '%s'; use single, many, small-tlb, stacks, flat, timing, "
		       "timing-stacks",
		       name);
		gen_free(&g);
		return -EINVAL;
	}
	if (outdir && !orig && write_hprof(cg, name)) {
		cg_free(cg);
		gen_free(&g);
		return -EIO;
	}
	if (!orig) {
		orig = xmalloc((cg->nnodes ? cg->nnodes : 1) * sizeof(*orig));
		place_as_linked(cg, orig);
		/* the hot region goes where the movable text starts */
		for (size_t i = 0; i < img->nfuncs; i++)
			if ((img->funcs[i].flags & KF_MOVABLE) && img->funcs[i].addr < insert)
				insert = img->funcs[i].addr;
	} else {
		insert = 0x1000000;
	}
	addr = xmalloc((cg->nnodes ? cg->nnodes : 1) * sizeof(*addr));
	order = xmalloc((cg->nnodes ? cg->nnodes : 1) * sizeof(*order));

	printf("\n### %s: %zu functions, %zu hot paths, %zu arcs, weight %" PRIu64 "%s\n\n",
	       name, cg->nnodes, cg->npaths, cg->narcs, cg->total_weight,
	       g.missing ? " (some anchors absent from this image were skipped)" : "");
	printf("Geometry: %s; replay of %" PRIu64 " path runs.\n\n", geom_str(mg, geo, sizeof(geo)),
	       mo->budget ? mo->budget : (uint64_t)MODEL_DEFAULT_BUDGET);
	printf("| algorithm | time ms | pages/run | bound, fixed in place | bound | "
	       "set pages / bound |");
	for (size_t k = 0; k < mg->ntlb; k++)
		printf(" miss %u |", mg->tlb_entries[k]);
	if (mg->icache.size)
		printf(" I-cache miss |");
	printf("\n|---|---:|---:|---:|---:|---:|");
	for (size_t k = 0; k < mg->ntlb + !!mg->icache.size; k++)
		printf("---:|");
	printf("\n");
	if (model_eval(cg, orig, mo, &r) == 0) {
		row("(now)", 0, &r, mo);
		model_result_free(&r);
	}
	for (size_t a = 0; layout_algos[a]; a++) {
		double t[9];
		unsigned int k;

		for (k = 0; k < repeats; k++) {
			t0 = now_ms();
			if (layout_algos[a]->run(cg, &lo, order, &n))
				break;
			t[k] = now_ms() - t0;
		}
		if (k < repeats)
			continue;
		/* the median run */
		for (unsigned int i = 1; i < repeats; i++)
			for (unsigned int j = i; j && t[j - 1] > t[j]; j--) {
				double x = t[j];

				t[j] = t[j - 1];
				t[j - 1] = x;
			}
		t0 = t[repeats / 2];
		place_relink(cg, orig, order, n, insert, mg->page_size, addr);
		if (model_eval(cg, addr, mo, &r) == 0) {
			row(layout_algos[a]->name, t0, &r, mo);
			model_result_free(&r);
		}
	}
	free(order);
	free(addr);
	free(orig);
	cg_free(cg);
	gen_free(&g);
	return 0;
}

int main(int argc, char **argv)
{
	struct model_opts mo;
	struct kimage *img;
	int c, err = 0;

	model_opts_default(&mo);
	while ((c = getopt(argc, argv, "p:e:w:b:r:o:v")) != -1) {
		switch (c) {
		case 'v': verbose = true; break;
		case 'o': outdir = optarg; break;
		case 'r':
			repeats = (unsigned int)strtoul(optarg, NULL, 10);
			if (repeats < 1 || repeats > 9) {
				fprintf(stderr, "layout-bench: -r takes 1 to 9\n");
				return 2;
			}
			break;
		case 'p':
		case 'e':
		case 'w':
			if (geom_parse_opt(&mo.geom, c == 'w' ? GEOM_OPT_TLB_WAYS : c, optarg) < 0)
				return 2;
			break;
		case 'b': mo.budget = strtoull(optarg, NULL, 10); break;
		default:
			fprintf(stderr, "usage: layout-bench [-p PAGE] [-e E1,E2] [-w WAYS] "
					"[-b RUNS] [-r REPEATS] [-o DIR] [-v] VMLINUX CASE...\n");
			return 2;
		}
	}
	if (argc - optind < 2) {
		fprintf(stderr, "usage: layout-bench [-p PAGE] [-e E1,E2] [-w WAYS] [-b RUNS] "
				"[-r REPEATS] [-o DIR] [-v] VMLINUX CASE...\n");
		return 2;
	}
	if (pipe_open_image(&img, argv[optind], NULL, false))
		return 1;
	for (int i = optind + 1; i < argc && !err; i++)
		err = bench_case(img, argv[i], &mo);
	kimage_close(img);
	return err ? 1 : 0;
}
