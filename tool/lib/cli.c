// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli.c - shared command-line helpers: option values read by lib/parse.c
 * with one error style that names the option and what to give, and
 * all-or-nothing output files.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/cli.h"
#include "lib/parse.h"
#include "lib/warn.h"
#include "lib/util.h"
#include "lib/xalloc.h"

void cli_bad_number(const char *opt, const char *arg, const char *what)
{
	pr_err("%s: '%s' is not %s", opt, arg, what);
}

/* "4096", "4K", "2M", "1G": the shortest exact form of a size. */
static void fmt_size(char *buf, size_t len, uint64_t v)
{
	static const char unit[] = "GMK";

	for (unsigned int i = 0; i < 3; i++) {
		unsigned int shift = 30 - 10 * i;

		if (v && !(v & ((1ull << shift) - 1))) {
			snprintf(buf, len, "%" PRIu64 "%c", v >> shift, unit[i]);
			return;
		}
	}
	snprintf(buf, len, "%" PRIu64, v);
}

int cli_parse_u64(const char *opt, const char *arg, unsigned int flags, uint64_t lo,
		  uint64_t hi, uint64_t *out)
{
	const bool size = flags & PARSE_SUFFIX;
	char los[32], his[32], what[160];
	uint64_t v;

	if (!parse_u64(arg, flags, &v) && v >= lo && v <= hi) {
		*out = v;
		return 0;
	}
	if (size) {
		fmt_size(los, sizeof(los), lo);
		fmt_size(his, sizeof(his), hi);
	} else {
		snprintf(los, sizeof(los), "%" PRIu64, lo);
		snprintf(his, sizeof(his), "%" PRIu64, hi);
	}
	if (hi == UINT64_MAX)
		snprintf(what, sizeof(what), lo ? "%s of at least %s" : "%s",
			 size ? "a size" : "a whole number", los);
	else
		snprintf(what, sizeof(what), "%s from %s to %s",
			 size ? "a size" : "a whole number", los, his);
	snprintf(what + strlen(what), sizeof(what) - strlen(what), "; give %s",
		 size ? "bytes, or a number with K, M or G" : "one in decimal or 0x hex");
	cli_bad_number(opt, arg, what);
	return -EINVAL;
}

int cli_parse_uint(const char *opt, const char *arg, unsigned int flags, unsigned int lo,
		   unsigned int hi, unsigned int *out)
{
	uint64_t v;

	if (cli_parse_u64(opt, arg, flags, lo, hi, &v))
		return -EINVAL;
	*out = (unsigned int)v;
	return 0;
}

int cli_parse_size(const char *opt, const char *arg, uint64_t *out)
{
	return cli_parse_u64(opt, arg, PARSE_C_BASE | PARSE_SUFFIX, 0, UINT64_MAX, out);
}

int cli_parse_pow2(const char *opt, const char *arg, uint64_t *out)
{
	uint64_t v;

	if (cli_parse_size(opt, arg, &v))
		return -EINVAL;
	/* Real MMUs map 1 KiB (ARM tiny pages) to 1 GiB; the models take that range. */
	if (!is_pow2(v) || v < CLI_PAGE_MIN || v > CLI_PAGE_MAX) {
		cli_bad_number(opt, arg, "a page size; give a power of two from 1K to 1G "
			       "(e.g. 4K, 16K, 64K, 2M)");
		return -EINVAL;
	}
	*out = v;
	return 0;
}

int cli_parse_s64(const char *opt, const char *arg, int64_t *out)
{
	if (parse_s64(arg, PARSE_C_BASE, out)) {
		cli_bad_number(opt, arg, "a number; e.g. 0x1e000000 or -0x200000");
		return -EINVAL;
	}
	return 0;
}

int cli_parse_double(const char *opt, const char *arg, double lo, double hi, double *out)
{
	char what[96];
	double v;

	if (!parse_double(arg, 0, &v) && v >= lo && v <= hi) {
		*out = v;
		return 0;
	}
	snprintf(what, sizeof(what), "a number from %g to %g; give one in that range", lo, hi);
	cli_bad_number(opt, arg, what);
	return -EINVAL;
}

/* What was wrong with the option getopt_long() just refused, in one line. */
static void bad_option(char **argv, const char *optstring, const struct option *longopts)
{
	const char *word = argv[optind - 1], *cmd = strrchr(argv[0], '/');
	char see[64];
	size_t n, i, hits = 0;

	cmd = cmd ? cmd + 1 : argv[0];
	/* "hotpack VMLINUX ..." is hotpack order: main() names it so */
	snprintf(see, sizeof(see), "see 'hotpack %.32s --help'", cmd);
	if (word[0] == '-' && word[1] == '-') {
		n = strcspn(word, "=");
		for (i = 0; longopts[i].name; i++)
			hits += !strncmp(longopts[i].name, word + 2, n - 2);
		if (!optopt && hits > 1)
			pr_err("option '%.*s' is ambiguous (%zu options begin so); %s", (int)n,
			       word, hits, see);
		else if (!optopt)
			pr_err("unknown option '%.*s'; %s", (int)n, word, see);
		else if (word[n])
			pr_err("option '%.*s' takes no value; %s", (int)n, word, see);
		else
			pr_err("option '%s' needs a value; %s", word, see);
	} else if (optopt > 0 && optopt < 256 && optopt != ':' && optopt != '+' &&
		   strchr(optstring, optopt)) {
		pr_err("option '-%c' needs a value; %s", optopt, see);
	} else if (optopt > 32 && optopt < 127) {
		pr_err("unknown option '-%c'; %s", optopt, see);
	} else {
		pr_err("unknown option '%s'; %s", word, see);
	}
}

int cli_getopt(int argc, char **argv, const char *optstring, const struct option *longopts)
{
	int c;

	opterr = 0;
	c = getopt_long(argc, argv, optstring, longopts, NULL);
	if (c == '?')
		bad_option(argv, optstring, longopts);
	return c;
}

int cli_out_open(struct cli_out *o, const char *path)
{
	memset(o, 0, sizeof(*o));
	if (path && strcmp(path, "-"))
		o->path = xstrdup(path);
	o->f = open_memstream(&o->buf, &o->len);
	if (!o->f) {
		int err = -errno;

		pr_err_errno(err, "%s: cannot buffer the output", path ? path : "stdout");
		free(o->path);
		o->path = NULL;
		return err;
	}
	return 0;
}

/* -errno of the failed write (ENOSPC, EDQUOT, EPIPE...), not a bare EIO */
static int write_all(FILE *f, const char *buf, size_t len)
{
	errno = 0;
	if ((len && fwrite(buf, 1, len, f) != len) || fflush(f) || ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}

void cli_write_error(const char *path, int err)
{
	if (err == -ENOSPC || err == -EDQUOT)
		pr_err("%s: %s; free some space or write the output elsewhere", path,
		       err == -ENOSPC ? "no space left on device" : "disk quota exceeded");
	else if (err == -EPIPE)
		pr_err("%s: the pipe was closed before the output was written; "
		       "keep its reader running to the end", path);
	else
		pr_err("%s: cannot write the output: %s; check the disk and the path", path,
		       strerror(-err));
}

/* A regular file: a temporary beside it, renamed over it when complete. */
static int commit_file(struct cli_out *o, const struct stat *old)
{
	char *tmp = xasprintf("%s.tmpXXXXXX", o->path);
	mode_t mode, mask;
	FILE *f = NULL;
	int fd, err = 0;

	fd = mkstemp(tmp);
	if (fd < 0) {
		err = -errno;
		pr_err_errno(err, "%s: cannot create the output file", o->path);
		free(tmp);
		return err;
	}
	mask = umask(0);
	umask(mask);
	mode = old ? old->st_mode & 07777 : 0666 & ~mask;
	if (fchmod(fd, mode))
		err = -errno;
	if (!err && !(f = fdopen(fd, "w")))
		err = -errno;
	if (!err)
		err = write_all(f, o->buf, o->len);
	if (!err && fsync(fileno(f)))
		err = -errno;
	if (f ? fclose(f) && !err : close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, o->path))
		err = -errno;
	if (err) {
		cli_write_error(o->path, err);
		unlink(tmp);
	}
	free(tmp);
	return err;
}

int cli_out_commit(struct cli_out *o)
{
	struct stat st;
	bool exists;
	FILE *f;
	int err;

	if (fclose(o->f)) {
		o->f = NULL;
		cli_out_abort(o);
		pr_err("out of memory buffering the output; nothing was written");
		return -ENOMEM;
	}
	o->f = NULL;
	exists = o->path && !stat(o->path, &st);
	if (!o->path) {
		err = write_all(stdout, o->buf, o->len);
		if (err)
			cli_write_error("standard output", err);
	} else if (exists && !S_ISREG(st.st_mode)) {
		/* A device or a FIFO (-o /dev/null) is written in place:
		 * renaming over it would replace the node with a file. */
		f = fopen(o->path, "w");
		err = f ? write_all(f, o->buf, o->len) : -errno;
		if (f && fclose(f) && !err)
			err = -errno;
		if (err)
			cli_write_error(o->path, err);
	} else {
		err = commit_file(o, exists ? &st : NULL);
	}
	cli_out_abort(o);
	return err;
}

void cli_out_abort(struct cli_out *o)
{
	if (o->f)
		fclose(o->f);
	free(o->buf);
	free(o->path);
	memset(o, 0, sizeof(*o));
}

int cli_out_check_input(const char *out, const char *in, const char *what)
{
	struct stat so, si;
	int err;

	if (!out || !strcmp(out, "-") || !in || stat(out, &so) || !S_ISREG(so.st_mode))
		return 0;
	err = strcmp(in, "-") ? stat(in, &si) : fstat(STDIN_FILENO, &si);
	if (err || so.st_dev != si.st_dev || so.st_ino != si.st_ino)
		return 0;
	pr_err("%s: is also an input (%s %s); write the output elsewhere", out, what,
	       strcmp(in, "-") ? in : "on standard input");
	return -EINVAL;
}

bool cli_same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (!strcmp(a, b))
		return true;
	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int cli_common_opt(int c)
{
	switch (c) {
	case 'q': hp_verbosity = 0; return 1;
	case 'v': hp_verbosity = 2; return 1;
	default: return 0;
	}
}

int cli_retired(const char *cmd, const char *old, const char *now)
{
	pr_err("%s %s: %s; see OPTIONS in hotpack(1)", cmd, old, now);
	return -EINVAL;
}

char *cli_wrap(const char *text, size_t col)
{
	size_t len = strlen(text), spaces = 0, words = 0, linelen = col, n;
	const char *w, *sp;
	char *out, *o;

	for (w = text; *w; w++)
		spaces += *w == ' ';
	/* a break turns a space into a newline and @col blanks */
	out = xmalloc(len + 1 + spaces * col);
	o = out;
	for (w = text; *w; w += *w == ' ') {
		sp = strchr(w, ' ');
		n = sp ? (size_t)(sp - w) : strlen(w);
		if (words && linelen + 1 + n > CLI_USAGE_WIDTH) {
			*o++ = '\n';
			memset(o, ' ', col);
			o += col;
			linelen = col;
		} else if (words) {
			*o++ = ' ';
			linelen++;
		}
		memcpy(o, w, n);
		o += n;
		linelen += n;
		words++;
		w += n;
	}
	*o = '\0';
	return out;
}
