// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_hprof.c - the .hprof format: write, read back, write again gives the
 * same bytes; names with blanks and '%' survive; long traces wrap and come
 * back; merge in any order and grouping gives the same bytes; damaged
 * files are refused with their line; version 2.1's sequence of traces
 * (seq) and its traces by number (ntrace) come back in order, and a later
 * minor's unknown records are skipped; 2.3's build lines are a set; 2.4's
 * extents and 2.5's extents per trace come back.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "profile/hprof.h"
#include "tap.h"

static char *to_text(const struct profile *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	hprof_write(f, p);
	fclose(f);
	return buf;
}

static int from_text(struct profile *p, const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret = hprof_read(f, "t.hprof", p);

	fclose(f);
	return ret;
}

/* A small profile; @salt varies the content between instances. */
static struct profile *make(int salt)
{
	struct profile *p = profile_new();
	uint32_t a = profile_func_id(p, "ksys_read"), b = profile_func_id(p, "vfs_read");
	uint32_t c = profile_func_id(p, salt & 1 ? "odd func" : "even%func");
	uint32_t tr[3] = { a, b, c };

	profile_add_weight(p, c, 10u + (unsigned)salt);
	profile_add_weight(p, b, 3);
	profile_add_edge(p, a, b, 7u * (unsigned)salt + 1);
	profile_add_edge(p, b, c, 2);
	profile_add_trace(p, tr, 3, 5);
	profile_add_trace(p, tr, (uint32_t)(1 + salt % 3), 1);
	p->nsamples = 20u + (unsigned)salt;
	p->matched = 18;
	p->dropped[PROF_DROP_MODULE] = 2;
	profile_add_provenance(p, salt & 2 ? "input b.txt" : "input a.txt");
	return p;
}

static void refuses(const char *what, const char *text)
{
	struct profile *p = profile_new();

	is_int(from_text(p, text), -EINVAL, what);
	profile_free(p);
}

/* The sequence (profile.seq) by trace content: "a b|b a|..." */
static char *seq_names(const struct profile *p)
{
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);
	struct prof_trace *t, *tmp;

	for (i = 0; i < p->nseq; i++)
		HASH_ITER(hh, p->traces, t, tmp)
			if (t->id == p->seq[i])
				for (uint32_t k = 0; k < t->n; k++)
					fprintf(f, "%s%s", p->funcs[t->ids[k]]->name,
						k + 1 < t->n ? " " : "|");
	fclose(f);
	return buf;
}

/* @p written is @want (which is freed) */
static void is_text(const struct profile *p, char *want, const char *what)
{
	char *got = to_text(p);

	is_str(got, want, what);
	free(got);
	free(want);
}

/* damaged or misplaced records of version 2.1 */
static const struct {
	const char *what, *text;
} bad_21[] = {
	{ "seq in version 2", "hotpack-profile 2\ntrace 1 2 a b\nseq 1 0\nend 2\n" },
	{ "seq of a trace not before it", "hotpack-profile 2.1\ntrace 1 2 a b\nseq 1 1\nend 2\n" },
	{ "seq longer than its count", "hotpack-profile 2.1\ntrace 1 2 a b\nseq 2 0*3\nend 2\n" },
	{ "seq cut short", "hotpack-profile 2.1\ntrace 1 2 a b\nseq 3 0\nend 2\n" },
	{ "seq run of zero", "hotpack-profile 2.1\ntrace 1 2 a b\nseq 1 0*0 0\nend 2\n" },
	{ "seq bad entry", "hotpack-profile 2.1\ntrace 1 2 a b\nseq 1 0x\nend 2\n" },
	{ "ntrace in version 2", "hotpack-profile 2\nfn 1 a\nfn 1 b\nntrace 1 2 0 1\nend 3\n" },
	{ "ntrace of a fn line not before it", "hotpack-profile 2.1\nfn 1 a\nntrace 1 2 0 1\nend 2\n" },
	{ "an unknown record in 2.1", "hotpack-profile 2.1\nnew 1 a\nend 1\n" },
	{ "a minor of version 1", "hotpack-profile 1.1\nfn 1 a\n" },
	{ "a bad minor", "hotpack-profile 2.\nend 0\n" },
};

/* provenance: 64 lines of a kind at most, the smallest, and "more KIND" */
static void test_provenance_cap(void)
{
	struct profile *p = profile_new(), *a = profile_new(), *b = profile_new();
	char line[32], *t1;
	int i;

	for (i = 0; i < 100; i++) {
		snprintf(line, sizeof(line), "input box%03d.txt", 99 - i);
		profile_add_provenance(p, line);
		profile_add_provenance(i & 1 ? a : b, line);
	}
	profile_add_provenance(p, "tool hotpack");
	is_int((int)p->nprov, 66, "64 input lines, 'more input' and the tool line");
	t1 = to_text(p);
	ok(strstr(t1, "prov input box000.txt\n") && strstr(t1, "prov input box063.txt\n") &&
	   !strstr(t1, "box064") && strstr(t1, "prov more input\nprov tool hotpack\n"),
	   "the smallest kept, whatever order they came in");
	profile_add_provenance(a, "tool hotpack");
	profile_merge(a, b);
	is_text(a, t1, "two halves merged keep the same lines");
	profile_free(a);
	profile_free(b);
	profile_free(p);
}

static void test_seq(void)
{
	struct profile *p = profile_new(), *q = profile_new(), *m;
	uint32_t a = profile_func_id(p, "zz_last"), b = profile_func_id(p, "aa_first");
	uint32_t ab[2] = { a, b }, ba[2] = { b, a };
	struct prof_trace *tab = profile_add_trace(p, ab, 2, 3), *tba;
	char *t1, *t2, *s1, *s2;
	int i;

	tba = profile_add_trace(p, ba, 2, 1);
	profile_add_seq(p, tab);
	profile_add_seq(p, tab);
	profile_add_seq(p, tba);
	profile_add_seq(p, tab);
	t1 = to_text(p);
	ok(!strncmp(t1, "hotpack-profile 2.1\n", 20), "a sequence makes version 2.1");
	/* traces sorted by names: "aa_first zz_last" is trace 0 */
	ok(strstr(t1, "\nseq 4 1*2 0 1\n") != NULL, "seq by trace line, runs as T*R");
	ok(strstr(t1, "\nntrace 1 2 0 1\nntrace 3 2 1 0\nseq ") != NULL,
	   "2.1 traces by their functions' fn lines");
	is_int(from_text(q, t1), 0, "2.1 reads back");
	t2 = to_text(q);
	is_str(t2, t1, "write, read, write: same bytes");
	s1 = seq_names(p);
	s2 = seq_names(q);
	is_str(s2, s1, "the sequence comes back in order");
	free(t1);
	free(t2);
	free(s2);
	m = profile_new();
	profile_merge(m, p);
	profile_merge(m, q);
	is_int((int)m->nseq, 8, "merge puts sequences one after the other");
	free(s1);
	profile_free(m);
	profile_free(q);

	/* a long sequence wraps with "+" lines */
	for (i = 0; i < 3000; i++)
		profile_add_seq(p, i & 1 ? tab : tba);
	t1 = to_text(p);
	ok(strstr(strstr(t1, "\nseq "), "\n+ ") != NULL, "a long seq wraps");
	q = profile_new();
	is_int(from_text(q, t1), 0, "the wrapped seq reads back");
	is_int((int)q->nseq, 3004, "all of it");
	is_text(q, t1, "and writes the same");
	profile_free(p);
	profile_free(q);

	for (i = 0; i < (int)(sizeof(bad_21) / sizeof(bad_21[0])); i++)
		refuses(bad_21[i].what, bad_21[i].text);
	q = profile_new();
	is_int(from_text(q, "hotpack-profile 2.7\nnew 1 a\nfn 2 a\nend 2\n"), 0,
	       "a later minor: its unknown records are skipped");
	is_u64(profile_find_func(q, "a")->weight, 2, "and the known ones read");
	refuses("but end still counts them", "hotpack-profile 2.7\nnew 1 a\nfn 2 a\nend 1\n");
	profile_free(q);
}

/* An explicit trace (an ftrace call tree) is marked by a 2.2 "calltree"
 * record and read back as one; a sampled trace stays unmarked. */
static void test_calltree(void)
{
	struct profile *p = profile_new(), *q = profile_new();
	uint32_t tr[2] = { profile_func_id(p, "a"), profile_func_id(p, "b") };
	struct prof_trace *t, *tmp;
	size_t traced = 0, sampled = 0;
	char *text, *again;

	profile_add_trace(p, tr, 2, 5)->traced = true;
	profile_add_trace(p, tr, 1, 2);
	text = to_text(p);
	ok(!strncmp(text, "hotpack-profile 2.2\n", 20), "a call tree makes version 2.2");
	/* traces sorted by names: "a" is trace 0, "a b" trace 1 */
	ok(strstr(text, "\ntrace 2 1 a\ntrace 5 2 a b\ncalltree 1\nend ") != NULL,
	   "the call tree marked by its trace line's place");
	is_int(from_text(q, text), 0, "2.2 reads back");
	HASH_ITER(hh, q->traces, t, tmp) {
		traced += t->traced && t->n == 2;
		sampled += !t->traced && t->n == 1;
	}
	ok(traced == 1 && sampled == 1, "read back: the call tree explicit, the stack not");
	again = to_text(q);
	is_str(again, text, "calltree: write, read, write: same bytes");
	free(again);
	free(text);
	profile_free(q);
	profile_free(p);
	refuses("calltree in version 2.1", "hotpack-profile 2.1\ntrace 1 2 a b\ncalltree 0\nend 2\n");
	refuses("calltree of a trace not before it",
		"hotpack-profile 2.2\ntrace 1 2 a b\ncalltree 1\nend 2\n");
}

/* The builds a profile came from: 2.3 "build" lines, a union on merge,
 * at most PROF_BUILDS_MAX kept (the smallest) and "build more" then. */
static void test_build(void)
{
	struct profile *p = profile_new(), *q = profile_new(), *m = profile_new();
	char *text, *again, line[64];
	int i;

	profile_func_id(p, "a");
	profile_builds_add(&p->builds, "x86_64 6.1.0 bb");
	profile_builds_add(&p->builds, "x86_64 6.1.0 aa");
	profile_builds_add(&p->builds, "x86_64 6.1.0 aa");
	text = to_text(p);
	ok(!strncmp(text, "hotpack-profile 2.3\n", 20), "a build line makes version 2.3");
	ok(strstr(text, "\nbuild x86_64 6.1.0 aa\nbuild x86_64 6.1.0 bb\nstat ") != NULL,
	   "build lines sorted, once each, before the counts");
	is_int(from_text(q, text), 0, "2.3 reads back");
	is_int((int)q->builds.n, 2, "both builds read");
	again = to_text(q);
	is_str(again, text, "build: write, read, write: same bytes");
	free(again);
	free(text);
	/* a merge of two builds says so; the same build twice is one line */
	profile_merge(m, p);
	profile_builds_add(&q->builds, "aarch64 6.12.0 -");
	profile_merge(m, q);
	is_int((int)m->builds.n, 3, "a merge keeps the union of the builds");
	for (i = 0; i < PROF_BUILDS_MAX + 5; i++) {
		snprintf(line, sizeof(line), "x86_64 6.1.%03d -", i);
		profile_builds_add(&m->builds, line);
	}
	text = to_text(m);
	ok(m->builds.n == PROF_BUILDS_MAX && strstr(text, "\nbuild more\n") &&
	   strstr(text, "build aarch64 6.12.0 -\n") && !strstr(text, "6.1.068"),
	   "past the cap: the smallest kept and 'build more'");
	profile_free(q);
	q = profile_new();
	is_int(from_text(q, text), 0, "'build more' reads back");
	ok(q->builds.more, "... and is kept");
	free(text);
	profile_free(q);
	profile_free(m);
	profile_free(p);
	refuses("build in version 2.2", "hotpack-profile 2.2\nbuild x86_64 6.1.0 aa\nend 1\n");
	refuses("build with two fields", "hotpack-profile 2.3\nbuild x86_64 6.1.0\nend 1\n");
	refuses("build with four fields", "hotpack-profile 2.3\nbuild x86_64 6.1 aa bb\nend 1\n");
}

/* The bytes a function's samples hit: 2.4 "extent" lines, a union on
 * merge, all of it when any sample gave no offset. */
static void test_extent(void)
{
	struct profile *p = profile_new(), *q = profile_new(), *m = profile_new();
	uint32_t a = profile_func_id(p, "a"), b = profile_func_id(p, "b");
	uint32_t c = profile_func_id(p, "c"), lo, hi;
	char *text, *again;

	profile_add_weight_at(p, a, 3, 40);
	profile_add_weight_at(p, a, 1, 8);
	profile_add_weight(p, b, 2);		/* a name: no offset */
	profile_add_weight_at(p, c, 1, 100);
	profile_add_weight(p, c, 1);		/* and one without: whole */
	ok(profile_func_extent(p->funcs[a], &lo, &hi) && lo == 8 && hi == 41,
	   "extent: the union of the samples' offsets");
	ok(!profile_func_extent(p->funcs[b], &lo, &hi), "extent: none from a name");
	ok(!profile_func_extent(p->funcs[c], &lo, &hi), "extent: one offsetless sample: whole");
	text = to_text(p);
	ok(!strncmp(text, "hotpack-profile 2.4\n", 20), "an extent makes version 2.4");
	ok(strstr(text, "\nfn 4 a\nfn 2 b\nfn 2 c\nextent 0 8 41\nend ") != NULL,
	   "extent lines after the fn lines, each by its fn line's place");
	ok(strstr(text, "extent 1 ") == NULL && strstr(text, "extent 2 ") == NULL,
	   "no extent line for a whole function");
	is_int(from_text(q, text), 0, "2.4 reads back");
	ok(profile_func_extent(q->funcs[0], &lo, &hi) && lo == 8 && hi == 41 &&
	   !profile_func_extent(q->funcs[1], &lo, &hi) && !profile_func_extent(q->funcs[2], &lo, &hi),
	   "read back: a's extent, b and c whole");
	again = to_text(q);
	is_str(again, text, "extent: write, read, write: same bytes");
	free(again);
	/* merged with a profile where a ran at 200: the union; with one where
	 * a ran from a name: whole */
	profile_merge(m, q);
	profile_free(q);
	q = profile_new();
	profile_add_weight_at(q, profile_func_id(q, "a"), 1, 200);
	profile_merge(m, q);
	ok(profile_func_extent(m->funcs[0], &lo, &hi) && lo == 8 && hi == 201,
	   "merge: the union of the extents");
	profile_free(q);
	q = profile_new();
	profile_add_weight(q, profile_func_id(q, "a"), 1);
	profile_merge(m, q);
	ok(!profile_func_extent(m->funcs[0], &lo, &hi), "merge: whole when a side is");
	free(text);
	profile_free(q);
	profile_free(m);
	profile_free(p);
	/* a 2.3 file has no extents: its weighted functions are whole */
	q = profile_new();
	is_int(from_text(q, "hotpack-profile 2.3\nfn 5 a\nend 1\n"), 0, "2.3 without extents");
	ok(q->funcs[0]->ext_whole, "... its weighted function whole");
	profile_free(q);
	/* a 2.4 fn line with no extent line: whole too */
	q = profile_new();
	is_int(from_text(q, "hotpack-profile 2.4\nfn 5 a\nfn 2 b\nextent 1 0 4\nend 3\n"), 0,
	       "2.4: one extent of two");
	ok(q->funcs[0]->ext_whole && profile_func_extent(q->funcs[1], &lo, &hi) && hi == 4,
	   "... the other whole");
	profile_free(q);
	refuses("extent in version 2.3", "hotpack-profile 2.3\nfn 1 a\nextent 0 0 4\nend 2\n");
	refuses("extent of no fn line", "hotpack-profile 2.4\nfn 1 a\nextent 1 0 4\nend 2\n");
	refuses("extent empty", "hotpack-profile 2.4\nfn 1 a\nextent 0 4 4\nend 2\n");
	refuses("extent past 4 GiB", "hotpack-profile 2.4\nfn 1 a\nextent 0 0 4294967296\nend 2\n");
}

/* @t's extent at @i as "LO-HI", or "-" */
static const char *ext_text(const struct prof_trace *t, uint32_t i)
{
	static char buf[64];
	uint32_t lo, hi;

	if (!profile_trace_extent(t, i, &lo, &hi))
		return "-";
	snprintf(buf, sizeof(buf), "%u-%u", lo, hi);
	return buf;
}

/* The one trace of @p */
static struct prof_trace *only_trace(const struct profile *p)
{
	return p->ntraces == 1 ? p->traces : NULL;
}

/* Merge into @m a profile of one trace of the functions @names (@n of
 * them) that ran @ext (NULL and @whole: none known). */
static void merge_trace(struct profile *m, const char *const *names, uint32_t n,
			const uint32_t *ext, bool whole)
{
	struct profile *q = profile_new();
	uint32_t *ids = calloc(n, sizeof(*ids));

	for (uint32_t i = 0; i < n; i++)
		ids[i] = profile_func_id(q, names[i]);
	profile_trace_extent_add(profile_add_trace(q, ids, n, 1), ext, NULL, whole);
	profile_merge(m, q);
	profile_free(q);
	free(ids);
}

/*
 * What each function of a trace ran in its windows: 2.5 "textent" lines,
 * "=" where that is the function's extent line, "-" where not known; a
 * union over the times the trace ran and on merge; whole (no textent)
 * when any time it ran gave no offsets, as every trace of an older file.
 */
static void test_textent(void)
{
	struct profile *p = profile_new(), *q = profile_new(), *m;
	uint32_t a = profile_func_id(p, "a"), b = profile_func_id(p, "b");
	uint32_t c = profile_func_id(p, "c"), abc[3] = { a, b, c };
	uint32_t e1[6] = { 8, 41, 5, 6, 0, 0 }, e2[6] = { 10, 20, 60, 101, 0, 0 };
	struct prof_trace *t;
	char *text, *again, *big;
	size_t len = 0;
	FILE *f;

	profile_add_weight_at(p, a, 1, 8);
	profile_add_weight_at(p, a, 1, 40);
	profile_add_weight_at(p, b, 1, 5);
	profile_add_weight_at(p, b, 1, 100);
	t = profile_add_trace(p, abc, 3, 2);
	profile_trace_extent_add(t, e1, NULL, false);
	profile_trace_extent_add(t, e2, NULL, false);
	is_str(ext_text(t, 0), "8-41", "textent: a union over the times it ran");
	is_str(ext_text(t, 1), "5-101", "textent: each position its own");
	is_str(ext_text(t, 2), "-", "textent: a position no window hit: not known");
	profile_add_weight_at(p, b, 1, 300);	/* b's extent is now wider */
	text = to_text(p);
	ok(!strncmp(text, "hotpack-profile 2.5\n", 20), "a trace's extents make version 2.5");
	ok(strstr(text, "\ntextent 0 = 5-101 -\n") != NULL,
	   "textent: '=' the extent line's, LO-HI, '-' not known");
	is_int(from_text(q, text), 0, "2.5 reads back");
	t = only_trace(q);
	ok(t && !strcmp(ext_text(t, 0), "8-41") && !strcmp(ext_text(t, 1), "5-101") &&
	   !strcmp(ext_text(t, 2), "-"), "read back: the same extents");
	is_text(q, strdup(text), "textent: write, read, write: same bytes");

	/* merge: the union; with a side that has the trace whole: whole */
	m = profile_new();
	profile_merge(m, q);
	profile_free(q);
	merge_trace(m, (const char *[]){ "a", "b", "c" }, 3, (uint32_t[]){ 0, 4, 0, 0, 7, 9 },
		    false);
	t = only_trace(m);
	ok(t && !strcmp(ext_text(t, 0), "0-41") && !strcmp(ext_text(t, 1), "5-101") &&
	   !strcmp(ext_text(t, 2), "7-9"), "merge: the union of the traces' extents");
	merge_trace(m, (const char *[]){ "a", "b", "c" }, 3, NULL, true);
	t = only_trace(m);
	ok(t && t->ext_whole && !strcmp(ext_text(t, 0), "-"), "merge: whole when a side is");
	again = to_text(m);
	ok(strstr(again, "\ntextent ") == NULL, "a whole trace has no textent line");
	free(again);
	profile_free(m);
	profile_free(p);

	/* an older file's traces are whole: its functions' extents count */
	q = profile_new();
	is_int(from_text(q, "hotpack-profile 2.4\nfn 1 a\nfn 1 b\nextent 0 0 4\n"
			 "ntrace 1 2 0 1\nend 4\n"), 0, "2.4 with a trace");
	t = only_trace(q);
	ok(t && t->ext_whole, "... the trace whole");
	profile_free(q);
	/* a 2.5 trace without a textent line: whole as well */
	q = profile_new();
	is_int(from_text(q, "hotpack-profile 2.5\nfn 1 a\nfn 1 b\nntrace 1 2 0 1\n"
			 "ntrace 1 2 1 0\ntextent 1 0-1 -\nend 5\n"), 0, "2.5: one textent of two");
	ok(q->ntraces == 2, "... two traces");
	{
		struct prof_trace *x, *tmp;
		int whole = 0, known = 0;

		HASH_ITER(hh, q->traces, x, tmp) {
			whole += x->ext_whole;
			known += !strcmp(ext_text(x, 0), "0-1") && !strcmp(ext_text(x, 1), "-");
		}
		ok(whole == 1 && known == 1, "... the other whole");
	}
	profile_free(q);

	/* a long trace's textent wraps with "+" lines and comes back */
	p = profile_new();
	{
		uint32_t ids[3000], ext[6000];
		char name[16];

		for (int i = 0; i < 3000; i++) {
			snprintf(name, sizeof(name), "f%d", i);
			ids[i] = profile_func_id(p, name);
			profile_add_weight(p, ids[i], 1);
			ext[2 * i] = (uint32_t)i * 100000u;
			ext[2 * i + 1] = (uint32_t)i * 100000u + 12345u;
		}
		profile_add_trace(p, ids, 3000, 1);
		profile_trace_extent_add(only_trace(p), ext, NULL, false);
	}
	big = to_text(p);
	ok(strstr(strstr(big, "\ntextent "), "\n+ ") != NULL, "a long textent wraps");
	q = profile_new();
	is_int(from_text(q, big), 0, "the wrapped textent reads back");
	t = only_trace(q);
	ok(t && !strcmp(ext_text(t, 2999), "299900000-299912345"), "all of it");
	is_text(q, strdup(big), "and writes the same");
	profile_free(q);
	/* cut inside its "+" lines */
	*strrchr(strstr(big, "\ntextent "), '+') = '\0';
	f = open_memstream(&again, &len);
	fputs(big, f);
	fputs("end 1\n", f);
	fclose(f);
	refuses("textent shorter than its trace", again);
	free(again);
	free(big);
	profile_free(p);
	free(text);

	refuses("textent in version 2.4",
		"hotpack-profile 2.4\nfn 1 a\nfn 1 b\nntrace 1 2 0 1\ntextent 0 0-1 -\nend 4\n");
	refuses("textent of no trace line before it",
		"hotpack-profile 2.5\nfn 1 a\nfn 1 b\ntextent 0 0-1 -\nntrace 1 2 0 1\nend 4\n");
	refuses("textent twice for a trace",
		"hotpack-profile 2.5\nfn 1 a\nfn 1 b\nntrace 1 2 0 1\ntextent 0 0-1 -\n"
		"textent 0 0-1 -\nend 5\n");
	refuses("textent longer than its trace",
		"hotpack-profile 2.5\nfn 1 a\nfn 1 b\nntrace 1 2 0 1\ntextent 0 0-1 - -\nend 4\n");
	refuses("textent short of its trace",
		"hotpack-profile 2.5\nfn 1 a\nfn 1 b\nntrace 1 2 0 1\ntextent 0 0-1\nend 4\n");
	refuses("textent '=' without an extent line",
		"hotpack-profile 2.5\nfn 1 a\nfn 1 b\nntrace 1 2 0 1\ntextent 0 = -\nend 4\n");
	refuses("textent empty",
		"hotpack-profile 2.5\nfn 1 a\nfn 1 b\nntrace 1 2 0 1\ntextent 0 4-4 -\nend 4\n");
	refuses("textent backwards",
		"hotpack-profile 2.5\nfn 1 a\nfn 1 b\nntrace 1 2 0 1\ntextent 0 9-4 -\nend 4\n");
	refuses("textent past 4 GiB",
		"hotpack-profile 2.5\nfn 1 a\nfn 1 b\nntrace 1 2 0 1\ntextent 0 0-4294967296 -\nend 4\n");
	refuses("textent not a range",
		"hotpack-profile 2.5\nfn 1 a\nfn 1 b\nntrace 1 2 0 1\ntextent 0 0-1x -\nend 4\n");
}

/* @t's ranges at @i as "LO-HI,LO-HI" ("" when it has none beyond ext) */
static const char *xr_text(const struct prof_trace *t, uint32_t i)
{
	static char buf[256];
	const struct ranges *xr = profile_trace_ranges(t, i);
	size_t o = 0;

	buf[0] = '\0';
	for (uint32_t k = 0; xr && k < xr->n && o < sizeof(buf) - 24; k++)
		o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%u-%u", k ? "," : "",
				      xr->v[2 * k], xr->v[2 * k + 1]);
	return buf;
}

/*
 * The ranges each function of a trace ran, 2.6 "tranges" lines before the
 * trace's textent: written only where there are two or more, read back to
 * the same bytes, a union on merge (a side with a hull only adds that), and
 * an older reader's rules (records of a later minor skipped) keep the hull.
 */
static void test_tranges(void)
{
	struct profile *p = profile_new(), *q = profile_new(), *m;
	uint32_t a = profile_func_id(p, "a"), b = profile_func_id(p, "b"), ab[2] = { a, b };
	uint32_t e[4] = { 0, 1000, 8, 9 };
	struct ranges xr[2] = { { 0 }, { 0 } };
	struct prof_trace *t;
	char *text, *old;

	profile_add_weight_at(p, a, 1, 0);
	profile_add_weight_at(p, a, 1, 999);
	profile_add_weight_at(p, b, 1, 8);
	ranges_add(&xr[0], 0, 1);
	ranges_add(&xr[0], 999, 1000);
	ranges_add(&xr[1], 8, 9);
	t = profile_add_trace(p, ab, 2, 1);
	profile_trace_extent_add(t, e, xr, false);
	is_str(xr_text(t, 0), "0-1,999-1000", "tranges: the two ranges a window ran");
	is_str(xr_text(t, 1), "", "one range: the hull says it all");
	text = to_text(p);
	ok(!strncmp(text, "hotpack-profile 2.6\n", 20), "ranges make version 2.6");
	ok(strstr(text, "\ntranges 0 0 0-1,999-1000\ntextent 0 = =\n") != NULL,
	   "tranges before its textent, for the function with two ranges only");
	is_int(from_text(q, text), 0, "2.6 reads back");
	t = only_trace(q);
	ok(t && !strcmp(xr_text(t, 0), "0-1,999-1000") && !strcmp(ext_text(t, 0), "0-1000"),
	   "read back: the ranges and their hull");
	is_text(q, strdup(text), "tranges: write, read, write: same bytes");
	m = profile_new();	/* merge: a side with only the hull there adds the hull */
	profile_merge(m, q);
	profile_free(q);
	merge_trace(m, (const char *[]){ "a", "b" }, 2, (uint32_t[]){ 500, 510, 400, 401 }, false);
	t = only_trace(m);
	ok(t && !strcmp(xr_text(t, 0), "0-1,500-510,999-1000") && !strcmp(ext_text(t, 0), "0-1000"),
	   "merge: ranges and a hull, the union");
	ok(t && !strcmp(xr_text(t, 1), "8-9,400-401") && !strcmp(ext_text(t, 1), "8-401"),
	   "merge: two hulls far apart are two ranges");
	merge_trace(m, (const char *[]){ "a", "b" }, 2, (uint32_t[]){ 0, 1000, 0, 0 }, false);
	t = only_trace(m);
	ok(t && !strcmp(xr_text(t, 0), "") && !strcmp(ext_text(t, 0), "0-1000"),
	   "merge: a side that ran all of it makes one range");
	profile_free(m);

	/* an older reader's rules: the hull, tranges skipped */
	old = strdup(text);
	memcpy(strstr(old, "2.6"), "2.9", 3);
	q = profile_new();
	is_int(from_text(q, old), 0, "a later minor's tranges read as ours");
	profile_free(q);
	free(old);
	free(text);
	for (int i = 0; i < 2; i++)
		ranges_release(&xr[i]);
	profile_free(p);

#define TR_HEAD "hotpack-profile 2.6\nfn 1 a\nfn 1 b\nntrace 1 2 0 1\n"
	refuses("tranges in version 2.5",
		"hotpack-profile 2.5\nfn 1 a\nfn 1 b\nntrace 1 2 0 1\ntranges 0 0 0-1,90-99\n"
		"textent 0 0-99 -\nend 5\n");
	refuses("tranges after its textent",
		TR_HEAD "textent 0 0-99 -\ntranges 0 0 0-1,90-99\nend 5\n");
	refuses("tranges without a textent after it", TR_HEAD "tranges 0 0 0-1,90-99\nend 4\n");
	refuses("tranges of no trace line", TR_HEAD "tranges 1 0 0-1,90-99\ntextent 0 0-99 -\nend 5\n");
	refuses("tranges past its trace's functions",
		TR_HEAD "tranges 0 2 0-1,90-99\ntextent 0 0-99 -\nend 5\n");
	refuses("tranges whose hull is not the textent's",
		TR_HEAD "tranges 0 0 0-1,90-99\ntextent 0 0-100 -\nend 5\n");
	refuses("tranges for a '-' position", TR_HEAD "tranges 0 1 0-1,90-99\ntextent 0 0-1 -\nend 5\n");
	refuses("tranges of one range", TR_HEAD "tranges 0 0 0-99\ntextent 0 0-99 -\nend 5\n");
	refuses("tranges out of order", TR_HEAD "tranges 0 0 90-99,0-1\ntextent 0 0-99 -\nend 5\n");
	refuses("tranges overlapping", TR_HEAD "tranges 0 0 0-50,40-99\ntextent 0 0-99 -\nend 5\n");
	refuses("tranges empty range", TR_HEAD "tranges 0 0 0-0,90-99\ntextent 0 0-99 -\nend 5\n");
	refuses("tranges twice for a function",
		TR_HEAD "tranges 0 0 0-1,90-99\ntranges 0 0 0-1,90-99\ntextent 0 0-99 -\nend 6\n");
	refuses("tranges with no list", TR_HEAD "tranges 0 0\ntextent 0 0-99 -\nend 5\n");
	refuses("tranges with two lists",
		TR_HEAD "tranges 0 0 0-1 90-99\ntextent 0 0-99 -\nend 5\n");
	refuses("tranges with a trailing comma",
		TR_HEAD "tranges 0 0 0-1,90-99,\ntextent 0 0-99 -\nend 5\n");
#undef TR_HEAD
}

int main(void)
{
	struct profile *p = make(1), *q = profile_new(), *m1, *m2, *m3, *x[3];
	char *t1, *t2, *t3;
	uint32_t *ids;
	int i;

	t1 = to_text(p);
	ok(!strncmp(t1, "hotpack-profile 2\n", 18), "header line first");
	ok(strstr(t1, "\nend ") && strchr(strstr(t1, "\nend ") + 1, '\n')[1] == '\0',
	   "an end trailer last");
	ok(strstr(t1, "fn 11 odd%20func\n") != NULL, "blanks in names are escaped");
	ok(strstr(t1, "stat dropped module 2\n") != NULL, "drop counts are written");
	is_int(from_text(q, t1), 0, "reads back");
	t2 = to_text(q);
	is_str(t2, t1, "write, read, write: same bytes");
	ok(profile_find_func(q, "odd func") != NULL, "escaped name decoded");
	is_u64(q->nsamples, 21, "samples count read");
	is_u64(q->dropped[PROF_DROP_MODULE], 2, "drop count read");
	free(t1);
	free(t2);
	profile_free(p);
	profile_free(q);

	/* merge: every order and grouping of three profiles gives the same bytes */
	for (i = 0; i < 3; i++)
		x[i] = make(i + 2);
	m1 = profile_new();
	profile_merge(m1, x[0]);
	profile_merge(m1, x[1]);
	profile_merge(m1, x[2]);
	m2 = profile_new();
	profile_merge(m2, x[2]);
	profile_merge(m2, x[0]);
	profile_merge(m2, x[1]);
	m3 = profile_new();	/* x1 + (x2 + x0) through text */
	p = profile_new();
	profile_merge(p, x[2]);
	profile_merge(p, x[0]);
	t3 = to_text(p);
	from_text(m3, t3);
	free(t3);
	profile_free(p);
	profile_merge(m3, x[1]);
	t1 = to_text(m1);
	t2 = to_text(m2);
	t3 = to_text(m3);
	is_str(t2, t1, "merge order does not change the output");
	is_str(t3, t1, "merge grouping (through text) does not change the output");
	ok(strstr(t1, "stat samples 69\n") != NULL, "merged sample counts add");
	ok(strstr(t1, "prov input a.txt\nprov input b.txt\n") != NULL,
	   "provenance sorted, duplicates once");
	free(t1);
	free(t2);
	free(t3);
	profile_free(m1);
	profile_free(m2);
	profile_free(m3);
	for (i = 0; i < 3; i++)
		profile_free(x[i]);

	/* a trace longer than a line wraps with "+" lines and reads back */
	p = profile_new();
	ids = malloc(3000 * sizeof(*ids));
	for (i = 0; i < 3000; i++) {
		char name[32];

		snprintf(name, sizeof(name), "function_number_%d", i);
		ids[i] = profile_func_id(p, name);
	}
	profile_add_trace(p, ids, 3000, 9);
	free(ids);
	t1 = to_text(p);
	ok(strstr(t1, "\n+ ") != NULL, "a long trace wraps");
	q = profile_new();
	is_int(from_text(q, t1), 0, "the wrapped trace reads back");
	t2 = to_text(q);
	is_str(t2, t1, "and writes the same");
	is_int(q->ntraces, 1, "as one trace");
	free(t1);
	free(t2);
	profile_free(p);
	profile_free(q);

	refuses("no header", "fn 1 a\n");
	refuses("empty file", "");
	refuses("another version", "hotpack-profile 3\nend 0\n");
	refuses("version 2 without its end line", "hotpack-profile 2\nfn 1 a\n");
	refuses("end counting other lines", "hotpack-profile 2\nfn 1 a\nfn 2 b\nend 1\n");
	refuses("a record after end", "hotpack-profile 2\nfn 1 a\nend 1\nfn 2 b\n");
	refuses("end in version 1", "hotpack-profile 1\nend 0\n");
	refuses("an unknown unit", "hotpack-profile 2\nunits cycles\nend 1\n");
	q = profile_new();
	is_int(from_text(q, "hotpack-profile 2\n# c\nunits period\nfn 1 a\n\nend 2\n# after\n"), 0,
	       "version 2: comments and blanks are not counted by end");
	is_int((int)q->units, (int)PROF_UNIT_PERIOD, "units read");
	m1 = profile_new();
	is_int(from_text(m1, "hotpack-profile 2\nunits events\nend 1\n"), 0, "units events read");
	profile_merge(m1, q);
	is_int((int)m1->units, (int)(PROF_UNIT_EVENTS | PROF_UNIT_PERIOD), "merge unites units");
	t1 = to_text(m1);
	ok(strstr(t1, "\nunits events period\n") != NULL, "mixed units written");
	free(t1);
	profile_free(m1);
	profile_free(q);
	/* a profile cut at any line boundary is refused */
	p = make(1);
	t1 = to_text(p);
	profile_free(p);
	for (i = 0, t3 = t1; (t3 = strchr(t3, '\n')) != NULL; t3++) {
		char save = t3[1];

		if (!save)
			break;
		t3[1] = '\0';
		q = profile_new();
		if (from_text(q, t1) != -EINVAL)
			i++;
		profile_free(q);
		t3[1] = save;
	}
	is_int(i, 0, "every head -n of a written profile is refused");
	free(t1);
	refuses("bad weight", "hotpack-profile 1\nfn x a\n");
	refuses("edge without callee", "hotpack-profile 1\nedge 1 a\n");
	refuses("trace count too big", "hotpack-profile 1\ntrace 1 3 a b\n");
	refuses("trace count too small", "hotpack-profile 1\ntrace 1 1 a b\n");
	refuses("trace count zero", "hotpack-profile 1\ntrace 1 0\n");
	refuses("bad escape", "hotpack-profile 1\nfn 1 a%2\n");
	refuses("escaped NUL", "hotpack-profile 1\nfn 1 a%00b\n");
	refuses("unknown record", "hotpack-profile 1\nfunc 1 a\n");
	refuses("unknown drop reason", "hotpack-profile 1\nstat dropped kernel 1\n");
	refuses("a trace cut short at the end", "hotpack-profile 1\ntrace 1 3 a\n+ b\n");
	refuses("a stray continuation", "hotpack-profile 1\n+ a\n");
	q = profile_new();
	is_int(from_text(q, "\n# comment\nhotpack-profile 1\r\n# c\r\nfn 2 a\r\n\r\n"), 0,
	       "comments, blank lines and CRLF are fine");
	is_u64(profile_find_func(q, "a")->weight, 2, "CRLF weight read");
	profile_free(q);
	test_seq();
	test_provenance_cap();
	test_calltree();
	test_build();
	test_extent();
	test_textent();
	test_tranges();
	return done_testing();
}
