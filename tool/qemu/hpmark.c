// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hpmark.c - the phase marker: a static program of three instructions that
 * only exits. It is linked so that its entry point is the plugin's marker
 * address (0x5a5a0000 by default, -Wl,-Ttext=...), and the plugin starts a
 * new counting phase whenever code at that address runs. A guest runs it
 * between workload steps; the kernel needs no change. No libc: the entry
 * point is the whole program.
 */
#include "config.h"

#if defined(__x86_64__)
__asm__(".text\n.globl _start\n_start:\n"
	"\tmovl $231, %eax\n"	/* exit_group */
	"\txorl %edi, %edi\n"
	"\tsyscall\n");
#elif defined(__i386__)
__asm__(".text\n.globl _start\n_start:\n"
	"\tmovl $252, %eax\n"	/* exit_group */
	"\txorl %ebx, %ebx\n"
	"\tint $0x80\n");
#elif defined(__aarch64__)
__asm__(".text\n.globl _start\n_start:\n"
	"\tmov x8, #94\n"	/* exit_group */
	"\tmov x0, #0\n"
	"\tsvc #0\n");
#elif defined(__powerpc__)
__asm__(".text\n.globl _start\n_start:\n"
	"\tli 0, 234\n"		/* exit_group */
	"\tli 3, 0\n"
	"\tsc\n");
#else
#error "hpmark: no exit sequence for this architecture; add one (three instructions)"
#endif
