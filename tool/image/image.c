// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * image.c - the ELF model: read an executable, vmlinux or relocatable object
 * with libelf; keep its code sections and function symbols sorted by address;
 * decide which functions may move.
 *
 * Function symbols that share an address are one function under several
 * names (aliases); zero-size symbols (assembly entries) get their extent from
 * the next symbol. A relocatable object names each function's input section
 * itself; for a linked image that is the next stage's work (sections/).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "image/elfcheck.h"
#include "image/image.h"
#include "lib/util.h"
#include "lib/warn.h"
#include "lib/xalloc.h"

/* Any symbol's address by name: region markers, _stext, ... */
struct ksym {
	const char *name;
	uint64_t addr;
	UT_hash_handle hh;
};

struct kimage_priv {
	struct ksym *syms;
	struct ksym *symstore;
	size_t nsyms;
};

static struct kimage_priv *priv(const struct kimage *img)
{
	return img->priv;
}

/* Strings the image owns beyond libelf's string tables. */
const char *kimage_keep_string(struct kimage *img, const char *s, size_t len)
{
	XGROW(img->strings, img->capstrings, img->nstrings + 1);
	img->strings[img->nstrings] = xstrndup(s, len);
	return img->strings[img->nstrings++];
}

static int read_sections(struct kimage *img, Elf *elf, size_t shstrndx)
{
	Elf_Scn *scn = NULL;
	size_t n = 0;

	if (elf_getshdrnum(elf, &img->nsections) < 0) {
		pr_err("%s: cannot count ELF sections: %s; is it a complete ELF file?",
		       img->path, elf_errmsg(-1));
		return -EINVAL;
	}
	img->sections = xcalloc(img->nsections, sizeof(*img->sections));
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		struct ksection *s;
		GElf_Shdr sh;
		size_t idx = elf_ndxscn(scn);
		const char *name;

		if (!gelf_getshdr(scn, &sh) || idx >= img->nsections) {
			pr_err("%s: bad section header %zu: %s; the file is damaged",
			       img->path, idx, elf_errmsg(-1));
			return -EINVAL;
		}
		s = &img->sections[idx];
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		s->name = name ? name : "";
		s->addr = sh.sh_addr;
		s->size = sh.sh_size;
		s->align = NONZERO(sh.sh_addralign);
		s->exec = (sh.sh_flags & SHF_EXECINSTR) != 0;
		/* Code, and ppc64 ELFv1 function descriptors (.opd). */
		if ((s->exec || !strcmp(s->name, ".opd")) && sh.sh_type == SHT_PROGBITS &&
		    sh.sh_size) {
			Elf_Data *d = elf_rawdata(scn, NULL);

			/* A truncated file leaves no data: keep the section,
			 * but disassembly will find no bytes in it. */
			if (d && d->d_buf && d->d_size == sh.sh_size)
				s->data = d->d_buf;
		}
		n++;
	}
	return 0;
}

static int cmp_func_addr(const void *a, const void *b)
{
	const struct kfunc *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* A function before a local label at its address: the label is one
	 * of its names, as it was before labels were code */
	if ((x->flags & KF_LABEL) != (y->flags & KF_LABEL))
		return x->flags & KF_LABEL ? 1 : -1;
	/* Larger first so the alias with the real extent is kept. */
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	/* Prefer names without leading underscores as the main name. */
	if ((x->name[0] == '_') != (y->name[0] == '_'))
		return x->name[0] == '_' ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* Relocatable objects have section-relative symbols: give each code
 * section its own address range so functions do not overlap. */
static uint64_t *rel_section_bases(struct kimage *img)
{
	uint64_t *base = xcalloc(img->nsections, sizeof(*base));
	uint64_t at = 0;
	size_t i;

	for (i = 0; i < img->nsections; i++) {
		struct ksection *s = &img->sections[i];

		if (!s->exec)
			continue;
		at = align_up(at, s->align);
		base[i] = at;
		s->addr = at;
		at += s->size;
	}
	return base;
}

/* ppc64 ELFv1: a function symbol points at its descriptor in .opd, whose
 * first doubleword is the code address. Returns the code's section index. */
static size_t opd_entry(const struct kimage *img, const struct ksection *opd, uint64_t *addr)
{
	uint64_t off = *addr - opd->addr, v = 0;
	size_t i;

	if (!opd->data || *addr < opd->addr || off + 8 > opd->size)
		return 0;
	for (i = 0; i < 8; i++)
		v = img->big_endian ? v << 8 | opd->data[off + i]
				    : v | (uint64_t)opd->data[off + i] << (8 * i);
	for (i = 0; i < img->nsections; i++) {
		const struct ksection *s = &img->sections[i];

		if (s->exec && v >= s->addr && v < s->addr + s->size) {
			*addr = v;
			return i;
		}
	}
	return 0;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* Assembly entry points (the kernel's SYM_CODE_START: entry_SYSCALL_64,
 * asm_exc_page_fault, ...) are untyped global symbols in code; samples land
 * in them. Region markers (__entry_text_start, _etext) and mapping symbols
 * ($x, $d) are not code. */
static bool is_asm_entry(const GElf_Sym *sym, const char *name, const char *secname)
{
	static const char *const markers[] = { "_start", "_end", "_begin", "_stext", "_etext",
					       "_text", "_sinittext", "_einittext" };
	size_t i;

	if (GELF_ST_TYPE(sym->st_info) != STT_NOTYPE)
		return false;
	/* a local label is code of its own when it has a size (arm64's
	 * SYM_CODE_START_LOCAL: el0t_64_sync, the exception entries) or is
	 * an exception vector (ppc32's SystemCall, in .head.text); else it is
	 * a place inside some other code */
	if (GELF_ST_BIND(sym->st_info) == STB_LOCAL && !sym->st_size &&
	    (!secname || strcmp(secname, ".head.text")))
		return false;
	if (name[0] == '$' || name[0] == '.')
		return false;
	for (i = 0; i < sizeof(markers) / sizeof(markers[0]); i++)
		if (name[0] == '_' && ends_with(name, markers[i]))
			return false;
	return true;
}

static int read_symbols(struct kimage *img, Elf *elf)
{
	struct kimage_priv *p = priv(img);
	Elf_Scn *scn = NULL, *symscn = NULL;
	GElf_Shdr symsh = { 0 };
	Elf_Data *data;
	uint64_t *relbase = NULL;
	size_t i, nsym, nf = 0, cap = 0;
	uint32_t *secfuncs = NULL;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB || (sh.sh_type == SHT_DYNSYM && !symscn)) {
			symscn = scn;
			symsh = sh;
		}
	}
	if (!symscn || !symsh.sh_entsize) {
		pr_err("%s: no symbol table; hotpack needs an unstripped image "
		       "(vmlinux, not vmlinuz or a stripped binary)", img->path);
		return -ENOENT;
	}
	data = elf_getdata(symscn, NULL);
	if (!data) {
		pr_err("%s: cannot read the symbol table: %s", img->path, elf_errmsg(-1));
		return -EINVAL;
	}
	nsym = symsh.sh_size / symsh.sh_entsize;
	if (img->relocatable)
		relbase = rel_section_bases(img);
	secfuncs = xcalloc(img->nsections, sizeof(*secfuncs));
	p->symstore = xcalloc(nsym, sizeof(*p->symstore));

	for (i = 1; i < nsym; i++) {
		GElf_Sym sym;
		const char *name;
		struct ksection *sec;
		struct kfunc *f;
		uint64_t addr;
		bool asm_entry;

		if (!gelf_getsym(data, (int)i, &sym))
			break;
		name = elf_strptr(elf, symsh.sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		addr = sym.st_value;
		if (sym.st_shndx != SHN_UNDEF && sym.st_shndx < img->nsections && relbase)
			addr += relbase[sym.st_shndx];
		if (sym.st_shndx != SHN_UNDEF) {
			struct ksym *k = &p->symstore[p->nsyms], *old;

			HASH_FIND_STR(p->syms, name, old);
			if (!old) {
				k->name = name;
				k->addr = addr;
				HASH_ADD_KEYPTR(hh, p->syms, k->name, strlen(k->name), k);
				p->nsyms++;
			}
		}
		asm_entry = !img->relocatable &&
			    is_asm_entry(&sym, name, sym.st_shndx < img->nsections ?
					 img->sections[sym.st_shndx].name : NULL);
		if (GELF_ST_TYPE(sym.st_info) != STT_FUNC && !asm_entry)
			continue;
		if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= img->nsections)
			continue;
		sec = &img->sections[sym.st_shndx];
		if (!sec->exec && !img->relocatable && !strcmp(sec->name, ".opd")) {
			size_t code = opd_entry(img, sec, &addr);

			if (!code)
				continue;
			sec = &img->sections[code];
		}
		if (!sec->exec)
			continue;
		/* Sizes are summed into byte totals and page counts: one past
		 * its section is damage, not a function. */
		if (sym.st_size > sec->size) {
			pr_err("%s: function %s is %" PRIu64 " bytes, more than its section %s "
			       "(%" PRIu64 "); the symbol table is damaged: rebuild or copy the "
			       "image again", img->path, name, (uint64_t)sym.st_size, sec->name,
			       sec->size);
			img->nfuncs = nf;
			free(relbase);
			free(secfuncs);
			return -EINVAL;
		}
		XGROW(img->funcs, cap, nf + 1);
		f = &img->funcs[nf++];
		f->name = name;
		f->addr = addr;
		f->size = sym.st_size;
		f->align = 1;
		f->next_same_name = -1;
		if (asm_entry)
			f->flags |= KF_ASM | KF_FIXED |
				    (GELF_ST_BIND(sym.st_info) == STB_LOCAL ? KF_LABEL : 0);
		/* In an object file the section tells exactly what may move. */
		if (img->relocatable) {
			f->section = sec->name;
			f->align = (uint32_t)sec->align;
			secfuncs[sym.st_shndx]++;
			f->index = sym.st_shndx;	/* section, until sorted */
		}
	}
	if (img->relocatable) {
		for (i = 0; i < nf; i++) {
			struct kfunc *f = &img->funcs[i];
			struct ksection *sec = &img->sections[f->index];

			if (secfuncs[f->index] == 1 && !strncmp(sec->name, ".text.", 6) &&
			    f->addr == sec->addr) {
				f->flags |= KF_MOVABLE;
				f->size = sec->size > f->size ? sec->size : f->size;
			}
		}
		img->secnames = KSEC_OBJECT;
	}
	img->nfuncs = nf;
	free(relbase);
	free(secfuncs);
	return 0;
}

static void index_functions(struct kimage *img)
{
	size_t i, j, out = 0;

	if (!img->nfuncs)
		return;
	qsort(img->funcs, img->nfuncs, sizeof(*img->funcs), cmp_func_addr);
	/* An untyped label inside a sized function is a place in it, not a
	 * function of its own (entry_SYSCALL_64_after_hwframe). */
	for (i = 0, j = 0; i < img->nfuncs; i++) {
		const struct kfunc *f = &img->funcs[i];

		if ((f->flags & KF_ASM) && j && img->funcs[j - 1].size &&
		    f->addr > img->funcs[j - 1].addr &&
		    f->addr < img->funcs[j - 1].addr + img->funcs[j - 1].size)
			continue;
		img->funcs[j++] = *f;
	}
	img->nfuncs = j;
	for (i = 0; i < img->nfuncs; i = j) {
		/* All symbols at one address: keep the first, alias the rest. */
		for (j = i + 1; j < img->nfuncs && img->funcs[j].addr == img->funcs[i].addr; j++) {
			struct kalias *a = xcalloc(1, sizeof(*a));

			a->name = img->funcs[j].name;
			a->func = (uint32_t)out;
			HASH_ADD_KEYPTR(hh, img->aliases, a->name, strlen(a->name), a);
		}
		if (out != i)
			img->funcs[out] = img->funcs[i];
		out++;
	}
	img->nfuncs = out;
	for (i = 0; i < img->nfuncs; i++) {
		struct kfunc *f = &img->funcs[i], *first;
		uint64_t end = UINT64_MAX;

		f->index = (uint32_t)i;
		/* the function whose extent holds f's start: a sample past a
		 * nested function is still the outer one's */
		for (f->outer = (int32_t)i - 1; f->outer >= 0; f->outer = img->funcs[f->outer].outer)
			if (f->addr - img->funcs[f->outer].addr < img->funcs[f->outer].size)
				break;
		if (i + 1 < img->nfuncs)
			end = img->funcs[i + 1].addr;
		if (!f->size) {
			struct ksection *s = NULL;
			size_t k;

			for (k = 0; k < img->nsections; k++)
				if (img->sections[k].exec && f->addr >= img->sections[k].addr &&
				    f->addr < img->sections[k].addr + img->sections[k].size)
					s = &img->sections[k];
			if (s && s->addr + s->size < end)
				end = s->addr + s->size;
			f->size = end != UINT64_MAX && end > f->addr ? end - f->addr : 1;
			f->flags |= KF_NOSIZE;
		}
		if (!img->relocatable) {
			f->align = (uint32_t)addr_align(f->addr, img->arch->func_align);
		}
		HASH_FIND(hh_name, img->by_name, f->name, strlen(f->name), first);
		if (!first) {
			HASH_ADD_KEYPTR(hh_name, img->by_name, f->name, strlen(f->name), f);
			continue;
		}
		/* Static functions of one name: chain them, never merge them. */
		first->flags |= KF_DUPNAME;
		f->flags |= KF_DUPNAME;
		while (first->next_same_name >= 0)
			first = &img->funcs[first->next_same_name];
		first->next_same_name = (int32_t)i;
	}
}

bool kimage_symbol_addr(const struct kimage *img, const char *name, uint64_t *addr)
{
	struct ksym *k;

	HASH_FIND_STR(priv(img)->syms, name, k);
	if (!k)
		return false;
	if (addr)
		*addr = k->addr;
	return true;
}

/*
 * A machine of no arch table entry gets generic defaults (arch.c): without a
 * disassembler there are no static call edges and caller frames go
 * unchecked, which a user must know before trusting the order.
 */
static void warn_unknown_machine(const struct kimage *img)
{
	char known[256];
	size_t o = 0;
	const struct hp_arch *a;

	known[0] = '\0';
	for (size_t i = 0; (a = hp_arch_nth(i)) && o < sizeof(known); i++)
		o += (size_t)snprintf(known + o, sizeof(known) - o, "%s%s", i ? ", " : "", a->name);
	pr_warn("%s: ELF machine %u is none hotpack knows (%s): no disassembly, so no static "
		"call edges and caller frames unchecked; 4-byte alignment and hotpack's 4 KiB "
		"model assumed", img->path, img->machine, known);
}

static int open_elf(struct kimage *img, Elf *elf)
{
	GElf_Ehdr eh;
	size_t shstrndx;
	int err;

	img->elf = elf;
	/* not ELF at all: elfcheck_bytes() said what it is */
	if (elf_kind(elf) != ELF_K_ELF) {
		pr_err("%s: not an ELF file; give the vmlinux (uncompressed, with symbols)",
		       img->path);
		return -EINVAL;
	}
	if (!gelf_getehdr(elf, &eh)) {
		pr_err("%s: bad ELF header: %s", img->path, elf_errmsg(-1));
		return -EINVAL;
	}
	img->elfclass = gelf_getclass(elf);
	img->big_endian = eh.e_ident[EI_DATA] == ELFDATA2MSB;
	img->machine = eh.e_machine;
	img->relocatable = eh.e_type == ET_REL;
	img->arch = hp_arch_lookup(img->machine, img->elfclass);
	if (!img->arch->machine)
		warn_unknown_machine(img);
	if (elf_getshdrstrndx(elf, &shstrndx) < 0) {
		pr_err("%s: no section name table: %s", img->path, elf_errmsg(-1));
		return -EINVAL;
	}
	err = read_sections(img, elf, shstrndx);
	if (!err)
		err = read_symbols(img, elf);
	if (err)
		return err;
	index_functions(img);	/* after read_symbols: sorts and aliases */
	if (!img->nfuncs && img->relocatable && img->arch->func_descriptors) {
		pr_err("%s: a %s ELFv1 object (function descriptors in .opd) cannot give "
		       "section names; give the link map with --map instead", img->path,
		       img->arch->name);
		return -ENOTSUP;
	}
	if (!img->nfuncs) {
		pr_err("%s: no function symbols in code sections; is it stripped?", img->path);
		return -ENOENT;
	}
	return 0;
}

static struct kimage *kimage_alloc(const char *path)
{
	struct kimage *img = xcalloc(1, sizeof(*img));

	img->path = xstrdup(path);
	img->fd = -1;
	img->priv = xcalloc(1, sizeof(*img->priv));
	return img;
}

/* The image is handed out only when read whole; else it is closed. */
static int finish_open(struct kimage *img, Elf *elf, struct kimage **out)
{
	int err = open_elf(img, elf);

	if (err) {
		kimage_close(img);
		return err;
	}
	*out = img;
	return 0;
}

/* The file's type and bytes, checked before libelf reads them. */
static int check_file(int fd, const char *path)
{
	struct stat st;
	void *map;
	int err;

	if (fstat(fd, &st)) {
		pr_err_errno(-errno, "%s: cannot read the image", path);
		return -1;
	}
	if (elfcheck_file_type(path, &st))
		return -1;
	if (!st.st_size)
		return elfcheck_bytes(path, "", 0);
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		pr_err_errno(-errno, "%s: cannot map the image", path);
		return -1;
	}
	err = elfcheck_bytes(path, map, (size_t)st.st_size);
	munmap(map, (size_t)st.st_size);
	return err;
}

int kimage_open(struct kimage **out, const char *path)
{
	struct kimage *img;
	Elf *elf;
	int err;

	*out = NULL;
	elf_version(EV_CURRENT);
	img = kimage_alloc(path);
	/* O_NONBLOCK: a FIFO with no writer is refused, not waited on */
	img->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (img->fd < 0) {
		err = -errno;
		pr_err_errno(err, "%s: cannot open the image", path);
		kimage_close(img);
		return err;
	}
	if (check_file(img->fd, path)) {
		kimage_close(img);
		return -EINVAL;
	}
	elf = elf_begin(img->fd, ELF_C_READ_MMAP, NULL);
	if (!elf) {
		pr_err("%s: cannot read as ELF: %s; give the uncompressed vmlinux",
		       path, elf_errmsg(-1));
		kimage_close(img);
		return -EINVAL;
	}
	return finish_open(img, elf, out);
}

int kimage_open_mem(struct kimage **out, const void *buf, size_t len, const char *name)
{
	struct kimage *img;
	Elf *elf;

	*out = NULL;
	elf_version(EV_CURRENT);
	img = kimage_alloc(name);
	img->mem = xmalloc(len);
	memcpy(img->mem, buf, len);
	img->memlen = len;
	if (elfcheck_bytes(name, img->mem, len)) {
		kimage_close(img);
		return -EINVAL;
	}
	elf = elf_memory(img->mem, len);
	if (!elf) {
		pr_err("%s: cannot read as ELF: %s", name, elf_errmsg(-1));
		kimage_close(img);
		return -EINVAL;
	}
	return finish_open(img, elf, out);
}

void kimage_close(struct kimage *img)
{
	struct kalias *a, *tmp;
	struct kimage_priv *p;
	size_t i;

	if (!img)
		return;
	p = priv(img);
	HASH_CLEAR(hh, p->syms);
	free(p->symstore);
	free(p);
	HASH_ITER(hh, img->aliases, a, tmp) {
		HASH_DEL(img->aliases, a);
		free(a);
	}
	HASH_CLEAR(hh_name, img->by_name);
	for (i = 0; i < img->nstrings; i++)
		free(img->strings[i]);
	free(img->strings);
	free(img->funcs);
	free(img->sections);
	free(img->secnames_from);
	if (img->elf)
		elf_end(img->elf);
	if (img->fd >= 0)
		close(img->fd);
	free(img->mem);
	free(img->path);
	free(img);
}

struct kfunc *kimage_find_func_by_name(const struct kimage *img, const char *name)
{
	struct kfunc *f;
	struct kalias *a;

	HASH_FIND(hh_name, img->by_name, name, strlen(name), f);
	if (f)
		return f;
	HASH_FIND_STR(img->aliases, name, a);
	return a ? &img->funcs[a->func] : NULL;
}

/* The function holding function @j's start, or -1 (an image whose functions
 * were not indexed here has no such links). */
static int32_t outer_of(const struct kimage *img, int32_t j)
{
	int32_t o = img->funcs[j].outer;

	return o >= 0 && o < j ? o : -1;
}

struct kfunc *kimage_find_func_containing(const struct kimage *img, uint64_t addr)
{
	size_t lo = 0, hi = img->nfuncs;
	int32_t j;

	/* Last function starting at or below addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (img->funcs[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (j = (int32_t)lo - 1; j >= 0; j = outer_of(img, j))
		if (addr - img->funcs[j].addr < img->funcs[j].size)
			return &img->funcs[j];
	return NULL;
}

bool kimage_addr_in_overlap(const struct kimage *img, const struct kfunc *fn, uint64_t addr)
{
	int32_t i = (int32_t)(fn - img->funcs), o = outer_of(img, i);

	if (o >= 0 && addr - img->funcs[o].addr < img->funcs[o].size)
		return true;
	return (size_t)i + 1 < img->nfuncs && img->funcs[i + 1].addr <= addr;
}

const uint8_t *kimage_bytes(const struct kimage *img, uint64_t addr, uint64_t len)
{
	size_t i;

	for (i = 0; i < img->nsections; i++) {
		const struct ksection *s = &img->sections[i];

		if (!s->data || addr < s->addr || addr - s->addr >= s->size)
			continue;
		if (len > s->size - (addr - s->addr))
			return NULL;
		return s->data + (addr - s->addr);
	}
	return NULL;
}

const uint8_t *kimage_file_bytes(const struct kimage *img, uint64_t addr, size_t *avail)
{
	size_t i, off;
	Elf_Data *d;

	/* any allocated section with file contents: .rodata's bytes are not
	 * kept like code's (kimage_bytes()), so they come from libelf */
	for (i = 0; i < img->nsections; i++) {
		const struct ksection *s = &img->sections[i];

		if (addr >= s->addr && addr - s->addr < s->size)
			break;
	}
	if (i == img->nsections)
		return NULL;
	d = elf_rawdata(elf_getscn(img->elf, i), NULL);
	off = (size_t)(addr - img->sections[i].addr);
	if (!d || !d->d_buf || d->d_size <= off)
		return NULL;
	*avail = d->d_size - off;
	return (const uint8_t *)d->d_buf + off;
}

const char *kimage_release(const struct kimage *img, char *buf, size_t len)
{
	static const char prefix[] = "Linux version ";
	const size_t plen = sizeof(prefix) - 1;
	const uint8_t *b;
	uint64_t addr;
	size_t n = 0, end;

	if (!len || !kimage_symbol_addr(img, "linux_banner", &addr))
		return NULL;
	b = kimage_file_bytes(img, addr, &end);
	if (!b || end <= plen || memcmp(b, prefix, plen))
		return NULL;
	for (b += plen, end -= plen; n + 1 < len && n < end && b[n] > ' ' && b[n] < 0x7f; n++)
		buf[n] = (char)b[n];
	buf[n] = '\0';
	return n ? buf : NULL;
}

const char *kfunc_key(const struct kimage *img, const struct kfunc *fn, char *buf, size_t len)
{
	if (!(fn->flags & KF_DUPNAME))
		return fn->name;
	if (fn->object)
		snprintf(buf, len, "%s@%s", fn->name, fn->object);
	else if (fn->srcfile)
		snprintf(buf, len, "%s@%s", fn->name, fn->srcfile);
	else
		snprintf(buf, len, "%s@%#" PRIx64, fn->name, fn->addr);
	return buf;
}

/*
 * A profile key back to a function: "name" (first of that name, or an
 * alias), or "name@object", "name@srcfile", "name@0xaddr" for names that are
 * not unique (see kfunc_key()).
 */
struct kfunc *kimage_find_func_by_key(const struct kimage *img, const char *key)
{
	const char *at = strchr(key, '@');
	struct kfunc *f;
	char *name;

	if (!at)
		return kimage_find_func_by_name(img, key);
	name = xstrndup(key, (size_t)(at - key));
	f = kimage_find_func_by_name(img, name);
	free(name);
	at++;
	for (; f; f = f->next_same_name >= 0 ? &img->funcs[f->next_same_name] : NULL) {
		if ((f->object && !strcmp(f->object, at)) ||
		    (f->srcfile && !strcmp(f->srcfile, at)))
			return f;
		if (!strncmp(at, "0x", 2) && strtoull(at, NULL, 16) == f->addr)
			return f;
	}
	return NULL;
}
