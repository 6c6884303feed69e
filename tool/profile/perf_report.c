// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf_report.c - a reader for the text of `perf report --branch-stack
 * --stdio` (written from perf-report(1) and how perf's sort keys print):
 * the LBR histogram of branches between symbols, as with
 *   perf record -b -a -- sleep 10   (or -j any_call,k: calls only)
 *   perf report --branch-stack --sort symbol_from,symbol_to --stdio -n
 *
 *   # Samples: 14K of event 'cycles'
 *   # Event count (approx.): 14336
 *   #
 *   # Overhead  Samples  Source Symbol          Target Symbol
 *   # ........  .......  .....................  .....................
 *       10.54%     1511  [k] vfs_read           [k] read_zero
 *
 * An entry line starts with its overhead ("P%"; two with --children, the
 * last is the entry's own), then the counts perf was asked for (-n: the
 * branches, --show-total-period: their periods, which branch mode sets to
 * 1 each), then the sort keys: among any others (command, shared objects,
 * cycles), the source and the target symbol, each "[L] NAME" with L the
 * privilege level: k kernel, . user, g and u a guest's, H the hypervisor.
 * A symbol perf could not name is its address ("[k] 0xffffffff81234567").
 *
 * Each entry becomes one HP_EV_BRANCH, source to target, weighed by its
 * branch count: the samples column when there is one, else the overhead of
 * the section's "Event count" (one a branch in branch mode), else the
 * overhead in hundredths of a percent. Only the kernel's ([k]) ends count;
 * the others are marked user or unknown and dropped by the symbolizer.
 * Callchain lines under an entry (-g) are skipped. A report without
 * --branch-stack (one symbol an entry) is refused with the way to get one.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/lineio.h"
#include "lib/warn.h"
#include "profile/readers.h"

#define PR_MAX_SYM 512		/* bytes of a symbol kept (kernel names are shorter) */

struct pr_state {
	hp_event_cb cb;
	void *ctx;
	const char *name;
	uint64_t count;		/* the section's "Event count (approx.)", 0: none */
};

static bool is_ws(char c)
{
	return c == ' ' || c == '\t';
}

static const char *tok_end(const char *p)
{
	while (*p && !is_ws(*p))
		p++;
	return p;
}

/* "12.34%" to hundredths of a percent; false when @s to @e is not one. */
static bool pr_percent(const char *s, const char *e, uint64_t *hundredths)
{
	uint64_t v = 0;
	int dec = -1;

	if (e - s < 2 || e[-1] != '%')
		return false;
	for (e--; s < e; s++) {
		if (*s == '.' && dec < 0) {
			dec = 0;
			continue;
		}
		if (*s < '0' || *s > '9' || v > UINT64_MAX / 100)
			return false;
		if (dec >= 2)
			continue;	/* finer than perf prints: ignored */
		v = v * 10 + (uint64_t)(*s - '0');
		if (dec >= 0)
			dec++;
	}
	for (dec = dec < 0 ? 0 : dec; dec < 2; dec++)
		v *= 10;
	*hundredths = v;
	return true;
}

/* The next "[L] " marker at or after @p (at a token's start), or NULL. */
static const char *pr_marker(const char *line, const char *p)
{
	for (; (p = strchr(p, '[')) != NULL; p++)
		if ((p == line || is_ws(p[-1])) && p[1] && strchr("k.guH", p[1]) && p[2] == ']' &&
		    is_ws(p[3]))
			return p;
	return NULL;
}

/* The symbol after marker @m into @fr (its text in @buf). */
static void pr_symbol(const char *m, struct hp_frame *fr, char *buf)
{
	const char *s = lineio_skip_ws(m + 3), *e = tok_end(s), *h = s;
	size_t n = (size_t)(e - s);

	memset(fr, 0, sizeof(*fr));
	fr->dso = m[1] == 'k' ? HP_DSO_KERNEL : m[1] == '.' ? HP_DSO_USER : HP_DSO_UNKNOWN;
	if (n > 2 && s[0] == '0' && s[1] == 'x' && lineio_parse_hex(&h, &fr->addr) && h == e) {
		fr->has_addr = 1;
		return;
	}
	if (n >= PR_MAX_SYM)
		n = PR_MAX_SYM - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	fr->sym = n ? buf : NULL;
}

static int pr_bad(const struct pr_state *st, size_t lineno, const char *why)
{
	pr_err("%s:%zu: %s; pass the output of 'perf report --branch-stack --stdio' "
	       "(or force a format with --input-format)", st->name, lineno, why);
	return -EINVAL;
}

/* "# Samples: 14K of event 'cycles'" starts a section, whose event count follows. */
static void pr_comment(struct pr_state *st, const char *p)
{
	static const char count[] = "Event count (approx.):";
	const char *q;
	uint64_t v;

	p = lineio_skip_ws(p + 1);
	if (!strncmp(p, "Samples:", 8)) {
		st->count = 0;
	} else if (!strncmp(p, count, sizeof(count) - 1)) {
		q = lineio_skip_ws(p + sizeof(count) - 1);
		if (lineio_parse_dec(&q, &v) && !*lineio_skip_ws(q))
			st->count = v;
	}
}

static int pr_line(struct pr_state *st, const char *line, size_t lineno)
{
	const char *p = lineio_skip_ws(line), *e, *q, *from, *to;
	uint64_t pct = 0, samples = 0, v;
	bool have_pct = false, have_samples = false;
	struct hp_frame fr[2];
	char sym[2][PR_MAX_SYM];
	struct hp_event ev = { .kind = HP_EV_BRANCH, .frames = fr, .nframes = 2,
			       .file = st->name, .line = lineno };

	if (!*p)
		return 0;
	if (*p == '#') {
		pr_comment(st, p);
		return 0;
	}
	if (*p == '|' || *p == '-')
		return 0;	/* the callchain under an entry (-g) */
	for (e = tok_end(p); pr_percent(p, e, &v); e = tok_end(p)) {
		pct = v;
		have_pct = true;
		p = lineio_skip_ws(e);
	}
	if (!have_pct)
		return pr_bad(st, lineno, "not a perf report entry (no overhead 'P%' first)");
	q = p;
	if (lineio_parse_dec(&q, &v) && is_ws(*q)) {
		samples = v;	/* -n; a --show-total-period column after it is the same */
		have_samples = true;
	}
	from = pr_marker(line, p);
	to = from ? pr_marker(line, from + 3) : NULL;
	if (!from)
		return pr_bad(st, lineno, "a perf report entry without a symbol ('[k] name')");
	if (!to) {
		pr_err("%s:%zu: a perf report without --branch-stack (one symbol an entry, no "
		       "source and target); record with 'perf record -b' and report with "
		       "'perf report --branch-stack --stdio', or pass 'perf script' output",
		       st->name, lineno);
		return -EINVAL;
	}
	if (have_samples)
		ev.weight = samples;
	else if (st->count)
		ev.weight = (uint64_t)(((unsigned __int128)pct * st->count + 5000) / 10000);
	else
		ev.weight = pct;
	if (!ev.weight)
		return 0;
	pr_symbol(from, &fr[0], sym[0]);
	pr_symbol(to, &fr[1], sym[1]);
	return st->cb(&ev, st->ctx);
}

static int pr_each_line(void *ctx, char *line, size_t lineno)
{
	return pr_line(ctx, line, lineno);
}

/* --event is perf script's: a report's sections are all branches */
static int perf_report_read(FILE *in, const char *name, const struct read_opts *ro,
			    hp_event_cb cb, void *ctx)
{
	struct pr_state st = { .cb = cb, .ctx = ctx, .name = name };

	return lineio_each(in, name, pr_each_line, &st);
}

/* --- detection ----------------------------------------------------------- */

/* "# Overhead ..." is perf report's column header; an entry is "P%" then "[L] sym". */
static enum sniff perf_report_sniff(const char *s, const char *e, bool first)
{
	const char *p = sniff_skip_blanks(s, e), *t;
	uint64_t v;
	size_t i;

	(void)first;
	if (e - p > 10 && !memcmp(p, "# Overhead", 10) && sniff_is_blank(p[10]))
		return SNIFF_INPUT;
	for (t = p; t < e && !sniff_is_blank(*t); t++)
		;
	if (!pr_percent(p, t, &v))
		return SNIFF_NO;
	for (i = 0; t + 4 <= e; t++)
		if (sniff_is_blank(t[0]) && t[1] == '[' && strchr("k.guH", t[2]) && t[2] &&
		    t[3] == ']' && t + 4 < e && sniff_is_blank(t[4]))
			i++;
	return i ? SNIFF_LINE : SNIFF_NO;
}

static const char *const perf_report_aliases[] = { "perf-branch-report", NULL };

const struct profile_reader profile_reader_perf_report = {
	.name = "perf-report",
	.aliases = perf_report_aliases,
	.what = "perf report --branch-stack text",
	.desc = "perf report --branch-stack --stdio text (LBR caller->callee counts, "
		"kernel [k] symbols)",
	.sniff = perf_report_sniff,
	.prio = 10,
	.read = perf_report_read,
	.units = PROF_UNIT_EVENTS,
};
