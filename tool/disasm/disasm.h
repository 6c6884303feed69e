/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * disasm.h - the static call graph from the machine code: capstone walks each
 * function's bytes and reports its direct calls, its tail calls (a jump to
 * another function's start) and its indirect calls and jumps, with the offset
 * of each call site. The per-architecture knowledge (x86_64, i386, aarch64,
 * ppc32, ppc64, either endianness) sits in the descriptors of arch/.
 *
 * Two layers: disasm_walk() decodes a byte buffer at an address and reports
 * raw branches (usable without an image: unit tests, fuzzers); disasm_func()
 * and disasm_calls() classify those branches against a struct kimage, which
 * knows the functions: tracing hooks (__fentry__, _mcount) are not edges,
 * static_call trampolines (__SCT__*) resolve to their default target, and the
 * x86 retpoline thunks make indirect calls.
 *
 * The image must be linked (ET_EXEC or ET_DYN): in a relocatable object the
 * branch targets are relocations, which this module does not read.
 */
#ifndef HP_DISASM_H
#define HP_DISASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/arch.h"
#include "image/image.h"

/* A raw branch instruction, as the architecture's descriptor decodes it. */
enum disasm_branch_kind {
	DB_CALL = ARCH_BR_CALL,		/* direct call (x86 call rel, bl, ...) */
	DB_JUMP = ARCH_BR_JUMP,		/* direct jump, conditional or not */
	DB_ICALL = ARCH_BR_ICALL,	/* call through a register or memory */
	DB_IJUMP = ARCH_BR_IJUMP,	/* jump through a register or memory (not a return) */
};

struct disasm_branch {
	uint64_t site;		/* address of the branch instruction */
	uint64_t target;	/* its target; 0 for DB_ICALL/DB_IJUMP */
	enum disasm_branch_kind kind;
	uint8_t len;		/* instruction length in bytes */
};

typedef int (*disasm_branch_cb)(const struct disasm_branch *b, void *ctx);

/* What a function's call site is, once classified against the image. */
enum disasm_call_kind {
	DC_CALL,	/* direct call to a function */
	DC_TAIL,	/* jump to another function's start */
	DC_ICALL,	/* indirect call: the callee is unknown */
	DC_ITAIL,	/* indirect jump out of the function (retpoline thunk jmp,
			 * or jmp *reg that is not a return): callee unknown */
};

#define DISASM_NO_FUNC UINT32_MAX

struct disasm_call {
	uint32_t caller;	/* index into kimage.funcs */
	uint32_t callee;	/* index into kimage.funcs, DISASM_NO_FUNC if unknown */
	uint64_t site;		/* address of the call instruction */
	uint64_t offset;	/* site - caller's address */
	uint64_t target;	/* branch target (the trampoline for static calls) */
	enum disasm_call_kind kind;
	bool static_call;	/* resolved through an __SCT__ trampoline */
};

typedef int (*disasm_call_cb)(const struct disasm_call *c, void *ctx);

/* Counts of what the walk met, for reports and tests. */
struct disasm_stats {
	uint64_t funcs;		/* functions walked */
	uint64_t bytes;		/* bytes walked */
	uint64_t insns;		/* instructions decoded */
	uint64_t bad;		/* undecodable units skipped (data in text) */
	uint64_t no_bytes;	/* functions whose bytes are not in the file */
	uint64_t calls, tails, icalls, itails;	/* reported, by kind */
	uint64_t hooks;		/* __fentry__/_mcount calls dropped */
	uint64_t static_calls;	/* __SCT__ calls resolved to a function */
	uint64_t static_null;	/* __SCT__ calls whose default is "return" */
	uint64_t outside;	/* calls/jumps to no function, or into one's middle */
};

struct disasm;

/**
 * disasm_open_arch() - capstone handles for the architecture of an ELF
 * e_machine and class (hp_arch_lookup()) and a byte order. Returns 0, or
 * -ENOTSUP after printing which architecture is missing.
 */
int disasm_open_arch(struct disasm **out, uint16_t machine, unsigned int elfclass,
		     bool big_endian);

/**
 * disasm_open() - the same for @img, plus what the classification needs from
 * its symbol table (hooks, thunks, static_call trampolines). @img must outlive
 * the handle. Returns 0 or -errno after printing why.
 */
int disasm_open(struct disasm **out, const struct kimage *img);

void disasm_close(struct disasm *d);

/** The architecture's name ("x86_64", "ppc32", ...). */
const char *disasm_arch_name(const struct disasm *d);

/**
 * disasm_walk() - decode @len bytes at @addr and report each branch to @cb.
 * Undecodable bytes are skipped (one byte on x86, one instruction unit on the
 * fixed-width architectures) and counted. Returns 0 or @cb's non-zero value.
 */
int disasm_walk(struct disasm *d, const uint8_t *code, size_t len, uint64_t addr,
		disasm_branch_cb cb, void *ctx);

/**
 * disasm_func() - the calls of function @func (index into the image's funcs),
 * in address order. Needs a handle from disasm_open(). A function whose bytes
 * are not in the file (NOBITS, truncated) has no calls and is counted.
 * Returns 0 or @cb's non-zero value.
 */
int disasm_func(struct disasm *d, uint32_t func, disasm_call_cb cb, void *ctx);

/** disasm_calls() - disasm_func() for every function of @img, by address. */
int disasm_calls(const struct kimage *img, disasm_call_cb cb, void *ctx);

/* What an address is in a function's code (disasm_insn_at()). */
#define DISASM_AT_START 1u	/* an instruction starts there */
#define DISASM_AT_AFTER_CALL 2u	/* the instruction ending there is a call:
				 * what a return address is */

/**
 * disasm_insn_at() - what @addr is in the @len bytes of @code at @start (a
 * function's code), decoded from @start: DISASM_AT_START and/or
 * DISASM_AT_AFTER_CALL, 0 inside an instruction or outside the bytes. A
 * sampled instruction pointer starts an instruction; a caller frame of a
 * stack follows a call: an address shifted by a wrong offset mostly does
 * neither. Touches no counters.
 */
unsigned int disasm_insn_at(struct disasm *d, const uint8_t *code, size_t len, uint64_t start,
			    uint64_t addr);

/** Is there a disassembler for this ELF machine and class? (Says nothing.) */
bool disasm_supported(uint16_t machine, unsigned int elfclass);

/** Counters accumulated by this handle so far. */
const struct disasm_stats *disasm_get_stats(const struct disasm *d);

/** Stable names for the kinds ("call", "tail", "icall", "itail"). */
const char *disasm_call_kind_name(enum disasm_call_kind k);

#endif
