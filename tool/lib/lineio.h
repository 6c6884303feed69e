/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lineio.h - a bounded line reader for the text profile parsers. It reads
 * big blocks with fread() and finds line ends with memchr(), so parsing runs
 * at memory speed; a line longer than LINEIO_MAX is reported, not buffered,
 * which keeps memory independent of the input. CR before LF is dropped, so
 * files saved with CRLF line ends read the same as LF ones.
 */
#ifndef HP_LINEIO_H
#define HP_LINEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Longest line accepted (bytes, without the newline). */
#define LINEIO_MAX (1u << 20)

struct lineio {
	FILE *in;
	const char *name;	/* input name for messages */
	char *buf;
	size_t cap;		/* LINEIO_MAX + a read block */
	size_t start, end;	/* unread bytes are buf[start, end) */
	size_t lineno;		/* number of the line last returned */
	bool eof;
	bool error;
	bool has_nul;		/* a NUL byte was read: check each line */
	bool no_newline;	/* the line last returned ended the input without '\n' */
	bool own_tail;		/* the reader warns about such a line itself */
};

void lineio_init(struct lineio *lr, FILE *in, const char *name);
void lineio_release(struct lineio *lr);

/**
 * lineio_next() - the next line, NUL-terminated, without its line end.
 * The line is valid until the next call and may be modified in place.
 * Returns 1 with a line, 0 at end of input, or -EINVAL / -EIO after
 * printing FILE:LINE (line too long, NUL bytes in a text input, read error).
 * A last line without a newline is returned with no_newline set and, unless
 * own_tail, a warning: every writer of these formats ends its lines, so the
 * input was probably cut short.
 */
int lineio_next(struct lineio *lr, char **line, size_t *len);

/**
 * lineio_each() - @fn(@ctx, line, its number) for every line of @in (named
 * @name in messages) until it returns non-zero. Returns that, a read error
 * of lineio_next(), or 0 at the end of the input.
 */
int lineio_each(FILE *in, const char *name, int (*fn)(void *ctx, char *line, size_t lineno),
		void *ctx);

/* Scanning helpers shared by the parsers. */
static inline const char *lineio_skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static inline int lineio_hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Parse hex digits (an optional 0x first) at *s. Returns the number of
 * digits (0: none, or more than 16 which would overflow) and advances *s.
 */
static inline int lineio_parse_hex(const char **s, uint64_t *val)
{
	const char *p = *s;
	uint64_t v = 0;
	int n = 0, d;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && lineio_hexval(p[2]) >= 0)
		p += 2;
	while ((d = lineio_hexval(*p)) >= 0) {
		v = (v << 4) | (uint64_t)d;
		p++;
		if (++n > 16)
			return 0;
	}
	if (n) {
		*s = p;
		*val = v;
	}
	return n;
}

/* Parse a decimal number at *s; returns false when none or on overflow. */
static inline bool lineio_parse_dec(const char **s, uint64_t *val)
{
	const char *p = *s;
	uint64_t v = 0;

	if (*p < '0' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9') {
		if (v > (UINT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (uint64_t)(*p - '0');
		p++;
	}
	*s = p;
	*val = v;
	return true;
}

#endif
