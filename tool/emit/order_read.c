// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * order_read.c - an order file read back in any of emit's formats, each
 * line resolved to the function of the image it names.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit.h"
#include "emit/order_read.h"
#include "image/image.h"
#include "lib/warn.h"
#include "lib/xalloc.h"

void order_file_free(struct order_file *of)
{
	size_t i;

	for (i = 0; i < of->n; i++)
		free(of->items[i].text);
	free(of->items);
}

/* @f lies in input section @sec, of object @obj if given. */
static bool in_section(const struct kfunc *f, const char *sec, const char *obj)
{
	return f->section && !strcmp(f->section, sec) &&
	       (!obj || (f->object && !strcmp(f->object, obj)));
}

static void order_push(struct order_file *of, const char *text, const struct kfunc *f)
{
	struct order_item *l;

	if (of->n == of->cap) {
		of->cap = of->cap ? 2 * of->cap : 256;
		of->items = xreallocarray(of->items, of->cap, sizeof(*of->items));
	}
	l = &of->items[of->n++];
	l->text = xstrdup(text);
	l->old = f;
	l->new = NULL;
}

static void order_add(struct order_file *of, const char *text, const struct kfunc *f)
{
	if (!f) {
		of->unresolved++;
		pr_info("order: '%s' names no single function of the image", text);
		return;
	}
	order_push(of, text, f);
}

/* A line naming input section @sec (of object @obj, NULL: any): the one
 * function, or with every_match each function in such a section. */
static void order_add_section(struct order_file *of, const char *text, const char *sec,
			      const char *obj)
{
	size_t n0 = of->n;

	/* Linear: an order file has at most a few thousand lines and this
	 * runs once per line; a kernel has ~10^4 functions. */
	for (size_t i = 0; i < of->img->nfuncs; i++) {
		const struct kfunc *f = &of->img->funcs[i];

		if (!in_section(f, sec, obj))
			continue;
		/* symbols at one address are one section's: listed once */
		if (of->n > n0 && of->items[of->n - 1].old->addr == f->addr)
			continue;
		order_push(of, text, f);
	}
	if (of->n == n0 + 1 || (of->every_match && of->n > n0))
		return;
	/* none, or several sections of that name where one was wanted */
	while (of->n > n0)
		free(of->items[--of->n].text);
	order_add(of, text, NULL);
}

/* A line naming a function: the one of that name, or with every_match each
 * function the name has (the linker orders every symbol of the name). */
static void order_add_name(struct order_file *of, const char *name)
{
	const struct kfunc *f = kimage_find_func_by_name(of->img, name);

	if (!of->every_match || !f || !(f->flags & KF_DUPNAME)) {
		order_add(of, name, f);
		return;
	}
	for (; f; f = f->next_same_name >= 0 ? &of->img->funcs[f->next_same_name] : NULL)
		order_push(of, name, f);
}

/*
 * One input-section statement of a GNU ld fragment: "*(SEC)", "*OBJ(SEC)",
 * "*:OBJ(SEC)", ":OBJ(SEC)" or "ARCHIVE:MEMBER(SEC)". Writes the object part
 * (without the leading '*' or ':') into obj, empty when there is none.
 */
static bool parse_lds_statement(const char *s, size_t len, char *obj, size_t objlen, char *sec,
				size_t seclen)
{
	const char *open = memchr(s, '(', len), *close;
	size_t olen, slen;

	if (!open || !(close = memchr(open, ')', len - (size_t)(open - s))))
		return false;
	while (s < open && (*s == '*' || *s == ':'))
		s++;
	olen = (size_t)(open - s);
	slen = (size_t)(close - open - 1);
	if (olen >= objlen || !slen || slen >= seclen)
		return false;
	memcpy(obj, s, olen);
	obj[olen] = 0;
	memcpy(sec, open + 1, slen);
	sec[slen] = 0;
	if (strchr(sec, ' ') || strchr(sec, '*'))
		return false;	/* a pattern, not one section */
	return true;
}

/* Drop C comments (lds) in place; they may span lines. */
static void strip_c_comments(char *buf, bool *in_comment)
{
	char *r = buf, *w = buf;

	while (*r) {
		if (*in_comment) {
			if (r[0] == '*' && r[1] == '/') {
				*in_comment = false;
				r += 2;
			} else {
				r++;
			}
		} else if (r[0] == '/' && r[1] == '*') {
			*in_comment = true;
			r += 2;
		} else {
			*w++ = *r++;
		}
	}
	*w = 0;
}

/* ".text : {" (or ".text:"), the start of an ld section-ordering block. */
static bool section_block_line(const char *s)
{
	return !strncmp(s, ".text :", 7) || !strncmp(s, ".text:", 6);
}

/* The header emit writes names the format: "function order (lds format)". */
static void header_format(const char *line, struct order_file *of)
{
	const char *p = strstr(line, "hotpack "), *q;

	if (*of->named || !p || !(p = strstr(p, ": function order (")))
		return;
	p += strlen(": function order (");
	q = strstr(p, " format)");
	if (q && q > p && (size_t)(q - p) < sizeof(of->named) && !memchr(p, ' ', (size_t)(q - p)))
		snprintf(of->named, sizeof(of->named), "%.*s", (int)(q - p), p);
}

/*
 * Read an order file in any of emit's formats and resolve each line against
 * @img. A linker-script line may hold two statements for one function
 * ("*:obj(sec) :obj(sec)": archive member or plain object); they count once.
 */
int order_file_read_stream(FILE *in, const char *path, const struct kimage *img,
			   struct order_file *of)
{
	char *line = NULL, obj[4096], sec[4096];
	size_t cap = 0, lineno = 0;
	bool in_comment = false, section_block = false;
	ssize_t len;

	of->format = NULL;
	of->img = img;
	while ((len = getline(&line, &cap, in)) >= 0) {
		char *s = line, *e;

		lineno++;
		/* An order file is text: a NUL byte means the wrong file. */
		if (memchr(line, 0, (size_t)len)) {
			pr_err("%s:%zu: binary data, not an order file; give the order.lds "
			       "(or gold, lld, list file) NEW was linked with", path, lineno);
			free(line);
			return -EINVAL;
		}
		if (!of->format && strstr(line, "/*"))
			of->format = "lds";
		header_format(line, of);
		strip_c_comments(line, &in_comment);
		while (isspace((unsigned char)*s))
			s++;
		e = s + strlen(s);
		while (e > s && isspace((unsigned char)e[-1]))
			*--e = 0;
		if (section_block_line(s)) {
			section_block = true;
			continue;
		}
		if (!*s || *s == '#' || !strncmp(s, ". =", 3) || !strcmp(s, "}"))
			continue;
		if (strchr(s, '(')) {
			char *stmt = s, *next;

			of->format = "lds";
			/* the first statement names the function; a second one on
			 * the line is the other spelling of the same object */
			next = strchr(stmt, ')');
			if (next)
				next[1] = 0;
			if (!parse_lds_statement(stmt, strlen(stmt), obj, sizeof(obj), sec,
						 sizeof(sec))) {
				pr_warn("%s:%zu: not an input-section statement: %s", path,
					lineno, s);
				continue;
			}
			/* "ARCHIVE:MEMBER" names the member as the map shows it */
			of->lines++;
			order_add_section(of, s, sec, *obj ? obj : NULL);
		} else if (!strncmp(s, ".text", 5)) {
			of->format = of->format ? of->format : "gold";
			if (strpbrk(s, "*?["))
				continue;	/* a glob such as the closing ".text*" */
			of->lines++;
			order_add_section(of, s, s, NULL);
		} else {
			of->format = of->format ? of->format : "lld or list";
			of->lines++;
			order_add_name(of, s);
		}
	}
	free(line);
	/* a directory opens, then fails to read: not an empty order */
	if (ferror(in)) {
		int err = -errno;

		pr_err_errno(err, "%s: cannot read the order file", path);
		return err;
	}
	/* the statements inside ".text : { }" are ld's --section-ordering-file */
	if (section_block && of->format && !strcmp(of->format, "lds"))
		of->format = "ld-section-ordering";
	/* a static name, so that it outlives @of (verify, report --order) */
	if (*of->named && emit_format_from_name(of->named) >= 0)
		of->format = emit_format_name((enum emit_format)emit_format_from_name(of->named));
	if (!of->format)
		of->format = "empty";
	return 0;
}

int order_file_read(const char *path, const struct kimage *img, struct order_file *of)
{
	FILE *in = fopen(path, "r");
	int err;

	if (!in) {
		pr_err_errno(errno, "%s: cannot open the order file", path);
		return -errno;
	}
	err = order_file_read_stream(in, path, img, of);
	fclose(in);
	return err;
}
