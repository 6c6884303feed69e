// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * powerpc.c - branches by the instruction word's own fields (primary
 * opcode, LK bit), never by capstone's groups: capstone 4.0.2 gives "bl" no
 * group, "beq" none either, and names "bcl 20,31,.+4" as "bdnzl" (checked
 * with tests/fixtures/calls.c).
 */
#include "config.h"

#include "arch/powerpc.h"

/*
 * The branch forms (Power ISA, Book I 2.4): I-form "b" (primary opcode 18:
 * LI, AA, LK), B-form "bc" (16: BO, BI, BD, AA, LK), XL-form "bclr"/"bcctr"
 * (19 with XO 16/528, LK). LK=1 links: a call.
 */
bool powerpc_branch(const struct arch_insn *in, struct arch_branch *b)
{
	const uint8_t *p = in->bytes;
	uint32_t w = in->big_endian ?
		(uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3] :
		(uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
	unsigned int op = w >> 26, lk = w & 1, aa = (w >> 1) & 1;
	uint64_t here = in->insn->address;
	int64_t disp;

	switch (op) {
	case 18:	/* b, ba, bl, bla: 24-bit word displacement */
		disp = (int64_t)(int32_t)((w & 0x03fffffcu) << 6) >> 6;
		break;
	case 16:	/* bc and its extended forms: 14-bit word displacement */
		disp = (int64_t)(int16_t)(w & 0xfffcu);
		break;
	case 19: {
		unsigned int xo = (w >> 1) & 0x3ff;

		if (xo == 528) {	/* bcctr[l] */
			b->kind = lk ? ARCH_BR_ICALL : ARCH_BR_IJUMP;
			b->target = 0;
			return true;
		}
		if (xo == 16 && lk) {	/* blrl: a call through LR */
			b->kind = ARCH_BR_ICALL;
			b->target = 0;
			return true;
		}
		return false;		/* blr and friends: returns */
	}
	default:
		return false;
	}
	b->kind = lk ? ARCH_BR_CALL : ARCH_BR_JUMP;
	b->target = aa ? (uint64_t)disp : here + (uint64_t)disp;
	return true;
}
