// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * producer.c - -ffunction-sections from the DWARF producer strings. GCC
 * writes "GNU C11 12.2.0 -mno-red-zone ... -O2 -ffunction-sections ..." as
 * each compile unit's DW_AT_producer; the strings are not parsed as DWARF
 * here (the stage needs a yes or no, not the units): every "GNU C" string of
 * .debug_str and .debug_info is read to its NUL. clang records no switches
 * there, so its images stay "cannot tell".
 */
#include "config.h"

#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "sections/producer.h"

struct producers {
	size_t with_switches;	/* GCC producer strings that list options */
	size_t function_sections;	/* ... of which have -ffunction-sections */
};

static void scan(const char *buf, size_t len, struct producers *p)
{
	static const char gnu_c[] = "GNU C";
	const char *s = buf, *end = buf + len;

	while (s < end && (s = memmem(s, (size_t)(end - s), gnu_c, sizeof(gnu_c) - 1))) {
		const char *nul = memchr(s, 0, (size_t)(end - s));
		size_t n = nul ? (size_t)(nul - s) : (size_t)(end - s);

		if (memmem(s, n, " -", 2)) {
			p->with_switches++;
			if (memmem(s, n, "-ffunction-sections", 19))
				p->function_sections++;
		}
		s += n;
	}
}

int producer_function_sections(const char *path)
{
	struct producers p = { 0 };
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	int fd, ret = -1;
	Elf *elf;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return -1;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_getshdrstrndx(elf, &shstrndx))
		goto out;
	while ((scn = elf_nextscn(elf, scn)) && !p.function_sections) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name || (strcmp(name, ".debug_str") && strcmp(name, ".debug_info")))
			continue;
		if ((sh.sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0)
			continue;
		d = elf_getdata(scn, NULL);
		if (d && d->d_buf)
			scan(d->d_buf, d->d_size, &p);
	}
	if (p.function_sections)
		ret = 1;
	else if (p.with_switches)
		ret = 0;
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}
