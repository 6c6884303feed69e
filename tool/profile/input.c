// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * input.c - reading profile inputs: open a file or stdin, tell its format
 * from the first bytes (or take the forced one), run its reader (readers.h)
 * with the symbolizer behind it, or merge a profile as it is. Several inputs
 * add up into one profile; at the end the share of matched samples decides
 * whether the profile belongs to this kernel at all.
 *
 * The first INPUT_PEEK bytes are read ahead for detection and handed back to
 * the reader through a fopencookie() stream, so pipes work as well as files.
 * The same stream counts the bytes read and shows progress on stderr when
 * stderr is a terminal and the input is big.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/cli.h"
#include "lib/filekind.h"
#include "lib/lineio.h"
#include "lib/parse.h"
#include "lib/util.h"
#include "lib/warn.h"
#include "lib/xalloc.h"
#include "profile/build.h"
#include "profile/input.h"
#include "profile/namemap.h"
#include "profile/symbolize.h"

#define INPUT_PEEK (64u << 10)
#define INPUT_PROGRESS_MIN (8ull << 20)	/* show progress past this many bytes */
#define INPUT_PROGRESS_STEP (16ull << 20)

int input_parse_format(struct input_opts *opts, const char *arg)
{
	const struct profile_reader *r = profile_reader_find(arg);

	if (!r && strcmp(arg, "auto")) {
		pr_err("--input-format: unknown format '%s'; use %s", arg,
		       profile_readers_list(READERS_NAMES));
		return -EINVAL;
	}
	opts->reader = r;
	return 0;
}

const char *input_format_usage(void)
{
	static char *usage;
	char *text;

	if (!usage) {
		text = xasprintf("%s (default: detected)", profile_readers_list(READERS_NAMES));
		usage = cli_wrap(text, CLI_USAGE_COL);
		free(text);
	}
	return usage;
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

int input_parse_event(struct input_opts *opts, const char *arg)
{
	if (!*arg || *arg == ':') {
		pr_err("--event '%s': no event name; give the event perf script names, "
		       "e.g. --event cycles", arg);
		return -EINVAL;
	}
	opts->event = arg;
	return 0;
}

int input_parse_weight_of(struct input_opts *opts, const char *arg)
{
	const char *eq = strrchr(arg, '=');
	size_t vlen = eq ? strlen(eq + 1) : 0;
	double w = 0, share = 0;
	char num[64];

	if (eq && eq != arg && vlen > 1 && vlen < sizeof(num) && eq[vlen] == '%') {
		/* FILE=P%: a share of the total, in (0, 100) */
		memcpy(num, eq + 1, vlen - 1);
		num[vlen - 1] = 0;
		if (parse_double(num, 0, &share) || !(share > 0) || !(share < 100)) {
			pr_err("--weight-of '%s': a share is more than 0%% and less than 100%% "
			       "(50%%: as much as every other input together)", arg);
			return -EINVAL;
		}
		share /= 100;
	} else if (!eq || eq == arg || parse_double(eq + 1, 0, &w) || !(w > 0)) {
		pr_err("--weight-of '%s': expected FILE=W or FILE=P%%; give W a positive number "
		       "(2, 0.5, 1e3) or P a share of the total (25%%)", arg);
		return -EINVAL;
	}
	if (opts->nweights == INPUT_WEIGHTS_MAX) {
		pr_err("--weight-of: at most %d; merge some inputs first (hotpack merge)",
		       INPUT_WEIGHTS_MAX);
		return -EINVAL;
	}
	/* the FILE part stays in argv: only its length is cut off below */
	opts->weights[opts->nweights].path = arg;
	opts->weights[opts->nweights].share = share;
	opts->weights[opts->nweights++].w = w;
	return 0;
}

/* --weight-of of @path, the last one given: NULL when none names it */
static const struct input_weight *weight_spec(const struct input_opts *opts, const char *path)
{
	const struct input_weight *spec = NULL;

	for (size_t i = 0; opts && i < opts->nweights; i++) {
		const char *p = opts->weights[i].path;
		size_t len = (size_t)(strrchr(p, '=') - p);

		if (strlen(path) == len && !strncmp(p, path, len))
			spec = &opts->weights[i];
	}
	return spec;
}

/* FILE=W's W; 1 when not given */
static double weight_of(const struct input_opts *opts, const char *path)
{
	const struct input_weight *spec = weight_spec(opts, path);

	return spec && !spec->share ? spec->w : 1;
}

/* FILE=P%'s P / 100; 0 when not given so */
static double share_of(const struct input_opts *opts, const char *path)
{
	const struct input_weight *spec = weight_spec(opts, path);

	return spec ? spec->share : 0;
}

int input_parse_addr_window(struct input_opts *opts, const char *arg)
{
	uint64_t v;

	if (cli_parse_u64("--addr-window", arg, 0, 0, INPUT_ADDR_WINDOW_MAX, &v))
		return -EINVAL;
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

/* Between a reader of sample periods and the symbolizer: the weight unit. */
struct period_units {
	void *sz;
	bool events;		/* --weight events: 1 per sample */
	bool period;		/* a sample weighed more than 1 */
};

static int period_units_event(const struct hp_event *ev, void *ctx)
{
	struct period_units *pu = ctx;
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

/*
 * A profile file's functions against the image: its own statistics say how
 * it matched the image it was made with, not this one. By weight, as
 * samples are counted: what this file added, @before[i] being the weight
 * function i had before it was read (functions from @nbefore on are new).
 */
static int check_profile_names(const struct profile *prof, const uint64_t *before,
			       size_t nbefore, const char *name, const struct kimage *img,
			       double min_match)
{
	double all = 0, in = 0;
	size_t i, n = 0, missing = 0;

	for (i = 0; i < prof->nfuncs; i++) {
		uint64_t w0 = i < nbefore ? before[i] : 0;
		double w;

		if (i < nbefore && prof->funcs[i]->weight == w0)
			continue;	/* not in this file */
		w = (double)(prof->funcs[i]->weight - w0);
		all += w;
		n++;
		if (kimage_find_func_by_key(img, prof->funcs[i]->name))
			in += w;
		else
			missing++;
	}
	if (!missing || in >= min_match * all)
		return 0;
	pr_err("%s: only %zu of its %zu functions (%.0f%% of the weight) are functions of %s; "
	       "a profile of another kernel? give the vmlinux it was made for (or lower "
	       "--min-match)", name, n - missing, n, all > 0 ? 100.0 * in / all : 0.0,
	       img->path);
	return -EINVAL;
}

/* Function entries of call trees, each against the image (as the samples
 * are in input_read_all()). */
static int check_tree_entries(const struct symbolizer *sz, const char *name,
			      const struct kimage *img, double min_match)
{
	uint64_t m, missing;

	symbolize_tree_entries(sz, &m, &missing);
	if (!missing || (double)m >= min_match * (double)(m + missing))
		return 0;
	pr_err("%s: only %" PRIu64 " of %" PRIu64 " function entries of the call trees are "
	       "functions of %s; a trace of another kernel? give the vmlinux it was recorded "
	       "on (or lower --min-match)", name, m, m + missing, img->path);
	return -EINVAL;
}

/*
 * No reader takes the input: say why where the input shows it (a header and
 * nothing else, a number that cannot be an address), else list the formats.
 */
static void undetected(const char *name, const char *peek, size_t len, size_t badline)
{
	const char *p = peek, *end = peek + len, *line = NULL, *e;
	size_t n = 0, lineno = 0, digits;
	bool only_comments = true;

	for (; p < end; p = e + 1) {
		e = memchr(p, '\n', (size_t)(end - p));
		if (!e)
			e = end;
		lineno++;
		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		if (p < e && *p != '#' && *p != '\r')
			only_comments = false;
		if (lineno == NONZERO(badline)) {
			line = p;
			n = (size_t)(e - p);
			while (n && (line[n - 1] == '\r' || line[n - 1] == ' '))
				n--;
		}
	}
	if (only_comments) {
		pr_err("%s: only '#' comment lines, no samples (perf script prints its header even "
		       "for a recording of none); record samples (perf record -a -g -e cycles:k) "
		       "and give perf script's output", name);
		return;
	}
	if (line && n) {
		const char *h = line + (*line == '-'), *q;

		if (h + 2 <= line + n && h[0] == '0' && (h[1] == 'x' || h[1] == 'X'))
			h += 2;
		for (q = h; q < line + n && isxdigit((unsigned char)*q); q++)
			;
		digits = (size_t)(q - h);
		if (digits && q == line + n && *line == '-') {
			pr_err("%s:%zu: '%.*s' is negative: not an address; give hex addresses of "
			       "the kernel's code", name, badline, (int)n, line);
			return;
		}
		if (digits > 16 && q == line + n) {
			pr_err("%s:%zu: '%.*s' has %zu hex digits, past 64 bits: not an address; "
			       "give addresses of at most 16 hex digits", name, badline,
			       (int)(n > 40 ? 40 : n), line, digits);
			return;
		}
	}
	pr_err("%s:%zu: cannot tell the format (not %s); name it with --input-format", name,
	       NONZERO(badline), profile_readers_list(READERS_WHAT));
}

/* How many names of another build were mapped each way, when any. */
static void report_namemap(const struct namemap_counts *c, const char *name,
			   const struct kimage *img)
{
	const size_t n[3] = { c->clone, c->file, c->name };
	static const char *const how[3] = { "across clone suffixes", "by their file",
					     "by the name alone" };
	char msg[256] = "";
	size_t len = 0, i;

	for (i = 0; i < 3; i++)
		if (n[i] && len < sizeof(msg))
			len += (size_t)snprintf(msg + len, sizeof(msg) - len, "%s%zu %s",
						len ? ", " : "", n[i], how[i]);
	if (len)
		pr_info("%s: names of another build mapped to %s's functions: %s", name,
			img->path, msg);
	if (c->ambiguous)
		pr_warn("%s: %zu name%s of another build left out, weight %" PRIu64 ": several "
			"functions of %s fit each (clones or statics of one name); a profile of "
			"this build, or with the files of its statics (--map), maps them",
			name, c->ambiguous, c->ambiguous == 1 ? "" : "s", c->ambiguous_weight,
			img->path);
}

/*
 * A profile file read with an image: on its own first, so that its builds
 * are checked against the image and its names of another build mapped to
 * the image's functions (namemap.h) before it is added to @prof.
 */
static int read_profile_against(const struct profile_reader *r, FILE *f, const char *name,
				struct profile *prof, const struct kimage *img,
				const struct input_opts *opts)
{
	struct profile *one = profile_new();
	struct namemap_counts c;
	char **keys = NULL;
	int err;

	err = r->read_profile(f, name, one);
	if (!err)
		err = build_check(&one->builds, name, img, opts && opts->any_arch);
	if (!err) {
		keys = namemap_keys(one, img, &c);
		report_namemap(&c, name, img);
		profile_merge_renamed(prof, one, keys);
		namemap_free(keys, one->nfuncs);
	}
	profile_free(one);
	return err;
}

/* input_read(); *@by_name: the input was read by function names (.hprof) */
static int read_one(struct profile *prof, const struct kimage *img, const char *path,
		    const struct input_opts *opts, bool *by_name)
{
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	const struct profile_reader *r = opts ? opts->reader : NULL;
	struct symbolizer *sz;
	struct period_units pu = { 0 };
	struct read_opts ro = { .event = opts ? opts->event : NULL };
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
	/* perf.data, trace.dat, compressed: named even when the format is forced */
	if (filekind_advice(src.peek, src.peeklen)) {
		pr_err("%s: %s", name, filekind_advice(src.peek, src.peeklen));
		err = -EINVAL;
		goto out;
	}
	if (!r) {
		if (memchr(src.peek, '\0', src.peeklen)) {
			pr_err("%s: binary data, not a text profile; give %s", name,
			       profile_readers_list(READERS_WHAT));
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
		r = profile_detect(src.peek, dlen, &badline);
		if (!r) {
			undetected(name, src.peek, dlen, badline);
			err = -EINVAL;
			goto out;
		}
		pr_debug("%s: %s input", name, r->name);
	}
	*by_name = r->read_profile != NULL;
	if (r->read_profile) {
		/* the weights before, to tell this file's functions from earlier ones' */
		size_t n0 = prof->nfuncs;
		uint64_t *before = img ? xmallocarray(n0, sizeof(*before)) : NULL;

		for (size_t i = 0; img && i < n0; i++)
			before[i] = prof->funcs[i]->weight;
		err = img ? read_profile_against(r, f, name, prof, img, opts)
			  : r->read_profile(f, name, prof);
		if (!err && img)
			err = check_profile_names(prof, before, n0, name, img,
						  opts ? opts->min_match : 0.5);
		free(before);
		goto out;
	}
	if (!img && r->needs_image) {
		pr_err("%s: %s; pass --vmlinux", name, r->needs_image);
		err = -EINVAL;
		goto out;
	}
	sz = symbolize_new(prof, img, opts && opts->have_kaslr ? &opts->kaslr_offset : NULL,
			   name);
	symbolize_set_any_arch(sz, opts && opts->any_arch);
	if (r->units & PROF_UNIT_PERIOD) {
		pu.sz = sz;
		pu.events = opts && opts->weight_events;
		err = r->read(f, name, &ro, period_units_event, &pu);
		prof->units |= pu.period ? PROF_UNIT_PERIOD : PROF_UNIT_EVENTS;
	} else {
		if (r->in_time_order && opts && opts->addr_window)
			symbolize_set_window(sz, opts->addr_window);
		err = r->read(f, name, &ro, symbolize_event, sz);
		prof->units |= r->units;
	}
	if (!err)
		err = symbolize_finish(sz);
	if (!err && img)
		err = check_tree_entries(sz, name, img, opts ? opts->min_match : 0.5);
	if (!err && img) {
		/* the samples are now this image's functions: its build is theirs */
		char line[BUILD_LINE_LEN];

		profile_builds_add(&prof->builds, build_of_image(img, line, sizeof(line)));
	}
	symbolize_free(sz);
out:
	if (!err && prof->overflowed) {
		pr_err("%s: the weights add up past 2^64-1 and cannot be ordered by; give "
		       "--weight events, or fewer or smaller inputs", name);
		err = -EOVERFLOW;
	}
	input_close(&src, f);
	return err;
}

int input_read(struct profile *prof, const struct kimage *img, const char *path,
	       const struct input_opts *opts)
{
	bool by_name;

	return read_one(prof, img, path, opts, &by_name);
}

static const char *const drop_names[PROF_DROP_NR] = {
	[PROF_DROP_MODULE] = "in modules",
	[PROF_DROP_USER] = "in user space",
	[PROF_DROP_BPF] = "in bpf",
	[PROF_DROP_UNKNOWN] = "unknown/no symbol",
	[PROF_DROP_NOT_IN_IMAGE] = "not in this vmlinux",
};

/*
 * Which input of a run gave each function its weight, so that each input
 * can be told how much of it no other input has: code that only its
 * workload ran, which an order from the other inputs alone would leave
 * where the link put it (shipped profiles mixed with one's own samples).
 */
#define OWNER_NONE UINT32_MAX		/* no weight yet */
#define OWNER_MANY (UINT32_MAX - 1)	/* several inputs, or the profile before them */

struct owners {
	uint32_t *of;		/* by function of the profile: the input, or the above */
	size_t n;
	uint64_t *weight;	/* by input: its weight in this image's functions */
};

/* Room for the profile's @nfuncs functions, the new ones without weight. */
static void owners_grow(struct owners *o, size_t nfuncs)
{
	if (nfuncs <= o->n)
		return;
	o->of = xreallocarray(o->of, nfuncs, sizeof(*o->of));
	while (o->n < nfuncs)
		o->of[o->n++] = OWNER_NONE;
}

static void owners_add(struct owners *o, size_t func, uint32_t input, uint64_t w)
{
	o->of[func] = o->of[func] == OWNER_NONE ? input : OWNER_MANY;
	o->weight[input] += w;
}

/*
 * One input of several: its weight (times --weight-of's W, read apart and
 * scaled when W is not 1), and with an image, for a .hprof or a weighted
 * input, the share of it that this vmlinux has (a .hprof of another build
 * may name functions it lacks; samples were matched as they were read).
 * With @own, the weight it adds to each of the image's functions is noted
 * there as input @input's. @target, when not 0, is the weight the input is
 * to have in all (FILE=P%): W is then worked out from what it holds.
 */
static int read_weighted(struct profile *prof, const struct kimage *img, const char *path,
			 const struct input_opts *opts, struct owners *own, uint32_t input,
			 double target)
{
	bool share = own != NULL;
	bool by_name = false;
	uint64_t drop0 = prof->dropped[PROF_DROP_NOT_IN_IMAGE], *w0 = NULL, in = 0, all = 0;
	size_t nf0 = prof->nfuncs;
	double w = target > 0 ? 0 : weight_of(opts, path);
	struct profile *one;
	int err;

	if (share) {
		w0 = xmallocarray(NONZERO(nf0), sizeof(*w0));
		for (size_t i = 0; i < nf0; i++)
			w0[i] = prof->funcs[i]->weight;
	}
	if (w == 1) {
		err = read_one(prof, img, path, opts, &by_name);
	} else {
		one = profile_new();
		err = read_one(one, img, path, opts, &by_name);
		if (!err && target > 0) {
			w = one->total_weight ? target / (double)one->total_weight : 1;
			if (!one->total_weight)
				pr_warn("%s: no weight in this vmlinux's functions; its share "
					"of the total (--weight-of) cannot be given it", path);
		}
		if (!err) {
			profile_scale(one, w);
			profile_merge(prof, one);
		}
		profile_free(one);
	}
	if (!err && share) {
		owners_grow(own, prof->nfuncs);
		for (size_t i = 0; i < prof->nfuncs; i++) {
			uint64_t d = prof->funcs[i]->weight - (i < nf0 ? w0[i] : 0);

			all += d;
			if (d && kimage_find_func_by_key(img, prof->funcs[i]->name)) {
				in += d;
				owners_add(own, i, input, d);
			}
		}
		all += (uint64_t)((double)(prof->dropped[PROF_DROP_NOT_IN_IMAGE] - drop0) * w);
	}
	if (!err && share && (by_name || w != 1 || target > 0)) {
		char why[48] = "";

		if (target > 0)
			snprintf(why, sizeof(why), " (%g%% of the total)",
				 100 * share_of(opts, path));
		pr_info("%s: weight %g%s: %.1f%% of it matched %s (%" PRIu64 " of %" PRIu64 ")",
			path, w, why, all ? 100.0 * (double)in / (double)all : 0.0, img->path, in,
			all);
	}
	free(w0);
	return err;
}

/*
 * --buildid-list FILE: `perf buildid-list` output for the samples'
 * perf.data; its kernel line (build.h) must name the image's build-id.
 */
static int check_build_id_list(const char *path, const struct kimage *img)
{
	char hex[BUILD_ID_HEX_LEN], *line;
	struct lineio lr;
	bool seen = false;
	size_t len;
	FILE *f;
	int ret;

	if (!img) {
		pr_err("--buildid-list %s: nothing to compare it with; pass --vmlinux", path);
		return -EINVAL;
	}
	f = fopen(path, "r");
	if (!f) {
		ret = -errno;
		pr_err_errno(ret, "%s: cannot open the --buildid-list file", path);
		return ret;
	}
	lineio_init(&lr, f, path);
	while ((ret = lineio_next(&lr, &line, &len)) > 0) {
		if (!*lineio_skip_ws(line))
			continue;
		switch (build_id_line(line, hex, sizeof(hex))) {
		case BUILD_ID_NONE:
			pr_err("%s:%zu: not a perf buildid-list line (BUILDID DSO); give the "
			       "output of 'perf buildid-list -i perf.data'", path, lr.lineno);
			ret = -EINVAL;
			break;
		case BUILD_ID_OTHER:
			continue;
		case BUILD_ID_KERNEL:
			seen = true;
			ret = build_check_id(img, hex, path, lr.lineno, "perf buildid-list");
			break;
		}
		if (ret)
			break;
	}
	if (!ret && !seen) {
		pr_err("%s: no [kernel.kallsyms] line: the samples named no kernel build-id; "
		       "give the output of 'perf buildid-list -i perf.data' (with -H: the hit ones)",
		       path);
		ret = -EINVAL;
	}
	lineio_release(&lr);
	fclose(f);
	return ret < 0 ? ret : 0;
}

/* Each input's weight that no other input has: "mine.txt: 12.4% of its
 * weight is in 306 functions no other input has"; and a warning for an
 * input that holds too little of the total to change the order. */
#define INPUT_SMALL_SHARE 0.01
static void say_owned(const struct profile *prof, const struct owners *own,
		      char *const *paths, int npaths)
{
	uint64_t *w = xcalloc((size_t)npaths, sizeof(*w)), total = 0;
	size_t *n = xcalloc((size_t)npaths, sizeof(*n));

	for (size_t f = 0; f < own->n; f++) {
		uint32_t j = own->of[f];

		if (j < (uint32_t)npaths) {
			w[j] += prof->funcs[f]->weight;
			n[j]++;
		}
	}
	for (int j = 0; j < npaths; j++) {
		total += own->weight[j];
		if (own->weight[j])
			pr_info("%s: %.1f%% of its weight is in %zu function%s no other input has",
				paths[j], 100.0 * (double)w[j] / (double)own->weight[j], n[j],
				n[j] == 1 ? "" : "s");
	}
	/* a short profile of one's own beside the shipped ones is drowned */
	for (int j = 0; j < npaths && total; j++)
		if (own->weight[j] && (double)own->weight[j] < INPUT_SMALL_SHARE * (double)total)
			pr_warn("%s: %.2g%% of the total weight, too little to move the order; "
				"--weight-of %s=P%% gives it P%% (docs/profiles.md, \"Mixing "
				"profiles\")", paths[j],
				100.0 * (double)own->weight[j] / (double)total, paths[j]);
	free(w);
	free(n);
}

int input_read_all(struct profile *prof, const struct kimage *img, char *const *paths,
		   int npaths, const struct input_opts *opts)
{
	struct owners owners = { 0 }, *own = NULL;
	double min_match = opts ? opts->min_match : 0.5;
	uint64_t n0 = prof->nsamples, m0 = prof->matched, d0[PROF_DROP_NR];
	uint64_t n, m, d[PROF_DROP_NR], wrong;
	char summary[512] = "";
	double shares = 0, rest;
	size_t len = 0;
	int i, err;

	memcpy(d0, prof->dropped, sizeof(d0));
	err = input_check_paths(paths, npaths);
	if (err)
		return err;
	for (size_t k = 0; opts && k < opts->nweights; k++) {
		const char *p = opts->weights[k].path;
		size_t plen = (size_t)(strrchr(p, '=') - p);

		for (i = 0; i < npaths; i++)
			if (strlen(paths[i]) == plen && !strncmp(paths[i], p, plen))
				break;
		if (i == npaths) {
			pr_err("--weight-of %s: %.*s is not one of the inputs; name it as given",
			       p, (int)plen, p);
			return -EINVAL;
		}
	}
	if (opts && opts->build_id_list) {
		err = check_build_id_list(opts->build_id_list, img);
		if (err)
			return err;
	}
	if (img && npaths > 1) {
		own = &owners;
		own->weight = xcalloc((size_t)npaths, sizeof(*own->weight));
		owners_grow(own, prof->nfuncs);
		for (size_t f = 0; f < prof->nfuncs; f++)
			if (prof->funcs[f]->weight)
				own->of[f] = OWNER_MANY;
	}
	for (i = 0; i < npaths; i++)
		shares += share_of(opts, paths[i]);
	if (shares >= 1) {
		pr_err("--weight-of: the shares given add up to %g%%; leave some of the total "
		       "to the inputs named with no share (FILE=W) or none", 100 * shares);
		return -EINVAL;
	}
	/* the inputs given a share come last: their W follows from the rest */
	for (i = 0; i < npaths && !err; i++)
		if (!share_of(opts, paths[i]))
			err = read_weighted(prof, img, paths[i], opts, own, (uint32_t)i, 0);
	if (!err && shares > 0 && !prof->total_weight) {
		pr_err("--weight-of: a share (FILE=P%%) is of the total, and the other inputs "
		       "have no weight in this vmlinux's functions; give W as a number");
		err = -EINVAL;
	}
	rest = (double)prof->total_weight;
	for (i = 0; i < npaths && !err; i++)
		if (share_of(opts, paths[i]))
			err = read_weighted(prof, img, paths[i], opts, own, (uint32_t)i,
					    share_of(opts, paths[i]) / (1 - shares) * rest);
	if (own) {
		if (!err)
			say_owned(prof, own, paths, npaths);
		free(own->of);
		free(own->weight);
	}
	if (err)
		return err;
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
	/* bpf programs, modules, [unknown]: nothing to match, so not "0 of 0" */
	if (!m && !wrong && img) {
		pr_err("%s: no sample is in the kernel's own code (%s); record the kernel "
		       "(perf record -a -g -e cycles:k), not only bpf programs or modules",
		       npaths == 1 ? paths[0] : "inputs", summary[0] ? summary + 2 : "none kept");
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
