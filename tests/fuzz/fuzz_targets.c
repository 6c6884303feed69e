// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_targets.c - the parser entry points under fuzzing (see
 * fuzz_targets.h). Every reader of the table runs on each input, so a new
 * format is fuzzed with no harness of its own; the raw ones have the
 * symbolizer behind them (no image: names as written), so the event shapes
 * they produce are used the way the tool uses them, and the events are
 * checked for what a reader promises (frames present, weights non-zero);
 * each reader also has a target of its own. .hprof input that reads
 * cleanly must write, read and write again to the same bytes. ELF input
 * goes through kimage_open_mem(), the assumed section names and the address
 * lookups; the disassembler walks images and raw code. Link maps and
 * verify's order files are read against a real image.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <elf.h>

#include "disasm/disasm.h"
#include "emit/order_read.h"
#include "fuzz_targets.h"
#include "image/image.h"
#include "lib/warn.h"
#include "profile/hprof.h"
#include "profile/profile.h"
#include "profile/readers.h"
#include "profile/symbolize.h"
#include "sections/linkmap.h"
#include "sections/sections.h"

static int check_event(const struct hp_event *ev, void *ctx)
{
	size_t i;

	/* what the input says of its kernel: a text, no frames, no weight */
	if (ev->kind == HP_EV_RELEASE || ev->kind == HP_EV_BUILD_ID ||
	    ev->kind == HP_EV_ARCH) {
		if (!ev->text || ev->nframes)
			abort();
		(void)strlen(ev->text);
		return symbolize_event(ev, ctx);
	}
	if (!ev->weight || (ev->nframes && !ev->frames) || ev->kind > HP_EV_BRANCH ||
	    (ev->kind == HP_EV_BRANCH && ev->nframes != 2))
		abort();
	for (i = 0; i < ev->nframes; i++)
		if (ev->frames[i].sym)
			(void)strlen(ev->frames[i].sym);
	return symbolize_event(ev, ctx);
}

/*
 * The order of the windows (profile.seq) names traces that exist, and a
 * merge carries it over whole, through the new trace ids.
 */
static void check_seq(const struct profile *p)
{
	struct profile *q = profile_new();

	for (size_t i = 0; i < p->nseq; i++)
		if (p->seq[i] >= p->ntraces)
			abort();
	profile_merge(q, p);
	if (q->nseq != p->nseq || q->ntraces != p->ntraces)
		abort();
	for (size_t i = 0; i < q->nseq; i++)
		if (q->seq[i] >= q->ntraces)
			abort();
	profile_free(q);
}

/* One reader of the table over the input, the symbolizer behind a raw one. */
static void run_reader(const uint8_t *data, size_t size, const struct profile_reader *r)
{
	struct symbolizer *sz = NULL;
	struct profile *p;
	FILE *in;

	in = fmemopen((void *)data, size, "r");
	if (!in)
		return;
	p = profile_new();
	if (r->read_profile) {
		(void)r->read_profile(in, "fuzz", p);
	} else {
		sz = symbolize_new(p, NULL, NULL, "fuzz");
		/* windows of 1 to 8 samples, or none, by the input's length:
		 * the inputs stay plain inputs of the format */
		if (r->in_time_order && size % 9)
			symbolize_set_window(sz, (uint32_t)(size % 9));
		if (!r->read(in, "fuzz", NULL, check_event, sz))
			symbolize_finish(sz);
		symbolize_free(sz);
	}
	check_seq(p);
	profile_free(p);
	fclose(in);
}

int fuzz_readers(const uint8_t *data, size_t size)
{
	size_t i;

	if (!size)
		return 0;
	hp_verbosity = 0;
	(void)profile_detect((const char *)data, size, NULL);
	for (i = 0; profile_readers[i]; i++)
		run_reader(data, size, profile_readers[i]);
	return 0;
}

/* One reader of the table alone: its run has the fuzzer's whole time. */
static int fuzz_one_reader(const uint8_t *data, size_t size, const char *name)
{
	const struct profile_reader *r = profile_reader_find(name);

	if (!r)
		abort();
	if (!size)
		return 0;
	hp_verbosity = 0;
	run_reader(data, size, r);
	return 0;
}

int fuzz_perf(const uint8_t *data, size_t size)
{
	return fuzz_one_reader(data, size, "perf");
}

int fuzz_ftrace(const uint8_t *data, size_t size)
{
	return fuzz_one_reader(data, size, "ftrace");
}

int fuzz_addrs(const uint8_t *data, size_t size)
{
	return fuzz_one_reader(data, size, "addrs");
}

static char *write_text(const struct profile *p, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f)
		abort();
	hprof_write(f, p);
	fclose(f);
	return buf;
}

int fuzz_hprof(const uint8_t *data, size_t size)
{
	struct profile *p, *q;
	char *t1, *t2;
	size_t l1, l2;
	FILE *in;

	if (!size)
		return 0;
	in = fmemopen((void *)data, size, "r");
	if (!in)
		return 0;
	hp_verbosity = 0;
	p = profile_new();
	if (!hprof_read(in, "fuzz", p)) {
		t1 = write_text(p, &l1);
		q = profile_new();
		fclose(in);
		in = fmemopen(t1, l1, "r");
		if (hprof_read(in, "fuzz-again", q))
			abort();	/* what we wrote must read */
		t2 = write_text(q, &l2);
		if (l1 != l2 || memcmp(t1, t2, l1))
			abort();	/* and write the same */
		free(t1);
		free(t2);
		profile_free(q);
	}
	fclose(in);
	profile_free(p);
	return 0;
}

int fuzz_kimage(const uint8_t *data, size_t size)
{
	struct sections_opts opts = { .no_auto = true };
	struct kimage *img = NULL;
	size_t i;

	hp_verbosity = 0;
	if (kimage_open_mem(&img, data, size, "fuzz"))
		return 0;
	if (sections_name(img, &opts)) {
		kimage_close(img);
		return 0;
	}
	for (i = 0; i < img->nfuncs; i++) {
		const struct kfunc *f = &img->funcs[i];
		char buf[256];

		(void)kimage_find_func_containing(img, f->addr);
		(void)kimage_find_func_containing(img, f->addr + f->size);
		(void)kimage_find_func_by_name(img, f->name);
		(void)kfunc_key(img, f, buf, sizeof(buf));
	}
	kimage_close(img);
	return 0;
}

/*
 * The disassembly walk. An input that starts with the ELF magic is opened as
 * an image and all of its functions are walked and classified (truncated
 * sections, data in text, zero-size and overlapping symbols); any other
 * input is raw code: its first byte picks the architecture and byte order,
 * the rest is walked.
 */
static const struct {
	uint16_t machine;
	unsigned int elfclass;
	bool be;
} fz_arches[] = {
	{ EM_X86_64, ELFCLASS64, false }, { EM_386, ELFCLASS32, false },
	{ EM_AARCH64, ELFCLASS64, false }, { EM_AARCH64, ELFCLASS64, true },
	{ EM_PPC, ELFCLASS32, true }, { EM_PPC64, ELFCLASS64, true },
	{ EM_PPC64, ELFCLASS64, false },
};
#define FZ_NARCH (sizeof(fz_arches) / sizeof(fz_arches[0]))
static struct disasm *fz_disasm[FZ_NARCH];

struct fz_walk {
	uint64_t start, len, mask, n;
};

/* The walk's promises: every site lies in the buffer (addresses wrap at the
 * architecture's width), every length is sane. */
static int fz_branch(const struct disasm_branch *b, void *ctx)
{
	struct fz_walk *w = ctx;

	if (((b->site - w->start) & w->mask) >= w->len || !b->len || b->len > 16)
		abort();
	w->n++;
	return 0;
}

static int fz_call(const struct disasm_call *c, void *ctx)
{
	const struct kimage *img = ctx;

	if (c->caller >= img->nfuncs ||
	    (c->callee != DISASM_NO_FUNC && c->callee >= img->nfuncs) ||
	    c->site != img->funcs[c->caller].addr + c->offset)
		abort();
	return 0;
}

int fuzz_disasm(const uint8_t *data, size_t size)
{
	struct fz_walk w;
	unsigned int a;

	hp_verbosity = 0;
	if (size >= 4 && !memcmp(data, ELFMAG, SELFMAG)) {
		struct kimage *img;

		if (kimage_open_mem(&img, data, size, "fuzz"))
			return 0;
		disasm_calls(img, fz_call, img);
		kimage_close(img);
		return 0;
	}
	if (size < 1)
		return 0;
	a = (data[0] & 0x7fu) % FZ_NARCH;
	if (!fz_disasm[a] && disasm_open_arch(&fz_disasm[a], fz_arches[a].machine,
					      fz_arches[a].elfclass, fz_arches[a].be))
		abort();
	/* near the top of the address space, where sums wrap */
	w.mask = fz_arches[a].elfclass == ELFCLASS32 ? 0xffffffffu : UINT64_MAX;
	w.start = data[0] & 0x80 ? w.mask - 0xff : 0x1000;
	w.len = size - 1;
	w.n = 0;
	disasm_walk(fz_disasm[a], data + 1, size - 1, w.start, fz_branch, &w);
	return 0;
}

unsigned int fuzz_disasm_narch(void)
{
	return FZ_NARCH;
}

/*
 * GNU ld link maps, read against a real image: the running program itself
 * (/proc/self/exe has plenty of functions), opened once; reading a map
 * marks functions and keeps strings, so both are put back after each input.
 */
static struct kimage *map_img;
static struct kfunc *map_funcs;
static size_t map_nstrings;

static void map_img_open(void)
{
	if (map_img)
		return;
	if (kimage_open(&map_img, "/proc/self/exe"))
		abort();
	map_funcs = malloc(map_img->nfuncs * sizeof(*map_funcs));
	if (!map_funcs)
		abort();
	memcpy(map_funcs, map_img->funcs, map_img->nfuncs * sizeof(*map_funcs));
	map_nstrings = map_img->nstrings;
}

int fuzz_linkmap(const uint8_t *data, size_t size)
{
	FILE *in;
	size_t i;

	if (!size)
		return 0;
	hp_verbosity = 0;
	map_img_open();
	in = fmemopen((void *)data, size, "r");
	if (in) {
		if (!linkmap_read_stream(map_img, in, "fuzz.map"))
			for (i = 0; i < map_img->nfuncs; i++)
				if ((map_img->funcs[i].flags & KF_MOVABLE) &&
				    !map_img->funcs[i].section)
					abort();	/* a movable function is named */
		fclose(in);
	}
	memcpy(map_img->funcs, map_funcs, map_img->nfuncs * sizeof(*map_funcs));
	for (i = map_nstrings; i < map_img->nstrings; i++)
		free(map_img->strings[i]);
	map_img->nstrings = map_nstrings;
	free(map_img->secnames_from);
	map_img->secnames_from = NULL;
	return 0;
}

/*
 * The order-file reader (lds, gold, lld or list) of verify and report,
 * against an image whose functions have section names (assumed:
 * .text.NAME): the ELF file HP_FUZZ_ORDER_IMAGE names (a small one keeps
 * the reader's linear look-ups fast: tests/data/profile/symfix.c, built by
 * the scripts), else the running program. Read both ways (one function a
 * line, verify's; every function a line names, report's): what it lists is
 * a function of that image, never more lines than the input has, and one
 * function a line at most when a line must name one.
 */
static struct kimage *ord_img;

static bool order_read_ok(const uint8_t *data, size_t size, size_t lines, bool every)
{
	struct order_file of = { .every_match = every };
	FILE *in = fmemopen((void *)data, size, "r");
	bool ok = true;
	int err;

	if (!in)
		return true;
	err = order_file_read_stream(in, "fuzz.lds", ord_img, &of);
	fclose(in);
	if (!err) {
		ok = of.format && of.lines <= lines && of.unresolved <= of.lines &&
		     (every || of.n + of.unresolved == of.lines);
		for (size_t i = 0; i < of.n; i++)
			ok &= of.items[i].old >= ord_img->funcs &&
			      of.items[i].old < ord_img->funcs + ord_img->nfuncs;
	}
	order_file_free(&of);
	return ok;
}

int fuzz_orderfile(const uint8_t *data, size_t size)
{
	size_t lines = 1;

	if (!size)
		return 0;
	hp_verbosity = 0;
	if (!ord_img) {
		const char *path = getenv("HP_FUZZ_ORDER_IMAGE");

		if (kimage_open(&ord_img, path && *path ? path : "/proc/self/exe") ||
		    sections_name(ord_img, &(struct sections_opts){ .no_auto = true,
								     .quiet_assumed = true }))
			abort();
	}
	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	if (!order_read_ok(data, size, lines, false) || !order_read_ok(data, size, lines, true))
		abort();
	return 0;
}

/* For LeakSanitizer at exit (the replay test): the cached images. */
__attribute__((destructor)) static void fuzz_targets_free(void)
{
	kimage_close(map_img);
	free(map_funcs);
	kimage_close(ord_img);
	for (size_t a = 0; a < FZ_NARCH; a++)
		disasm_close(fz_disasm[a]);
}
