// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * buildid.c - the GNU build-id note of an image. Notes are in SHT_NOTE
 * sections (a vmlinux has .notes) and, in a file without section headers,
 * in PT_NOTE segments; the first note of owner "GNU" and type
 * NT_GNU_BUILD_ID is the id.
 */
#include "config.h"

#include <gelf.h>
#include <string.h>

#include "image/buildid.h"

static const char *hex_of(const uint8_t *d, size_t n, char *buf, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	if (!n || n > 64 || len < 2 * n + 1)
		return NULL;
	for (i = 0; i < n; i++) {
		buf[2 * i] = digits[d[i] >> 4];
		buf[2 * i + 1] = digits[d[i] & 15];
	}
	buf[2 * n] = '\0';
	return buf;
}

/* The build-id among the notes of @data, into @buf; NULL when none. */
static const char *note_id(Elf_Data *data, char *buf, size_t len)
{
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;

	if (!data || !data->d_buf)
		return NULL;
	while ((off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		const char *name = (const char *)data->d_buf + name_off;

		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == sizeof("GNU") &&
		    !memcmp(name, "GNU", sizeof("GNU")))
			return hex_of((const uint8_t *)data->d_buf + desc_off, nh.n_descsz, buf,
				      len);
	}
	return NULL;
}

const char *kimage_build_id(const struct kimage *img, char *buf, size_t len)
{
	Elf *elf = img->elf;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	GElf_Phdr ph;
	size_t i, nph;
	const char *id;

	if (!elf)
		return NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		id = note_id(elf_getdata(scn, NULL), buf, len);
		if (id)
			return id;
	}
	if (elf_getphdrnum(elf, &nph))
		return NULL;
	for (i = 0; i < nph; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_NOTE)
			continue;
		id = note_id(elf_getdata_rawchunk(elf, (int64_t)ph.p_offset, ph.p_filesz,
						  ELF_T_NHDR), buf, len);
		if (id)
			return id;
	}
	return NULL;
}
