// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_one.c - the libFuzzer harness of every target: built once per target
 * by `make fuzz-build` with -DFUZZ_TARGET=fuzz_NAME, one of fuzz_targets.h.
 */
#include "config.h"

#include "fuzz_targets.h"

#ifndef FUZZ_TARGET
#error "build with -DFUZZ_TARGET=fuzz_NAME (mk/fuzz.am)"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return FUZZ_TARGET(data, size);
}
