// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf.c - a reader for `perf script` text output, written from perf-script(1).
 *
 * The shapes accepted:
 *  - a sample header (comm, pid[/tid], [cpu], time:, period, event:) with the
 *    sampled ip, sym+off and (dso) on the same line;
 *  - a header followed by a callchain, one frame a line, each line starting
 *    with a tab, the sample ending at a blank line (perf record -g);
 *  - -F brstack / brstacksym LBR entries FROM/TO/M/X/A/cycles[/type] on the
 *    header line, one branch event each;
 *  - headerless lines (-F ip,sym,dso or -F brstack alone).
 * The period is the weight (1 when absent). Frames are "ADDR [SYM[+0xOFF]]
 * [(DSO)]"; the dso tells kernel, module, user, bpf and [unknown] apart. A
 * header is recognised by its "SECONDS.FRACTION:" timestamp, or without one
 * by an "event:" token. Anything else is an error with FILE:LINE, so mixed or
 * damaged inputs are not silently misread.
 *
 * Memory: one sample's frames (at most PERF_MAX_FRAMES) and their symbol
 * names, whatever the input's size.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

#include "lib/lineio.h"
#include "lib/warn.h"
#include "lib/xalloc.h"
#include "profile/build.h"
#include "profile/perf.h"
#include "profile/readers.h"

/* perf's own --max-stack default is 127; deeper frames are dropped. */
#define PERF_MAX_FRAMES 1024
/* Bound on the symbol bytes kept for one sample. */
#define PERF_MAX_ARENA (8u << 20)
/* Events named in one warning; more are counted together. */
#define PERF_MAX_EVENTS 8

struct perf_state {
	hp_event_cb cb;
	void *ctx;
	const char *name;

	/* the pending sample */
	bool pending;
	bool callchain;		/* header had no inline ip: frames follow */
	bool lbr;		/* header carried LBR entries: a chain may follow */
	uint64_t weight;
	size_t line;
	struct hp_frame *frames;
	size_t *symat;		/* arena offset of each frame's sym, or SIZE_MAX */
	size_t nframes, capframes;
	char *arena;
	size_t arenalen, arenacap;

	/* the events the samples name: the first one's (or --event's) are
	 * read, the others' only counted (their periods are other units) */
	struct perf_event_count {
		char name[64];
		uint64_t samples;
	} events[PERF_MAX_EVENTS];
	size_t nevents;
	uint64_t other_events;	/* samples of events past PERF_MAX_EVENTS */
	const char *want;	/* --event, without modifiers; NULL: the first */
	size_t wantlen;
	uint64_t wanted;	/* samples of @want read */
	uint64_t unnamed;	/* samples that name no event */
	bool skip;		/* the pending sample is another event's */
};

static bool is_ws(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_end(char c)
{
	return c == '\0' || is_ws(c);
}

/* Classify a dso string as perf prints it. */
static enum hp_dso perf_dso_kind(const char *d, size_t n)
{
	const char *base = d;
	size_t i;

	/* nearly every frame of a kernel profile: answer it without a search */
	if (n == 17 && !memcmp(d, "[kernel.kallsyms]", 17))
		return HP_DSO_KERNEL;
	for (i = 0; i < n; i++)
		if (d[i] == '/')
			base = d + i + 1;
	n -= (size_t)(base - d);
	if (!n)
		return HP_DSO_UNKNOWN;
	if (n == 9 && !memcmp(base, "[unknown]", 9))
		return HP_DSO_UNKNOWN;
	if (memmem(base, n, "kernel.kallsyms", 15) || memmem(base, n, "kernel.vmlinux", 14) ||
	    (n >= 7 && !memcmp(base, "vmlinux", 7)))
		return HP_DSO_KERNEL;
	if (memmem(base, n, "bpf", 3))
		return HP_DSO_BPF;
	if ((n > 3 && !memcmp(base + n - 3, ".ko", 3)) || memmem(base, n, ".ko.", 4))
		return HP_DSO_MODULE;
	if (base[0] == '[' && base[n - 1] == ']') {
		static const char *const user[] = { "[vdso]", "[vsyscall]", "[vvar]", "[heap]",
						    "[stack]", "[anon]", "[uprobes]", "[jit]" };
		for (i = 0; i < sizeof(user) / sizeof(user[0]); i++)
			if (strlen(user[i]) == n && !memcmp(base, user[i], n))
				return HP_DSO_USER;
		/* perf names kernel module maps [modname] */
		return HP_DSO_MODULE;
	}
	return HP_DSO_USER;
}

/* Split "sym+0xoff" into its name length and offset. */
static void perf_split_symoff(const char *sym, size_t *len, struct hp_frame *fr)
{
	const char *plus = NULL, *p;
	uint64_t off;
	size_t i;

	for (i = *len; i > 0; i--)
		if (sym[i - 1] == '+') {
			plus = sym + i - 1;
			break;
		}
	if (!plus || plus == sym)
		return;
	p = plus + 1;
	if (p[0] != '0' || (p[1] != 'x' && p[1] != 'X'))
		return;
	if (!lineio_parse_hex(&p, &off) || p != sym + *len)
		return;
	fr->off = off;
	fr->has_off = 1;
	*len = (size_t)(plus - sym);
}

/* Keep a copy of a frame's symbol for the pending sample. */
static void perf_push_frame(struct perf_state *st, const struct hp_frame *fr, const char *sym,
			    size_t symlen)
{
	if (st->nframes >= PERF_MAX_FRAMES)
		return;
	if (st->nframes >= st->capframes) {
		XGROW(st->frames, st->capframes, st->nframes + 1);
		st->symat = xreallocarray(st->symat, st->capframes, sizeof(*st->symat));
	}
	st->frames[st->nframes] = *fr;
	st->symat[st->nframes] = SIZE_MAX;
	if (sym && st->arenalen + symlen + 1 <= PERF_MAX_ARENA) {
		if (st->arenalen + symlen + 1 > st->arenacap)
			XGROW(st->arena, st->arenacap, st->arenalen + symlen + 1);
		memcpy(st->arena + st->arenalen, sym, symlen);
		st->arena[st->arenalen + symlen] = '\0';
		st->symat[st->nframes] = st->arenalen;
		st->arenalen += symlen + 1;
	}
	st->nframes++;
}

/*
 * Parse "ADDR [SYM[+0xOFF]] [(DSO)]" from s to its end (trailing blanks
 * allowed). The symbol is returned as a pointer and length into s.
 */
static bool perf_parse_frame(const char *s, struct hp_frame *fr, const char **sym,
			     size_t *symlen)
{
	const char *p = lineio_skip_ws(s), *rest, *e, *o = NULL, *q;
	uint64_t addr, addr2;
	int depth = 0;

	memset(fr, 0, sizeof(*fr));
	*sym = NULL;
	*symlen = 0;
	if (!lineio_parse_hex(&p, &addr) || !is_end(*p))
		return false;
	rest = lineio_skip_ws(p);
	/* -F +addr prints the data address before the ip: take the second. */
	q = rest;
	if (lineio_parse_hex(&q, &addr2) >= 8 && is_end(*q)) {
		addr = addr2;
		rest = lineio_skip_ws(q);
	}
	fr->addr = addr;
	fr->has_addr = 1;
	fr->dso = HP_DSO_KERNEL;
	e = rest + strlen(rest);
	while (e > rest && is_ws(e[-1]))
		e--;
	if (e > rest && e[-1] == ')') {
		for (q = e - 1; q >= rest; q--) {
			if (*q == ')')
				depth++;
			else if (*q == '(' && --depth == 0) {
				o = q;
				break;
			}
		}
		/* "sym (dso)": the dso is the last group after a blank */
		if (o && (o == rest || is_ws(o[-1]))) {
			fr->dso = perf_dso_kind(o + 1, (size_t)(e - 1 - (o + 1)));
			e = o;
			while (e > rest && is_ws(e[-1]))
				e--;
		}
	}
	if (e > rest && !(e - rest == 9 && !memcmp(rest, "[unknown]", 9))) {
		*sym = rest;
		*symlen = (size_t)(e - rest);
		perf_split_symoff(rest, symlen, fr);
		if (!*symlen)
			*sym = NULL;
	}
	return true;
}

/* One end of an LBR entry: 0xADDR or SYM[+0xOFF] or [unknown], then (DSO). */
static bool perf_parse_branch_end(const char **pp, struct hp_frame *fr, const char **sym,
				  size_t *symlen)
{
	const char *p = *pp, *s;
	int depth;

	memset(fr, 0, sizeof(*fr));
	fr->dso = HP_DSO_KERNEL;
	*sym = NULL;
	*symlen = 0;
	if (p[0] == '0' && p[1] == 'x') {
		if (!lineio_parse_hex(&p, &fr->addr))
			return false;
		fr->has_addr = 1;
	} else {
		s = p;
		while (*p && *p != '/' && *p != '(' && !is_ws(*p))
			p++;
		if (p == s)
			return false;
		*symlen = (size_t)(p - s);
		if (!(*symlen == 9 && !memcmp(s, "[unknown]", 9))) {
			*sym = s;
			perf_split_symoff(s, symlen, fr);
			if (!*symlen)
				*sym = NULL;
		} else {
			*symlen = 0;
			fr->dso = HP_DSO_UNKNOWN;
		}
	}
	if (*p == '(') {
		s = ++p;
		for (depth = 1; *p; p++) {
			if (*p == '(')
				depth++;
			else if (*p == ')' && --depth == 0)
				break;
		}
		if (*p != ')')
			return false;
		fr->dso = perf_dso_kind(s, (size_t)(p - s));
		p++;
	}
	*pp = p;
	return true;
}

/*
 * One LBR entry FROM/TO/M/X/A/CYCLES[/TYPE...]. On success *pp points after
 * it and *is_call says whether the entry may be a call (false when perf
 * recorded a branch type that is not one).
 */
static bool perf_parse_branch(const char **pp, struct hp_frame fr[2], const char *sym[2],
			      size_t symlen[2], bool *is_call)
{
	const char *p = *pp, *f;
	size_t nf = 0, flen;

	if (!perf_parse_branch_end(&p, &fr[0], &sym[0], &symlen[0]) || *p++ != '/')
		return false;
	if (!perf_parse_branch_end(&p, &fr[1], &sym[1], &symlen[1]) || *p != '/')
		return false;
	*is_call = true;
	while (*p == '/') {
		f = ++p;
		while (!is_end(*p) && *p != '/')
			p++;
		flen = (size_t)(p - f);
		if (nf == 0 && !(flen == 1 && strchr("MP-", *f)))
			return false;
		if (nf == 4 && flen) {
			static const char *const notcall[] = { "COND", "RET", "COND_RET", "SYSCALL",
							       "SYSRET", "ERET", "IRQ", "SERROR" };
			size_t i;

			for (i = 0; i < sizeof(notcall) / sizeof(notcall[0]); i++)
				if (strlen(notcall[i]) == flen && !memcmp(f, notcall[i], flen))
					*is_call = false;
		}
		nf++;
	}
	if (nf < 4 || !is_end(*p))
		return false;
	*pp = p;
	return true;
}

static int perf_flush(struct perf_state *st)
{
	struct hp_event ev = { .kind = HP_EV_STACK, .file = st->name };
	size_t i;
	int ret;

	if (!st->pending)
		return 0;
	for (i = 0; i < st->nframes; i++)
		st->frames[i].sym = st->symat[i] == SIZE_MAX ? NULL : st->arena + st->symat[i];
	ev.weight = st->weight;
	ev.frames = st->frames;
	ev.nframes = st->nframes;
	ev.line = st->line;
	st->pending = false;
	st->callchain = false;
	st->nframes = 0;
	st->arenalen = 0;
	/* -F brstack with -g: the LBR entries were the sample when no chain came */
	if (st->lbr && !ev.nframes)
		ev.weight = 0;
	st->lbr = false;
	ret = ev.weight && !st->skip ? st->cb(&ev, st->ctx) : 0;
	st->skip = false;
	return ret;
}

static void perf_start(struct perf_state *st, uint64_t weight, size_t line)
{
	st->pending = true;
	st->callchain = false;
	st->skip = false;
	st->weight = weight;
	st->line = line;
	st->nframes = 0;
	st->arenalen = 0;
}

/* Emit every LBR entry of p as a branch event; false if p holds none. */
static int perf_branches(struct perf_state *st, const char *p, uint64_t weight, size_t line,
			 bool *found)
{
	struct hp_frame fr[2];
	const char *sym[2];
	size_t symlen[2], n = 0;
	char buf[2][512];
	bool is_call;
	struct hp_event ev = { .kind = HP_EV_BRANCH, .weight = weight, .frames = fr,
			       .nframes = 2, .file = st->name, .line = line };
	int ret, i;

	*found = false;
	for (p = lineio_skip_ws(p); *p; p = lineio_skip_ws(p)) {
		if (!perf_parse_branch(&p, fr, sym, symlen, &is_call))
			return n ? -EINVAL : 0;
		n++;
		*found = true;
		if (!is_call || !weight)
			continue;
		for (i = 0; i < 2; i++) {
			if (!sym[i])
				continue;
			if (symlen[i] >= sizeof(buf[i]))
				symlen[i] = sizeof(buf[i]) - 1;
			memcpy(buf[i], sym[i], symlen[i]);
			buf[i][symlen[i]] = '\0';
			fr[i].sym = buf[i];
		}
		ret = st->cb(&ev, st->ctx);
		if (ret)
			return ret;
	}
	return 0;
}

/* The '.' of "SECONDS.FRACTION" when @c (after @s) is the ':' after it, else NULL. */
static const char *perf_time_dot(const char *s, const char *c)
{
	const char *p = c;

	while (p > s && p[-1] >= '0' && p[-1] <= '9')
		p--;
	if (p == c || p == s || p[-1] != '.')
		return NULL;
	p--;
	if (p == s || p[-1] < '0' || p[-1] > '9')
		return NULL;
	return p;
}

/* Find the "SECONDS.FRACTION:" token; returns what follows it, or NULL. */
static const char *perf_find_time(const char *s)
{
	const char *c, *p;

	for (c = strchr(s, ':'); c; c = strchr(c + 1, ':')) {
		if (!is_end(c[1]) || !(p = perf_time_dot(s, c)))
			continue;
		while (p > s && p[-1] >= '0' && p[-1] <= '9')
			p--;
		if (p == s || is_ws(p[-1]))
			return c + 1;
	}
	return NULL;
}

static const char *tok_end(const char *p)
{
	while (!is_end(*p))
		p++;
	return p;
}

/* The length of event name @ev (@n bytes) without its modifiers: "cycles:k"
 * and "cycles:u" are one event. */
static size_t perf_event_base_len(const char *ev, size_t n)
{
	const char *m;

	for (m = ev + n; m > ev && m[-1] != ':'; m--)
		;
	if (m > ev + 1 && m < ev + n && strspn(m, "ukhIGHpPSDWebRx") >= (size_t)(ev + n - m))
		n = (size_t)(m - 1 - ev);
	return n;
}

/* Count a sample of event @ev (@n bytes, modifiers and all): true when its
 * samples are read (--event's, else the first event's); the others'
 * periods are other units. */
static bool perf_event_is_read(struct perf_state *st, const char *ev, size_t n)
{
	struct perf_event_count *c;
	bool use;
	size_t i;

	n = perf_event_base_len(ev, n);
	if (st->want) {
		use = n == st->wantlen && !memcmp(ev, st->want, n);
		st->wanted += use;
	} else {
		use = !st->nevents;
	}
	if (n >= sizeof(st->events[0].name))
		n = sizeof(st->events[0].name) - 1;
	for (i = 0; i < st->nevents; i++) {
		c = &st->events[i];
		if (strlen(c->name) == n && !memcmp(c->name, ev, n)) {
			c->samples++;
			return st->want ? use : i == 0;
		}
	}
	if (st->nevents == PERF_MAX_EVENTS) {
		st->other_events += !use;	/* those left out */
		return use;
	}
	c = &st->events[st->nevents++];
	memcpy(c->name, ev, n);
	c->name[n] = '\0';
	c->samples = 1;
	return use;
}

/* "cycles (120), instructions (80)": the events but the one read (@read,
 * or SIZE_MAX for none), with their sample counts; how many samples that is. */
static uint64_t perf_events_list(const struct perf_state *st, size_t read, char *buf,
				 size_t len)
{
	size_t i, n = 0;
	uint64_t left = st->other_events;

	buf[0] = '\0';
	for (i = 0; i < st->nevents; i++) {
		if (i == read)
			continue;
		left += st->events[i].samples;
		if (n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s (%llu)", n ? ", " : "",
					      st->events[i].name,
					      (unsigned long long)st->events[i].samples);
	}
	if (st->other_events && n < len)
		snprintf(buf + n, len - n, "%s%llu of more events", n ? ", " : "",
			 (unsigned long long)st->other_events);
	return left;
}

/* The index of --event's entry in the counts, or SIZE_MAX. */
static size_t perf_wanted_index(const struct perf_state *st)
{
	size_t i, n = st->wantlen < sizeof(st->events[0].name) ? st->wantlen
							      : sizeof(st->events[0].name) - 1;

	for (i = 0; i < st->nevents; i++)
		if (strlen(st->events[i].name) == n && !memcmp(st->events[i].name, st->want, n))
			return i;
	return SIZE_MAX;
}

/*
 * The end of the input: with --event, an event the samples do not have is
 * an error naming those they do, and the others are an info line; without
 * it, the samples of more than one event are a warning that says what was
 * read and what was not.
 */
static int perf_end_events(const struct perf_state *st)
{
	char others[512];
	uint64_t left;
	size_t at;

	if (st->want) {
		if (!st->wanted) {
			perf_events_list(st, SIZE_MAX, others, sizeof(others));
			if (st->nevents)
				pr_err("%s: no samples of event '%.*s' (--event); the input has "
				       "%s: give one of those to --event", st->name, (int)st->wantlen,
				       st->want, others);
			else
				pr_err("%s: no sample names its event, so --event %.*s cannot "
				       "choose; leave --event out, or give perf script's output "
				       "with its event field", st->name, (int)st->wantlen,
				       st->want);
			return -EINVAL;
		}
		left = perf_events_list(st, perf_wanted_index(st), others, sizeof(others));
		if (st->unnamed) {
			at = strlen(others);
			snprintf(others + at, sizeof(others) - at, "%s%llu that name no event",
				 at ? ", " : "", (unsigned long long)st->unnamed);
		}
		if (left + st->unnamed)
			pr_info("%s: read the %llu samples of '%.*s' (--event); left out %llu: %s",
				st->name, (unsigned long long)st->wanted, (int)st->wantlen,
				st->want, (unsigned long long)(left + st->unnamed), others);
		return 0;
	}
	if (st->nevents < 2)
		return 0;
	left = perf_events_list(st, 0, others, sizeof(others));
	pr_warn("%s: samples of %zu%s events, whose periods do not add up: read the %llu of "
		"'%s' (the first), left out %llu: %s; to use another, give --event NAME",
		st->name, st->nevents, st->other_events ? " or more" : "",
		(unsigned long long)st->events[0].samples, st->events[0].name,
		(unsigned long long)left, others);
	return 0;
}

static bool tok_is_digits(const char *s, const char *e)
{
	for (; s < e; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* A period that is not one: too big, or not a whole number ("1e30"). */
static int perf_bad_period(const struct perf_state *st, size_t line, const char *t, const char *e)
{
	int n = e - t > 40 ? 40 : (int)(e - t);

	if (tok_is_digits(t, e))
		pr_err("%s:%zu: the period %.*s does not fit in 64 bits; the input is "
		       "damaged, re-run perf script", st->name, line, n, t);
	else
		pr_err("%s:%zu: the period '%.*s' is not a whole number (perf script prints "
		       "periods as integers); the input is damaged, re-run perf script",
		       st->name, line, n, t);
	return -EINVAL;
}

/*
 * After the header fields: period and event, then what the sample carries.
 * @ev is the event name when the caller found it (before @p), else NULL.
 */
static int perf_header(struct perf_state *st, const char *p, size_t line, const char *ev,
		       size_t evlen)
{
	const char *t1, *e1, *t2, *e2, *q;
	uint64_t weight = 1, v;
	struct hp_frame fr;
	const char *sym;
	size_t symlen;
	bool found, use;
	int ret;

	ret = perf_flush(st);
	if (ret)
		return ret;
	t1 = lineio_skip_ws(p);
	e1 = tok_end(t1);
	t2 = lineio_skip_ws(e1);
	e2 = tok_end(t2);
	q = t1;
	if (!ev && e1 > t1 && *t1 >= '0' && *t1 <= '9' && e1[-1] != ':' && e2 > t2 &&
	    e2[-1] == ':') {
		/* "PERIOD EVENT:": a number between the time and the event is the
		 * period (a word is a side-band record: "PERF_RECORD_COMM exec:") */
		if (!lineio_parse_dec(&q, &v) || q != e1)
			return perf_bad_period(st, line, t1, e1);
		weight = v;
		ev = t2;
		evlen = (size_t)(e2 - 1 - t2);
		p = e2;
	} else if (e1 > t1 && tok_is_digits(t1, e1)) {
		/* a period: before the ip, or alone */
		if (!lineio_parse_dec(&q, &v))
			return perf_bad_period(st, line, t1, e1);
		if (!*t2) {
			weight = v;
			p = e1;
		} else {
			const char *h = t2;
			uint64_t a;

			if (lineio_parse_hex(&h, &a) && is_end(*h)) {
				weight = v;
				p = e1;
			}
		}
	} else if (!ev && e1 > t1 && e1[-1] == ':') {
		ev = t1;	/* the event name */
		evlen = (size_t)(e1 - 1 - t1);
		p = e1;
	}
	if (ev) {
		use = perf_event_is_read(st, ev, evlen);
	} else {
		st->unnamed++;
		use = !st->want;
	}
	p = lineio_skip_ws(p);
	if (!*p) {
		perf_start(st, weight, line);
		st->callchain = true;
		st->skip = !use;
		return 0;
	}
	ret = perf_branches(st, p, use ? weight : 0, line, &found);
	if (ret || found) {
		if (ret == -EINVAL)
			pr_err("%s:%zu: a damaged LBR entry (perf script -F brstack: "
			       "FROM/TO/M/X/A/CYCLES); re-run perf script", st->name, line);
		if (!ret) {
			/* recorded with -g too: the sample's callchain may follow */
			perf_start(st, weight, line);
			st->callchain = true;
			st->lbr = true;
			st->skip = !use;
		}
		return ret;
	}
	if (perf_parse_frame(p, &fr, &sym, &symlen)) {
		if (!use)
			return 0;
		perf_start(st, weight, line);
		perf_push_frame(st, &fr, sym, symlen);
		return perf_flush(st);
	}
	/* tracepoint payload or fields we do not use: no code address */
	return 0;
}

/* A token that ends with ':' (an event name) and what follows it. */
static const char *perf_find_event(const char *s)
{
	const char *p = lineio_skip_ws(s), *e;

	while (*p) {
		e = tok_end(p);
		if (e[-1] == ':')
			return e;
		p = lineio_skip_ws(e);
	}
	return NULL;
}

/* Without time or event: a header whose first hex token starts a frame. */
static const char *perf_find_inline_ip(const char *s)
{
	const char *p = lineio_skip_ws(s), *e, *h;
	struct hp_frame fr;
	const char *sym;
	size_t symlen;
	uint64_t a;

	while (*p) {
		e = tok_end(p);
		h = p;
		if (lineio_parse_hex(&h, &a) >= 8 && h == e &&
		    perf_parse_frame(p, &fr, &sym, &symlen))
			return p;
		p = lineio_skip_ws(e);
	}
	return NULL;
}

/* "path/file.c:123" alone on a line */
static bool perf_is_srcline(const char *p)
{
	const char *c = strrchr(p, ':'), *q;

	if (!c || c == p || c[1] < '0' || c[1] > '9')
		return false;
	for (q = c + 1; *q >= '0' && *q <= '9'; q++)
		;
	for (; p < c; p++)
		if (is_ws(*p))
			return false;
	return !*lineio_skip_ws(q);
}

/*
 * perf's "# arch" is the recording machine's uname -m; the arch table's name
 * for it. A prefix entry ("armv") takes any name that starts with it
 * (armv7l, armv6l). Names that do not tell the kernel's word size apart
 * (perf's own "x86", "powerpc") are not here: they are noted, not compared.
 */
static const struct perf_arch {
	const char *uname;
	const char *arch;
	bool prefix;
} perf_arches[] = {
	{ "x86_64", "x86_64", false },
	{ "amd64", "x86_64", false },
	{ "i386", "i386", false },
	{ "i486", "i386", false },
	{ "i586", "i386", false },
	{ "i686", "i386", false },
	{ "aarch64", "aarch64", false },
	{ "aarch64_be", "aarch64", false },
	{ "arm64", "aarch64", false },
	{ "armv", "arm", true },
	{ "arm", "arm", false },
	{ "ppc", "ppc32", false },
	{ "ppc64", "ppc64", false },
	{ "ppc64le", "ppc64", false },
	{ "riscv32", "riscv32", false },
	{ "riscv64", "riscv64", false },
};

const char *perf_arch_name(const char *uname)
{
	size_t i, n;

	for (i = 0; i < sizeof(perf_arches) / sizeof(perf_arches[0]); i++) {
		n = strlen(perf_arches[i].uname);
		if (perf_arches[i].prefix ? !strncmp(uname, perf_arches[i].uname, n)
					  : !strcmp(uname, perf_arches[i].uname))
			return perf_arches[i].arch;
	}
	return NULL;
}

/* "KEY : VALUE" after '#': VALUE's first word into @val (of @len), or false */
static bool perf_header_value(const char *p, const char *key, char *val, size_t len)
{
	size_t n = strlen(key), i = 0;

	if (strncmp(p, key, n))
		return false;
	p = lineio_skip_ws(p + n);
	if (*p != ':')
		return false;
	for (p = lineio_skip_ws(p + 1); i + 1 < len && p[i] > ' ' && p[i] < 0x7f; i++)
		val[i] = p[i];
	val[i] = '\0';
	return i > 0;
}

/* perf script --header: "# os release : 6.1.0-13-amd64" names the kernel,
 * "# arch : x86_64" the machine it ran on. */
static int perf_comment(struct perf_state *st, const char *p, size_t lineno)
{
	struct hp_event ev = { .kind = HP_EV_RELEASE, .file = st->name, .line = lineno };
	char val[128];

	p = lineio_skip_ws(p + 1);
	if (perf_header_value(p, "os release", val, sizeof(val))) {
		ev.text = val;
		return st->cb(&ev, st->ctx);
	}
	if (!perf_header_value(p, "arch", val, sizeof(val)))
		return 0;
	ev.kind = HP_EV_ARCH;
	ev.text = perf_arch_name(val);
	if (ev.text)
		return st->cb(&ev, st->ctx);
	pr_info("%s:%zu: perf's '# arch : %s' names an architecture hotpack does not know; "
		"the samples' architecture is not checked", st->name, lineno, val);
	return 0;
}

/* perf buildid-list's and perf -v's build-id lines (build.h); the kernel's is handed on */
static bool perf_build_id_line(struct perf_state *st, const char *p, size_t lineno, int *ret)
{
	struct hp_event ev = { .kind = HP_EV_BUILD_ID, .file = st->name, .line = lineno };
	char hex[BUILD_ID_HEX_LEN];
	int kind = build_id_line(p, hex, sizeof(hex));

	*ret = 0;
	if (kind == BUILD_ID_KERNEL) {
		ev.text = hex;
		*ret = st->cb(&ev, st->ctx);
	}
	return kind != BUILD_ID_NONE;
}

static int perf_line(struct perf_state *st, char *line, size_t lineno)
{
	const char *p = lineio_skip_ws(line), *q;
	struct hp_frame fr;
	const char *sym;
	size_t symlen;
	bool found;
	int ret;

	if (!*p)
		return perf_flush(st);
	if (*p == '#' && !st->pending)
		return perf_comment(st, p, lineno);
	/* callchain frames start with a tab (perf's indent) */
	if (line[0] == '\t' && perf_parse_frame(p, &fr, &sym, &symlen)) {
		if (!st->callchain) {
			/* headerless callchain (-F ip,sym -g) */
			ret = perf_flush(st);
			if (ret)
				return ret;
			perf_start(st, 1, lineno);
			st->callchain = true;
		}
		perf_push_frame(st, &fr, sym, symlen);
		return 0;
	}
	if (!st->pending && line[0] != '\t' && perf_build_id_line(st, p, lineno, &ret))
		return ret;
	q = perf_find_time(line);
	if (q)
		return perf_header(st, q, lineno, NULL, 0);
	/* -F +srcline: an indented "file.c:123" after a frame */
	if (st->pending && is_ws(line[0]) && perf_is_srcline(p))
		return 0;
	/* a chain whose tabs became blanks on the way, or were never there
	 * (FlameGraph's perf-java-stacks-02.txt): not a header "comm pid ev:" */
	q = perf_find_event(line);
	if (st->callchain && (is_ws(line[0]) || !q) && perf_parse_frame(p, &fr, &sym, &symlen)) {
		perf_push_frame(st, &fr, sym, symlen);
		return 0;
	}
	ret = perf_branches(st, p, 1, lineno, &found);
	if (found || ret) {
		if (ret == -EINVAL)
			pr_err("%s:%zu: a damaged LBR entry (perf script -F brstack: "
			       "FROM/TO/M/X/A/CYCLES); re-run perf script", st->name, lineno);
		return ret;
	}
	/* an "event:" token before a bare frame: a comm such as "dd" is hex too */
	q = perf_find_event(line);
	if (q) {
		const char *ev = q - 1;

		while (ev > line && !is_ws(ev[-1]))
			ev--;
		return perf_header(st, q, lineno, ev, (size_t)(q - 1 - ev));
	}
	/* fields before a long hex ip: a header without time and event */
	q = perf_find_inline_ip(line);
	if (q && q != p)
		return perf_header(st, q, lineno, NULL, 0);
	if (perf_parse_frame(p, &fr, &sym, &symlen)) {
		ret = perf_flush(st);
		if (ret)
			return ret;
		perf_start(st, 1, lineno);
		perf_push_frame(st, &fr, sym, symlen);
		return perf_flush(st);
	}
	pr_err("%s:%zu: not a perf script line (no sample header, frame or LBR entry); "
	       "pass the output of 'perf script' (or force a format with --input-format)",
	       st->name, lineno);
	return -EINVAL;
}

static int perf_each_line(void *ctx, char *line, size_t lineno)
{
	return perf_line(ctx, line, lineno);
}

static int perf_script_read(FILE *in, const char *name, const struct read_opts *ro,
			    hp_event_cb cb, void *ctx)
{
	struct perf_state st = { .cb = cb, .ctx = ctx, .name = name };
	int ret;

	if (ro && ro->event) {
		st.want = ro->event;
		st.wantlen = perf_event_base_len(ro->event, strlen(ro->event));
	}
	ret = lineio_each(in, name, perf_each_line, &st);
	if (!ret)
		ret = perf_flush(&st);
	if (!ret)
		ret = perf_end_events(&st);
	free(st.frames);
	free(st.symat);
	free(st.arena);
	return ret;
}

/* --- detection ----------------------------------------------------------- */

/* a "SECONDS.FRACTION:" token followed by a blank or the end */
static bool perf_sniff_time(const char *s, const char *e)
{
	const char *c;

	for (c = s; c < e; c++)
		if (*c == ':' && (c + 1 == e || sniff_is_blank(c[1])) && perf_time_dot(s, c))
			return true;
	return false;
}

/*
 * A sample header has its time stamp, a callchain frame starts with its
 * address and is indented by a tab or ends in "(dso)", an LBR entry has its
 * flags. Loose shapes: a line a trace or an address list has is theirs.
 */
static enum sniff perf_sniff(const char *s, const char *e, bool first)
{
	const char *p = sniff_skip_blanks(s, e);

	if (perf_sniff_time(p, e) || (*s == '\t' && sniff_is_addr(p, p + 1)) ||
	    (e[-1] == ')' && sniff_is_addr(p, p + 1)) || sniff_has(p, e, "/P/") ||
	    sniff_has(p, e, "/M/") || sniff_has(p, e, "/-/-/"))
		return SNIFF_LINE;
	return SNIFF_NO;
}

static const char *const perf_aliases[] = { "perf-script", NULL };

const struct profile_reader profile_reader_perf = {
	.name = "perf",
	.aliases = perf_aliases,
	.what = "perf script output",
	.desc = "perf script output (samples, callchains, brstack LBR)",
	.sniff = perf_sniff,
	.prio = 0,
	.read = perf_script_read,
	.units = PROF_UNIT_PERIOD,
};
