// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * disasm.c - direct calls, tail calls and indirect calls of each function,
 * found by walking its bytes with capstone.
 *
 * One table holds what differs per architecture: the capstone arch and mode,
 * the unit to skip over undecodable bytes, and a function that turns one
 * decoded instruction into a branch (or not). The walk runs with capstone's
 * detail off, which is the fast path; only instructions whose id can be a
 * branch are decoded a second time with detail on, for their operands.
 *
 * Capstone 4.0.2 (Debian 12) was checked per architecture with the fixtures
 * in tests/fixtures/calls.c: on x86 it puts call in CS_GRP_CALL and jmp/jcc in
 * CS_GRP_JUMP; on powerpc it gives "bl" no group at all, "beq" none either,
 * and names "bcl 20,31,.+4" as "bdnzl". So the classification goes by
 * instruction id on x86 and aarch64, and by the instruction word's own fields
 * (primary opcode, LK bit) on powerpc, never by groups.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <capstone/capstone.h>
#include <elf.h>

#include "disasm/disasm.h"
#include "lib/warn.h"
#include "lib/xalloc.h"

/* What an instruction id may be, before its operands are looked at. */
enum id_class {
	IDC_NONE = 0,
	IDC_CALL,	/* call: direct or through a register */
	IDC_JUMP,	/* jump: direct or through a register */
};

struct disasm;

struct disasm_arch {
	uint16_t machine;
	unsigned int elfclass;		/* 0: either */
	const char *name;
	cs_arch cs_arch;
	cs_mode cs_mode;
	unsigned int unit;		/* bytes skipped over undecodable code */
	unsigned int local_entry;	/* ppc64 ELFv2: calls enter at start + 8 */
	unsigned int ret_id;		/* capstone id of the plain return */
	/* Ids that may be branches, with their class (NULL: decode words). */
	const unsigned int (*ids)[2];
	size_t nids;
	/* Fill @b for the instruction at @p (already decoded as d->insn). */
	bool (*branch)(struct disasm *d, const uint8_t *p, struct disasm_branch *b);
};

/* Roles of the functions the classification treats specially. */
enum func_role {
	ROLE_PLAIN = 0,
	ROLE_HOOK,	/* __fentry__, _mcount: tracing calls, not edges */
	ROLE_ITHUNK,	/* retpoline thunk: a call to it is an indirect call */
	ROLE_RETTHUNK,	/* return thunk: a jump to it is a return */
	ROLE_SCT,	/* static_call trampoline */
};

#define SCT_UNRESOLVED UINT32_MAX
#define SCT_NULL (UINT32_MAX - 1)

struct disasm {
	const struct disasm_arch *arch;
	bool big_endian;
	csh walk;		/* detail off */
	csh detail;		/* detail on, for branch operands */
	cs_insn *insn, *dinsn;
	uint8_t *idclass;	/* by capstone id: enum id_class */
	size_t nidclass;
	const struct kimage *img;
	uint8_t *role;		/* by function index: enum func_role */
	uint32_t *sct;		/* by function index: resolved trampoline target */
	/* Addresses with a role, sorted: the kernel's thunks are often
	 * NOTYPE labels, not functions, so they are found by name. */
	struct special { uint64_t addr; uint8_t role; } *special;
	size_t nspecial, capspecial;
	struct disasm_stats st;
};

/* ---- x86 ---------------------------------------------------------------- */

static const unsigned int x86_ids[][2] = {
	{ X86_INS_CALL, IDC_CALL },
	{ X86_INS_JMP, IDC_JUMP },
	{ X86_INS_JAE, IDC_JUMP }, { X86_INS_JA, IDC_JUMP },
	{ X86_INS_JBE, IDC_JUMP }, { X86_INS_JB, IDC_JUMP },
	{ X86_INS_JCXZ, IDC_JUMP }, { X86_INS_JECXZ, IDC_JUMP },
	{ X86_INS_JRCXZ, IDC_JUMP }, { X86_INS_JE, IDC_JUMP },
	{ X86_INS_JGE, IDC_JUMP }, { X86_INS_JG, IDC_JUMP },
	{ X86_INS_JLE, IDC_JUMP }, { X86_INS_JL, IDC_JUMP },
	{ X86_INS_JNE, IDC_JUMP }, { X86_INS_JNO, IDC_JUMP },
	{ X86_INS_JNP, IDC_JUMP }, { X86_INS_JNS, IDC_JUMP },
	{ X86_INS_JO, IDC_JUMP }, { X86_INS_JP, IDC_JUMP },
	{ X86_INS_JS, IDC_JUMP },
	{ X86_INS_LOOP, IDC_JUMP }, { X86_INS_LOOPE, IDC_JUMP },
	{ X86_INS_LOOPNE, IDC_JUMP },
};

/* Decode the instruction at @p again, with detail, into d->dinsn. */
static bool redecode(struct disasm *d, const uint8_t *p)
{
	const uint8_t *q = p;
	size_t n = d->insn->size;
	uint64_t a = d->insn->address;

	return cs_disasm_iter(d->detail, &q, &n, &a, d->dinsn);
}

static bool x86_branch(struct disasm *d, const uint8_t *p, struct disasm_branch *b)
{
	unsigned int cls = d->insn->id < d->nidclass ? d->idclass[d->insn->id] : IDC_NONE;
	const cs_x86 *x;

	if (cls == IDC_NONE || !redecode(d, p))
		return false;
	x = &d->dinsn->detail->x86;
	if (x->op_count < 1)
		return false;
	if (x->operands[0].type == X86_OP_IMM) {
		b->kind = cls == IDC_CALL ? DB_CALL : DB_JUMP;
		b->target = (uint64_t)x->operands[0].imm;
	} else {
		b->kind = cls == IDC_CALL ? DB_ICALL : DB_IJUMP;
		b->target = 0;
	}
	return true;
}

/* ---- aarch64 ------------------------------------------------------------- */

static const unsigned int arm64_ids[][2] = {
	{ ARM64_INS_BL, IDC_CALL }, { ARM64_INS_BLR, IDC_CALL },
	{ ARM64_INS_B, IDC_JUMP }, { ARM64_INS_BR, IDC_JUMP },
	{ ARM64_INS_CBZ, IDC_JUMP }, { ARM64_INS_CBNZ, IDC_JUMP },
	{ ARM64_INS_TBZ, IDC_JUMP }, { ARM64_INS_TBNZ, IDC_JUMP },
};

static bool arm64_branch(struct disasm *d, const uint8_t *p, struct disasm_branch *b)
{
	unsigned int id = d->insn->id;
	unsigned int cls = id < d->nidclass ? d->idclass[id] : IDC_NONE;
	const cs_arm64 *x;

	if (cls == IDC_NONE)
		return false;
	if (id == ARM64_INS_BLR || id == ARM64_INS_BR) {
		b->kind = id == ARM64_INS_BLR ? DB_ICALL : DB_IJUMP;
		b->target = 0;
		return true;
	}
	if (!redecode(d, p))
		return false;
	/* The target is the last operand: b/bl/b.cond have one, cbz two, tbz three. */
	x = &d->dinsn->detail->arm64;
	if (x->op_count < 1 || x->operands[x->op_count - 1].type != ARM64_OP_IMM)
		return false;
	b->kind = cls == IDC_CALL ? DB_CALL : DB_JUMP;
	b->target = (uint64_t)x->operands[x->op_count - 1].imm;
	return true;
}

/* ---- powerpc -------------------------------------------------------------- */

/*
 * The branch forms, from the instruction word (Power ISA, Book I 2.4):
 * I-form "b" (primary opcode 18: LI, AA, LK), B-form "bc" (16: BO, BI, BD,
 * AA, LK), XL-form "bclr"/"bcctr" (19 with XO 16/528, LK). LK=1 links: a call.
 */
static bool ppc_branch(struct disasm *d, const uint8_t *p, struct disasm_branch *b)
{
	uint32_t w = d->big_endian ?
		(uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3] :
		(uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
	unsigned int op = w >> 26, lk = w & 1, aa = (w >> 1) & 1;
	uint64_t here = d->insn->address;
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
			b->kind = lk ? DB_ICALL : DB_IJUMP;
			b->target = 0;
			return true;
		}
		if (xo == 16 && lk) {	/* blrl: a call through LR */
			b->kind = DB_ICALL;
			b->target = 0;
			return true;
		}
		return false;		/* blr and friends: returns */
	}
	default:
		return false;
	}
	b->kind = lk ? DB_CALL : DB_JUMP;
	b->target = aa ? (uint64_t)disp : here + (uint64_t)disp;
	if (d->arch->elfclass == ELFCLASS32)
		b->target &= 0xffffffffu;
	return true;
}

/* ---- the table ----------------------------------------------------------- */

#define ARR(a) (sizeof(a) / sizeof((a)[0]))

static const struct disasm_arch arches[] = {
	{ EM_X86_64, ELFCLASS64, "x86_64", CS_ARCH_X86, CS_MODE_64, 1, 0, X86_INS_RET,
	  x86_ids, ARR(x86_ids), x86_branch },
	{ EM_386, ELFCLASS32, "i386", CS_ARCH_X86, CS_MODE_32, 1, 0, X86_INS_RET,
	  x86_ids, ARR(x86_ids), x86_branch },
	{ EM_AARCH64, ELFCLASS64, "aarch64", CS_ARCH_ARM64, CS_MODE_ARM, 4, 0, ARM64_INS_RET,
	  arm64_ids, ARR(arm64_ids), arm64_branch },
	{ EM_PPC, ELFCLASS32, "ppc32", CS_ARCH_PPC, CS_MODE_32, 4, 0, PPC_INS_BLR,
	  NULL, 0, ppc_branch },
	{ EM_PPC64, ELFCLASS64, "ppc64", CS_ARCH_PPC, CS_MODE_64, 4, 8, PPC_INS_BLR,
	  NULL, 0, ppc_branch },
};

static const struct disasm_arch *find_arch(uint16_t machine, unsigned int elfclass)
{
	for (size_t i = 0; i < ARR(arches); i++)
		if (arches[i].machine == machine &&
		    (!arches[i].elfclass || arches[i].elfclass == elfclass))
			return &arches[i];
	return NULL;
}

bool disasm_supported(uint16_t machine, unsigned int elfclass)
{
	return find_arch(machine, elfclass) != NULL;
}

int disasm_open_arch(struct disasm **out, uint16_t machine, unsigned int elfclass,
		     bool big_endian)
{
	const struct disasm_arch *arch = find_arch(machine, elfclass);
	struct disasm *d;
	cs_mode mode;
	size_t maxid = 0;

	*out = NULL;
	if (!arch) {
		pr_err("disassembly: ELF machine %u (class %u) is not supported; "
		       "hotpack knows x86_64, i386, aarch64, ppc32 and ppc64", machine, elfclass);
		return -ENOTSUP;
	}
	if (arch->cs_arch == CS_ARCH_X86 && big_endian) {
		pr_err("disassembly: a big-endian x86 image makes no sense; is the file damaged?");
		return -ENOTSUP;
	}
	mode = arch->cs_mode | (big_endian ? CS_MODE_BIG_ENDIAN : CS_MODE_LITTLE_ENDIAN);
	d = xcalloc(1, sizeof(*d));
	d->arch = arch;
	d->big_endian = big_endian;
	if (cs_open(arch->cs_arch, mode, &d->walk) != CS_ERR_OK ||
	    cs_open(arch->cs_arch, mode, &d->detail) != CS_ERR_OK) {
		pr_err("disassembly: capstone has no %s support; "
		       "install Debian's libcapstone4 (4.0.2 or later)", arch->name);
		disasm_close(d);
		return -ENOTSUP;
	}
	cs_option(d->detail, CS_OPT_DETAIL, CS_OPT_ON);
	d->insn = cs_malloc(d->walk);
	d->dinsn = cs_malloc(d->detail);
	for (size_t i = 0; i < arch->nids; i++)
		if (arch->ids[i][0] + 1 > maxid)
			maxid = arch->ids[i][0] + 1;
	if (maxid) {
		d->idclass = xcalloc(maxid, 1);
		d->nidclass = maxid;
		for (size_t i = 0; i < arch->nids; i++)
			d->idclass[arch->ids[i][0]] = (uint8_t)arch->ids[i][1];
	}
	*out = d;
	return 0;
}

void disasm_close(struct disasm *d)
{
	if (!d)
		return;
	if (d->insn)
		cs_free(d->insn, 1);
	if (d->dinsn)
		cs_free(d->dinsn, 1);
	if (d->walk)
		cs_close(&d->walk);
	if (d->detail)
		cs_close(&d->detail);
	free(d->idclass);
	free(d->role);
	free(d->sct);
	free(d->special);
	free(d);
}

const char *disasm_arch_name(const struct disasm *d)
{
	return d->arch->name;
}

const struct disasm_stats *disasm_get_stats(const struct disasm *d)
{
	return &d->st;
}

const char *disasm_call_kind_name(enum disasm_call_kind k)
{
	switch (k) {
	case DC_CALL: return "call";
	case DC_TAIL: return "tail";
	case DC_ICALL: return "icall";
	case DC_ITAIL: return "itail";
	}
	return "?";
}

int disasm_walk(struct disasm *d, const uint8_t *code, size_t len, uint64_t addr,
		disasm_branch_cb cb, void *ctx)
{
	const uint8_t *p = code;
	size_t n = len;
	uint64_t a = addr;
	struct disasm_branch b;
	int err;

	d->st.bytes += len;
	while (n) {
		const uint8_t *at = p;

		if (!cs_disasm_iter(d->walk, &p, &n, &a, d->insn)) {
			/* Data in text, padding, or an instruction capstone 4
			 * does not know: step over one unit and go on. */
			size_t skip = n < d->arch->unit ? n : d->arch->unit;

			p += skip;
			n -= skip;
			a += skip;
			d->st.bad++;
			continue;
		}
		d->st.insns++;
		if (!d->arch->branch(d, at, &b))
			continue;
		b.site = d->insn->address;
		b.len = (uint8_t)d->insn->size;
		err = cb(&b, ctx);
		if (err)
			return err;
	}
	return 0;
}

/* ---- classification against the image ------------------------------------ */

static bool has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static const char *const hook_names[] = { "__fentry__", "_mcount", "mcount", "__gnu_mcount_nc" };

/* x86 retpolines: one thunk per register, "call __x86_indirect_thunk_rax"
 * standing for "call *%rax"; later kernels add call/jump variants. */
static const char *const thunk_regs[] = {
	"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp",
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
	"eax", "ebx", "ecx", "edx", "esi", "edi", "ebp", "esp",
};

static const char *const thunk_prefixes[] = {
	"__x86_indirect_thunk_", "__x86_indirect_call_thunk_", "__x86_indirect_jump_thunk_",
	"__x86_indirect_its_thunk_",
};

/* Return thunks (retbleed, SRSO, ITS mitigations): a jump to one is "ret". */
static const char *const ret_thunks[] = {
	"__x86_return_thunk", "zen_untrain_ret", "zen_return_thunk", "srso_return_thunk",
	"srso_alias_return_thunk", "srso_untrain_ret", "srso_alias_untrain_ret",
	"retbleed_return_thunk", "its_return_thunk", "__x86_return_skl",
};

static enum func_role role_of(const char *name)
{
	for (size_t i = 0; i < ARR(hook_names); i++)
		if (!strcmp(name, hook_names[i]))
			return ROLE_HOOK;
	for (size_t i = 0; i < ARR(thunk_prefixes); i++)
		if (has_prefix(name, thunk_prefixes[i]))
			return ROLE_ITHUNK;
	for (size_t i = 0; i < ARR(ret_thunks); i++)
		if (!strcmp(name, ret_thunks[i]))
			return ROLE_RETTHUNK;
	if (has_prefix(name, "__SCT__"))
		return ROLE_SCT;
	return ROLE_PLAIN;
}

static void add_special(struct disasm *d, uint64_t addr, enum func_role role)
{
	XGROW(d->special, d->capspecial, d->nspecial + 1);
	d->special[d->nspecial].addr = addr;
	d->special[d->nspecial].role = (uint8_t)role;
	d->nspecial++;
}

static void add_special_by_name(struct disasm *d, const char *name)
{
	uint64_t a;

	if (kimage_symbol_addr(d->img, name, &a))
		add_special(d, a, role_of(name));
}

static int cmp_special(const void *a, const void *b)
{
	const struct special *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (int)x->role - (int)y->role;
}

/* The role of branch target @t, if some special symbol sits exactly there. */
static enum func_role special_role(const struct disasm *d, uint64_t t)
{
	size_t lo = 0, hi = d->nspecial;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->special[mid].addr < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < d->nspecial && d->special[lo].addr == t ? d->special[lo].role : ROLE_PLAIN;
}

/* Is @t the entry of function @fn (its start, or ppc64's local entry)? */
static bool is_entry(const struct disasm *d, const struct kfunc *fn, uint64_t t)
{
	return t == fn->addr ||
	       (d->arch->local_entry && t == fn->addr + d->arch->local_entry &&
		fn->size > d->arch->local_entry);
}

/* What sits at branch target @t: a special symbol, or else the role of the
 * function holding it (*@g, NULL if none). */
static enum func_role target_role(const struct disasm *d, uint64_t t, const struct kfunc **g)
{
	enum func_role r = special_role(d, t);

	*g = kimage_find_func_containing(d->img, t);
	if (r == ROLE_PLAIN && *g)
		r = (enum func_role)d->role[(*g)->index];
	return r;
}

/*
 * A static_call trampoline's first instruction says its default target:
 * "jmp func" (x86) / "b func" (powerpc, arm64), or a return when the default
 * is NULL (ret, blr, a jump to the return thunk; ppc32's return-0 form jumps
 * within the trampoline). What follows the first instruction is the
 * trampoline's own business (ppc32 keeps an indirect path there) and is not
 * read. Anything else stays unresolved: the trampoline is then the callee.
 */
static uint32_t resolve_sct(struct disasm *d, const struct kfunc *tramp)
{
	const uint8_t *bytes, *p;
	struct disasm_branch b;
	const struct kfunc *g;
	uint64_t len = tramp->size ? tramp->size : 16, a = tramp->addr;
	size_t n;

	bytes = kimage_bytes(d->img, tramp->addr, len);
	if (!bytes)
		return SCT_UNRESOLVED;
	p = bytes;
	n = len;
	if (!cs_disasm_iter(d->walk, &p, &n, &a, d->insn))
		return SCT_UNRESOLVED;
	if (!d->arch->branch(d, bytes, &b))
		return d->insn->id == d->arch->ret_id ? SCT_NULL : SCT_UNRESOLVED;
	if (b.kind != DB_JUMP)
		return SCT_UNRESOLVED;
	if (b.target >= tramp->addr && b.target - tramp->addr < len)
		return SCT_NULL;	/* "b .+20": to the trampoline's "return 0" */
	switch (target_role(d, b.target, &g)) {
	case ROLE_RETTHUNK:
		return SCT_NULL;	/* "jmp __x86_return_thunk": a return */
	case ROLE_PLAIN:
		break;
	default:
		return SCT_UNRESOLVED;
	}
	if (!g || !is_entry(d, g, b.target))
		return SCT_UNRESOLVED;
	return g->index;
}

int disasm_open(struct disasm **out, const struct kimage *img)
{
	struct disasm *d;
	int err;

	err = disasm_open_arch(out, img->machine, img->elfclass, img->big_endian);
	if (err)
		return err;
	d = *out;
	d->img = img;
	d->role = xcalloc(img->nfuncs ? img->nfuncs : 1, 1);
	d->sct = xcalloc(img->nfuncs ? img->nfuncs : 1, sizeof(*d->sct));
	for (size_t i = 0; i < img->nfuncs; i++)
		d->role[i] = (uint8_t)role_of(img->funcs[i].name);
	/* Special symbols by name (they may be labels, not functions), then
	 * every function whose name gives it a role. */
	for (size_t i = 0; i < ARR(hook_names); i++)
		add_special_by_name(d, hook_names[i]);
	for (size_t i = 0; i < ARR(ret_thunks); i++)
		add_special_by_name(d, ret_thunks[i]);
	if (img->machine == EM_X86_64 || img->machine == EM_386) {
		for (size_t p = 0; p < ARR(thunk_prefixes); p++)
			for (size_t r = 0; r < ARR(thunk_regs); r++) {
				char name[64];

				snprintf(name, sizeof(name), "%s%s", thunk_prefixes[p], thunk_regs[r]);
				add_special_by_name(d, name);
			}
	}
	for (size_t i = 0; i < img->nfuncs; i++)
		if (d->role[i] != ROLE_PLAIN)
			add_special(d, img->funcs[i].addr, d->role[i]);
	if (d->nspecial)
		qsort(d->special, d->nspecial, sizeof(*d->special), cmp_special);
	/* After the roles: a trampoline that jumps to the return thunk is NULL. */
	for (size_t i = 0; i < img->nfuncs; i++)
		d->sct[i] = d->role[i] == ROLE_SCT ? resolve_sct(d, &img->funcs[i])
						   : SCT_UNRESOLVED;
	return 0;
}

struct func_walk {
	struct disasm *d;
	const struct kfunc *fn;
	disasm_call_cb cb;
	void *ctx;
};

static int classify_cb(const struct disasm_branch *b, void *ctx)
{
	struct func_walk *w = ctx;
	struct disasm *d = w->d;
	const struct kfunc *fn = w->fn, *g;
	struct disasm_call c = {
		.caller = fn->index, .callee = DISASM_NO_FUNC, .site = b->site,
		.offset = b->site - fn->addr, .target = b->target,
	};
	bool jump = b->kind == DB_JUMP;
	enum func_role role;

	switch (b->kind) {
	case DB_ICALL:
		c.kind = DC_ICALL;
		d->st.icalls++;
		return w->cb(&c, w->ctx);
	case DB_IJUMP:
		c.kind = DC_ITAIL;
		d->st.itails++;
		return w->cb(&c, w->ctx);
	case DB_CALL:
	case DB_JUMP:
		break;
	}
	/* Inside the function itself: a branch, or "call 1f" (PIC, retpoline
	 * code); a call to its own start is recursion and stays. */
	if (b->target >= fn->addr && b->target - fn->addr < fn->size &&
	    (jump || b->target != fn->addr))
		return 0;
	role = target_role(d, b->target, &g);
	switch (role) {
	case ROLE_HOOK:
		d->st.hooks++;
		return 0;
	case ROLE_RETTHUNK:
		return 0;	/* "jmp __x86_return_thunk" is a return */
	case ROLE_ITHUNK:
		c.kind = jump ? DC_ITAIL : DC_ICALL;
		if (jump)
			d->st.itails++;
		else
			d->st.icalls++;
		return w->cb(&c, w->ctx);
	case ROLE_SCT:
	case ROLE_PLAIN:
		break;
	}
	/* A call may enter a function anywhere (assembly entry labels); a jump
	 * is a tail call only to a function's entry, else it is the function's
	 * own business (a .cold part jumping back, a shared exit). */
	if (!g || (jump && !is_entry(d, g, b->target))) {
		d->st.outside++;
		pr_debug("%s+0x%" PRIx64 ": %s to 0x%" PRIx64 " enters no function",
			 fn->name, c.offset, jump ? "jump" : "call", b->target);
		return 0;
	}
	c.callee = g->index;
	if (role == ROLE_SCT && is_entry(d, g, b->target)) {
		if (d->sct[g->index] == SCT_NULL) {
			d->st.static_null++;
			return 0;
		}
		if (d->sct[g->index] != SCT_UNRESOLVED) {
			c.callee = d->sct[g->index];
			c.static_call = true;
			d->st.static_calls++;
		}
	}
	c.kind = jump ? DC_TAIL : DC_CALL;
	if (jump)
		d->st.tails++;
	else
		d->st.calls++;
	return w->cb(&c, w->ctx);
}

int disasm_func(struct disasm *d, uint32_t func, disasm_call_cb cb, void *ctx)
{
	const struct kimage *img = d->img;
	const struct kfunc *fn;
	const uint8_t *bytes;
	struct func_walk w = { .d = d, .cb = cb, .ctx = ctx };

	if (!img || func >= img->nfuncs)
		return 0;
	fn = &img->funcs[func];
	w.fn = fn;
	d->st.funcs++;
	if (!fn->size)
		return 0;
	bytes = kimage_bytes(img, fn->addr, fn->size);
	if (!bytes) {
		d->st.no_bytes++;
		return 0;
	}
	return disasm_walk(d, bytes, fn->size, fn->addr, classify_cb, &w);
}

int disasm_calls(const struct kimage *img, disasm_call_cb cb, void *ctx)
{
	struct disasm *d;
	int err;

	err = disasm_open(&d, img);
	if (err)
		return err;
	for (size_t i = 0; i < img->nfuncs && !err; i++)
		err = disasm_func(d, (uint32_t)i, cb, ctx);
	disasm_close(d);
	return err;
}
