// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ppc32.c - 32-bit powerpc, either byte order (the kernels are big-endian:
 * MPC8xx, 44x, ...): branch targets wrap at 32 bits.
 */
#include "config.h"

#include <elf.h>

#include "arch/powerpc.h"

static bool ppc32_branch(const struct arch_insn *in, struct arch_branch *b)
{
	if (!powerpc_branch(in, b))
		return false;
	b->target &= 0xffffffffu;
	return true;
}

const struct hp_arch arch_ppc32 = {
	.name = "ppc32", .machine = EM_PPC, .elfclass = ELFCLASS32, .func_align = 4,
	.kernel_base = 0x80000000ull,
	.qemu_le = "qemu-ppc", .qemu_be = "qemu-ppc",
	.geom = GEOM_DEFAULT_INIT,
	.cs_arch = CS_ARCH_PPC, .cs_mode = CS_MODE_32, .big_endian_ok = true, .unit = 4,
	.ret_id = PPC_INS_BLR, .branch = ppc32_branch,
};
