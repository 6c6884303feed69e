// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * filekind.c - the magic numbers of the binary files users give by mistake.
 */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/filekind.h"
#include "lib/warn.h"
#include "lib/xalloc.h"

struct filekind {
	size_t at;		/* offset of the magic */
	const char *magic;
	size_t len;
	bool profile;		/* a recording: given as the image, the order is wrong */
	const char *advice;
};

#define MAGIC(s) s, sizeof(s) - 1
#define PERF_DATA "a perf.data file (binary); give the text of 'perf script' " \
	"(perf script -i FILE > perf.txt)"
#define COMPRESSED_KERNEL "; give the build's vmlinux, or extract one with the kernel's " \
	"scripts/extract-vmlinux (it has symbols only if the build kept them)"

static const struct filekind kinds[] = {
	{ 0, MAGIC("PERFILE2"), true, PERF_DATA },
	{ 0, MAGIC("2ELIFREP"), true, PERF_DATA },	/* written big-endian */
	{ 0, MAGIC("PERFFILE"), true, PERF_DATA },	/* version 1 */
	{ 0, MAGIC("\x17\x08\x44tracing"), true, "a trace-cmd trace.dat (binary); give the "
	  "text of 'trace-cmd report' (trace-cmd report -i FILE > trace.txt)" },
	{ 0, MAGIC("\x7f" "ELF"), false, "an ELF file (the vmlinux?), not samples; give the "
	  "vmlinux first, then the samples (hotpack VMLINUX SAMPLES...)" },
	{ 0, MAGIC("\xfd" "7zXZ\0"), false, "xz-compressed; decompress it first (xz -d)" },
	{ 0, MAGIC("\x1f\x8b"), false, "gzip-compressed; decompress it first (gzip -d)" },
	{ 0, MAGIC("\x28\xb5\x2f\xfd"), false, "zstd-compressed; decompress it first (zstd -d)" },
	{ 0, MAGIC("BZh"), false, "bzip2-compressed; decompress it first (bzip2 -d)" },
	{ 0, MAGIC("\x04\x22\x4d\x18"), false, "lz4-compressed; decompress it first (lz4 -d)" },
	{ 0, MAGIC("\x89LZO\0\r\n\x1a\n"), false, "lzop-compressed; decompress it first "
	  "(lzop -d)" },
	/* the x86 boot protocol's header signature */
	{ 0x202, MAGIC("HdrS"), false, "a compressed kernel (bzImage, vmlinuz)"
	  COMPRESSED_KERNEL },
	/* arm64 and riscv boot images: code without symbols */
	{ 0x38, MAGIC("ARM\x64"), false, "an arm64 boot Image (raw code, no symbols)"
	  COMPRESSED_KERNEL },
	{ 0x38, MAGIC("RSC\x05"), false, "a riscv boot Image (raw code, no symbols)"
	  COMPRESSED_KERNEL },
	/* EFI zboot: a PE file around the compressed Image */
	{ 4, MAGIC("zimg"), false, "a compressed EFI kernel (vmlinuz.efi)" COMPRESSED_KERNEL },
};

static const struct filekind *find(const void *buf, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (len >= kinds[i].at + kinds[i].len &&
		    !memcmp((const char *)buf + kinds[i].at, kinds[i].magic, kinds[i].len))
			return &kinds[i];
	return NULL;
}

const char *filekind_advice(const void *buf, size_t len)
{
	const struct filekind *k = find(buf, len);

	return k ? k->advice : NULL;
}

bool filekind_is_profile(const void *buf, size_t len)
{
	const struct filekind *k = find(buf, len);

	return k && k->profile;
}

void filekind_directory_error(const char *path, const char *what, const char *file,
			      const char *otherwise)
{
	char *in = xasprintf("%s/%s", path, file);

	if (!access(in, F_OK))
		pr_err("%s: is a directory; give %s in it (%s)", path, what, in);
	else
		pr_err("%s: is a directory; give %s", path, otherwise);
	free(in);
}
