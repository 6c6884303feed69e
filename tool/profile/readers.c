// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * readers.c - the table of profile readers (readers.h) and what is done
 * with all of them at once: finding one by name, listing them for help
 * texts and messages, and telling an input's format from its first lines.
 */
#include "config.h"

#include <string.h>

#include "lib/xalloc.h"
#include "profile/readers.h"

extern const struct profile_reader profile_reader_perf, profile_reader_perf_report,
	profile_reader_ftrace, profile_reader_addrs, profile_reader_hprof;

const struct profile_reader *const profile_readers[] = {
	&profile_reader_perf,
	&profile_reader_perf_report,
	&profile_reader_ftrace,
	&profile_reader_addrs,
	&profile_reader_hprof,
	NULL,
};

#define NREADERS (sizeof(profile_readers) / sizeof(profile_readers[0]) - 1)

const struct profile_reader *profile_reader_find(const char *name)
{
	const char *const *a;
	size_t i;

	for (i = 0; profile_readers[i]; i++) {
		if (!strcmp(name, profile_readers[i]->name))
			return profile_readers[i];
		for (a = profile_readers[i]->aliases; a && *a; a++)
			if (!strcmp(name, *a))
				return profile_readers[i];
	}
	return NULL;
}

const char *profile_readers_list(enum profile_readers_text t)
{
	static char *lists[READERS_DESC + 1];
	const char *item;
	char *s, *next;
	size_t i;

	if (lists[t])
		return lists[t];
	s = xstrdup("");
	for (i = 0; profile_readers[i]; i++) {
		item = t == READERS_NAMES ? profile_readers[i]->name :
		       t == READERS_WHAT ? profile_readers[i]->what : profile_readers[i]->desc;
		next = xasprintf("%s%s%s", s, !i ? "" : profile_readers[i + 1] ? ", " :
					      t == READERS_NAMES ? " or " : ", or ", item);
		free(s);
		s = next;
	}
	lists[t] = s;
	return s;
}

/* --- detection ----------------------------------------------------------- */

bool sniff_is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

const char *sniff_skip_blanks(const char *s, const char *e)
{
	while (s < e && sniff_is_blank(*s))
		s++;
	return s;
}

bool sniff_has(const char *s, const char *e, const char *what)
{
	return memmem(s, (size_t)(e - s), what, strlen(what)) != NULL;
}

bool sniff_is_addr(const char *s, const char *e)
{
	const char *p = sniff_skip_blanks(s, e);
	int n = 0;

	if (e - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	while (p < e && ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') ||
			 (*p >= 'A' && *p <= 'F')))
		p++, n++;
	if (!n || n > 16)
		return false;
	p = sniff_skip_blanks(p, e);
	while (p < e && *p >= '0' && *p <= '9')
		p++;
	p = sniff_skip_blanks(p, e);
	return p == e;
}

#define NONE NREADERS

/* Reader @i with @n lines over reader @best with @best_n (NONE: no reader yet) */
static bool beats(size_t i, size_t n, size_t best, size_t best_n)
{
	return best == NONE || n > best_n ||
	       (n == best_n && profile_readers[i]->prio > profile_readers[best]->prio);
}

const struct profile_reader *profile_detect(const char *buf, size_t len, size_t *badline)
{
	const char *s = buf, *e, *end = buf + len, *p;
	size_t claims[NREADERS] = { 0 }, lines = 0, lineno = 0, bad = 0;
	size_t i, sure, claim, best = NONE;
	bool first = true;
	enum sniff v;

	for (; s < end; s = e + 1) {
		e = memchr(s, '\n', (size_t)(end - s));
		if (!e)
			e = end;
		lineno++;
		p = sniff_skip_blanks(s, e);
		if (p == e)
			continue;
		sure = claim = NONE;
		for (i = 0; i < NREADERS; i++) {
			v = profile_readers[i]->sniff(s, e, first);
			if (v == SNIFF_INPUT && beats(i, 0, sure, 0))
				sure = i;
			else if (v == SNIFF_LINE && beats(i, 0, claim, 0))
				claim = i;
		}
		if (sure != NONE)
			return profile_readers[sure];
		first = false;
		if (*p == '#')	/* a comment may carry a marker, and nothing else */
			continue;
		lines++;
		if (claim != NONE)
			claims[claim]++;
		else if (!bad)
			bad = lineno;
	}
	if (badline)
		*badline = bad;
	for (i = 0; i < NREADERS; i++) {
		if (!claims[i] || profile_readers[i]->fallback)
			continue;
		if (beats(i, claims[i], best, best == NONE ? 0 : claims[best]))
			best = i;
	}
	for (i = 0; i < NREADERS && best == NONE; i++)
		if (profile_readers[i]->fallback && claims[i] * 2 > lines)
			best = i;
	return best == NONE ? NULL : profile_readers[best];
}
