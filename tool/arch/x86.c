// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86.c - x86_64 and i386: capstone's ids for calls and jumps (it puts call
 * in CS_GRP_CALL and jmp/jcc in CS_GRP_JUMP, but the id is enough), the
 * kernel's retpoline and return thunks, and KASLR in 2 MiB steps.
 */
#include "config.h"

#include <elf.h>

#include "arch/arch.h"

static const unsigned int x86_ids[][2] = {
	{ X86_INS_CALL, ARCH_ID_CALL },
	{ X86_INS_JMP, ARCH_ID_JUMP },
	{ X86_INS_JAE, ARCH_ID_JUMP }, { X86_INS_JA, ARCH_ID_JUMP },
	{ X86_INS_JBE, ARCH_ID_JUMP }, { X86_INS_JB, ARCH_ID_JUMP },
	{ X86_INS_JCXZ, ARCH_ID_JUMP }, { X86_INS_JECXZ, ARCH_ID_JUMP },
	{ X86_INS_JRCXZ, ARCH_ID_JUMP }, { X86_INS_JE, ARCH_ID_JUMP },
	{ X86_INS_JGE, ARCH_ID_JUMP }, { X86_INS_JG, ARCH_ID_JUMP },
	{ X86_INS_JLE, ARCH_ID_JUMP }, { X86_INS_JL, ARCH_ID_JUMP },
	{ X86_INS_JNE, ARCH_ID_JUMP }, { X86_INS_JNO, ARCH_ID_JUMP },
	{ X86_INS_JNP, ARCH_ID_JUMP }, { X86_INS_JNS, ARCH_ID_JUMP },
	{ X86_INS_JO, ARCH_ID_JUMP }, { X86_INS_JP, ARCH_ID_JUMP },
	{ X86_INS_JS, ARCH_ID_JUMP },
	{ X86_INS_LOOP, ARCH_ID_JUMP }, { X86_INS_LOOPE, ARCH_ID_JUMP },
	{ X86_INS_LOOPNE, ARCH_ID_JUMP },
};

static bool x86_branch(const struct arch_insn *in, struct arch_branch *b)
{
	const cs_x86 *x;

	if (in->id_class == ARCH_ID_NONE || !arch_insn_detail(in))
		return false;
	x = &in->dinsn->detail->x86;
	if (x->op_count < 1)
		return false;
	if (x->operands[0].type == X86_OP_IMM) {
		b->kind = in->id_class == ARCH_ID_CALL ? ARCH_BR_CALL : ARCH_BR_JUMP;
		b->target = (uint64_t)x->operands[0].imm;
	} else {
		b->kind = in->id_class == ARCH_ID_CALL ? ARCH_BR_ICALL : ARCH_BR_IJUMP;
		b->target = 0;
	}
	return true;
}

/* Retpolines: one thunk per register, "call __x86_indirect_thunk_rax"
 * standing for "call *%rax"; later kernels add call/jump variants. */
static const char *const thunk_prefixes[] = {
	"__x86_indirect_thunk_", "__x86_indirect_call_thunk_", "__x86_indirect_jump_thunk_",
	"__x86_indirect_its_thunk_", NULL,
};

static const char *const thunk_regs[] = {
	"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp",
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
	"eax", "ebx", "ecx", "edx", "esi", "edi", "ebp", "esp", NULL,
};

/* Return thunks (retbleed, SRSO, ITS mitigations): a jump to one is "ret". */
static const char *const ret_thunks[] = {
	"__x86_return_thunk", "zen_untrain_ret", "zen_return_thunk", "srso_return_thunk",
	"srso_alias_return_thunk", "srso_untrain_ret", "srso_alias_untrain_ret",
	"retbleed_return_thunk", "its_return_thunk", "__x86_return_skl", NULL,
};

/* CONFIG_PHYSICAL_ALIGN: the step of the kernel's random placement. */
#define X86_KASLR_ALIGN (2ull << 20)

/* What the two modes share. */
#define X86_COMMON							\
	.func_align = 16, .cold_align = 1, .kaslr_align = X86_KASLR_ALIGN, \
	.geom = GEOM_DEFAULT_INIT,					\
	.cs_arch = CS_ARCH_X86, .unit = 1, .ret_id = X86_INS_RET,	\
	.ids = x86_ids, .nids = sizeof(x86_ids) / sizeof(x86_ids[0]),	\
	.branch = x86_branch,						\
	.ithunk_prefixes = thunk_prefixes, .ithunk_regs = thunk_regs,	\
	.ret_thunks = ret_thunks

const struct hp_arch arch_x86_64 = {
	.name = "x86_64", .machine = EM_X86_64, .elfclass = ELFCLASS64,
	.kernel_base = 0xffff800000000000ull,
	.qemu_le = "qemu-x86_64", .qemu_be = "qemu-x86_64",
	/* the core kernel text in 2 MiB pages (vmlinux.lds.S, above
	 * X86_ALIGN_RODATA_BEGIN): its figures first */
	.geom_preset = "x86_64-default",
	.cs_mode = CS_MODE_64, X86_COMMON,
};

const struct hp_arch arch_i386 = {
	.name = "i386", .machine = EM_386, .elfclass = ELFCLASS32,
	.kernel_base = 0x80000000ull,
	.qemu_le = "qemu-i386", .qemu_be = "qemu-i386",
	.cs_mode = CS_MODE_32, X86_COMMON,
};
