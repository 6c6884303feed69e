// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * warn.c - stderr messages with the tool's prefix and a severity word.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>

#include "lib/warn.h"

int hp_verbosity = 1;
static unsigned long warn_count;

static void vmsg(const char *level, const char *fmt, va_list ap)
{
	fprintf(stderr, "hotpack: %s", level);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void pr_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("error: ", fmt, ap);
	va_end(ap);
}

void pr_warn(const char *fmt, ...)
{
	va_list ap;

	warn_count++;
	if (hp_verbosity < 1)
		return;
	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

void pr_info(const char *fmt, ...)
{
	va_list ap;

	if (hp_verbosity < 1)
		return;
	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

void pr_debug(const char *fmt, ...)
{
	va_list ap;

	if (hp_verbosity < 2)
		return;
	va_start(ap, fmt);
	vmsg("debug: ", fmt, ap);
	va_end(ap);
}

unsigned long hp_warn_count(void)
{
	return warn_count;
}

const char *errno_hint(int err)
{
	switch (err < 0 ? -err : err) {
	case ENOENT:
	case ENOTDIR: return "check the path";
	case EACCES:
	case EPERM: return "check its permissions";
	case EISDIR: return "give a file, not a directory";
	case ENOSPC:
	case EDQUOT: return "free some space";
	case ENOMEM: return "free some memory";
	default: return "check the file and the disk";
	}
}
