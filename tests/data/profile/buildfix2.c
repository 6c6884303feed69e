// SPDX-License-Identifier: GPL-2.0-or-later
/* buildfix2.c - the second static "dup", beside buildfix.c's. */
#define PAD __asm__ volatile(".skip 96, 0x90")

static __attribute__((noinline, used)) void dup(void) { PAD; }
void dup_caller_2(void);
__attribute__((noinline, used)) void dup_caller_2(void) { dup(); }
