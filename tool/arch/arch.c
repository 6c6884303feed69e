// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * arch.c - the table of architectures, one line each (their descriptors live
 * in one file per architecture), and the lookup by ELF machine and class.
 */
#include "config.h"

#include <elf.h>

#include "arch/arch.h"

extern const struct hp_arch arch_x86_64, arch_i386, arch_aarch64, arch_ppc32, arch_ppc64,
	arch_arm, arch_riscv32, arch_riscv64;

/* Order matters only to hp_arch_nth() (lists in messages and tests). */
static const struct hp_arch *const arches[] = {
	&arch_x86_64,
	&arch_i386,
	&arch_aarch64,
	&arch_ppc32,
	&arch_ppc64,
	&arch_arm,
	&arch_riscv32,
	&arch_riscv64,
};

#define NARCHES (sizeof(arches) / sizeof(arches[0]))

/* A machine hotpack does not know: the generic defaults, by class. */
static const struct hp_arch arch_unknown32 = {
	.name = "unknown", .elfclass = ELFCLASS32, .func_align = 4,
	.kernel_base = 0x80000000ull, .geom = GEOM_DEFAULT_INIT,
};

static const struct hp_arch arch_unknown64 = {
	.name = "unknown", .elfclass = ELFCLASS64, .func_align = 4,
	.kernel_base = 0xffff800000000000ull, .geom = GEOM_DEFAULT_INIT,
};

const struct hp_arch *hp_arch_lookup(uint16_t machine, unsigned int elfclass)
{
	const struct hp_arch *first = NULL;

	for (size_t i = 0; i < NARCHES; i++) {
		if (arches[i]->machine != machine)
			continue;
		if (arches[i]->elfclass == elfclass)
			return arches[i];
		if (!first)
			first = arches[i];
	}
	if (first)
		return first;
	return elfclass == ELFCLASS64 ? &arch_unknown64 : &arch_unknown32;
}

const struct hp_arch *hp_arch_nth(size_t i)
{
	return i < NARCHES ? arches[i] : NULL;
}

bool hp_arch_disasm(const struct hp_arch *a, unsigned int elfclass)
{
	return a->branch && a->elfclass == elfclass;
}

bool arch_insn_detail(const struct arch_insn *in)
{
	const uint8_t *q = in->bytes;
	size_t n = in->insn->size;
	uint64_t a = in->insn->address;

	return cs_disasm_iter(in->detail, &q, &n, &a, in->dinsn);
}
