/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * image.h - the kernel image (vmlinux, or any ELF executable or object): its
 * architecture, its code sections and its functions, with lookups by name and
 * by address.
 *
 * Opening reads the ELF only: symbols, sections, machine and code bytes. A
 * relocatable object names its functions' input sections itself; for a
 * linked image the sections stage (sections/sections.h) names them, and
 * srcfile (sections/srcfile.h) their DWARF source files, which is why
 * kfunc.section, .object, .srcfile and the movable flags may be unset here.
 *
 * Ownership: every string and array reachable from a struct kimage is owned
 * by it and lives until kimage_close().
 */
#ifndef HP_IMAGE_H
#define HP_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uthash.h>

#include "arch/arch.h"

struct kimage_priv;

enum kfunc_flag {
	KF_MOVABLE = 1u << 0,	/* alone in its own input section: may move */
	KF_DUPNAME = 1u << 1,	/* another function has the same name */
	KF_NOSIZE = 1u << 2,	/* symbol had size 0: extent up to the next symbol */
	KF_FIXED = 1u << 3,	/* in a region that must not move (entry, noinstr, ...) */
	KF_INIT = 1u << 4,	/* in .init.text (discarded after boot) */
	KF_COLD = 1u << 5,	/* a GCC .cold part or in .text.unlikely */
	KF_ASM = 1u << 6,	/* an untyped assembly entry point: never moves */
	KF_SHAREDSEC = 1u << 7,	/* other input sections have this one's name (a
				 * static of the same name, a dead weak default) */
	KF_UNIT = 1u << 8,	/* first function of an object's plain .text (assembly,
				 * code outside -ffunction-sections): the section
				 * moves whole, unit_size bytes, as this function */
	KF_IN_UNIT = 1u << 9,	/* a later function of such a section: moves with
				 * the function unit names */
	KF_LABEL = 1u << 10,	/* a local assembly label taken as code (arm64's
				 * exception entries, ppc32's vectors): replayed,
				 * but the stream's arcs pass over it */
	KF_BYTES_BEFORE = 1u << 11,	/* the link map shows input sections no
					 * symbol names in the gap before it (weak
					 * defaults their overrides replaced): that
					 * gap is bytes, not a script's alignment */
};

struct kfunc {
	const char *name;	/* symbol name */
	uint64_t addr;		/* link-time virtual address */
	uint64_t size;		/* bytes: the input section's size when known */
	uint32_t align;		/* input-section alignment (bytes, power of 2) */
	uint32_t flags;		/* enum kfunc_flag */
	const char *section;	/* input section name; NULL when unknown */
	const char *object;	/* object file it came from; NULL when unknown */
	const char *srcfile;	/* DWARF source file (libbfd); NULL when unknown */
	uint32_t index;		/* position in kimage.funcs */
	int32_t next_same_name;	/* next function with this name, or -1 */
	int32_t outer;		/* the nearest function before it whose extent holds
				 * its start (overlapping symbols), or -1 */
	uint64_t unit_size;	/* KF_UNIT: the bytes of its plain .text section */
	uint32_t unit;		/* KF_IN_UNIT: the index of that section's KF_UNIT */
	UT_hash_handle hh_name;	/* first function of each name only */
};

/* The bytes @f takes where an order places it: its plain .text unit's
 * when it stands for one (KF_UNIT), else its own. */
static inline uint64_t kfunc_placed_size(const struct kfunc *f)
{
	return (f->flags & KF_UNIT) ? f->unit_size : f->size;
}

/* A name that points at another function (same address, e.g. sched_clock). */
struct kalias {
	const char *name;
	uint32_t func;
	UT_hash_handle hh;
};

struct ksection {
	const char *name;
	uint64_t addr;
	uint64_t size;
	uint64_t align;
	const uint8_t *data;	/* file bytes, NULL for NOBITS */
	bool exec;
};

/* Where the input-section names came from. */
enum ksecnames {
	KSEC_NONE = 0,		/* nothing known: no function may move */
	KSEC_MAP,		/* GNU ld link map (vmlinux.map) */
	KSEC_OBJECT,		/* relocatable ELF (vmlinux.o, or the image is one) */
	KSEC_ASSUMED,		/* assumed .text.<name>, fixed regions excluded */
};

struct kimage {
	char *path;
	unsigned int elfclass;	/* ELFCLASS32 or ELFCLASS64 */
	bool big_endian;
	uint16_t machine;	/* ELF e_machine */
	bool relocatable;	/* ET_REL: addresses are section offsets */
	const struct hp_arch *arch;	/* by machine and class; never NULL */

	struct kfunc *funcs;	/* sorted by address, then name */
	size_t nfuncs;
	struct kfunc *by_name;	/* uthash on hh_name */
	struct kalias *aliases;	/* uthash */

	struct ksection *sections;
	size_t nsections;

	enum ksecnames secnames;/* KSEC_OBJECT when relocatable, else as the
				 * sections stage found them */
	char *secnames_from;	/* the map or object file read, if any */
	size_t nmovable;	/* counted by the sections stage */
	uint64_t text_from;	/* the sections stage: where the main text (the
				 * script's TEXT_TEXT, the hot region's place)
				 * begins, the end of the last fixed region before
				 * the first movable function; 0 when none shows */

	/* private */
	struct kimage_priv *priv;
	void *elf;		/* Elf * */
	int fd;
	void *mem;		/* owned copy for kimage_open_mem */
	size_t memlen;
	char **strings;		/* owned strings (kimage_keep_string()) */
	size_t nstrings, capstrings;
};

/**
 * kimage_open() - read an ELF image and its functions.
 * Returns 0, or -errno after printing why (file and what to do).
 */
int kimage_open(struct kimage **out, const char *path);

/** kimage_open_mem() - the same from memory (fuzzers, tests); copies buf. */
int kimage_open_mem(struct kimage **out, const void *buf, size_t len, const char *name);

void kimage_close(struct kimage *img);

/** First function named @name (or an alias of one); NULL if none. */
struct kfunc *kimage_find_func_by_name(const struct kimage *img, const char *name);

/** A kfunc_key() back to its function; NULL if this image has none. */
struct kfunc *kimage_find_func_by_key(const struct kimage *img, const char *key);

/** The function whose [addr, addr+size) holds @addr; NULL if none. Where
 * symbols overlap, the innermost: the one that starts last. */
struct kfunc *kimage_find_func_containing(const struct kimage *img, uint64_t addr);

/** @addr (which @fn holds) is where function symbols overlap: another
 * function holds it too, or a function nested in @fn starts before it. */
bool kimage_addr_in_overlap(const struct kimage *img, const struct kfunc *fn, uint64_t addr);

/** Bytes at [addr, addr+len) of a code section, or NULL if not all in one. */
const uint8_t *kimage_bytes(const struct kimage *img, uint64_t addr, uint64_t len);

/**
 * kimage_file_bytes() - the file's bytes from @addr to the end of the
 * section holding it (any section with contents, .rodata too); their count
 * in *@avail. NULL when no section of the file holds @addr.
 */
const uint8_t *kimage_file_bytes(const struct kimage *img, uint64_t addr, size_t *avail);

/**
 * kimage_release() - the kernel release of a vmlinux ("6.1.0-13-amd64"), from
 * its linux_banner ("Linux version RELEASE (...)"), into @buf; NULL when the
 * image has no banner (not a kernel, or stripped of it).
 */
const char *kimage_release(const struct kimage *img, char *buf, size_t len);

/** Address of a symbol (any type), or false if the image has none of that name. */
bool kimage_symbol_addr(const struct kimage *img, const char *name, uint64_t *addr);

/**
 * kimage_keep_string() - a copy of s[0..len) that lives as long as the image:
 * how the later stages attach names (input sections, objects, source files)
 * to its functions.
 */
const char *kimage_keep_string(struct kimage *img, const char *s, size_t len);

/** A stable, unique key for a function: its name, qualified when not unique. */
const char *kfunc_key(const struct kimage *img, const struct kfunc *fn, char *buf, size_t len);

#endif
