/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * powerpc.h - the Power ISA's branch forms, read from the instruction word,
 * shared by ppc32.c and ppc64.c.
 */
#ifndef HP_ARCH_POWERPC_H
#define HP_ARCH_POWERPC_H

#include "arch/arch.h"

/** A descriptor's branch() for powerpc; 64-bit targets (ppc32 truncates). */
bool powerpc_branch(const struct arch_insn *in, struct arch_branch *b);

#endif
