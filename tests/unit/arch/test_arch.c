// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_arch.c - the architecture table: lookup by ELF machine and class,
 * every descriptor's fields within their bounds, and the fallback for a
 * machine hotpack does not know.
 */
#include "config.h"

#include <elf.h>
#include <stdio.h>
#include <string.h>

#include "arch/arch.h"
#include "tap.h"

static bool pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static void test_lookup(void)
{
	static const struct {
		uint16_t machine;
		unsigned int elfclass;
		const char *name;
		bool disasm;
	} want[] = {
		{ EM_X86_64, ELFCLASS64, "x86_64", true },
		{ EM_386, ELFCLASS32, "i386", true },
		{ EM_AARCH64, ELFCLASS64, "aarch64", true },
		{ EM_PPC, ELFCLASS32, "ppc32", true },
		{ EM_PPC64, ELFCLASS64, "ppc64", true },
		{ EM_ARM, ELFCLASS32, "arm", false },
		{ EM_RISCV, ELFCLASS32, "riscv32", false },
		{ EM_RISCV, ELFCLASS64, "riscv64", false },
	};
	char what[96];

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct hp_arch *a = hp_arch_lookup(want[i].machine, want[i].elfclass);

		snprintf(what, sizeof(what), "machine %u class %u: %s", want[i].machine,
			 want[i].elfclass, want[i].name);
		is_str(a->name, want[i].name, what);
		ok(hp_arch_disasm(a, want[i].elfclass) == want[i].disasm, what);
	}
	/* The class picks between entries of one machine only: x32 is x86_64
	 * by name, but the x86_64 decoder is not for it. */
	is_str(hp_arch_lookup(EM_X86_64, ELFCLASS32)->name, "x86_64", "x32 named x86_64");
	ok(!hp_arch_disasm(hp_arch_lookup(EM_X86_64, ELFCLASS32), ELFCLASS32),
	   "x32: no disassembler");
	ok(!hp_arch_disasm(hp_arch_lookup(EM_PPC, ELFCLASS64), ELFCLASS64),
	   "ppc32 machine with class 64: no disassembler");
}

static void test_unknown(void)
{
	const struct hp_arch *a32 = hp_arch_lookup(EM_MIPS, ELFCLASS32);
	const struct hp_arch *a64 = hp_arch_lookup(EM_MIPS, ELFCLASS64);

	ok(a32 && a64, "unknown machine: a descriptor all the same");
	is_str(a32->name, "unknown", "unknown machine: named unknown");
	is_int(a32->func_align, 4, "unknown machine: 4-byte functions");
	ok(!hp_arch_disasm(a32, ELFCLASS32) && !hp_arch_disasm(a64, ELFCLASS64),
	   "unknown machine: no disassembler");
	ok(!a32->qemu_le && !a32->qemu_be, "unknown machine: no QEMU target");
	ok(!a32->kaslr_align, "unknown machine: KASLR not probed");
	is_int(geom_check(&a64->geom), 0, "unknown machine: the default geometry");
	is_u64(a32->kernel_base, 0x80000000u, "unknown 32-bit: kernel in the top half");
	is_u64(a64->kernel_base, 0xffff800000000000ull, "unknown 64-bit: kernel in the top half");
}

/* Every field of every descriptor within its bounds. */
static void test_fields(void)
{
	const struct hp_arch *a;
	size_t n = 0;
	char what[96];

	for (size_t i = 0; (a = hp_arch_nth(i)) != NULL; i++, n++) {
		uint64_t top = a->elfclass == ELFCLASS64 ? UINT64_MAX : 0xffffffffu;

		snprintf(what, sizeof(what), "%s: sane", a->name);
		ok(a->name && *a->name && a->machine != EM_NONE &&
		   (a->elfclass == ELFCLASS32 || a->elfclass == ELFCLASS64) &&
		   pow2(a->func_align) && a->func_align <= 64 &&
		   a->kernel_base && a->kernel_base <= top &&
		   (!a->kaslr_align || (pow2(a->kaslr_align) &&
					a->kaslr_align >= a->geom.page_size)) &&
		   a->qemu_le && !strncmp(a->qemu_le, "qemu-", 5) &&
		   a->qemu_be && !strncmp(a->qemu_be, "qemu-", 5), what);
		snprintf(what, sizeof(what), "%s: its default geometry can be simulated", a->name);
		is_int(geom_check(&a->geom), 0, what);
		ok(hp_arch_lookup(a->machine, a->elfclass) == a, a->name);
		if (!a->branch)
			continue;
		snprintf(what, sizeof(what), "%s: a decoder", a->name);
		ok((a->unit == 1 || a->unit == 4) && a->ret_id && (a->ids ? a->nids > 0 : !a->nids) &&
		   (a->local_entry % 4) == 0, what);
		for (size_t k = 0; k < a->nids; k++)
			if (a->ids[k][1] != ARCH_ID_CALL && a->ids[k][1] != ARCH_ID_JUMP)
				ok(0, "an id that is neither call nor jump");
		/* the retpoline thunks come in prefix x register pairs */
		ok(!a->ithunk_prefixes == !a->ithunk_regs, a->name);
	}
	is_int(n, 8, "eight architectures in the table");
	is_str(hp_arch_nth(0)->name, "x86_64", "the table starts with x86_64");
	ok(!hp_arch_nth(n), "nothing past the last");
	/* What the generic code relies on, per architecture. */
	is_u64(hp_arch_lookup(EM_X86_64, ELFCLASS64)->kaslr_align, 2u << 20,
	       "x86_64: KASLR in 2 MiB steps");
	is_u64(hp_arch_lookup(EM_AARCH64, ELFCLASS64)->kaslr_align, 0, "aarch64: not probed");
	is_int(hp_arch_lookup(EM_PPC64, ELFCLASS64)->local_entry, 8, "ppc64: local entry at 8");
	ok(hp_arch_lookup(EM_PPC64, ELFCLASS64)->func_descriptors, "ppc64: .opd descriptors");
	is_str(hp_arch_lookup(EM_PPC64, ELFCLASS64)->qemu_le, "qemu-ppc64le", "ppc64le qemu");
	ok(!hp_arch_lookup(EM_X86_64, ELFCLASS64)->big_endian_ok, "x86_64: little-endian only");
}

int main(void)
{
	test_lookup();
	test_unknown();
	test_fields();
	return done_testing();
}
