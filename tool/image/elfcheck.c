// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * elfcheck.c - the damage libelf reports vaguely or not at all, checked on
 * the file's bytes before libelf reads them: a truncated copy (the section
 * headers GNU ld writes last are the first to go), a damaged ELF header,
 * sections that claim bytes past the end, a symbol table zeroed by a sparse
 * or interrupted copy. Each gets its own message and what to do, where
 * libelf would have left "no symbol table" or "invalid file data".
 */
#include "config.h"

#include <ctype.h>
#include <elf.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "image/elfcheck.h"
#include "lib/filekind.h"
#include "lib/warn.h"

#define AGAIN "copy or extract the file again"

struct raw {
	const unsigned char *b;
	size_t size;
	bool big, is64;
};

static uint64_t get(const struct raw *r, uint64_t off, unsigned int n)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)r->b[off + (r->big ? i : n - 1 - i)] << (8 * (n - 1 - i));
	return v;
}

/* A field of the header or table entry at @base: 64-bit offset @o64, 32-bit @o32. */
static uint64_t field(const struct raw *r, uint64_t base, unsigned int o64, unsigned int o32,
		      unsigned int n64, unsigned int n32)
{
	return r->is64 ? get(r, base + o64, n64) : get(r, base + o32, n32);
}

/* end = off + n * each, or UINT64_MAX when that overflows */
static uint64_t extent_end(uint64_t off, uint64_t n, uint64_t each)
{
	if (each && n > (UINT64_MAX - off) / each)
		return UINT64_MAX;
	return off + n * each;
}

static bool looks_like_text(const unsigned char *b, size_t len)
{
	size_t i, n = len < 256 ? len : 256;

	for (i = 0; i < n; i++)
		if (!isprint(b[i]) && !isspace(b[i]))
			return false;
	return n > 0;
}

static int not_elf(const char *path, const unsigned char *b, size_t size)
{
	const char *kind = filekind_advice(b, size);

	if (kind && filekind_is_profile(b, size))
		pr_err("%s: not the kernel image but %s, after the vmlinux", path, kind);
	else if (kind)
		pr_err("%s: %s", path, kind);
	else if (looks_like_text(b, size))
		pr_err("%s: a text file, not an ELF image; give the ELF file here (hotpack "
		       "VMLINUX SAMPLES...: the vmlinux comes first)", path);
	else
		pr_err("%s: not an ELF file; give the vmlinux (uncompressed, with symbols)", path);
	return -1;
}

/* @want 0: the size is not known yet */
static int truncated(const char *path, size_t size, uint64_t want, const char *what)
{
	if (want)
		pr_err("%s: truncated at byte %zu of %" PRIu64 " (%s); the copy is incomplete: "
		       AGAIN, path, size, want, what);
	else
		pr_err("%s: truncated at byte %zu (%s); the copy is incomplete: " AGAIN, path,
		       size, what);
	return -1;
}

/* @what ends with "is": "class (byte 4) is", the value and what it should be follow */
static int bad_header(const char *path, const char *what, uint64_t v, const char *want)
{
	pr_err("%s: bad ELF header: %s %" PRIu64 ", %s; the file is damaged: " AGAIN, path,
	       what, v, want);
	return -1;
}

static int damaged_sections(const char *path, const char *what)
{
	pr_err("%s: %s; the section headers are damaged: " AGAIN, path, what);
	return -1;
}

struct shdr {
	uint64_t name, type, flags, off, len, link, entsize;
};

static void read_shdr(const struct raw *r, uint64_t sh, struct shdr *h)
{
	h->name = get(r, sh, 4);
	h->type = get(r, sh + 4, 4);
	h->flags = field(r, sh, 8, 8, 8, 4);
	h->off = field(r, sh, 24, 16, 8, 4);
	h->len = field(r, sh, 32, 20, 8, 4);
	h->link = get(r, sh + (r->is64 ? 40 : 24), 4);
	h->entsize = field(r, sh, 56, 36, 8, 4);
}

/* Is the section's name @want? (within the name table's bytes) */
static bool named(const struct raw *r, const struct shdr *names, const struct shdr *h,
		  const char *want)
{
	size_t n = strlen(want) + 1;

	return h->name < names->len && names->len - h->name >= n &&
	       !memcmp(r->b + names->off + h->name, want, n);
}

static bool all_zero(const unsigned char *b, uint64_t len)
{
	uint64_t j;

	for (j = 0; j < len && !b[j]; j++)
		;
	return j == len;
}

/* The section headers, known to lie in the file: each section's bytes must too. */
static int check_sections(const char *path, const struct raw *r, uint64_t shoff, uint64_t shnum,
			  uint64_t shentsize, uint64_t shstrndx)
{
	const size_t symsize = r->is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
	struct shdr h, names, str;
	char what[200];
	uint64_t i;

	read_shdr(r, shoff, &h);
	if (h.type != SHT_NULL) {
		snprintf(what, sizeof(what), "bytes %" PRIu64 " on (e_shoff) are not section "
			 "headers: the first is not the null section", shoff);
		return damaged_sections(path, what);
	}
	for (i = 1; i < shnum; i++) {
		read_shdr(r, shoff + i * shentsize, &h);
		if (h.type == SHT_NOBITS || h.type == SHT_NULL || !h.len ||
		    extent_end(h.off, 1, h.len) <= r->size)
			continue;
		snprintf(what, sizeof(what), "section %" PRIu64 " claims bytes %" PRIu64 " to %"
			 PRIu64 ", beyond the end of the file (%zu bytes)", i, h.off,
			 extent_end(h.off, 1, h.len), r->size);
		return damaged_sections(path, what);
	}
	read_shdr(r, shoff + shstrndx * shentsize, &names);
	if (names.type != SHT_STRTAB)
		return damaged_sections(path, "the section name table (e_shstrndx) is not a "
					"string table");
	for (i = 1; i < shnum; i++) {
		read_shdr(r, shoff + i * shentsize, &h);
		if (named(r, &names, &h, ".text") && !(h.flags & SHF_EXECINSTR))
			return damaged_sections(path, ".text is not marked as code (SHF_EXECINSTR)");
		if (named(r, &names, &h, ".symtab") && h.type != SHT_SYMTAB)
			return damaged_sections(path, ".symtab is not of the symbol table's type");
		if (h.type != SHT_SYMTAB)
			continue;
		if (h.entsize != symsize) {
			snprintf(what, sizeof(what), "the symbol table's entry size is %" PRIu64
				 ", not %zu", h.entsize, symsize);
			return damaged_sections(path, what);
		}
		if (h.link >= shnum)
			return damaged_sections(path, "the symbol table's string table is not a "
						"section");
		read_shdr(r, shoff + h.link * shentsize, &str);
		if (str.type != SHT_STRTAB)
			return damaged_sections(path, "the symbol table's string table is not a "
						"string table");
		/* an empty one was not checked against the file's size above:
		 * its offset may point anywhere */
		if (h.len > symsize && !str.len)
			return damaged_sections(path, "the symbol table's string table is empty");
		if (h.len > symsize && (all_zero(r->b + h.off + symsize, h.len - symsize) ||
					all_zero(r->b + str.off, str.len))) {
			pr_err("%s: the symbol table or its names are all zero bytes; the copy is "
			       "damaged (interrupted or sparse): " AGAIN, path);
			return -1;
		}
	}
	return 0;
}

int elfcheck_bytes(const char *path, const void *buf, size_t size)
{
	struct raw r = { .b = buf, .size = size };
	uint64_t ehsize, shoff, shnum, shentsize, shstrndx, end;

	if (!size) {
		pr_err("%s: empty file; give the vmlinux (uncompressed, with symbols)", path);
		return -1;
	}
	if (size < SELFMAG || memcmp(r.b, ELFMAG, SELFMAG))
		return not_elf(path, r.b, size);
	if (size < EI_NIDENT)
		return truncated(path, size, 0, "inside the ELF header");
	if (r.b[EI_CLASS] != ELFCLASS32 && r.b[EI_CLASS] != ELFCLASS64)
		return bad_header(path, "the class (byte 4) is", r.b[EI_CLASS],
				  "not 1 or 2 (32 or 64-bit)");
	if (r.b[EI_DATA] != ELFDATA2LSB && r.b[EI_DATA] != ELFDATA2MSB)
		return bad_header(path, "the byte order (byte 5) is", r.b[EI_DATA],
				  "not 1 or 2 (little or big-endian)");
	if (r.b[EI_VERSION] != EV_CURRENT)
		return bad_header(path, "the version (byte 6) is", r.b[EI_VERSION], "not 1");
	r.is64 = r.b[EI_CLASS] == ELFCLASS64;
	r.big = r.b[EI_DATA] == ELFDATA2MSB;
	ehsize = r.is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	if (size < ehsize)
		return truncated(path, size, ehsize, "inside the ELF header");
	if (get(&r, 16, 2) == ET_CORE) {
		pr_err("%s: a core dump (/proc/kcore or vmcore), not the kernel's image; give "
		       "the vmlinux of the build", path);
		return -1;
	}
	shoff = field(&r, 0, 40, 32, 8, 4);
	shentsize = field(&r, 0, 58, 46, 2, 2);
	shnum = field(&r, 0, 60, 48, 2, 2);
	shstrndx = field(&r, 0, 62, 50, 2, 2);
	if (field(&r, 0, 52, 40, 2, 2) != ehsize)
		return bad_header(path, "the header size (e_ehsize) is", field(&r, 0, 52, 40, 2, 2),
				  r.is64 ? "not 64" : "not 52");
	if (!shoff) {
		pr_err("%s: no section headers, so no symbols (a stripped or raw image); give "
		       "the vmlinux of the build, which has its symbol table", path);
		return -1;
	}
	if (shentsize != (r.is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr)))
		return bad_header(path, "the section header size (e_shentsize) is", shentsize,
				  r.is64 ? "not 64" : "not 40");
	/* No file is a terabyte: that is a damaged offset, not a short copy. */
	if (shoff >= size && shoff > (1ull << 40))
		return bad_header(path, "the section headers' offset (e_shoff) is", shoff,
				  "far beyond the end of the file");
	if (shoff >= size) {
		pr_err("%s: truncated at byte %zu of %" PRIu64 ": the section headers, which "
		       "locate the symbols, are cut off (or the ELF header is damaged); "
		       AGAIN, path, size, extent_end(shoff, shnum ? shnum : 1, shentsize));
		return -1;
	}
	if (!shnum) {	/* more than 0xff00 sections: the count is in section 0 */
		if (extent_end(shoff, 1, shentsize) > size)
			return truncated(path, size, extent_end(shoff, 1, shentsize),
					 "inside the section headers");
		shnum = field(&r, shoff, 32, 20, 8, 4);
		if (!shnum)
			return bad_header(path, "the section count (e_shnum) is", 0,
					  "and section 0 does not give it");
	}
	end = extent_end(shoff, shnum, shentsize);
	if (end > size)
		return truncated(path, size, end, "inside the section headers; or e_shnum is "
				 "damaged");
	if (shstrndx == SHN_XINDEX)	/* in section 0 too, now known to be in the file */
		shstrndx = get(&r, shoff + (r.is64 ? 40 : 24), 4);
	if (!shstrndx || shstrndx >= shnum) {
		char want[96];

		snprintf(want, sizeof(want), "not a section (of %" PRIu64 "; e_shnum or "
			 "e_shstrndx is damaged)", shnum);
		return bad_header(path, "the section name table's index (e_shstrndx) is",
				  shstrndx, want);
	}
	return check_sections(path, &r, shoff, shnum, shentsize, shstrndx);
}

int elfcheck_file_type(const char *path, const struct stat *st)
{
	const char *what;

	if (S_ISREG(st->st_mode))
		return 0;
	if (S_ISDIR(st->st_mode)) {
		filekind_directory_error(path, "the vmlinux file", "vmlinux",
					 "the vmlinux file of the kernel build");
		return -1;
	}
	what = S_ISFIFO(st->st_mode) ? "a pipe or FIFO" :
	       S_ISCHR(st->st_mode) ? "a character device" :
	       S_ISBLK(st->st_mode) ? "a block device" :
	       S_ISSOCK(st->st_mode) ? "a socket" : "not a regular file";
	pr_err("%s: is %s; the image is read at random offsets: give a regular file "
	       "(e.g. xz -dc vmlinux.xz > vmlinux)", path, what);
	return -1;
}
