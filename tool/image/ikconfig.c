// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel config a vmlinux carries (CONFIG_IKCONFIG=y): kernel/configs.c
 * puts the gzipped .config in .rodata between the markers "IKCFG_ST" and
 * "IKCFG_ED", from kernel_config_data to kernel_config_data_end; this is
 * what scripts/extract-ikconfig finds by scanning for the markers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "image/ikconfig.h"
#include "lib/warn.h"
#include "lib/xalloc.h"

/* a kernel .config is some 100-300 KiB; refuse to inflate a bomb */
#define IKCONFIG_MAX (16u << 20)

static int inflate_gzip(const struct kimage *img, const uint8_t *gz, size_t len,
			char **out, size_t *outlen)
{
	z_stream zs = { 0 };
	size_t cap = 256 * 1024, n = 0;
	char *buf = xmalloc(cap + 1);
	int zerr;

	if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) {
		free(buf);
		pr_warn("%s: the embedded kernel config: zlib cannot start; the image's "
			"machine decides the geometry", img->path);
		return -ENOMEM;
	}
	zs.next_in = (Bytef *)gz;
	zs.avail_in = (uInt)len;
	do {
		if (n == cap) {
			if (cap >= IKCONFIG_MAX)
				break;
			cap *= 2;
			buf = xreallocarray(buf, cap + 1, 1);
		}
		zs.next_out = (Bytef *)buf + n;
		zs.avail_out = (uInt)(cap - n);
		zerr = inflate(&zs, Z_NO_FLUSH);
		n = cap - zs.avail_out;
	} while (zerr == Z_OK);
	inflateEnd(&zs);
	if (zerr != Z_STREAM_END) {
		free(buf);
		pr_warn("%s: the embedded kernel config (IKCFG_ST) is %s; the image's machine "
			"decides the geometry (give --config or --geometry)",
			img->path, n >= IKCONFIG_MAX ? "over 16 MiB inflated" : "not valid gzip");
		return -EINVAL;
	}
	buf[n] = '\0';
	*out = buf;
	*outlen = n;
	return 0;
}

int kimage_ikconfig(const struct kimage *img, char **text, size_t *len)
{
	uint64_t start, end;
	const uint8_t *b, *mark;
	size_t avail, mavail;

	*text = NULL;
	*len = 0;
	if (!kimage_symbol_addr(img, "kernel_config_data", &start) ||
	    !kimage_symbol_addr(img, "kernel_config_data_end", &end))
		return 0;
	b = kimage_file_bytes(img, start, &avail);
	mark = start >= 8 ? kimage_file_bytes(img, start - 8, &mavail) : NULL;
	/* with IKCONFIG=m the symbols are the module's, not vmlinux's; symbols
	 * that point at anything but the marked blob are not ours to read */
	if (!b || !mark || mavail < 8 || memcmp(mark, "IKCFG_ST", 8) || end <= start ||
	    end - start > avail) {
		pr_warn("%s: kernel_config_data does not hold an embedded config (no IKCFG_ST "
			"before it); the image's machine decides the geometry", img->path);
		return 0;
	}
	if (inflate_gzip(img, b, (size_t)(end - start), text, len))
		return -EINVAL;
	return 1;
}
