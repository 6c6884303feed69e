// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_targets.c - the parser entry points under fuzzing (see
 * fuzz_targets.h). Every reader of the table runs on each input, so a new
 * format is fuzzed with no harness of its own; the raw ones have the
 * symbolizer behind them (no image: names as written), so the event shapes
 * they produce are used the way the tool uses them, and the events are
 * checked for what a reader promises (frames present, weights non-zero).
 * .hprof input that reads
 * cleanly must write, read and write again to the same bytes. ELF input
 * goes through kimage_open_mem(), the assumed section names and the address
 * lookups.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
		if (!r->read(in, "fuzz", check_event, sz))
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
 * GNU ld link maps, read against a real image: the running program itself
 * (/proc/self/exe has plenty of functions), opened once; reading a map
 * marks functions and keeps strings, so both are put back after each input.
 */
static struct kimage *map_img;
static struct kfunc *map_funcs;
static size_t map_nstrings;

int fuzz_linkmap(const uint8_t *data, size_t size)
{
	FILE *in;
	size_t i;

	if (!size)
		return 0;
	hp_verbosity = 0;
	if (!map_img) {
		if (kimage_open(&map_img, "/proc/self/exe"))
			abort();
		map_funcs = malloc(map_img->nfuncs * sizeof(*map_funcs));
		if (!map_funcs)
			abort();
		memcpy(map_funcs, map_img->funcs, map_img->nfuncs * sizeof(*map_funcs));
		map_nstrings = map_img->nstrings;
	}
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

/* For LeakSanitizer at exit (the replay test): the cached image. */
__attribute__((destructor)) static void fuzz_linkmap_free(void)
{
	kimage_close(map_img);
	free(map_funcs);
}
