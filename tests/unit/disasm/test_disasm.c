// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_disasm.c - the raw branch walk per architecture, on hand-assembled
 * instruction bytes (encodings from the architecture manuals, checked with
 * binutils' objdump): every kind of branch, returns that are not branches,
 * data in text, and a truncated last instruction. The classification against
 * a real image is tested by tests/callgraph-arch.test on compiled fixtures.
 */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "disasm/disasm.h"
#include "tap.h"

struct seen {
	struct disasm_branch b[32];
	int n;
};

static int collect(const struct disasm_branch *b, void *ctx)
{
	struct seen *s = ctx;

	if (s->n < 32)
		s->b[s->n++] = *b;
	return 0;
}

static int stop_at_first(const struct disasm_branch *b, void *ctx)
{
	(void)b;
	(void)ctx;
	return 42;
}

#define CHECK_BRANCH(s, i, kind_, site_, target_, what)                        \
	do {                                                                   \
		is_int((s).b[i].kind, kind_, what " kind");                    \
		is_u64((s).b[i].site, site_, what " site");                    \
		is_u64((s).b[i].target, target_, what " target");              \
	} while (0)

static void test_x86(void)
{
	static const uint8_t code[] = {
		0xe8, 0xfb, 0x0f, 0x00, 0x00,		/* 1000: call 2000 */
		0xe9, 0xf6, 0x1f, 0x00, 0x00,		/* 1005: jmp 3000 */
		0x74, 0x02,				/* 100a: je 100e */
		0xff, 0xd0,				/* 100c: call *%rax */
		0xff, 0xe0,				/* 100e: jmp *%rax */
		0xff, 0x25, 0x00, 0x00, 0x00, 0x00,	/* 1010: jmp *0(%rip) */
		0xc3,					/* 1016: ret */
		0x0f, 0x84, 0xe4, 0x0f, 0x00, 0x00,	/* 1017: je 2001 */
		0x06,					/* 101d: invalid in 64-bit mode */
		0x90,					/* 101e: nop */
		0xe8, 0x00, 0x00,			/* 101f: truncated call */
	};
	struct disasm *d;
	struct seen s = { .n = 0 };

	is_int(disasm_open_arch(&d, EM_X86_64, ELFCLASS64, false), 0, "x86_64: open");
	if (!d)
		return;
	is_str(disasm_arch_name(d), "x86_64", "x86_64: name");
	is_int(disasm_walk(d, code, sizeof(code), 0x1000, collect, &s), 0, "x86_64: walk");
	is_int(s.n, 7, "x86_64: seven branches");
	CHECK_BRANCH(s, 0, DB_CALL, 0x1000, 0x2000, "x86_64: call rel32");
	is_int(s.b[0].len, 5, "x86_64: call length");
	CHECK_BRANCH(s, 1, DB_JUMP, 0x1005, 0x3000, "x86_64: jmp rel32");
	CHECK_BRANCH(s, 2, DB_JUMP, 0x100a, 0x100e, "x86_64: je rel8");
	CHECK_BRANCH(s, 3, DB_ICALL, 0x100c, 0, "x86_64: call *reg");
	CHECK_BRANCH(s, 4, DB_IJUMP, 0x100e, 0, "x86_64: jmp *reg");
	CHECK_BRANCH(s, 5, DB_IJUMP, 0x1010, 0, "x86_64: jmp *mem");
	CHECK_BRANCH(s, 6, DB_JUMP, 0x1017, 0x2001, "x86_64: je rel32");
	/* 0x06, and the e8 of the cut call; its "00 00" decode as an add */
	is_u64(disasm_get_stats(d)->bad, 2, "x86_64: undecodable bytes skipped");
	is_int(disasm_walk(d, code, sizeof(code), 0x1000, stop_at_first, NULL), 42,
	       "x86_64: the callback's value stops the walk");
	is_int(disasm_walk(d, code, 0, 0x1000, collect, &s), 0, "x86_64: empty buffer");
	disasm_close(d);
}

static void put32(uint8_t *p, uint32_t w, bool be)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(be ? w >> (24 - 8 * i) : w >> (8 * i));
}

static void test_arm64(bool be)
{
	static const uint32_t words[] = {
		0x94000010,	/* 0: bl 0x40 */
		0x14000004,	/* 4: b 0x14 */
		0x54000040,	/* 8: b.eq 0x10 */
		0xb4000040,	/* c: cbz x0, 0x14 */
		0x36000040,	/* 10: tbz w0, #0, 0x18 */
		0xd63f0020,	/* 14: blr x1 */
		0xd61f0200,	/* 18: br x16 */
		0xd65f03c0,	/* 1c: ret */
		0x00000000,	/* 20: udf: data in text */
		0x97ffffff,	/* 24: bl 0x20 (backwards) */
	};
	uint8_t code[sizeof(words) + 2];
	struct disasm *d;
	struct seen s = { .n = 0 };
	const char *what = be ? "aarch64_be" : "aarch64";
	char buf[80];

	for (size_t i = 0; i < sizeof(words) / 4; i++)
		put32(code + 4 * i, words[i], be);
	code[sizeof(words)] = 0x14;	/* two bytes of a cut instruction */
	code[sizeof(words) + 1] = 0x00;
	snprintf(buf, sizeof(buf), "%s: open", what);
	is_int(disasm_open_arch(&d, EM_AARCH64, ELFCLASS64, be), 0, buf);
	if (!d)
		return;
	disasm_walk(d, code, sizeof(code), 0x400000, collect, &s);
	snprintf(buf, sizeof(buf), "%s: eight branches", what);
	is_int(s.n, 8, buf);
	CHECK_BRANCH(s, 0, DB_CALL, 0x400000, 0x400040, "aarch64: bl");
	CHECK_BRANCH(s, 1, DB_JUMP, 0x400004, 0x400014, "aarch64: b");
	CHECK_BRANCH(s, 2, DB_JUMP, 0x400008, 0x400010, "aarch64: b.eq");
	CHECK_BRANCH(s, 3, DB_JUMP, 0x40000c, 0x400014, "aarch64: cbz");
	CHECK_BRANCH(s, 4, DB_JUMP, 0x400010, 0x400018, "aarch64: tbz");
	CHECK_BRANCH(s, 5, DB_ICALL, 0x400014, 0, "aarch64: blr");
	CHECK_BRANCH(s, 6, DB_IJUMP, 0x400018, 0, "aarch64: br");
	CHECK_BRANCH(s, 7, DB_CALL, 0x400024, 0x400020, "aarch64: bl backwards");
	snprintf(buf, sizeof(buf), "%s: data word and cut tail skipped", what);
	is_u64(disasm_get_stats(d)->bad, 2, buf);
	disasm_close(d);
}

static void test_ppc(uint16_t machine, unsigned int cls, bool be, const char *what)
{
	static const uint32_t words[] = {
		0x4bffffb1,	/* 0: bl -0x50 */
		0x4bffff90,	/* 4: b -0x70 */
		0x41820010,	/* 8: beq +0x10 */
		0x4e800421,	/* c: bctrl */
		0x4e800420,	/* 10: bctr */
		0x4e800020,	/* 14: blr (a return: not reported) */
		0x4e800021,	/* 18: blrl */
		0x429f0005,	/* 1c: bcl 20,31,.+4 (PIC: a call to the next word) */
		0x4200fff8,	/* 20: bdnz -8 */
		0x48000012,	/* 24: ba 0x10 (absolute) */
		0x00000000,	/* 28: data in text */
		0x4d820020,	/* 2c: beqlr (a return) */
	};
	uint8_t code[sizeof(words) + 3];
	struct disasm *d;
	struct seen s = { .n = 0 };
	uint64_t base = 0x10000150;
	char buf[80];

	for (size_t i = 0; i < sizeof(words) / 4; i++)
		put32(code + 4 * i, words[i], be);
	memset(code + sizeof(words), 0x48, 3);
	snprintf(buf, sizeof(buf), "%s: open", what);
	is_int(disasm_open_arch(&d, machine, cls, be), 0, buf);
	if (!d)
		return;
	disasm_walk(d, code, sizeof(code), base, collect, &s);
	snprintf(buf, sizeof(buf), "%s: nine branches", what);
	is_int(s.n, 9, buf);
	CHECK_BRANCH(s, 0, DB_CALL, base, base - 0x50, "ppc: bl");
	CHECK_BRANCH(s, 1, DB_JUMP, base + 4, base + 4 - 0x70, "ppc: b");
	CHECK_BRANCH(s, 2, DB_JUMP, base + 8, base + 8 + 0x10, "ppc: beq");
	CHECK_BRANCH(s, 3, DB_ICALL, base + 0xc, 0, "ppc: bctrl");
	CHECK_BRANCH(s, 4, DB_IJUMP, base + 0x10, 0, "ppc: bctr");
	CHECK_BRANCH(s, 5, DB_ICALL, base + 0x18, 0, "ppc: blrl");
	CHECK_BRANCH(s, 6, DB_CALL, base + 0x1c, base + 0x20, "ppc: bcl 20,31");
	CHECK_BRANCH(s, 7, DB_JUMP, base + 0x20, base + 0x18, "ppc: bdnz");
	CHECK_BRANCH(s, 8, DB_JUMP, base + 0x24, 0x10, "ppc: ba absolute");
	snprintf(buf, sizeof(buf), "%s: data word and cut tail skipped", what);
	is_u64(disasm_get_stats(d)->bad, 2, buf);
	disasm_close(d);
}

static void test_ppc32_wrap(void)
{
	/* bl backwards from address 0 wraps within 32 bits on ppc32 */
	uint8_t code[4];
	struct disasm *d;
	struct seen s = { .n = 0 };

	put32(code, 0x4bfffff1, true);	/* bl -0x10 */
	if (disasm_open_arch(&d, EM_PPC, ELFCLASS32, true))
		return;
	disasm_walk(d, code, 4, 0, collect, &s);
	is_int(s.n, 1, "ppc32: one branch at 0");
	is_u64(s.b[0].target, 0xfffffff0u, "ppc32: target wraps at 32 bits");
	disasm_close(d);
}

static void test_unsupported(void)
{
	struct disasm *d = (struct disasm *)&d;

	is_int(disasm_open_arch(&d, EM_MIPS, ELFCLASS32, true), -ENOTSUP,
	       "mips: not supported, said so");
	ok(d == NULL, "mips: no handle");
	is_int(disasm_open_arch(&d, EM_X86_64, ELFCLASS64, true), -ENOTSUP,
	       "big-endian x86_64: refused");
	is_int(disasm_open_arch(&d, EM_PPC, ELFCLASS64, true), -ENOTSUP,
	       "EM_PPC with ELFCLASS64: refused");
	disasm_close(NULL);
	is_str(disasm_call_kind_name(DC_TAIL), "tail", "kind names");
}

int main(void)
{
	test_x86();
	test_arm64(false);
	test_arm64(true);
	test_ppc(EM_PPC, ELFCLASS32, true, "ppc32");
	test_ppc(EM_PPC64, ELFCLASS64, true, "ppc64");
	test_ppc(EM_PPC64, ELFCLASS64, false, "ppc64le");
	test_ppc32_wrap();
	test_unsupported();
	return done_testing();
}
