/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_targets.h - one entry per parser, shared by the libFuzzer harnesses
 * (fuzz_<target>.c, built by `make fuzz` with clang) and by the regression
 * replay in `make check` (tests/unit/profile/test_regress.c), so a crash input kept
 * in tests/fuzz/regress/ runs through exactly the code that crashed.
 * Each returns 0; a broken invariant abort()s.
 */
#ifndef HP_FUZZ_TARGETS_H
#define HP_FUZZ_TARGETS_H

#include <stddef.h>
#include <stdint.h>

/* Every reader of profile/readers.h's table, and the format detection. */
int fuzz_readers(const uint8_t *data, size_t size);
/* One reader of the table each. */
int fuzz_perf(const uint8_t *data, size_t size);
int fuzz_ftrace(const uint8_t *data, size_t size);
int fuzz_addrs(const uint8_t *data, size_t size);
/* .hprof's writer too: what reads cleanly writes the same bytes twice. */
int fuzz_hprof(const uint8_t *data, size_t size);
int fuzz_kimage(const uint8_t *data, size_t size);
int fuzz_linkmap(const uint8_t *data, size_t size);
/* An ELF image's calls, or raw code: the first byte picks one of
 * fuzz_disasm_narch() architectures (bit 7: at the top of the space). */
int fuzz_disasm(const uint8_t *data, size_t size);
unsigned int fuzz_disasm_narch(void);
/* verify's order-file reader (tool/cmd/cmd_verify.c). */
int fuzz_orderfile(const uint8_t *data, size_t size);

#endif
