// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * input.c - reading profile inputs: open a file or stdin, tell its format
 * from the first bytes (or take the forced one), run the matching reader
 * with the symbolizer behind it, or merge a .hprof as it is. Several inputs
 * add up into one profile; at the end the share of matched samples decides
 * whether the profile belongs to this kernel at all.
 *
 * The first INPUT_PEEK bytes are read ahead for detection and handed back to
 * the reader through a fopencookie() stream, so pipes work as well as files.
 * The same stream counts the bytes read and shows progress on stderr when
 * stderr is a terminal and the input is big.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/warn.h"
#include "lib/xalloc.h"
#include "profile/input.h"
#include "profile/symbolize.h"

#define INPUT_PEEK (64u << 10)
#define INPUT_PROGRESS_MIN (8ull << 20)	/* show progress past this many bytes */
#define INPUT_PROGRESS_STEP (16ull << 20)

static const char *const format_names[] = {
	[INPUT_AUTO] = "auto",
	[INPUT_PERF] = "perf",
	[INPUT_FTRACE] = "ftrace",
	[INPUT_ADDRS] = "addrs",
	[INPUT_HPROF] = "hprof",
};

int input_format_from_name(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(format_names) / sizeof(format_names[0]); i++)
		if (!strcmp(name, format_names[i]))
			return (int)i;
	if (!strcmp(name, "perf-script"))
		return INPUT_PERF;
	if (!strcmp(name, "function_graph") || !strcmp(name, "trace-cmd"))
		return INPUT_FTRACE;
	return -1;
}

const char *input_format_name(enum input_format f)
{
	if ((size_t)f < sizeof(format_names) / sizeof(format_names[0]))
		return format_names[f];
	return "?";
}

/* --- detection ----------------------------------------------------------- */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* "hex [count]" and nothing else */
static bool line_is_addr(const char *s, const char *e)
{
	const char *p = s;
	int n = 0;

	while (p < e && is_blank(*p))
		p++;
	if (e - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	while (p < e && ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') ||
			 (*p >= 'A' && *p <= 'F')))
		p++, n++;
	if (!n || n > 16)
		return false;
	while (p < e && is_blank(*p))
		p++;
	while (p < e && *p >= '0' && *p <= '9')
		p++;
	while (p < e && is_blank(*p))
		p++;
	return p == e;
}

/* a "SECONDS.FRACTION:" token followed by a blank or the end */
static bool line_has_time(const char *s, const char *e)
{
	const char *c, *p;

	for (c = s; c < e; c++) {
		if (*c != ':' || (c + 1 < e && !is_blank(c[1])))
			continue;
		p = c;
		while (p > s && p[-1] >= '0' && p[-1] <= '9')
			p--;
		if (p == c || p == s || p[-1] != '.')
			continue;
		p--;
		if (p == s || p[-1] < '0' || p[-1] > '9')
			continue;
		return true;
	}
	return false;
}

static bool line_has(const char *s, const char *e, const char *what)
{
	return memmem(s, (size_t)(e - s), what, strlen(what)) != NULL;
}

/* " 0)  ...  |  func() {" and its kin: a '|' and then a call, a '}' or a marker */
static bool line_is_graph(const char *s, const char *e)
{
	const char *bar = NULL, *p;

	for (p = s; p < e; p++)
		if (*p == '|')
			bar = p;
	if (!bar)
		return false;
	while (e > bar && is_blank(e[-1]))
		e--;
	return line_has(bar, e, "() {") || line_has(bar, e, "();") ||
	       (e > bar && e[-1] == '}') || line_has(bar, e, "} /*") ||
	       line_has(s, e, "==========>") || line_has(s, e, "<==========");
}

/*
 * Classify the lines of @buf; *badline (when not NULL) gets the number of the
 * first line no format claims (0 when none). Lines the formats cannot claim
 * do not decide the format: the reader of the format the other lines show
 * reports the first bad one with its line number.
 */
static enum input_format detect(const char *buf, size_t len, size_t *badline)
{
	const char *s = buf, *e, *end = buf + len, *p;
	size_t lines = 0, addrs = 0, perf = 0, graph = 0, lineno = 0, bad = 0;
	bool first = true;

	for (; s < end; s = e + 1) {
		e = memchr(s, '\n', (size_t)(end - s));
		if (!e)
			e = end;
		lineno++;
		p = s;
		while (p < e && is_blank(*p))
			p++;
		if (p == e)
			continue;
		if (first && (size_t)(e - p) >= 15 && !memcmp(p, "hotpack-profile", 15))
			return INPUT_HPROF;
		first = false;
		if (line_has(p, e, "# tracer: function_graph") ||
		    line_has(p, e, "funcgraph_entry:") || line_has(p, e, "funcgraph_exit:"))
			return INPUT_FTRACE;
		if (*p == '#')
			continue;
		lines++;
		if (line_is_addr(p, e))
			addrs++;
		else if (line_is_graph(p, e))
			graph++;
		else if (line_has_time(p, e) || (*s == '\t' && line_is_addr(p, p + 1)) ||
			 (e[-1] == ')' && line_is_addr(p, p + 1)) || line_has(p, e, "/P/") ||
			 line_has(p, e, "/M/") || line_has(p, e, "/-/-/"))
			perf++;
		else if (!bad)
			bad = lineno;
	}
	if (badline)
		*badline = bad;
	if (!lines)
		return INPUT_AUTO;
	if (graph && graph >= perf)
		return INPUT_FTRACE;
	if (perf)
		return INPUT_PERF;
	/* mostly addresses: the address reader names the lines that are not */
	if (addrs && addrs * 2 > lines)
		return INPUT_ADDRS;
	return INPUT_AUTO;
}

enum input_format input_detect(const char *buf, size_t len)
{
	return detect(buf, len, NULL);
}

int input_check_paths(char *const *paths, int npaths)
{
	int i, stdin_at = -1;

	for (i = 0; i < npaths; i++) {
		if (strcmp(paths[i], "-"))
			continue;
		if (stdin_at >= 0) {
			pr_err("'-' (standard input) is given twice (inputs %d and %d); it can "
			       "be read once: give it once", stdin_at + 1, i + 1);
			return -EINVAL;
		}
		stdin_at = i;
	}
	return 0;
}

/* --- the input stream -------------------------------------------------- */

struct input_src {
	FILE *f;
	const char *name;
	char *peek;
	size_t peeklen, peekpos;
	uint64_t done, total;	/* bytes handed on; file size or 0 */
	uint64_t next_report;
	bool progress;
	bool shown;
};

static ssize_t input_src_read(void *cookie, char *buf, size_t size)
{
	struct input_src *src = cookie;
	size_t n;

	if (src->peekpos < src->peeklen) {
		n = src->peeklen - src->peekpos;
		if (n > size)
			n = size;
		memcpy(buf, src->peek + src->peekpos, n);
		src->peekpos += n;
	} else {
		n = fread(buf, 1, size, src->f);
		if (!n && ferror(src->f))
			return -1;
	}
	src->done += n;
	if (src->progress && src->done >= src->next_report) {
		if (src->total)
			fprintf(stderr, "\rhotpack: reading %s: %" PRIu64 " of %" PRIu64
				" MB (%u%%) ", src->name, src->done >> 20, src->total >> 20,
				(unsigned)(src->done * 100 / src->total));
		else
			fprintf(stderr, "\rhotpack: reading %s: %" PRIu64 " MB ", src->name,
				src->done >> 20);
		src->shown = true;
		src->next_report = src->done + INPUT_PROGRESS_STEP;
	}
	return (ssize_t)n;
}

static int input_src_close(void *cookie)
{
	(void)cookie;
	return 0;
}

/*
 * Open @path ("-" for stdin) and read its first bytes for detection.
 * Returns the stream to parse (through @src) or NULL after printing why.
 */
static FILE *input_open(struct input_src *src, const char *path, const char *name)
{
	cookie_io_functions_t io = { .read = input_src_read, .close = input_src_close };
	struct stat st;
	FILE *f;

	memset(src, 0, sizeof(*src));
	src->name = name;
	if (!strcmp(path, "-")) {
		src->f = stdin;
	} else {
		src->f = fopen(path, "r");
		if (!src->f) {
			int err = -errno;

			pr_err_errno(err, "%s: cannot open the profile input", path);
			return NULL;
		}
	}
	if (!fstat(fileno(src->f), &st)) {
		if (S_ISDIR(st.st_mode)) {
			pr_err("%s: is a directory; give a profile file", name);
			goto fail;
		}
		if (S_ISREG(st.st_mode))
			src->total = (uint64_t)st.st_size;
	}
	src->peek = xmalloc(INPUT_PEEK);
	src->peeklen = fread(src->peek, 1, INPUT_PEEK, src->f);
	if (ferror(src->f)) {
		pr_err("%s: read error; check the file or the pipe feeding it", name);
		goto fail;
	}
	src->progress = isatty(STDERR_FILENO) && hp_verbosity >= 1 &&
			(!src->total || src->total > INPUT_PROGRESS_MIN);
	src->next_report = INPUT_PROGRESS_MIN;
	f = fopencookie(src, "r", io);
	if (!f) {
		pr_err("%s: cannot set up reading: out of memory?", name);
		goto fail;
	}
	setvbuf(f, NULL, _IOFBF, 256u << 10);
	return f;
fail:
	if (src->f != stdin)
		fclose(src->f);
	free(src->peek);
	src->peek = NULL;
	src->f = NULL;
	return NULL;
}

static void input_close(struct input_src *src, FILE *f)
{
	fclose(f);
	if (src->shown)
		fputc('\n', stderr);
	if (src->f && src->f != stdin)
		fclose(src->f);
	free(src->peek);
}

/* --- weight units ------------------------------------------------------- */

int input_parse_weight(struct input_opts *opts, const char *arg)
{
	if (!strcmp(arg, "events"))
		opts->weight_events = true;
	else if (!strcmp(arg, "period"))
		opts->weight_events = false;
	else {
		pr_err("--weight: unknown unit '%s'; use events (1 per perf sample) or period",
		       arg);
		return -EINVAL;
	}
	return 0;
}

int input_parse_addr_window(struct input_opts *opts, const char *arg)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || *arg == '-' || v > INPUT_ADDR_WINDOW_MAX) {
		pr_err("--addr-window: '%s' is not a number of samples from 0 (off) to %u; "
		       "e.g. 16", arg, INPUT_ADDR_WINDOW_MAX);
		return -EINVAL;
	}
	opts->addr_window = (uint32_t)v;
	return 0;
}

void input_check_units(const struct profile *prof, const char *what)
{
	if ((prof->units & (PROF_UNIT_EVENTS | PROF_UNIT_PERIOD)) !=
	    (PROF_UNIT_EVENTS | PROF_UNIT_PERIOD))
		return;
	pr_warn("%s: perf sample periods are added to event counts (addresses, call "
		"trees, samples), so the perf input outweighs the others by its period; "
		"make the perf profile with --weight events to count its samples",
		what);
}

/* Between the perf reader and the symbolizer: the weight unit. */
struct perf_units {
	void *sz;
	bool events;		/* --weight events: 1 per sample */
	bool period;		/* a sample weighed more than 1 */
};

static int perf_units_event(const struct hp_event *ev, void *ctx)
{
	struct perf_units *pu = ctx;
	struct hp_event one;

	if (ev->weight > 1) {
		if (pu->events) {
			one = *ev;
			one.weight = 1;
			return symbolize_event(&one, pu->sz);
		}
		pu->period = true;
	}
	return symbolize_event(ev, pu->sz);
}

/* --- reading ----------------------------------------------------------- */

int input_read(struct profile *prof, const struct kimage *img, const char *path,
	       const struct input_opts *opts)
{
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	enum input_format fmt = opts ? opts->format : INPUT_AUTO;
	struct symbolizer *sz;
	struct perf_units pu = { 0 };
	struct input_src src;
	size_t dlen, badline = 0;
	FILE *f;
	int err;

	f = input_open(&src, path, name);
	if (!f)
		return -EIO;
	if (!src.peeklen) {
		pr_err("%s: empty input; nothing to profile", name);
		err = -EINVAL;
		goto out;
	}
	if (fmt == INPUT_AUTO) {
		if (memchr(src.peek, '\0', src.peeklen)) {
			pr_err("%s: binary data, not a text profile; give perf script, ftrace, "
			       "address list or .hprof text", name);
			err = -EINVAL;
			goto out;
		}
		/* a full peek ends inside a line: judge the complete lines only */
		dlen = src.peeklen;
		if (dlen == INPUT_PEEK) {
			const char *nl = memrchr(src.peek, '\n', dlen);

			if (nl)
				dlen = (size_t)(nl - src.peek) + 1;
		}
		fmt = detect(src.peek, dlen, &badline);
		if (fmt == INPUT_AUTO) {
			pr_err("%s:%zu: cannot tell the format (not perf script, ftrace "
			       "function_graph, hex addresses or .hprof); name it with "
			       "--input-format", name, badline ? badline : 1);
			err = -EINVAL;
			goto out;
		}
		pr_debug("%s: %s input", name, input_format_name(fmt));
	}
	if (fmt == INPUT_HPROF) {
		err = hprof_read(f, name, prof);
		goto out;
	}
	if (!img && fmt == INPUT_ADDRS) {
		pr_err("%s: an address list needs the vmlinux to resolve it; pass --vmlinux",
		       name);
		err = -EINVAL;
		goto out;
	}
	sz = symbolize_new(prof, img, opts && opts->have_kaslr ? &opts->kaslr_offset : NULL,
			   name);
	switch (fmt) {
	case INPUT_PERF:
		pu.sz = sz;
		pu.events = opts && opts->weight_events;
		err = perf_script_read(f, name, perf_units_event, &pu);
		prof->units |= pu.period ? PROF_UNIT_PERIOD : PROF_UNIT_EVENTS;
		break;
	case INPUT_FTRACE:
		err = ftrace_read(f, name, symbolize_event, sz);
		break;
	case INPUT_ADDRS:
	default:
		/* only an address list is a stream of samples in time order */
		if (opts && opts->addr_window)
			symbolize_set_window(sz, opts->addr_window);
		err = addrs_read(f, name, symbolize_event, sz);
		break;
	}
	if (fmt != INPUT_PERF)
		prof->units |= PROF_UNIT_EVENTS;
	if (!err)
		err = symbolize_finish(sz);
	symbolize_free(sz);
out:
	input_close(&src, f);
	return err;
}

static const char *const drop_names[PROF_DROP_NR] = {
	[PROF_DROP_MODULE] = "in modules",
	[PROF_DROP_USER] = "in user space",
	[PROF_DROP_BPF] = "in bpf",
	[PROF_DROP_UNKNOWN] = "unknown/no symbol",
	[PROF_DROP_NOT_IN_IMAGE] = "not in this vmlinux",
};

int input_read_all(struct profile *prof, const struct kimage *img, char *const *paths,
		   int npaths, const struct input_opts *opts)
{
	double min_match = opts ? opts->min_match : 0.5;
	uint64_t n0 = prof->nsamples, m0 = prof->matched, d0[PROF_DROP_NR];
	uint64_t n, m, d[PROF_DROP_NR], wrong;
	char summary[512] = "";
	size_t len = 0;
	int i, err;

	memcpy(d0, prof->dropped, sizeof(d0));
	err = input_check_paths(paths, npaths);
	if (err)
		return err;
	for (i = 0; i < npaths; i++) {
		err = input_read(prof, img, paths[i], opts);
		if (err)
			return err;
	}
	n = prof->nsamples - n0;
	m = prof->matched - m0;
	for (i = 0; i < PROF_DROP_NR; i++) {
		d[i] = prof->dropped[i] - d0[i];
		if (d[i] && len < sizeof(summary))
			len += (size_t)snprintf(summary + len, sizeof(summary) - len,
						", %" PRIu64 " %s", d[i], drop_names[i]);
	}
	pr_info("samples: %" PRIu64 " read, %" PRIu64 " matched%s", n, m, summary);
	input_check_units(prof, npaths == 1 ? paths[0] : "inputs");
	if (!n) {
		pr_err("%s: no samples in the input; record kernel samples (perf record -g) "
		       "or a function_graph trace", npaths == 1 ? paths[0] : "inputs");
		return -EINVAL;
	}
	/*
	 * Samples in modules, user space or bpf say nothing about this vmlinux;
	 * kernel samples that it does not have do: too many of them and the
	 * profile is from another kernel.
	 */
	if (!m && !img) {
		pr_err("%s: no kernel sample carries a symbol name; pass --vmlinux to resolve "
		       "the addresses", npaths == 1 ? paths[0] : "inputs");
		return -EINVAL;
	}
	wrong = d[PROF_DROP_NOT_IN_IMAGE];
	if (!m && d[PROF_DROP_USER] && !wrong && img) {
		pr_err("%s: the samples are user-space addresses, not kernel ones; record "
		       "kernel samples (perf record -e ...:k, or -a) for %s",
		       npaths == 1 ? paths[0] : "inputs", img->path);
		return -EINVAL;
	}
	if (!m || (double)m < min_match * (double)(m + wrong)) {
		pr_err("%s: only %" PRIu64 " of %" PRIu64 " kernel samples match %s; samples "
		       "from another kernel? check the build id / pass the matching vmlinux",
		       npaths == 1 ? paths[0] : "inputs", m, m + wrong,
		       img ? img->path : "any function");
		return -EINVAL;
	}
	return 0;
}
