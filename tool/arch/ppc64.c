// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ppc64.c - 64-bit powerpc, either byte order. ELFv2 functions have a local
 * entry 8 bytes in (after the TOC setup), where calls from the same TOC
 * enter; ELFv1 objects have function descriptors in .opd.
 */
#include "config.h"

#include <elf.h>

#include "arch/powerpc.h"

/* The kernel lives at 0xc000000000000000, below kernel_base: bare
 * addresses there are never taken for user space. */
const struct hp_arch arch_ppc64 = {
	.name = "ppc64", .machine = EM_PPC64, .elfclass = ELFCLASS64, .func_align = 4,
	.kernel_base = 0xffff800000000000ull,
	.qemu_le = "qemu-ppc64le", .qemu_be = "qemu-ppc64", .func_descriptors = true,
	.geom = GEOM_DEFAULT_INIT,
	.cs_arch = CS_ARCH_PPC, .cs_mode = CS_MODE_64, .big_endian_ok = true, .unit = 4,
	.local_entry = 8, .ret_id = PPC_INS_BLR, .branch = powerpc_branch,
};
