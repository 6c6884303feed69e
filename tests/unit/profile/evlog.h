/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * evlog.h - for parser tests: an hp_event_cb that writes each event as one
 * line of text, so a test compares what a reader produced with a string:
 *   "S 250000: ffffffff8106aa32 native_safe_halt+0x2 k | ..."
 * kind S/T/B, weight, then frames: address (when any), sym(+off), dso
 * letter (k kernel, m module, u user, b bpf, ? unknown), @depth for traces.
 * What an input says of its kernel is its kind (R release, I build-id, A
 * architecture) and the text: "A aarch64".
 */
#ifndef HP_EVLOG_H
#define HP_EVLOG_H

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/readers.h"
#include "tap.h"

struct evlog {
	char *buf;
	size_t len;
	FILE *f;
	size_t nevents;
	int stop_after;		/* return 1 from the callback after this many (0: never) */
	const struct read_opts *ro;	/* handed to the reader (NULL: defaults) */
};

static inline void evlog_init(struct evlog *l)
{
	memset(l, 0, sizeof(*l));
	l->f = open_memstream(&l->buf, &l->len);
}

static inline const char *evlog_text(struct evlog *l)
{
	fflush(l->f);
	return l->buf ? l->buf : "";
}

static inline void evlog_free(struct evlog *l)
{
	fclose(l->f);
	free(l->buf);
}

static inline int evlog_cb(const struct hp_event *ev, void *ctx)
{
	static const char kinds[] = "STBRIA", dsos[] = "kmub?";
	struct evlog *l = ctx;
	size_t i;

	if (ev->kind > HP_EV_BRANCH) {	/* what the input says of its kernel */
		fprintf(l->f, "%c %s\n", kinds[ev->kind], ev->text);
		return 0;
	}
	fprintf(l->f, "%c %" PRIu64 ":", kinds[ev->kind], ev->weight);
	for (i = 0; i < ev->nframes; i++) {
		const struct hp_frame *fr = &ev->frames[i];

		fputs(i ? " |" : "", l->f);
		if (fr->has_addr)
			fprintf(l->f, " %" PRIx64, fr->addr);
		if (fr->sym)
			fprintf(l->f, " %s", fr->sym);
		if (fr->has_off)
			fprintf(l->f, "+%#" PRIx64, fr->off);
		fprintf(l->f, " %c", dsos[fr->dso]);
		if (ev->kind == HP_EV_TRACE)
			fprintf(l->f, "@%u", fr->depth);
	}
	fputc('\n', l->f);
	l->nevents++;
	if (l->stop_after && l->nevents >= (size_t)l->stop_after)
		return 1;
	return 0;
}

/* Run @reader over @text (as file @name); returns its result. */
typedef int (*evlog_reader)(FILE *in, const char *name, const struct read_opts *ro,
			    hp_event_cb cb, void *ctx);

/* The read() of the reader named @name in the table. */
static inline evlog_reader evlog_reader_named(const char *name)
{
	const struct profile_reader *r = profile_reader_find(name);

	if (!r || !r->read)
		abort();
	return r->read;
}

static inline int evlog_run_n(struct evlog *l, evlog_reader reader, const char *text,
			      size_t len, const char *name)
{
	FILE *in = len ? fmemopen((void *)text, len, "r") : fopen("/dev/null", "r");
	int ret;

	if (!in)
		return -1;
	ret = reader(in, name, l->ro, evlog_cb, l);
	fclose(in);
	return ret;
}

static inline int evlog_run(struct evlog *l, evlog_reader reader, const char *text,
			    const char *name)
{
	return evlog_run_n(l, reader, text, strlen(text), name);
}

/* A reader reads @in cleanly into exactly the events @want. */
static inline void evlog_check(evlog_reader reader, const char *name, const char *what,
			       const char *in, const char *want)
{
	struct evlog l;

	evlog_init(&l);
	is_int(evlog_run(&l, reader, in, name), 0, what);
	is_str(evlog_text(&l), want, what);
	evlog_free(&l);
}

/* A reader refuses @in with -EINVAL. */
static inline void evlog_check_fails(evlog_reader reader, const char *name, const char *what,
				     const char *in)
{
	struct evlog l;

	evlog_init(&l);
	is_int(evlog_run(&l, reader, in, name), -EINVAL, what);
	evlog_free(&l);
}

#endif
