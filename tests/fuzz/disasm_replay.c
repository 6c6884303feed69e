// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * disasm_replay.c [FILE...] - fuzz_disasm() (fuzz_targets.c) under the
 * sanitizers of the normal build, in make check: it replays the files named
 * on its command line, then a fixed pseudo-random series of inputs per
 * architecture, and prints TAP.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "fuzz_targets.h"

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
	fuzz_disasm(buf, (size_t)len);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	uint8_t buf[4097];
	uint64_t x = 0x9e3779b97f4a7c15ull;
	unsigned int narch = fuzz_disasm_narch();
	int n = 0, failed = 0;

	for (int i = 1; i < argc; i++) {
		int r = replay_file(argv[i]);

		printf("%sok %d - replay %s\n", r ? "not " : "", ++n, argv[i]);
		failed += r != 0;
	}
	/* xorshift64: the same series on every run */
	for (unsigned int a = 0; a < 2 * narch; a++) {
		for (int k = 0; k < 200; k++) {
			size_t len = 1 + (size_t)(x % (sizeof(buf) - 1));

			for (size_t i = 0; i < len; i++) {
				x ^= x << 13;
				x ^= x >> 7;
				x ^= x << 17;
				buf[i] = (uint8_t)x;
			}
			buf[0] = (uint8_t)(a < narch ? a : 0x80 | (a - narch));
			fuzz_disasm(buf, len);
		}
		printf("ok %d - 200 random buffers, architecture %u%s\n", ++n, (unsigned int)(a % narch),
		       a < narch ? "" : " at the top of the address space");
	}
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
