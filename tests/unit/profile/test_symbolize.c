// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_symbolize.c IMAGE - the symbolization rules of docs/profiles.md on
 * the symfix image (tests/data/profile/symfix.c, built by symbolize.test):
 * stacks, ftrace trees and LBR calls into weights, edges and traces; names
 * across clone suffixes and aliases; drops by reason; the KASLR offset voted
 * from sym+off frames; and names kept as written without an image.
 */
#include "config.h"

#include <stdlib.h>

#include "image/image.h"
#include "profile/symbolize.h"
#include "tap.h"

static const struct kimage *img;

static uint64_t fw(const struct profile *p, const char *name)
{
	struct prof_func *f = profile_find_func(p, name);

	return f ? f->weight : UINT64_MAX;
}

static uint64_t ew(const struct profile *p, const char *a, const char *b)
{
	struct prof_func *x = profile_find_func(p, a), *y = profile_find_func(p, b);
	struct prof_edge *e;
	uint64_t key;

	if (!x || !y)
		return 0;
	key = (uint64_t)x->id << 32 | y->id;
	HASH_FIND(hh, p->edges, &key, sizeof(key), e);
	return e ? e->weight : 0;
}

/* The trace as "a b c" names, or "" when absent; weight in *w. */
static const char *trace_text(const struct profile *p, size_t which, uint64_t *w)
{
	static char buf[1024];
	struct prof_trace *t, *tmp;
	size_t i = 0, len;
	uint32_t k;

	buf[0] = '\0';
	HASH_ITER(hh, p->traces, t, tmp) {
		if (i++ != which)
			continue;
		len = 0;
		for (k = 0; k < t->n; k++)
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", k ? " " : "",
						p->funcs[t->ids[k]]->name);
		*w = t->weight;
	}
	return buf;
}

static uint64_t addr_of(const char *name)
{
	struct kfunc *f = kimage_find_func_by_name(img, name);

	return f ? f->addr : 0;
}

static struct hp_frame sym(const char *s, uint64_t off)
{
	struct hp_frame f = { .sym = s, .off = off, .has_off = 1, .dso = HP_DSO_KERNEL };

	return f;
}

static struct hp_frame at(uint64_t a)
{
	struct hp_frame f = { .addr = a, .has_addr = 1, .dso = HP_DSO_KERNEL };

	return f;
}

static size_t feed_line = 1;	/* LBR entries of one record share a line */

static void feed(struct symbolizer *sz, enum hp_event_kind kind, uint64_t w,
		 const struct hp_frame *fr, size_t n)
{
	struct hp_event ev = { .kind = kind, .weight = w, .frames = fr, .nframes = n,
			       .file = "t", .line = feed_line };

	symbolize_event(&ev, sz);
}

static void test_stack(void)
{
	struct profile *p = profile_new();
	const int64_t kaslr = 0;
	struct symbolizer *sz = symbolize_new(p, img, &kaslr, "t");
	struct hp_frame st[] = { sym("read_zero", 4), sym("read_zero", 9), sym("vfs_read", 0x10),
				 sym("ksys_read", 0x20) };
	uint64_t w = 0;

	feed(sz, HP_EV_STACK, 100, st, 4);
	feed(sz, HP_EV_STACK, 5, st + 2, 2);
	symbolize_finish(sz);
	is_u64(fw(p, "read_zero"), 100, "stack: the leaf gets the self weight");
	is_u64(fw(p, "vfs_read"), 5, "stack: a leaf of another sample");
	is_u64(fw(p, "ksys_read"), 0, "stack: callers get no self weight");
	is_u64(ew(p, "vfs_read", "read_zero"), 100, "stack: caller->callee edge");
	is_u64(ew(p, "ksys_read", "vfs_read"), 105, "stack: edges add up");
	is_u64(ew(p, "read_zero", "read_zero"), 0, "stack: no self edge for a repeated frame");
	is_int(p->ntraces, 2, "stack: one trace per distinct stack");
	is_u64(p->nsamples, 2, "stack: events counted");
	is_u64(p->matched, 2, "stack: events matched");
	{
		const char *t0 = trace_text(p, 0, &w);

		ok(!strcmp(t0, "ksys_read vfs_read read_zero") ||
			   !strcmp(trace_text(p, 1, &w), "ksys_read vfs_read read_zero"),
		   "stack: trace root first, consecutive duplicates folded");
	}
	symbolize_free(sz);
	profile_free(p);
}

static void test_names(void)
{
	struct profile *p = profile_new();
	const int64_t kaslr = 0;
	struct symbolizer *sz = symbolize_new(p, img, &kaslr, "t");
	struct hp_frame f;
	char buf[64];

	f = sym("foo.isra.3", 0);
	feed(sz, HP_EV_STACK, 1, &f, 1);
	f = sym("foo", 0);
	feed(sz, HP_EV_STACK, 2, &f, 1);
	f = sym("foo.constprop.1.isra.0", 0);
	feed(sz, HP_EV_STACK, 4, &f, 1);
	f = sym("bar.constprop.7.cold", 0);
	feed(sz, HP_EV_STACK, 8, &f, 1);
	f = sym("bar.llvm.123456", 0);
	feed(sz, HP_EV_STACK, 16, &f, 1);
	f = sym("baz.part.0", 0);
	feed(sz, HP_EV_STACK, 32, &f, 1);
	f = sym("sys_read_alias", 0);
	feed(sz, HP_EV_STACK, 64, &f, 1);
	f = sym("not_here", 0);
	feed(sz, HP_EV_STACK, 128, &f, 1);
	symbolize_finish(sz);
	is_u64(fw(p, "foo.isra.0"), 7, "names: foo.isra.3, foo, foo.constprop.1.isra.0 -> foo.isra.0");
	is_u64(fw(p, "bar.constprop.0.cold"), 8, "names: a .cold clone finds the .cold part");
	is_u64(fw(p, "bar.constprop.0"), 16, "names: .llvm.N finds the hot clone");
	is_u64(fw(p, "baz"), 32, "names: baz.part.0 -> baz");
	is_u64(fw(p, "ksys_read"), 64, "names: an alias counts for its function");
	is_u64(p->dropped[PROF_DROP_NOT_IN_IMAGE], 1, "names: an unknown name is not in the image");
	is_int(p->nfuncs, 5, "names: nothing else in the profile");
	is_str(symbolize_base_name("a.constprop.0.isra.1.cold", buf, sizeof(buf)), "a",
	       "base name strips stacked suffixes");
	is_str(symbolize_base_name("x.y", buf, sizeof(buf)), "x.y", "base name keeps other dots");
	is_str(symbolize_base_name("z.part.x", buf, sizeof(buf)), "z.part.x",
	       "base name needs a number after part");
	symbolize_free(sz);
	profile_free(p);
}

static void test_drops(void)
{
	struct profile *p = profile_new();
	const int64_t kaslr = 0;
	struct symbolizer *sz = symbolize_new(p, img, &kaslr, "t");
	struct hp_frame f[2];

	f[1] = sym("ksys_read", 0);
	f[0] = sym("e1000_xmit", 0), f[0].dso = HP_DSO_MODULE;
	feed(sz, HP_EV_STACK, 1, f, 2);
	f[0] = sym("main", 0), f[0].dso = HP_DSO_USER;
	feed(sz, HP_EV_STACK, 1, f, 1);
	f[0] = sym("bpf_prog_x", 0), f[0].dso = HP_DSO_BPF;
	feed(sz, HP_EV_STACK, 1, f, 1);
	f[0] = at(0x401000), f[0].dso = HP_DSO_UNKNOWN;
	feed(sz, HP_EV_STACK, 1, f, 1);
	f[0] = at(0x10);
	feed(sz, HP_EV_STACK, 1, f, 1);
	feed(sz, HP_EV_STACK, 1, f, 0);
	symbolize_finish(sz);
	is_u64(p->dropped[PROF_DROP_MODULE], 1, "drops: module");
	is_u64(p->dropped[PROF_DROP_USER], 1, "drops: user");
	is_u64(p->dropped[PROF_DROP_BPF], 1, "drops: bpf");
	is_u64(p->dropped[PROF_DROP_UNKNOWN], 2, "drops: [unknown] and an empty stack");
	is_u64(p->dropped[PROF_DROP_NOT_IN_IMAGE], 1, "drops: an address outside the image");
	is_u64(p->matched, 0, "drops: nothing matched");
	is_u64(p->nsamples, 6, "drops: all counted");
	is_u64(fw(p, "ksys_read"), 0, "drops: a kernel caller of a module leaf is known");
	symbolize_free(sz);
	profile_free(p);
}

static void test_kaslr(void)
{
	struct profile *p = profile_new();
	struct symbolizer *sz = symbolize_new(p, img, NULL, "t");
	const int64_t off = 0x3a00000, given = -0x1000;
	struct hp_frame f[2];
	bool detected;
	int i;

	/* the first events are address-only: they wait for the vote */
	f[0] = at(addr_of("baz") + 3 + off);
	feed(sz, HP_EV_STACK, 1, f, 1);
	for (i = 0; i < 20; i++) {
		f[0] = sym("read_zero", 5), f[0].addr = addr_of("read_zero") + 5 + off;
		f[0].has_addr = 1;
		f[1] = sym("vfs_read", 7), f[1].addr = addr_of("vfs_read") + 7 + off;
		f[1].has_addr = 1;
		feed(sz, HP_EV_STACK, 1, f, 2);
	}
	f[0] = at(addr_of("other_kernel_func") + 1 + off);
	feed(sz, HP_EV_STACK, 1, f, 1);
	symbolize_finish(sz);
	is_int(symbolize_kaslr_offset(sz, &detected), off, "kaslr: offset voted from sym+off");
	ok(detected, "kaslr: detected");
	is_u64(fw(p, "baz"), 1, "kaslr: an address before the vote resolves");
	is_u64(fw(p, "other_kernel_func"), 1, "kaslr: an address after the vote resolves");
	is_u64(fw(p, "read_zero"), 20, "kaslr: symbol frames resolve");
	symbolize_free(sz);
	profile_free(p);

	/* given on the command line: used as is */
	p = profile_new();
	sz = symbolize_new(p, img, &given, "t");
	f[0] = at(addr_of("baz") - 0x1000);
	feed(sz, HP_EV_STACK, 3, f, 1);
	symbolize_finish(sz);
	is_u64(fw(p, "baz"), 3, "kaslr: a negative --kaslr-offset");
	symbolize_free(sz);
	profile_free(p);
}

static void test_tree(void)
{
	struct profile *p = profile_new();
	const int64_t kaslr = 0;
	struct symbolizer *sz = symbolize_new(p, img, &kaslr, "t");
	struct hp_frame t[] = { sym("ksys_read", 0), sym("vfs_read", 0), sym("read_zero", 0),
				sym("not_here", 0), sym("baz", 0), sym("vfs_read", 0),
				sym("foo.isra.0", 0) };
	uint64_t w = 0;

	/* ksys_read { vfs_read { read_zero } not_here { baz } vfs_read { . . foo } } */
	t[0].depth = 0, t[1].depth = 1, t[2].depth = 2, t[3].depth = 1, t[4].depth = 2;
	t[5].depth = 1, t[6].depth = 3;
	feed(sz, HP_EV_TRACE, 1, t, 7);
	symbolize_finish(sz);
	is_u64(fw(p, "vfs_read"), 2, "tree: each entry adds the weight");
	is_u64(fw(p, "ksys_read"), 1, "tree: the root too");
	is_u64(ew(p, "ksys_read", "vfs_read"), 2, "tree: parent -> child edges");
	is_u64(ew(p, "vfs_read", "read_zero"), 1, "tree: nested edge");
	is_u64(ew(p, "vfs_read", "baz"), 0, "tree: no edge across an unresolved parent");
	is_u64(ew(p, "vfs_read", "foo.isra.0"), 0, "tree: no edge over a depth jump");
	is_int(p->ntraces, 1, "tree: one trace");
	is_str(trace_text(p, 0, &w), "ksys_read vfs_read read_zero baz vfs_read foo.isra.0",
	       "tree: the trace is the entries in order");
	is_u64(p->nsamples, 1, "tree: one event");
	is_u64(p->matched, 1, "tree: matched");
	symbolize_free(sz);
	profile_free(p);
}

static void test_branch(void)
{
	struct profile *p = profile_new();
	const int64_t kaslr = 0;
	struct symbolizer *sz = symbolize_new(p, img, &kaslr, "t");
	struct hp_frame b[2];

	b[0] = at(addr_of("vfs_read") + 0x10), b[1] = at(addr_of("read_zero"));
	feed(sz, HP_EV_BRANCH, 10, b, 2);	/* a call */
	b[0] = at(addr_of("read_zero") + 0x20), b[1] = at(addr_of("vfs_read") + 0x15);
	feed(sz, HP_EV_BRANCH, 10, b, 2);	/* its return: ignored */
	feed_line = 2;
	b[0] = sym("ksys_read", 0x30), b[1] = sym("vfs_read", 0);
	feed(sz, HP_EV_BRANCH, 3, b, 2);	/* brstacksym call */
	feed_line = 3;
	b[0] = sym("x", 0), b[0].dso = HP_DSO_USER, b[1] = sym("ksys_read", 0);
	feed(sz, HP_EV_BRANCH, 2, b, 2);	/* from user space (a syscall entry) */
	feed_line = 4;
	b[0] = sym("baz", 0x4), b[1] = sym("baz", 0);
	feed(sz, HP_EV_BRANCH, 1, b, 2);	/* recursion: weight, no edge */
	feed_line = 5;
	b[0] = sym("x", 0), b[0].dso = HP_DSO_USER, b[1] = sym("y", 0), b[1].dso = HP_DSO_USER;
	feed(sz, HP_EV_BRANCH, 1, b, 2);	/* all in user space */
	feed(sz, HP_EV_BRANCH, 1, b, 2);
	feed_line = 1;
	symbolize_finish(sz);
	is_u64(ew(p, "vfs_read", "read_zero"), 10, "lbr: call edge from addresses");
	is_u64(ew(p, "read_zero", "vfs_read"), 0, "lbr: a return is not a call");
	is_u64(fw(p, "read_zero"), 10, "lbr: the target gets the weight");
	is_u64(ew(p, "ksys_read", "vfs_read"), 3, "lbr: call edge from symbols");
	is_u64(fw(p, "ksys_read"), 2, "lbr: a call from user space weighs its target");
	is_u64(ew(p, "baz", "baz"), 0, "lbr: no self edge");
	is_u64(p->nsamples, 5, "lbr: one sample per record (line), not per entry");
	is_u64(p->matched, 4, "lbr: a record matches when a target resolves");
	is_u64(p->dropped[PROF_DROP_USER], 1, "lbr: a record all in user space is dropped once");
	symbolize_free(sz);
	profile_free(p);
}

static void test_no_image(void)
{
	struct profile *p = profile_new();
	struct symbolizer *sz = symbolize_new(p, NULL, NULL, "t");
	struct hp_frame f[2] = { sym("foo.isra.3", 1), sym("caller", 2) };

	feed(sz, HP_EV_STACK, 4, f, 2);
	f[0] = at(0xffffffff81000000);
	feed(sz, HP_EV_STACK, 1, f, 1);
	symbolize_finish(sz);
	is_u64(fw(p, "foo.isra.3"), 4, "no image: names as written");
	is_u64(ew(p, "caller", "foo.isra.3"), 4, "no image: edges by name");
	is_u64(p->dropped[PROF_DROP_UNKNOWN], 1, "no image: a bare address is dropped");
	symbolize_free(sz);
	profile_free(p);
}

/*
 * Windows of an address stream with a label: ksys_read, entry_label,
 * vfs_read in a window of 2. The label's sample joins the window's path
 * without counting toward its length, and the arc passes over it. The
 * sampled offsets give each function's extent.
 */
static void test_window_label(void)
{
	struct profile *p = profile_new();
	const int64_t kaslr = 0;
	struct symbolizer *sz = symbolize_new(p, img, &kaslr, "t");
	struct hp_frame f[3] = { at(addr_of("ksys_read") + 8), at(addr_of("entry_label") + 4),
				 at(addr_of("vfs_read") + 20) };
	struct kfunc *lab = kimage_find_func_by_name((struct kimage *)img, "entry_label");
	uint64_t w = 0;
	uint32_t lo, hi;

	ok(lab && (lab->flags & KF_LABEL) && !(lab->flags & KF_MOVABLE),
	   "label: a sized local label is a fixed function, a label");
	symbolize_set_window(sz, 2);
	for (int i = 0; i < 3; i++)
		feed(sz, HP_EV_STACK, 1, &f[i], 1);
	symbolize_finish(sz);
	is_int(p->ntraces, 1, "label: one window");
	is_str(trace_text(p, 0, &w), "ksys_read entry_label vfs_read",
	       "label: the window's path has the label, the window 2 samples long");
	is_u64(ew(p, "ksys_read", "vfs_read"), 2, "label: the arc passes over the label");
	is_u64(ew(p, "ksys_read", "entry_label") + ew(p, "entry_label", "vfs_read"), 0,
	       "label: no arc to or from it");
	is_u64(fw(p, "entry_label"), 1, "label: its sample weighs");
	ok(profile_func_extent(profile_find_func(p, "vfs_read"), &lo, &hi) && lo == 20 && hi == 21,
	   "extent: the sampled offset");
	symbolize_free(sz);
	profile_free(p);
}

/* The trace whose functions read @names, or NULL */
static struct prof_trace *trace_named(const struct profile *p, const char *names)
{
	struct prof_trace *t, *tmp;
	uint64_t w;
	size_t i = 0;

	HASH_ITER(hh, p->traces, t, tmp)
		if (!strcmp(trace_text(p, i++, &w), names))
			return t;
	return NULL;
}

/* Past the 64 B line of @name+@off: where a window's sample there ends. */
static uint32_t line_end(const char *name, uint32_t off)
{
	return off + 64 - (uint32_t)((addr_of(name) + off) & 63);
}

/*
 * Each window keeps the bytes its own samples hit per function, each from
 * the sample to the end of its line: windows (ksys_read+8, vfs_read+20)
 * and (vfs_read+40, ksys_read+30) are two traces, each with its offsets,
 * where the functions' extents (the samples' own bytes) are the union of
 * both. A stack sample's trace has none (whole).
 */
static void test_window_extents(void)
{
	struct profile *p = profile_new();
	const int64_t kaslr = 0;
	struct symbolizer *sz = symbolize_new(p, img, &kaslr, "t");
	struct hp_frame f[4] = { at(addr_of("ksys_read") + 8), at(addr_of("vfs_read") + 20),
				 at(addr_of("vfs_read") + 40), at(addr_of("ksys_read") + 30) };
	struct prof_trace *ab, *ba;
	uint32_t lo, hi, lo2, hi2;

	symbolize_set_window(sz, 2);
	for (int i = 0; i < 4; i++)
		feed(sz, HP_EV_STACK, 1, &f[i], 1);
	symbolize_finish(sz);
	ab = trace_named(p, "ksys_read vfs_read");
	ba = trace_named(p, "vfs_read ksys_read");
	ok(ab && ba && p->ntraces == 2, "window extents: two windows, two traces");
	if (!ab || !ba)
		return;
	ok(profile_trace_extent(ab, 0, &lo, &hi) && lo == 8 && hi == line_end("ksys_read", 8) &&
	   profile_trace_extent(ab, 1, &lo2, &hi2) && lo2 == 20 &&
	   hi2 == line_end("vfs_read", 20),
	   "window extents: the first window's offsets, to their lines' ends");
	ok(profile_trace_extent(ba, 0, &lo, &hi) && lo == 40 && hi == line_end("vfs_read", 40) &&
	   profile_trace_extent(ba, 1, &lo2, &hi2) && lo2 == 30 &&
	   hi2 == line_end("ksys_read", 30),
	   "window extents: the second's, apart");
	ok(profile_func_extent(profile_find_func(p, "ksys_read"), &lo, &hi) && lo == 8 && hi == 31,
	   "window extents: the function's extent is the union");
	symbolize_free(sz);
	profile_free(p);

	p = profile_new();
	sz = symbolize_new(p, NULL, NULL, "t");
	{
		struct hp_frame st[2] = { sym("vfs_read", 1), sym("ksys_read", 2) };

		feed(sz, HP_EV_STACK, 1, st, 2);
	}
	symbolize_finish(sz);
	ok(p->ntraces == 1 && p->traces->ext_whole && !profile_trace_extent(p->traces, 0, &lo, &hi),
	   "a stack's trace: no extents (whole)");
	symbolize_free(sz);
	profile_free(p);
}

int main(int argc, char **argv)
{
	struct kimage *k = NULL;

	if (argc < 2 || kimage_open(&k, argv[1])) {
		printf("Bail out! usage: test_symbolize SYMFIX-IMAGE\n");
		return 1;
	}
	img = k;
	ok(addr_of("foo.isra.0") && addr_of("bar.constprop.0.cold"), "fixture has its clones");
	test_stack();
	test_names();
	test_drops();
	test_kaslr();
	test_tree();
	test_branch();
	test_no_image();
	test_window_label();
	test_window_extents();
	kimage_close(k);
	return done_testing();
}
