/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * readers.h - the profile formats hotpack reads: one struct profile_reader
 * per format, defined in its reader's file (perf.c, perf_report.c,
 * ftrace.c, addrs.c, hprof.c), and the table of them (readers.c). --input-format's names, the
 * lists of formats in help texts and messages, and the detection of an
 * input's format all come from the table, so a new format is its reader's
 * file and one line there.
 */
#ifndef HP_READERS_H
#define HP_READERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "profile/profile.h"
#include "profile/sample.h"

/* What the user chose of a raw input (NULL: the defaults). A reader uses
 * what applies to its format and ignores the rest. */
struct read_opts {
	const char *event;	/* --event: perf script's samples of this event only
				 * (modifiers do not count); NULL: the first event's */
};

/* What one line of an input says about a reader's format. */
enum sniff {
	SNIFF_NO,	/* not a line of this format */
	SNIFF_LINE,	/* a line of this format */
	SNIFF_INPUT,	/* this line alone makes the input this format's */
};

struct profile_reader {
	const char *name;		/* --input-format NAME */
	const char *const *aliases;	/* more names for it, NULL-terminated; or NULL */
	const char *what;		/* what it reads: "perf script output" */
	const char *desc;		/* the same with detail, for hotpack profile --help */
	/*
	 * Detection, over the complete lines of an input's first bytes. @s to
	 * @e is a line that is not blank, without its newline; @first: it is
	 * the first such line. A line one reader finds SNIFF_INPUT decides;
	 * else each line but '#' comments goes to the reader that finds it
	 * SNIFF_LINE, and the reader with the most lines is the format.
	 */
	enum sniff (*sniff)(const char *s, const char *e, bool first);
	/* Between two readers that find the same line SNIFF_INPUT or SNIFF_LINE,
	 * or that have as many lines, the higher prio wins. */
	int prio;
	/* Detected only when no other reader has a line, and then by more than
	 * half of them (words of any text look like hex numbers). */
	bool fallback;
	/* A raw format: its events go through @cb (the symbolizer); @ro may
	 * be NULL. */
	int (*read)(FILE *in, const char *name, const struct read_opts *ro, hp_event_cb cb,
		    void *ctx);
	/* Or a profile already: added to @prof as it is (no symbolizer). */
	int (*read_profile)(FILE *in, const char *name, struct profile *prof);
	/* PROF_UNIT_* of read()'s weights. PROF_UNIT_PERIOD: sample periods,
	 * 1 each with --weight events. */
	unsigned int units;
	/* Why the input cannot be read without a vmlinux, or NULL. */
	const char *needs_image;
	/* read()'s samples come in the order they happened (--addr-window). */
	bool in_time_order;
};

/* Every reader, in the order the lists of formats show them; NULL ends it. */
extern const struct profile_reader *const profile_readers[];

/** The reader of name or alias @name, or NULL. */
const struct profile_reader *profile_reader_find(const char *name);

/* A list of the readers for texts: their names ("a, b, c or d"), what they
 * read or their descriptions ("a, b, c, or d", as these have commas). */
enum profile_readers_text { READERS_NAMES, READERS_WHAT, READERS_DESC };

/** The list, built on first use and kept. */
const char *profile_readers_list(enum profile_readers_text t);

/**
 * profile_detect() - the reader of the input whose first bytes are @buf
 * (complete lines), by the readers' sniff(); NULL when no reader claims it.
 * *badline (when not NULL) gets the first line no reader claims (0: none):
 * such lines do not decide, the detected reader reports the first bad one.
 */
const struct profile_reader *profile_detect(const char *buf, size_t len, size_t *badline);

/* For the sniff()s: */
bool sniff_is_blank(char c);				/* ' ', '\t' or '\r' */
const char *sniff_skip_blanks(const char *s, const char *e);
bool sniff_has(const char *s, const char *e, const char *what);	/* @what in @s to @e */
bool sniff_is_addr(const char *s, const char *e);	/* "HEX [COUNT]" and blanks */

#endif
