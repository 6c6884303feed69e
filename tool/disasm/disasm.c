// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * disasm.c - direct calls, tail calls and indirect calls of each function,
 * found by walking its bytes with capstone.
 *
 * What differs per architecture (capstone's arch and mode, the unit to skip
 * over undecodable bytes, the decoding of one instruction into a branch, the
 * thunks) is in its descriptor (arch/). The walk runs with capstone's detail
 * off, which is the fast path; the descriptor decodes an instruction a
 * second time with detail on only when its id can be a branch.
 *
 * The classification is generic: the tracing hooks and static_call
 * trampolines have the same names on every architecture.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <capstone/capstone.h>

#include "arch/arch.h"
#include "disasm/disasm.h"
#include "lib/warn.h"
#include "lib/xalloc.h"

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
	const struct hp_arch *arch;
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

#define ARR(a) (sizeof(a) / sizeof((a)[0]))

/* The architecture's decoder for @insn at @p, and its branch as ours. */
static bool branch_at(struct disasm *d, const uint8_t *p, struct disasm_branch *b)
{
	unsigned int id = d->insn->id;
	struct arch_insn in = {
		.insn = d->insn, .bytes = p, .big_endian = d->big_endian,
		.id_class = id < d->nidclass ? d->idclass[id] : ARCH_ID_NONE,
		.detail = d->detail, .dinsn = d->dinsn,
	};
	struct arch_branch ab;

	if (!d->arch->branch(&in, &ab))
		return false;
	b->kind = (enum disasm_branch_kind)ab.kind;
	b->target = ab.target;
	return true;
}

bool disasm_supported(uint16_t machine, unsigned int elfclass)
{
	return hp_arch_disasm(hp_arch_lookup(machine, elfclass), elfclass);
}

/* "x86_64, i386, aarch64, ppc32 and ppc64": the architectures with a decoder. */
static const char *disasm_arch_names(char *buf, size_t len)
{
	const struct hp_arch *a, *last = NULL;
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; (a = hp_arch_nth(i)) != NULL; i++) {
		if (!a->branch)
			continue;
		if (last)
			n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s",
					      n ? ", " : "", last->name);
		last = a;
	}
	if (last)
		snprintf(buf + n, n < len ? len - n : 0, "%s%s", n ? " and " : "", last->name);
	return buf;
}

int disasm_open_arch(struct disasm **out, uint16_t machine, unsigned int elfclass,
		     bool big_endian)
{
	const struct hp_arch *arch = hp_arch_lookup(machine, elfclass);
	struct disasm *d;
	cs_mode mode;
	size_t maxid = 0;
	char names[128];

	*out = NULL;
	if (!hp_arch_disasm(arch, elfclass)) {
		pr_err("disassembly: ELF machine %u (class %u) is not supported; "
		       "hotpack knows %s", machine, elfclass,
		       disasm_arch_names(names, sizeof(names)));
		return -ENOTSUP;
	}
	if (!arch->big_endian_ok && big_endian) {
		pr_err("disassembly: a big-endian %s image makes no sense; is the file damaged?",
		       arch->name);
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

/* Data in text, padding, or an instruction capstone 4 does not know: step
 * over one unit and go on. */
static void skip_unit(const struct disasm *d, const uint8_t **p, size_t *n, uint64_t *a)
{
	size_t skip = *n < d->arch->unit ? *n : d->arch->unit;

	*p += skip;
	*n -= skip;
	*a += skip;
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
			skip_unit(d, &p, &n, &a);
			d->st.bad++;
			continue;
		}
		d->st.insns++;
		if (!branch_at(d, at, &b))
			continue;
		b.site = d->insn->address;
		b.len = (uint8_t)d->insn->size;
		err = cb(&b, ctx);
		if (err)
			return err;
	}
	return 0;
}

unsigned int disasm_insn_at(struct disasm *d, const uint8_t *code, size_t len, uint64_t start,
			    uint64_t addr)
{
	const uint8_t *p = code;
	size_t n = len;
	uint64_t a = start;
	unsigned int at = addr == start ? DISASM_AT_START : 0;
	struct disasm_branch b;

	if (addr < start || addr - start > len)
		return 0;
	while (n && a < addr) {
		const uint8_t *ip = p;

		if (!cs_disasm_iter(d->walk, &p, &n, &a, d->insn)) {
			skip_unit(d, &p, &n, &a);
			at = a == addr ? DISASM_AT_START : 0;
			continue;
		}
		at = 0;
		if (a == addr) {
			at = DISASM_AT_START;
			if (branch_at(d, ip, &b) && (b.kind == DB_CALL || b.kind == DB_ICALL))
				at |= DISASM_AT_AFTER_CALL;
		}
	}
	return at;
}

/* ---- classification against the image ------------------------------------ */

static bool has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static const char *const hook_names[] = { "__fentry__", "_mcount", "mcount", "__gnu_mcount_nc" };

/* Does @name start with one of @prefixes (NULL-terminated, or NULL)? */
static bool in_prefixes(const char *name, const char *const *prefixes)
{
	for (; prefixes && *prefixes; prefixes++)
		if (has_prefix(name, *prefixes))
			return true;
	return false;
}

static bool in_names(const char *name, const char *const *names)
{
	for (; names && *names; names++)
		if (!strcmp(name, *names))
			return true;
	return false;
}

static enum func_role role_of(const struct disasm *d, const char *name)
{
	for (size_t i = 0; i < ARR(hook_names); i++)
		if (!strcmp(name, hook_names[i]))
			return ROLE_HOOK;
	if (in_prefixes(name, d->arch->ithunk_prefixes))
		return ROLE_ITHUNK;
	if (in_names(name, d->arch->ret_thunks))
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
		add_special(d, a, role_of(d, name));
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
	if (!branch_at(d, bytes, &b))
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
	d->role = xcalloc(img->nfuncs, 1);
	d->sct = xcalloc(img->nfuncs, sizeof(*d->sct));
	for (size_t i = 0; i < img->nfuncs; i++)
		d->role[i] = (uint8_t)role_of(d, img->funcs[i].name);
	/* Special symbols by name (they may be labels, not functions), then
	 * every function whose name gives it a role. */
	for (size_t i = 0; i < ARR(hook_names); i++)
		add_special_by_name(d, hook_names[i]);
	for (const char *const *t = d->arch->ret_thunks; t && *t; t++)
		add_special_by_name(d, *t);
	for (const char *const *p = d->arch->ithunk_prefixes; p && *p; p++)
		for (const char *const *r = d->arch->ithunk_regs; r && *r; r++) {
			char name[64];

			snprintf(name, sizeof(name), "%s%s", *p, *r);
			add_special_by_name(d, name);
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
