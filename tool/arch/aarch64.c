// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * aarch64.c - 64-bit Arm, either byte order: capstone's ids for b, bl, br,
 * blr, cbz and tbz (the branch target is the last operand).
 */
#include "config.h"

#include <elf.h>

#include "arch/arch.h"

static const unsigned int arm64_ids[][2] = {
	{ ARM64_INS_BL, ARCH_ID_CALL }, { ARM64_INS_BLR, ARCH_ID_CALL },
	{ ARM64_INS_B, ARCH_ID_JUMP }, { ARM64_INS_BR, ARCH_ID_JUMP },
	{ ARM64_INS_CBZ, ARCH_ID_JUMP }, { ARM64_INS_CBNZ, ARCH_ID_JUMP },
	{ ARM64_INS_TBZ, ARCH_ID_JUMP }, { ARM64_INS_TBNZ, ARCH_ID_JUMP },
};

static bool arm64_branch(const struct arch_insn *in, struct arch_branch *b)
{
	unsigned int id = in->insn->id;
	const cs_arm64 *x;

	if (in->id_class == ARCH_ID_NONE)
		return false;
	if (id == ARM64_INS_BLR || id == ARM64_INS_BR) {
		b->kind = id == ARM64_INS_BLR ? ARCH_BR_ICALL : ARCH_BR_IJUMP;
		b->target = 0;
		return true;
	}
	if (!arch_insn_detail(in))
		return false;
	/* The target is the last operand: b/bl/b.cond have one, cbz two, tbz three. */
	x = &in->dinsn->detail->arm64;
	if (x->op_count < 1 || x->operands[x->op_count - 1].type != ARM64_OP_IMM)
		return false;
	b->kind = in->id_class == ARCH_ID_CALL ? ARCH_BR_CALL : ARCH_BR_JUMP;
	b->target = (uint64_t)x->operands[x->op_count - 1].imm;
	return true;
}

/* KASLR is not probed (kaslr_align 0): an offset comes from the profile's
 * symbol+offset frames or --kaslr-offset. Functions: GCC aligns them to 16
 * (9,407 of the 9,509 .text sections of the loop's 6.1 vmlinux.o); with 8
 * the layout's model put 606 of one order's 1,165 hot sections off their
 * linked address, 4,980 bytes in all, and pages' page-exact search packed
 * pages that the link then shifted (bench/RESULTS.md, "Function alignment"). */
const struct hp_arch arch_aarch64 = {
	.name = "aarch64", .machine = EM_AARCH64, .elfclass = ELFCLASS64, .func_align = 16,
	.kernel_base = 0xffff800000000000ull,
	.qemu_le = "qemu-aarch64", .qemu_be = "qemu-aarch64",
	.geom = GEOM_DEFAULT_INIT,
	.cs_arch = CS_ARCH_ARM64, .cs_mode = CS_MODE_ARM, .big_endian_ok = true, .unit = 4,
	.ret_id = ARM64_INS_RET,
	.ids = arm64_ids, .nids = sizeof(arm64_ids) / sizeof(arm64_ids[0]),
	.branch = arm64_branch,
};
