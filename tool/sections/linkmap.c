// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * linkmap.c - where each function's input section came from: the GNU ld link
 * map (Kbuild's vmlinux.map with CONFIG_VMLINUX_MAP, or ld -Map), or the
 * relocatable object the image was linked from (vmlinux.o).
 *
 * A map lists, per output section, every input section with its address,
 * size and object file; a name too long for its column puts the address on
 * the next line. A function may move when it is the only function of an
 * input section .text.<x> (or .text.unlikely.<x>, .text.hot.<x>, ...) of the
 * output section .text.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/filekind.h"
#include "lib/util.h"
#include "lib/warn.h"
#include "lib/xalloc.h"
#include "sections/linkmap.h"

/* Input sections of these exact names hold many functions, or fixed code. */
static bool is_splittable_section(const char *name)
{
	static const char *const shared[] = {
		".text.unlikely", ".text.hot", ".text.startup", ".text.exit",
		".text.fixup", ".text.unknown", ".text.split",
	};
	size_t i;

	if (strncmp(name, ".text.", 6) || !name[6])
		return false;
	/* .text..refcount, .text..ftrace: the kernel's own special sections */
	if (name[6] == '.')
		return false;
	for (i = 0; i < sizeof(shared) / sizeof(shared[0]); i++)
		if (!strcmp(name, shared[i]))
			return false;
	return true;
}

static size_t first_func_at_or_after(const struct kimage *img, uint64_t addr)
{
	size_t lo = 0, hi = img->nfuncs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (img->funcs[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* How many input sections of .text carry each name: a name seen twice
 * (two statics, or a weak default beside its override) must be qualified
 * by its object, or "*(.text.x)" would pull in both. */
struct secname {
	char *name;
	unsigned int count;
	UT_hash_handle hh;
};

/* the most alignment a fill in the map is taken to show (a page) */
#define MAP_MAX_ALIGN 4096u

struct map_stats {
	size_t sections, movable;
	size_t units;		/* of the movable: plain .text sections, moved whole */
	size_t named, agree;	/* .text.<f> sections whose f is a function here,
				 * and those at f's address */
	struct secname *names;
	uint64_t text_end;	/* the end of the last input section of .text */
	uint64_t prev_end;	/* the end of the one before this in .text; 0 after
				 * an assignment line (an ALIGN of the script's) */
	bool ended;		/* the map's last line, "OUTPUT(FILE FORMAT)", was read */
};

static void count_section_name(struct map_stats *st, const char *name)
{
	struct secname *sn;

	HASH_FIND_STR(st->names, name, sn);
	if (!sn) {
		sn = xcalloc(1, sizeof(*sn));
		sn->name = xstrdup(name);
		HASH_ADD_KEYPTR(hh, st->names, sn->name, strlen(sn->name), sn);
	}
	sn->count++;
}

/* .text.unlikely.foo -> foo: the function a section is named after. */
static const char *section_function(const char *name)
{
	static const char *const prefixes[] = { ".text.unlikely.", ".text.hot.", ".text.startup.",
						".text.exit.", ".text." };
	size_t i;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return name + strlen(prefixes[i]);
	return NULL;
}

/* Does the map describe this image? Sections named after a function of the
 * image should sit at that function's address. */
static void check_agreement(const struct kimage *img, const char *name, uint64_t addr,
			    struct map_stats *st)
{
	const char *fn = section_function(name);
	const struct kfunc *f;

	if (!fn || !is_splittable_section(name))
		return;
	f = kimage_find_func_by_name(img, fn);
	if (!f)
		return;
	st->named++;
	for (; f; f = f->next_same_name >= 0 ? &img->funcs[f->next_same_name] : NULL)
		if (f->addr == addr) {
			st->agree++;
			return;
		}
}

/*
 * An object's plain .text (assembly, or code built without
 * -ffunction-sections: copy_32.o's memcpy and copy_tofrom_user on ppc32,
 * arm64's copy_to_user) can move only whole. Its first function stands for
 * the section (@n functions from img->funcs[i], @size bytes); the others
 * go with it and their samples count for it.
 */
static void map_plain_text(struct kimage *img, size_t i, size_t n, uint64_t size,
			   struct map_stats *st)
{
	struct kfunc *f = &img->funcs[i];

	f->section = kimage_keep_string(img, ".text", 5);
	f->unit_size = size;
	f->flags |= KF_MOVABLE | KF_UNIT;
	for (size_t k = 1; k < n; k++) {
		img->funcs[i + k].flags |= KF_IN_UNIT;
		img->funcs[i + k].unit = (uint32_t)i;
		img->funcs[i + k].object = f->object;
	}
	st->movable++;
	st->units++;
}

/* The least power of two that rounds @end up to @addr (a fill's
 * alignment), or 0 when none up to a page does. */
static uint64_t fill_align(uint64_t end, uint64_t addr)
{
	for (uint64_t a = 1; a <= MAP_MAX_ALIGN; a <<= 1)
		if (align_up(end, a) == addr)
			return a;
	return 0;
}

/*
 * Without an object file a function's alignment is a guess (the low bit of
 * its address, up to the architecture's usual; image.c). A fill before its
 * section that the guess does not explain shows it is aligned more, as an
 * assembly unit's .align is (ppc32's entry_32.o: a page): it takes the low
 * bit of its address then, up to a page. Without this the layout's model
 * put that unit, and everything after it, up to 2.5 KB off the link's
 * addresses (bench/RESULTS.md, "Function alignment").
 */
static void align_from_fill(struct kfunc *f, uint64_t addr, uint64_t fill)
{
	if (fill > f->align && addr)
		f->align = (uint32_t)addr_align(addr, MAP_MAX_ALIGN);
}

static void map_input_section(struct kimage *img, const char *outsec, const char *name,
			      uint64_t addr, uint64_t size, const char *object,
			      struct map_stats *st)
{
	size_t i = first_func_at_or_after(img, addr), n = 0;
	uint64_t fill = 0;
	struct kfunc *f;

	if (!strcmp(outsec, ".text")) {
		count_section_name(st, name);
		if (size && addr + size > st->text_end)
			st->text_end = addr + size;
		if (size) {
			if (st->prev_end && addr > st->prev_end)
				fill = fill_align(st->prev_end, addr);
			st->prev_end = addr + size;
		}
	}
	if (size)
		check_agreement(img, name, addr, st);
	/* a section no symbol starts (a weak default whose override won):
	 * its bytes stay in the text, and the gap they leave before the next
	 * function is no alignment, even where it ends on a round address */
	if (size && i < img->nfuncs && img->funcs[i].addr != addr && !strcmp(outsec, ".text"))
		img->funcs[i].flags |= KF_BYTES_BEFORE;
	if (!size || i >= img->nfuncs || img->funcs[i].addr != addr)
		return;
	st->sections++;
	while (i + n < img->nfuncs && img->funcs[i + n].addr < addr + size)
		n++;
	f = &img->funcs[i];
	/* cold code is not aligned as functions are (x86: a byte;
	 * slab_out_of_memory.cold at ...e4c, a .text.unlikely of one's own or
	 * an object's shared one), so not the low bit of its address, unless a
	 * fill before it says otherwise */
	if (img->arch->cold_align && !strcmp(outsec, ".text") &&
	    (!strcmp(name, ".text.unlikely") || !strncmp(name, ".text.unlikely.", 15)))
		f->align = img->arch->cold_align;
	align_from_fill(f, addr, fill);
	f->object = kimage_keep_string(img, object, strlen(object));
	if (!strcmp(outsec, ".text") && !strcmp(name, ".text")) {
		map_plain_text(img, i, n, size, st);
		return;
	}
	if (n != 1 || strcmp(outsec, ".text") || !is_splittable_section(name) ||
	    (f->flags & KF_ASM))
		return;
	f->section = kimage_keep_string(img, name, strlen(name));
	if (size > f->size)
		f->size = size;
	f->flags |= KF_MOVABLE;
	if (!strncmp(name, ".text.unlikely.", 15))
		f->flags |= KF_COLD;
	st->movable++;
}

static char *skip_ws(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static void chomp(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' '))
		s[--n] = 0;
}

/* "0xADDR 0xSIZE object" after an input section name. */
static bool parse_addr_size(char *s, uint64_t *addr, uint64_t *size, char **object)
{
	char *end;

	s = skip_ws(s);
	if (strncmp(s, "0x", 2))
		return false;
	*addr = strtoull(s, &end, 16);
	s = skip_ws(end);
	if (strncmp(s, "0x", 2))
		return false;
	*size = strtoull(s, &end, 16);
	*object = skip_ws(end);
	return true;
}

static int finish_map(struct kimage *img, const char *path, bool in_map, struct map_stats *st);

int linkmap_read_stream(struct kimage *img, FILE *in, const char *path)
{
	char *line = NULL, *pending = NULL, outsec[256] = "";
	size_t cap = 0, lineno = 0;
	struct map_stats st = { 0 };
	struct secname *sn, *tmp;
	bool in_map = false;
	int err;

	while (getline(&line, &cap, in) != -1) {
		uint64_t addr, size;
		char *object, *s;

		lineno++;
		chomp(line);
		if (!in_map) {
			in_map = !strncmp(line, "Linker script and memory map", 28);
			continue;
		}
		if (!strncmp(line, "OUTPUT(", 7))
			st.ended = true;
		if (pending) {
			/* The name was alone on the previous line. */
			if (parse_addr_size(line, &addr, &size, &object))
				map_input_section(img, outsec, pending, addr, size, object, &st);
			free(pending);
			pending = NULL;
			continue;
		}
		if (line[0] == '.') {
			/* An output section: ".text   0x... 0x..." or ".text" alone. */
			size_t n = strcspn(line, " \t");

			snprintf(outsec, sizeof(outsec), "%.*s", (int)n, line);
			st.prev_end = 0;
			continue;
		}
		/* "0x... . = ALIGN (0x1000)", "0x... _stext = .": the script's
		 * own, so a fill after it is not the next section's */
		if (strstr(line, " = "))
			st.prev_end = 0;
		if (line[0] != ' ' || line[1] == ' ' || line[1] == '*' || !line[1])
			continue;
		s = line + 1;
		if (*s != '.')
			continue;
		object = s + strcspn(s, " \t");
		if (!*object) {
			pending = xstrdup(s);
			continue;
		}
		*object++ = 0;
		if (parse_addr_size(object, &addr, &size, &object))
			map_input_section(img, outsec, s, addr, size, object, &st);
	}
	free(pending);
	free(line);
	err = finish_map(img, path, in_map, &st);
	HASH_ITER(hh, st.names, sn, tmp) {
		HASH_DEL(st.names, sn);
		free(sn->name);
		free(sn);
	}
	return err;
}

/*
 * A map cut short (a copy that stopped, a full disk) ends inside .text or
 * before its end: the functions of the image's .text past the last input
 * section it lists have no section names, and the order would place none
 * of them. ld ends every map with "OUTPUT(FILE FORMAT)".
 */
static bool map_cut_short(const struct kimage *img, const char *path, const struct map_stats *st)
{
	const struct ksection *text = NULL;
	size_t i, past = 0, all = 0;

	for (i = 0; i < img->nsections; i++)
		if (img->sections[i].name && !strcmp(img->sections[i].name, ".text"))
			text = &img->sections[i];
	if (!text)
		return false;
	for (i = 0; i < img->nfuncs; i++) {
		const struct kfunc *f = &img->funcs[i];

		if (f->addr < text->addr || f->addr - text->addr >= text->size)
			continue;
		all++;
		past += f->addr >= st->text_end;
	}
	if (!past || st->ended)
		return false;
	pr_err("%s: the map is cut short: it ends before .text does (at %#" PRIx64 " of %#"
	       PRIx64 "-%#" PRIx64 "), %zu of the %zu functions of .text are not in it; "
	       "give the whole vmlinux.map of this build", path, st->text_end, text->addr,
	       text->addr + text->size, past, all);
	return true;
}

/* A map refused: nothing read from it may move a function. */
static void forget_map(struct kimage *img)
{
	for (size_t i = 0; i < img->nfuncs; i++)
		img->funcs[i].flags &= ~(uint32_t)(KF_MOVABLE | KF_COLD | KF_UNIT | KF_IN_UNIT);
}

static int finish_map(struct kimage *img, const char *path, bool in_map, struct map_stats *st)
{
	size_t i;

	if (!in_map) {
		pr_err("%s: not a GNU ld link map (no \"Linker script and memory map\" line); "
		       "give the vmlinux.map from CONFIG_VMLINUX_MAP or ld -Map", path);
		return -EINVAL;
	}
	/* A map of another build names sections after functions that sit
	 * elsewhere; 10% slack for functions the map places under an alias. */
	if (!st->sections || (st->named >= 20 && st->agree * 10 < st->named * 9)) {
		pr_err("%s: the map does not describe %s (%zu of %zu sections named after a "
		       "function sit at its address); is the map from another build?",
		       path, img->path, st->agree, st->named);
		forget_map(img);
		return -EINVAL;
	}
	if (map_cut_short(img, path, st)) {
		forget_map(img);
		return -EINVAL;
	}
	for (i = 0; i < img->nfuncs; i++) {
		struct kfunc *f = &img->funcs[i];
		struct secname *sn;

		if (!f->section)
			continue;
		HASH_FIND_STR(st->names, f->section, sn);
		if (sn && sn->count > 1)
			f->flags |= KF_SHAREDSEC;
	}
	img->secnames = KSEC_MAP;
	free(img->secnames_from);
	img->secnames_from = xstrdup(path);
	pr_debug("%s: %zu input sections matched, %zu functions movable (%zu of them the "
		 "first of a plain .text, moved whole)", path, st->sections, st->movable,
		 st->units);
	return 0;
}

int linkmap_read(struct kimage *img, const char *path)
{
	FILE *in = fopen(path, "r");
	int err;

	struct stat st;

	if (!in) {
		err = -errno;
		pr_err_errno(err, "%s: cannot open the link map", path);
		return err;
	}
	/* read in order, so a pipe will do; a directory reads as EISDIR */
	if (!fstat(fileno(in), &st) && S_ISDIR(st.st_mode)) {
		filekind_directory_error(path, "the link map", "vmlinux.map", "the link map of "
					 "the build (vmlinux.map, written with CONFIG_VMLINUX_MAP=y)");
		fclose(in);
		return -EISDIR;
	}
	err = linkmap_read_stream(img, in, path);
	fclose(in);
	return err;
}

/* vmlinux.o: the same functions, each still in its own section. Functions
 * of one name are matched in address order, which the link preserves for
 * sections of one name. */
int linkmap_read_object(struct kimage *img, const char *path)
{
	struct kimage *obj;
	size_t i, matched = 0;
	int err;

	/* An object's section names are in its own ELF: opening it is enough. */
	err = kimage_open(&obj, path);
	if (err)
		return err;
	if (!obj->relocatable) {
		pr_err("%s: not a relocatable object; give vmlinux.o (or use --map)", path);
		kimage_close(obj);
		return -EINVAL;
	}
	for (i = 0; i < img->nfuncs; i++) {
		struct kfunc *f = &img->funcs[i], *of, *first;
		size_t rank = 0;

		/* rank = how many functions of this name come before f */
		for (first = kimage_find_func_by_name(img, f->name); first && first != f;
		     first = first->next_same_name >= 0 ? &img->funcs[first->next_same_name]
							: NULL)
			rank++;
		of = kimage_find_func_by_name(obj, f->name);
		while (of && rank--)
			of = of->next_same_name >= 0 ? &obj->funcs[of->next_same_name] : NULL;
		if (!of || !of->section)
			continue;
		matched++;
		f->section = kimage_keep_string(img, of->section, strlen(of->section));
		f->align = of->align;
		if ((of->flags & KF_MOVABLE) && is_splittable_section(of->section) &&
		    !(f->flags & KF_ASM))
			f->flags |= KF_MOVABLE;
	}
	kimage_close(obj);
	if (!matched) {
		pr_err("%s: no function matches %s; is it the vmlinux.o of this build?",
		       path, img->path);
		return -EINVAL;
	}
	img->secnames = KSEC_OBJECT;
	free(img->secnames_from);
	img->secnames_from = xstrdup(path);
	return 0;
}
