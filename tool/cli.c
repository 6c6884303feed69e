// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli.c - shared command-line helpers: parsing numbers and sizes with an
 * error that names the option, and all-or-nothing output files.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "warn.h"
#include "xalloc.h"

int cli_parse_size(const char *opt, const char *arg, uint64_t *out)
{
	char *end;
	unsigned long long v;
	unsigned int shift = 0;

	errno = 0;
	v = strtoull(arg, &end, 0);
	if (errno || end == arg || arg[0] == '-')
		goto bad;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	default: break;
	}
	if (*end == 'i' && shift)
		end++;
	if ((*end == 'b' || *end == 'B') && shift)
		end++;
	if (*end || (shift && v > (UINT64_MAX >> shift)))
		goto bad;
	*out = (uint64_t)v << shift;
	return 0;
bad:
	pr_err("%s: '%s' is not a size; give bytes, or a number with K, M or G", opt, arg);
	return -EINVAL;
}

int cli_parse_pow2(const char *opt, const char *arg, uint64_t *out)
{
	uint64_t v;

	if (cli_parse_size(opt, arg, &v))
		return -EINVAL;
	if (!v || (v & (v - 1))) {
		pr_err("%s: '%s' is not a power of two; page sizes are like 4K, 64K, 2M", opt, arg);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

int cli_parse_s64(const char *opt, const char *arg, int64_t *out)
{
	char *end;
	const char *p = arg;
	bool neg = false;
	unsigned long long v;

	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	errno = 0;
	v = strtoull(p, &end, 0);
	if (errno || end == p || *end || v > (unsigned long long)INT64_MAX) {
		pr_err("%s: '%s' is not a number; e.g. 0x1e000000 or -0x200000", opt, arg);
		return -EINVAL;
	}
	*out = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

int cli_parse_double(const char *opt, const char *arg, double lo, double hi, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || v < lo || v > hi) {
		pr_err("%s: '%s' is not a number from %g to %g", opt, arg, lo, hi);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

int cli_out_open(struct cli_out *o, const char *path)
{
	struct stat st;
	int fd, err;

	memset(o, 0, sizeof(*o));
	if (!path || !strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	o->path = xstrdup(path);
	/*
	 * A device or a FIFO (-o /dev/null, -o /dev/stdout) is written in
	 * place: renaming a temporary file over it would replace the device
	 * node with a regular file.
	 */
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		o->f = fopen(path, "w");
		if (!o->f) {
			err = -errno;
			pr_err_errno(err, "%s: cannot write the output file", path);
			free(o->path);
			o->path = NULL;
			return err;
		}
		return 0;
	}
	o->tmp = xasprintf("%s.tmpXXXXXX", path);
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		err = -errno;
		pr_err_errno(err, "%s: cannot create the output file", path);
		free(o->tmp);
		free(o->path);
		o->tmp = o->path = NULL;
		return err;
	}
	o->f = fdopen(fd, "w");
	if (!o->f) {
		err = -errno;
		close(fd);
		unlink(o->tmp);
		pr_err_errno(err, "%s: cannot write the output file", path);
		return err;
	}
	return 0;
}

int cli_out_commit(struct cli_out *o)
{
	int err = 0;

	if (o->f == stdout) {
		if (fflush(stdout) || ferror(stdout)) {
			err = -EIO;
			pr_err("standard output: write error; is the disk full or the pipe closed?");
		}
		o->f = NULL;
		return err;
	}
	if (!o->tmp) {	/* a device or FIFO, written in place */
		if (fflush(o->f) || ferror(o->f))
			err = -EIO;
		if (fclose(o->f) && !err)
			err = -errno;
		o->f = NULL;
		if (err)
			pr_err_errno(err, "%s: write error", o->path);
		free(o->path);
		o->path = NULL;
		return err;
	}
	if (fflush(o->f) || ferror(o->f) || fsync(fileno(o->f)))
		err = -errno ? -errno : -EIO;
	if (fclose(o->f) && !err)
		err = -errno;
	o->f = NULL;
	if (!err && rename(o->tmp, o->path))
		err = -errno;
	if (err) {
		pr_err_errno(err, "%s: cannot write the output file; nothing was written", o->path);
		unlink(o->tmp);
	}
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
	return err;
}

void cli_out_abort(struct cli_out *o)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
}
