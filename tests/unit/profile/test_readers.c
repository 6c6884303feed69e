// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_readers.c - the table of profile readers: every entry complete,
 * names and aliases unique and what --input-format takes; the lists the
 * help texts and messages are made of; detection of each shape (the cases
 * of the detect() the table replaced, with its precedence), and of the
 * samples of every reader: each file of tests/fuzz/seeds/NAME/ (and the
 * real captures of tests/data/profile) is detected as its reader's, has
 * lines its reader's sniff() finds, and none that another's finds decisive.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "profile/input.h"
#include "profile/readers.h"
#include "tap.h"

#define PEEK (64u << 10)	/* input.c judges the complete lines of this much */

static const char *detect(const char *s)
{
	const struct profile_reader *r = profile_detect(s, strlen(s), NULL);

	return r ? r->name : "none";
}

static void test_table(void)
{
	const struct profile_reader *r, *owner[64];
	const char *names[64], *const *a;
	size_t i, j, n = 0, nreaders, bad = 0, dups = 0;

	for (i = 0; (r = profile_readers[i]); i++) {
		if (!r->name || !r->what || !r->desc || !r->sniff || !r->read == !r->read_profile ||
		    (r->read && (!r->units || r->units & ~(PROF_UNIT_EVENTS | PROF_UNIT_PERIOD))) ||
		    (r->read_profile && (r->units || r->needs_image || r->in_time_order))) {
			printf("# reader %zu (%s) is incomplete\n", i, r->name ? r->name : "?");
			bad++;
		}
		names[n] = r->name, owner[n++] = r;
		for (a = r->aliases; a && *a && n < 64; a++)
			names[n] = *a, owner[n++] = r;
	}
	nreaders = i;
	ok(nreaders >= 4 && !bad, "every reader has its names, texts, sniff() and one read()");
	for (i = 0; i < n; i++) {
		if (!strcmp(names[i], "auto")) {
			printf("# %s: 'auto' is --input-format's own\n", owner[i]->name);
			dups++;
		}
		for (j = i + 1; j < n; j++)
			if (!strcmp(names[i], names[j])) {
				printf("# '%s' is %s's and %s's\n", names[i], owner[i]->name,
				       owner[j]->name);
				dups++;
			}
	}
	ok(n > nreaders && !dups, "names and aliases are unique (and none is 'auto')");
}

static void test_names(void)
{
	struct input_opts o = { 0 };
	const struct profile_reader *r;
	const char *const *a;
	size_t i, wrong = 0;

	for (i = 0; (r = profile_readers[i]); i++) {
		o.reader = NULL;
		if (input_parse_format(&o, r->name) || o.reader != r)
			wrong++;
		for (a = r->aliases; a && *a; a++) {
			o.reader = NULL;
			if (input_parse_format(&o, *a) || o.reader != r)
				wrong++;
		}
	}
	ok(!wrong, "--input-format takes every name and alias");
	is_str(profile_reader_find("perf-script")->name, "perf", "perf-script is perf");
	is_str(profile_reader_find("trace-cmd")->name, "ftrace", "trace-cmd is ftrace");
	is_str(profile_reader_find("function_graph")->name, "ftrace", "function_graph is ftrace");
	o.reader = profile_readers[0];
	is_int(input_parse_format(&o, "auto"), 0, "--input-format auto");
	ok(!o.reader, "auto: detected");
	is_int(input_parse_format(&o, "xml"), -EINVAL, "an unknown format is refused");
	is_int(input_parse_format(&o, "Perf"), -EINVAL, "names are case-sensitive");
}

/* "a, b, c or d" from the table, as the lists must read */
static char *join(size_t field, const char *last)
{
	char *s = calloc(1, 4096);
	size_t i;

	for (i = 0; profile_readers[i]; i++) {
		strcat(s, !i ? "" : profile_readers[i + 1] ? ", " : last);
		strcat(s, *(const char *const *)((const char *)profile_readers[i] + field));
	}
	return s;
}

static void test_lists(void)
{
	char *want;

	want = join(offsetof(struct profile_reader, name), " or ");
	is_str(profile_readers_list(READERS_NAMES), want, "the names: a, b or c");
	free(want);
	want = join(offsetof(struct profile_reader, what), ", or ");
	is_str(profile_readers_list(READERS_WHAT), want, "what they read: a, b, or c");
	free(want);
	want = join(offsetof(struct profile_reader, desc), ", or ");
	is_str(profile_readers_list(READERS_DESC), want, "their descriptions: a, b, or c");
	free(want);
	ok(profile_readers_list(READERS_NAMES) == profile_readers_list(READERS_NAMES),
	   "a list is built once");
	is_str(strstr(input_format_usage(), " (default: detected)"), " (default: detected)",
	       "--input-format's help ends with the default");
}

/* The former detect()'s cases: shapes, precedence, and what is no format. */
static void test_shapes(void)
{
	static const struct { const char *in, *want, *what; } cases[] = {
		{ "hotpack-profile 1\nfn 1 a\n", "hprof", "detect hprof" },
		{ "\n  hotpack-profile 1\n", "hprof", "detect hprof after a blank" },
		{ "hotpack-profile 2 funcgraph_entry:\n", "hprof",
		  "the hprof magic beats an ftrace marker on its line" },
		{ "# c\nhotpack-profile 2\n", "none", "the hprof magic on the first line only" },
		{ "# tracer: function_graph\n#\n", "ftrace", "detect ftrace header" },
		{ " 0)   4.744 us    |  mutex_unlock();\n", "ftrace",
		  "detect ftrace without header" },
		{ " 0)               |  ksys_read() {\n", "ftrace", "detect ftrace entry" },
		{ "  dd-38 [000] 1.5: funcgraph_entry:   |  a() {\n", "ftrace",
		  "detect trace-cmd report" },
		{ "ffffffff81001550\nffffffff810412a0\n", "addrs", "detect addresses" },
		{ "# comment\n0xffffffff81001550 12\r\n\nffffffff810412a0 3\n", "addrs",
		  "detect addresses with counts, 0x, CRLF, comments" },
		{ "ffffffff81000000\n\tffffffff81000000\n", "addrs",
		  "an address alone is the list's, even indented like a perf frame" },
		{ "swapper 0 [000] 1.5: 250000 cycles: ffffffff81000000 f ([kernel.kallsyms])\n",
		  "perf", "detect perf sample" },
		{ "swapper 0 [000] 1.5: cycles:\n\tffffffff81000000 f ([kernel.kallsyms])\n",
		  "perf", "detect perf callchain" },
		{ "    ffffffff81000000 f+0x1 ([kernel.kallsyms])\n", "perf",
		  "detect headerless perf" },
		{ "0xffffffff81000000/0xffffffff81000100/P/-/-/0\n", "perf", "detect brstack" },
		{ " 0) | a() {\nx 1 [0] 1.5: 1 cycles:\n", "ftrace",
		  "as many graph lines as perf lines: ftrace" },
		{ " 0) | a() {\nx 1 [0] 1.5: 1 cycles:\ny 1 [0] 1.5: 1 cycles:\n", "perf",
		  "more perf lines: perf" },
		{ "ffffffff81001550\nffffffff81001550\n 0) | a() {\n", "ftrace",
		  "one graph line beats more address lines" },
		{ "ffffffff81001550\nffffffff810412a0\ngarbage\nffffffff81001550\n", "addrs",
		  "mostly addresses: an address list (the reader names the bad line)" },
		{ "ffffffff81001550\ngarbage\n", "none", "half addresses, half not: nothing" },
		{ "add\nthis is text\nand more text\n", "none",
		  "prose with one hex word is nothing" },
		{ "hello world\nthis is text\n", "none", "prose is nothing" },
		{ "", "none", "empty is nothing" },
		{ "# only comments\n", "none", "comments only are nothing" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		is_str(detect(cases[i].in), cases[i].want, cases[i].what);
}

/* The first complete lines of @path, as input.c judges them; NULL if none. */
static char *peek(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = malloc(PEEK), *nl;

	*len = f ? fread(buf, 1, PEEK, f) : 0;
	if (f)
		fclose(f);
	if (*len == PEEK && (nl = memrchr(buf, '\n', *len)))
		*len = (size_t)(nl - buf) + 1;
	return buf;
}

/* The sample @path is @want's: detected so, with lines @want's sniff() finds,
 * and none another reader's finds decisive. */
static void check_sample(const struct profile_reader *want, const char *path)
{
	const struct profile_reader *got;
	const char *s, *e, *end;
	size_t len, i, own = 0, other = 0;
	bool first = true;
	char *buf = peek(path, &len), what[1024];

	got = profile_detect(buf, len, NULL);
	for (s = buf, end = buf + len; s < end; s = e + 1) {
		e = memchr(s, '\n', (size_t)(end - s));
		if (!e)
			e = end;
		if (sniff_skip_blanks(s, e) == e)
			continue;
		for (i = 0; profile_readers[i]; i++) {
			enum sniff v = profile_readers[i]->sniff(s, e, first);

			if (profile_readers[i] == want)
				own += v != SNIFF_NO;
			else
				other += v == SNIFF_INPUT;
		}
		first = false;
	}
	snprintf(what, sizeof(what), "%s: detected as %s (got %s), %zu lines %s's, "
		 "%zu another's decisive", path, want->name, got ? got->name : "none", own,
		 want->name, other);
	ok(got == want && own && !other, what);
	free(buf);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_samples(const char *srcdir)
{
	static const char *const captures[][2] = {	/* tests/data/profile */
		{ "linux-6.1-perf.txt", "perf" },
		{ "linux-6.1-lbr.txt", "perf" },
		{ "perf-real-cpu-clock.txt", "perf" },
		{ "perf-two-events.txt", "perf" },
	};
	const struct profile_reader *r;
	char path[4096], *names[256];
	struct dirent *de;
	size_t i, n, k;
	DIR *d;

	for (i = 0; (r = profile_readers[i]); i++) {
		snprintf(path, sizeof(path), "%s/tests/fuzz/seeds/%s", srcdir, r->name);
		d = opendir(path);
		n = 0;
		while (d && (de = readdir(d)) && n < 256)
			if (de->d_name[0] != '.' &&
			    asprintf(&names[n], "%s/%s", path, de->d_name) > 0)
				n++;
		if (d)
			closedir(d);
		snprintf(path, sizeof(path), "%s has samples in tests/fuzz/seeds/%s/", r->name,
			 r->name);
		ok(n, path);
		qsort(names, n, sizeof(*names), cmp_str);
		for (k = 0; k < n; k++) {
			check_sample(r, names[k]);
			free(names[k]);
		}
	}
	for (i = 0; i < sizeof(captures) / sizeof(captures[0]); i++) {
		snprintf(path, sizeof(path), "%s/tests/data/profile/%s", srcdir, captures[i][0]);
		check_sample(profile_reader_find(captures[i][1]), path);
	}
}

int main(void)
{
	const char *srcdir = getenv("srcdir");

	test_table();
	test_names();
	test_lists();
	test_shapes();
	test_samples(srcdir ? srcdir : ".");
	return done_testing();
}
