// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * filekind.c - the magic numbers of the binary files users give by mistake.
 */
#include "config.h"

#include <string.h>

#include "lib/filekind.h"

struct filekind {
	size_t at;		/* offset of the magic */
	const char *magic;
	size_t len;
	const char *advice;
};

#define MAGIC(s) s, sizeof(s) - 1

static const struct filekind kinds[] = {
	{ 0, MAGIC("PERFILE2"), "a perf.data file (binary): give the text of "
	  "'perf script' (perf script -i FILE > perf.txt)" },
	{ 0, MAGIC("\x17\x08\x44tracing"), "a trace-cmd trace.dat (binary): give the text "
	  "of 'trace-cmd report' (trace-cmd report -i FILE > trace.txt)" },
	{ 0, MAGIC("\xfd" "7zXZ\0"), "xz-compressed: decompress it first (xz -d)" },
	{ 0, MAGIC("\x1f\x8b"), "gzip-compressed: decompress it first (gzip -d)" },
	{ 0, MAGIC("\x28\xb5\x2f\xfd"), "zstd-compressed: decompress it first (zstd -d)" },
	{ 0, MAGIC("BZh"), "bzip2-compressed: decompress it first (bzip2 -d)" },
	/* the x86 boot protocol's header signature */
	{ 0x202, MAGIC("HdrS"), "a compressed kernel (bzImage, vmlinuz): give the build's "
	  "vmlinux, or extract one with the kernel's scripts/extract-vmlinux (it has "
	  "symbols only if the build kept them)" },
};

const char *filekind_advice(const void *buf, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (len >= kinds[i].at + kinds[i].len &&
		    !memcmp((const char *)buf + kinds[i].at, kinds[i].magic, kinds[i].len))
			return kinds[i].advice;
	return NULL;
}
