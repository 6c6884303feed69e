// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_disasm.c - libFuzzer target for the disassembly walk. An input that
 * starts with the ELF magic is opened as an image (kimage_open_mem) and all
 * of its functions are walked and classified (truncated sections, data in
 * text, zero-size and overlapping symbols); any other input is raw code: its
 * first byte picks the architecture and byte order, the rest is walked.
 *
 * Built by "make fuzz-disasm" with clang -fsanitize=fuzzer. With
 * HP_FUZZ_MAIN (make check) it gets a main() instead: it replays the files
 * named on its command line, then a fixed pseudo-random series of inputs
 * per architecture, and prints TAP.
 */
#include "config.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "disasm/disasm.h"
#include "image/image.h"
#include "lib/warn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct {
	uint16_t machine;
	unsigned int elfclass;
	bool be;
} fz_arches[] = {
	{ EM_X86_64, ELFCLASS64, false }, { EM_386, ELFCLASS32, false },
	{ EM_AARCH64, ELFCLASS64, false }, { EM_AARCH64, ELFCLASS64, true },
	{ EM_PPC, ELFCLASS32, true }, { EM_PPC64, ELFCLASS64, true },
	{ EM_PPC64, ELFCLASS64, false },
};
#define FZ_NARCH (sizeof(fz_arches) / sizeof(fz_arches[0]))

struct fz_walk {
	uint64_t start, len, mask, n;
};

/* The walk's promises: every site lies in the buffer (addresses wrap at the
 * architecture's width), every length is sane. */
static int fz_branch(const struct disasm_branch *b, void *ctx)
{
	struct fz_walk *w = ctx;

	if (((b->site - w->start) & w->mask) >= w->len || !b->len || b->len > 16)
		abort();
	w->n++;
	return 0;
}

static int fz_call(const struct disasm_call *c, void *ctx)
{
	const struct kimage *img = ctx;

	if (c->caller >= img->nfuncs ||
	    (c->callee != DISASM_NO_FUNC && c->callee >= img->nfuncs) ||
	    c->site != img->funcs[c->caller].addr + c->offset)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct disasm *d[FZ_NARCH];
	struct fz_walk w;
	unsigned int a;

	hp_verbosity = 0;
	if (size >= 4 && !memcmp(data, ELFMAG, SELFMAG)) {
		struct kimage *img;

		if (kimage_open_mem(&img, data, size, "fuzz"))
			return 0;
		disasm_calls(img, fz_call, img);
		kimage_close(img);
		return 0;
	}
	if (size < 1)
		return 0;
	a = (data[0] & 0x7fu) % FZ_NARCH;
	if (!d[a] && disasm_open_arch(&d[a], fz_arches[a].machine, fz_arches[a].elfclass,
				      fz_arches[a].be))
		abort();
	/* near the top of the address space, where sums wrap */
	w.mask = fz_arches[a].elfclass == ELFCLASS32 ? 0xffffffffu : UINT64_MAX;
	w.start = data[0] & 0x80 ? w.mask - 0xff : 0x1000;
	w.len = size - 1;
	w.n = 0;
	disasm_walk(d[a], data + 1, size - 1, w.start, fz_branch, &w);
	return 0;
}

#ifdef HP_FUZZ_MAIN
static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long len;

	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = malloc(len > 0 ? (size_t)len : 1);
	if (!buf || fread(buf, 1, (size_t)len, f) != (size_t)len) {
		fclose(f);
		free(buf);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)len);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	uint8_t buf[4097];
	uint64_t x = 0x9e3779b97f4a7c15ull;
	int n = 0, failed = 0;

	for (int i = 1; i < argc; i++) {
		int r = replay_file(argv[i]);

		printf("%sok %d - replay %s\n", r ? "not " : "", ++n, argv[i]);
		failed += r != 0;
	}
	/* xorshift64: the same series on every run */
	for (unsigned int a = 0; a < 2 * FZ_NARCH; a++) {
		for (int k = 0; k < 200; k++) {
			size_t len = 1 + (size_t)(x % (sizeof(buf) - 1));

			for (size_t i = 0; i < len; i++) {
				x ^= x << 13;
				x ^= x >> 7;
				x ^= x << 17;
				buf[i] = (uint8_t)x;
			}
			buf[0] = (uint8_t)(a < FZ_NARCH ? a : 0x80 | (a - FZ_NARCH));
			LLVMFuzzerTestOneInput(buf, len);
		}
		printf("ok %d - 200 random buffers, architecture %u%s\n", ++n, (unsigned int)(a % FZ_NARCH),
		       a < FZ_NARCH ? "" : " at the top of the address space");
	}
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
#endif
