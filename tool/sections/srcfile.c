// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * srcfile.c - libbfd's line lookup, kept behind one function and one
 * configure switch: libbfd's API and ABI move with every binutils release
 * (STYLE.md R11), and it is GPL-3.0, so a --without-bfd build must work.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/warn.h"
#include "lib/xalloc.h"
#include "sections/srcfile.h"

#ifdef HAVE_BFD
#include <bfd.h>

static asection *code_section_of(bfd *abfd, uint64_t addr)
{
	asection *s;

	for (s = abfd->sections; s; s = s->next) {
		bfd_vma vma = bfd_section_vma(s);

		if ((bfd_section_flags(s) & SEC_CODE) && addr >= vma &&
		    addr - vma < bfd_section_size(s))
			return s;
	}
	return NULL;
}

int srcfile_fill_dupnames(struct kimage *img)
{
	asymbol **syms = NULL;
	bfd *abfd;
	long storage;
	size_t i;
	int found = 0;

	bfd_init();
	abfd = bfd_openr(img->path, NULL);
	if (!abfd || !bfd_check_format(abfd, bfd_object)) {
		pr_warn("%s: libbfd cannot read it (%s); static functions of one name "
			"stay unqualified", img->path, bfd_errmsg(bfd_get_error()));
		if (abfd)
			bfd_close(abfd);
		return -EINVAL;
	}
	storage = bfd_get_symtab_upper_bound(abfd);
	if (storage > 0) {
		syms = xmalloc((size_t)storage);
		if (bfd_canonicalize_symtab(abfd, syms) < 0) {
			free(syms);
			syms = NULL;
		}
	}
	for (i = 0; i < img->nfuncs; i++) {
		struct kfunc *f = &img->funcs[i];
		const char *file = NULL, *func = NULL;
		unsigned int line = 0;
		asection *s;

		if (!(f->flags & KF_DUPNAME) || f->object || f->srcfile)
			continue;
		s = code_section_of(abfd, f->addr);
		if (!s || !bfd_find_nearest_line(abfd, s, syms, f->addr - bfd_section_vma(s),
						 &file, &func, &line) || !file)
			continue;
		f->srcfile = kimage_keep_string(img, file, strlen(file));
		found++;
	}
	free(syms);
	bfd_close(abfd);
	return found;
}

#else

int srcfile_fill_dupnames(struct kimage *img)
{
	(void)img;
	return -ENOTSUP;
}

#endif
