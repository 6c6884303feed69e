/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * arch.h - what hotpack knows of an architecture, in one descriptor: its
 * names, function alignment, kernel address space and KASLR, QEMU target,
 * default geometry, and how capstone decodes its branches.
 *
 * One file per architecture (x86.c: x86_64 and i386, aarch64.c, ppc32.c,
 * ppc64.c, arm.c, riscv.c) defines its descriptors; arch.c holds the table
 * and looks one up by the ELF header's e_machine and class. Generic code
 * asks the descriptor and never compares e_machine itself.
 */
#ifndef HP_ARCH_H
#define HP_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <capstone/capstone.h>

#include "lib/geometry.h"

/* What a capstone instruction id may be, before its operands are read. */
enum arch_id_class {
	ARCH_ID_NONE = 0,
	ARCH_ID_CALL,		/* call: direct or through a register */
	ARCH_ID_JUMP,		/* jump: direct or through a register */
};

enum arch_branch_kind {
	ARCH_BR_CALL,		/* direct call (x86 call rel, bl, ...) */
	ARCH_BR_JUMP,		/* direct jump, conditional or not */
	ARCH_BR_ICALL,		/* call through a register or memory */
	ARCH_BR_IJUMP,		/* jump through a register or memory (not a return) */
};

struct arch_branch {
	enum arch_branch_kind kind;
	uint64_t target;	/* 0 for ARCH_BR_ICALL/ARCH_BR_IJUMP */
};

/* One decoded instruction, as the disassembler hands it to a descriptor's
 * branch(): decoded with detail off (the fast path); arch_insn_detail()
 * decodes it again with detail on when the operands are needed. */
struct arch_insn {
	const cs_insn *insn;
	const uint8_t *bytes;	/* its bytes */
	unsigned int id_class;	/* enum arch_id_class of insn->id, from ids[] */
	bool big_endian;
	csh detail;		/* a handle of the same mode with detail on */
	cs_insn *dinsn;		/* where arch_insn_detail() decodes to */
};

struct hp_arch {
	const char *name;	/* "x86_64", "i386", "aarch64", "ppc32", ... */
	uint16_t machine;	/* ELF e_machine */
	unsigned int elfclass;	/* ELFCLASS32/64 of its kernels */
	uint32_t func_align;	/* the compilers' usual function alignment */
	uint32_t cold_align;	/* a .text.unlikely.* section's (GCC aligns cold
				 * functions to the instruction only); 0: as any */
	/* The symbolizer takes an address below this for a user-space sample
	 * when the image's text lies above it (the top half of the space). */
	uint64_t kernel_base;
	/* KASLR moves the kernel by multiples of this; the symbolizer probes
	 * such offsets for bare addresses. 0: no probing, offset 0. */
	uint64_t kaslr_align;
	const char *qemu_le, *qemu_be;	/* qemu-user program; NULL: none */
	bool func_descriptors;	/* ELFv1: function symbols of an object may be
				 * descriptors in .opd, not code */
	/* The default geometry: hotpack's (GEOM_DEFAULT_INIT) on every
	 * architecture today; geom_preset, when set, names the preset
	 * (lib/geometry.h) an image of this machine is costed on instead when
	 * no geometry is given (its 4 KiB part the same as geom's, so the
	 * layouts do not change). */
	struct geometry geom;
	const char *geom_preset;

	/* Disassembly: branch() NULL means capstone 4 has no support here. */
	cs_arch cs_arch;
	cs_mode cs_mode;
	bool big_endian_ok;	/* images of either byte order (else LE only) */
	unsigned int unit;	/* bytes skipped over undecodable code */
	unsigned int local_entry; /* ppc64 ELFv2: calls enter at start + 8 */
	unsigned int ret_id;	/* capstone id of the plain return */
	/* Ids that may be branches, with their class (NULL: branch() reads
	 * the instruction word itself). */
	const unsigned int (*ids)[2];
	size_t nids;
	/* Fill @b if @in is a branch (not a return); false if not. */
	bool (*branch)(const struct arch_insn *in, struct arch_branch *b);
	/* Names the call classification knows, NULL-terminated (NULL: none):
	 * a call to PREFIX+REG for each pair is "call *REG" (x86 retpolines);
	 * a jump to a return thunk is a return. */
	const char *const *ithunk_prefixes;
	const char *const *ithunk_regs;
	const char *const *ret_thunks;
};

/**
 * hp_arch_lookup() - the descriptor for an ELF e_machine and class: the
 * entry of that machine and class, else the machine's first entry (the class
 * picks between riscv32 and riscv64; an odd class, such as x32, keeps the
 * machine's name). An unknown machine gets a descriptor named "unknown" with
 * the generic defaults (4-byte alignment, no disassembler). Never NULL.
 */
const struct hp_arch *hp_arch_lookup(uint16_t machine, unsigned int elfclass);

/** The @i-th known architecture, in table order; NULL past the last. */
const struct hp_arch *hp_arch_nth(size_t i);

/** Can the disassembler decode this architecture's images of @elfclass? */
bool hp_arch_disasm(const struct hp_arch *a, unsigned int elfclass);

/** Decode @in again with detail on, into in->dinsn. False if it cannot. */
bool arch_insn_detail(const struct arch_insn *in);

#endif
