// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lineio.c - bounded, block-buffered line reading for the profile parsers
 * (see lineio.h). One buffer of LINEIO_MAX plus a read block per reader.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/lineio.h"
#include "lib/warn.h"
#include "lib/xalloc.h"

#define LINEIO_BLOCK (256u << 10)
#define LINEIO_FULL (LINEIO_MAX + LINEIO_BLOCK + 2)

void lineio_init(struct lineio *lr, FILE *in, const char *name)
{
	memset(lr, 0, sizeof(*lr));
	lr->in = in;
	lr->name = name;
	/* small at first: most inputs are read in blocks of short lines */
	lr->cap = LINEIO_BLOCK + 2;
	lr->buf = xmalloc(lr->cap);
}

void lineio_release(struct lineio *lr)
{
	free(lr->buf);
	lr->buf = NULL;
}

/* Move the unread bytes to the front and read another block after them. */
static int lineio_fill(struct lineio *lr)
{
	size_t n, room;

	if (lr->start) {
		memmove(lr->buf, lr->buf + lr->start, lr->end - lr->start);
		lr->end -= lr->start;
		lr->start = 0;
	}
	if (lr->cap - 1 - lr->end < LINEIO_BLOCK / 2 && lr->cap < LINEIO_FULL) {
		/* a long line: grow up to the line cap plus a block */
		lr->cap = lr->cap * 2 < LINEIO_FULL ? lr->cap * 2 : LINEIO_FULL;
		lr->buf = xreallocarray(lr->buf, lr->cap, 1);
	}
	room = lr->cap - 1 - lr->end;
	if (room > LINEIO_BLOCK)
		room = LINEIO_BLOCK;
	n = fread(lr->buf + lr->end, 1, room, lr->in);
	/* look for NUL bytes once per block; lines are checked only after one */
	if (!lr->has_nul && memchr(lr->buf + lr->end, '\0', n))
		lr->has_nul = true;
	lr->end += n;
	if (n < room) {
		if (ferror(lr->in)) {
			pr_err("%s:%zu: read error; check the file or the pipe feeding it",
			       lr->name, lr->lineno + 1);
			lr->error = true;
			return -EIO;
		}
		lr->eof = true;
	}
	return 0;
}

int lineio_next(struct lineio *lr, char **line, size_t *len)
{
	char *s, *nl;
	size_t n;
	int err;

	if (lr->error)
		return -EIO;
	for (;;) {
		s = lr->buf + lr->start;
		nl = memchr(s, '\n', lr->end - lr->start);
		if (nl) {
			n = (size_t)(nl - s);
			lr->start += n + 1;
			break;
		}
		n = lr->end - lr->start;
		if (n > LINEIO_MAX) {
			pr_err("%s:%zu: line longer than %u bytes; not a text profile, or a "
			       "damaged one", lr->name, lr->lineno + 1, LINEIO_MAX);
			lr->error = true;
			return -EINVAL;
		}
		if (lr->eof) {
			if (!n)
				return 0;
			lr->start = lr->end;	/* last line without a newline */
			lr->no_newline = true;
			break;
		}
		err = lineio_fill(lr);
		if (err)
			return err;
	}
	lr->lineno++;
	if (n > LINEIO_MAX) {
		pr_err("%s:%zu: line longer than %u bytes; not a text profile, or a damaged one",
		       lr->name, lr->lineno, LINEIO_MAX);
		lr->error = true;
		return -EINVAL;
	}
	if (n && s[n - 1] == '\r')
		n--;
	s[n] = '\0';
	if (lr->has_nul && memchr(s, '\0', n)) {
		pr_err("%s:%zu: NUL bytes in the input; this is binary data, not a text "
		       "profile", lr->name, lr->lineno);
		lr->error = true;
		return -EINVAL;
	}
	if (lr->no_newline && !lr->own_tail)
		pr_warn("%s:%zu: last line has no newline: truncated input?", lr->name,
			lr->lineno);
	*line = s;
	*len = n;
	return 1;
}

int lineio_each(FILE *in, const char *name, int (*fn)(void *ctx, char *line, size_t lineno),
		void *ctx)
{
	struct lineio lr;
	char *line;
	size_t len;
	int ret;

	lineio_init(&lr, in, name);
	while ((ret = lineio_next(&lr, &line, &len)) > 0) {
		ret = fn(ctx, line, lr.lineno);
		if (ret)
			break;
	}
	lineio_release(&lr);
	return ret;
}
