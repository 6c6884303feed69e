// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * parse.c - whole-string numbers: strtoull()/strtod() with every way they
 * accept less than a number (or more) turned into an error.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "lib/parse.h"

/* The shift of a binary size suffix at *end, stepping over it; 0 if none. */
static unsigned int size_suffix(const char **end)
{
	const char *p = *end;
	unsigned int shift;

	switch (*p) {
	case 'k': case 'K': shift = 10; break;
	case 'm': case 'M': shift = 20; break;
	case 'g': case 'G': shift = 30; break;
	default: return 0;
	}
	p++;
	if (*p == 'i')
		p++;
	if (*p == 'b' || *p == 'B')
		p++;
	*end = p;
	return shift;
}

int parse_u64(const char *s, unsigned int flags, uint64_t *out)
{
	const char *end;
	char *e;
	unsigned long long v;
	unsigned int shift = 0;

	/* strtoull() skips blanks and takes a sign: "-1" would be UINT64_MAX */
	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &e, flags & PARSE_C_BASE ? 0 : 10);
	if (errno == ERANGE)
		return -ERANGE;
	end = e;
	if (flags & PARSE_SUFFIX)
		shift = size_suffix(&end);
	if (*end)
		return -EINVAL;
	if (shift && v > (UINT64_MAX >> shift))
		return -ERANGE;
	*out = (uint64_t)v << shift;
	return 0;
}

int parse_s64(const char *s, unsigned int flags, int64_t *out)
{
	uint64_t v;
	bool neg = false;
	int err;

	if (s && (*s == '-' || *s == '+'))
		neg = *s++ == '-';
	err = parse_u64(s, flags, &v);
	if (err)
		return err;
	if (v > (uint64_t)INT64_MAX)
		return -ERANGE;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

int parse_double(const char *s, unsigned int flags, double *out)
{
	char *end;
	double v;

	if (!s || !*s || (*s != '-' && *s != '+' && *s != '.' && (*s < '0' || *s > '9')))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || isnan(v) || (isinf(v) && errno != ERANGE))
		return -EINVAL;
	if (errno == ERANGE)	/* past DBL_MAX, or below the smallest normal */
		return -ERANGE;
	if (flags & PARSE_SUFFIX) {
		switch (*end) {
		case 'k': case 'K': v *= 1e3; end++; break;
		case 'M': v *= 1e6; end++; break;
		case 'G': v *= 1e9; end++; break;
		default: break;
		}
	}
	if (*end)
		return -EINVAL;
	if (isinf(v))
		return -ERANGE;
	*out = v;
	return 0;
}
