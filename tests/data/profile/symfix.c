// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * symfix.c - a kernel-like image for the symbolizer tests, built at test
 * time (tests/symbolize.test): plain functions, GCC clone names made with
 * asm labels (foo.isra.0, bar.constprop.0 and its .cold part), and an alias.
 * Each function is padded so that addresses inside it are unambiguous.
 */
#define PAD __asm__ volatile(".skip 64, 0x90")
#define FN(c, asmname) \
	__attribute__((noinline, used)) void c(void) __asm__(asmname); \
	void c(void) { PAD; }

FN(f_ksys_read, "ksys_read")
FN(f_vfs_read, "vfs_read")
FN(f_read_zero, "read_zero")
FN(f_foo, "foo.isra.0")
FN(f_bar, "bar.constprop.0")
FN(f_bar_cold, "bar.constprop.0.cold")
FN(f_baz, "baz")
FN(f_other, "other_kernel_func")

void sys_read_alias(void) __attribute__((alias("ksys_read")));

/* a local assembly label with a size: code of its own, never moved (arm64's
 * exception entries); its samples join the stream's windows as a label */
__asm__(".pushsection .text.zz_entry_label,\"ax\"\nentry_label:\n.skip 64, 0x90\n"
	".size entry_label, .-entry_label\n.popsection\n");

void _start(void)
{
	f_ksys_read();
}
