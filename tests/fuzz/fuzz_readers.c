// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_readers.c - libFuzzer harness: fuzz_readers() of fuzz_targets.c. */
#include "config.h"

#include "fuzz_targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_readers(data, size);
}
