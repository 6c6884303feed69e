// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * arm.c - 32-bit Arm, either byte order: an image can be ordered and run
 * under QEMU, but is not disassembled (no static call edges, no callgraph).
 */
#include "config.h"

#include <elf.h>

#include "arch/arch.h"

const struct hp_arch arch_arm = {
	.name = "arm", .machine = EM_ARM, .elfclass = ELFCLASS32, .func_align = 4,
	.kernel_base = 0x80000000ull,
	.qemu_le = "qemu-arm", .qemu_be = "qemu-armeb",
	.geom = GEOM_DEFAULT_INIT,
};
