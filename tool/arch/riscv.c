// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * riscv.c - RISC-V, 32 and 64 bits: an image can be ordered and run under
 * QEMU, but is not disassembled: capstone has RISC-V from version 5 on, and
 * Debian 12 ships 4.0.2.
 */
#include "config.h"

#include <elf.h>

#include "arch/arch.h"

const struct hp_arch arch_riscv32 = {
	.name = "riscv32", .machine = EM_RISCV, .elfclass = ELFCLASS32, .func_align = 4,
	.kernel_base = 0x80000000ull,
	.qemu_le = "qemu-riscv32", .qemu_be = "qemu-riscv32",
	.geom = GEOM_DEFAULT_INIT,
};

const struct hp_arch arch_riscv64 = {
	.name = "riscv64", .machine = EM_RISCV, .elfclass = ELFCLASS64, .func_align = 4,
	.kernel_base = 0xffff800000000000ull,
	.qemu_le = "qemu-riscv64", .qemu_be = "qemu-riscv64",
	.geom = GEOM_DEFAULT_INIT,
};
