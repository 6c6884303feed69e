// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * buildfix.c - two builds of one "kernel" for the build-record and
 * name-mapping tests (tests/build.test), built at test time with a GNU
 * build-id: RELEASE is its linux_banner's release, VARIANT 0 or 1 which
 * clone names GCC (or clang's LTO) gave its functions in that build. With
 * buildfix2.c, a static function of the same name (dup) in another file.
 */
#ifndef RELEASE
#define RELEASE "6.1.0-test"
#endif
#ifndef VARIANT
#define VARIANT 0
#endif

#define PAD __asm__ volatile(".skip 64, 0x90")
#define FN(c, asmname) \
	__attribute__((noinline, used)) void c(void) __asm__(asmname); \
	void c(void) { PAD; }

__attribute__((used)) const char linux_banner[] =
	"Linux version " RELEASE " (test@test) (gcc) #1 SMP\n";

FN(f_hot, "hot_entry")
#if VARIANT == 0
FN(f_helper, "helper.constprop.0")
FN(f_worker, "worker.isra.0")
FN(f_lto, "lto_fn.llvm.1234")
FN(f_split, "splitme.part.0")
FN(f_twice, "twice.constprop.0")
#else
FN(f_helper, "helper")
FN(f_worker, "worker.isra.1")
FN(f_lto, "lto_fn.llvm.98765")
FN(f_split, "splitme")
FN(f_twice_a, "twice.constprop.1")
FN(f_twice_b, "twice.isra.0")
__attribute__((noinline, used)) void f_variant(void) { PAD; PAD; }
#endif

static __attribute__((noinline, used)) void dup(void) { PAD; }
void dup_caller_1(void);
__attribute__((noinline, used)) void dup_caller_1(void) { dup(); }

void _start(void)
{
	f_hot();
}
