// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hprof.c - hotpack's own profile format, .hprof: line-oriented text keyed
 * by function name, so a profile outlives the build it came from and can be
 * merged with others (the format is described in docs/profiles.md):
 *
 *   hotpack-profile 2[.1]
 *   prov TEXT                      where it came from (any number)
 *   build ARCH RELEASE BUILDID     2.3: a build the data came from ("-":
 *                                  unknown); "build more": some left out
 *   units events|period...         what the weights count (version 2)
 *   stat samples|matched N         events read, events attributed
 *   stat dropped REASON N          module, user, bpf, unknown, not-in-image
 *   fn WEIGHT NAME
 *   edge WEIGHT CALLER CALLEE
 *   trace WEIGHT N NAME...         long traces go on with "+ NAME..." lines
 *   ntrace WEIGHT N F...           2.1: a trace by its functions' places among
 *                                  the fn lines (from 0); "+" lines go on too
 *   seq N T[*R]...                 2.1: the traces in the order they ran, by
 *                                  their place among the trace and ntrace
 *                                  lines (from 0), R times in a row
 *   calltree T                     2.2: trace T (its place, as for seq) is an
 *                                  explicit trace, an ftrace call tree
 *   extent F LO HI                 2.4: the samples of fn line F (its place,
 *                                  from 0) hit its bytes [LO, HI); a
 *                                  weighted fn without one: all of it
 *   textent T E...                 2.5: per function of trace T (its place,
 *                                  as for seq), the bytes its windows hit:
 *                                  LO-HI, "=" (its extent line's), "-" (not
 *                                  known); "+" lines go on; a trace without
 *                                  one: its functions' extents
 *   tranges T P LO-HI,LO-HI...     2.6: of function P (its place in trace T,
 *                                  from 0) the windows ran these bytes only,
 *                                  their hull its textent's LO-HI; before
 *                                  that textent, when they are two or more
 *   end N                          N: the lines between header and end (version 2)
 *
 * Names are written with bytes <= 0x20, 0x7f and '%' as %XX. The writer
 * sorts everything by name (provenance too), so the same profile content
 * always gives the same bytes: merging in any order, or reading and writing
 * again, changes nothing. Reading adds to the profile it is given. The
 * "end" trailer makes a file cut at a line boundary an error; version 1
 * files (no trailer, no units) are still read. A minor version adds record
 * kinds: version 2 is written unless the profile has a sequence (2.1, whose
 * traces are then written as ntrace: a third of the bytes), call trees
 * (2.2), the builds it came from (2.3), the bytes its samples hit (2.4),
 * those each trace's windows hit (2.5) or their ranges (2.6), and a 2.x file
 * of a minor this reader does not know is read with the record kinds it
 * does not know skipped.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/lineio.h"
#include "lib/warn.h"
#include "lib/xalloc.h"
#include "profile/hprof.h"
#include "profile/readers.h"

#define HPROF_MAGIC "hotpack-profile"
#define HPROF_VERSION 2
#define HPROF_MINOR 6		/* the minor version this hotpack reads and writes */
#define HPROF_MINOR_SEQ 1	/* the first with "seq" records */
#define HPROF_MINOR_CALLTREE 2	/* the first with "calltree" records */
#define HPROF_MINOR_BUILD 3	/* the first with "build" records */
#define HPROF_MINOR_EXTENT 4	/* the first with "extent" records */
#define HPROF_MINOR_TEXTENT 5	/* the first with "textent" records */
#define HPROF_MINOR_TRANGES 6	/* the first with "tranges" records */
#define HPROF_VERSION_MIN 1
#define HPROF_WRAP 4096	/* bytes of trace names per line before a "+" line */

static const char *const unit_names[] = { "events", "period" };	/* bit order */

static const char *const stat_drop[PROF_DROP_NR] = {
	[PROF_DROP_MODULE] = "module",
	[PROF_DROP_USER] = "user",
	[PROF_DROP_BPF] = "bpf",
	[PROF_DROP_UNKNOWN] = "unknown",
	[PROF_DROP_NOT_IN_IMAGE] = "not-in-image",
};

static bool must_escape(unsigned char c)
{
	return c <= 0x20 || c == 0x7f || c == '%';
}

static size_t put_name(FILE *out, const char *s)
{
	size_t n = 0;

	for (; *s; s++, n++) {
		if (must_escape((unsigned char)*s)) {
			fprintf(out, "%%%02X", (unsigned char)*s);
			n += 2;
		} else {
			putc(*s, out);
		}
	}
	return n;
}

/* Decode %XX in place; false when an escape is damaged. */
static bool decode_name(char *s)
{
	char *w = s;
	int hi, lo;

	for (; *s; s++) {
		if (*s != '%') {
			*w++ = *s;
			continue;
		}
		hi = lineio_hexval(s[1]);
		lo = hi < 0 ? -1 : lineio_hexval(s[2]);
		if (lo < 0 || (hi == 0 && lo == 0))
			return false;
		*w++ = (char)(hi << 4 | lo);
		s += 2;
	}
	*w = '\0';
	return true;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static const struct profile *sort_prof;

static int cmp_func(const void *a, const void *b)
{
	return strcmp((*(const struct prof_func *const *)a)->name,
		      (*(const struct prof_func *const *)b)->name);
}

/* Traces in the order of their name sequences (a total order with weights). */
static int cmp_trace(const void *a, const void *b)
{
	const struct prof_trace *x = *(const struct prof_trace *const *)a;
	const struct prof_trace *y = *(const struct prof_trace *const *)b;
	uint32_t i;
	int c;

	for (i = 0; i < x->n && i < y->n; i++) {
		c = strcmp(sort_prof->funcs[x->ids[i]]->name, sort_prof->funcs[y->ids[i]]->name);
		if (c)
			return c;
	}
	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	return x->weight < y->weight ? -1 : x->weight > y->weight;
}

/*
 * The sequence, each trace by its place among the @n trace lines written
 * (@trs), a run of one trace as T*R; returns the lines written.
 */
static size_t write_seq(FILE *out, const struct profile *p, const struct prof_trace **trs,
			size_t n)
{
	uint32_t *place = xmallocarray(p->ntraces, sizeof(*place));
	size_t i, j, col = 0, lines = 1;

	for (i = 0; i < n; i++)
		place[trs[i]->id] = (uint32_t)i;
	fprintf(out, "seq %zu", p->nseq);
	for (i = 0; i < p->nseq; i = j) {
		for (j = i + 1; j < p->nseq && p->seq[j] == p->seq[i]; j++)
			;
		if (col >= HPROF_WRAP) {
			fputs("\n+", out);
			col = 0;
			lines++;
		}
		col += (size_t)fprintf(out, " %" PRIu32, place[p->seq[i]]);
		if (j - i > 1)
			col += (size_t)fprintf(out, "*%zu", j - i);
	}
	putc('\n', out);
	free(place);
	return lines;
}

/*
 * The bytes each function of trace @t (the @place-th trace line) ran in its
 * windows, "=" where that is its extent line's; returns the lines written.
 */
static size_t write_textent(FILE *out, const struct profile *p, const struct prof_trace *t,
			    size_t place)
{
	size_t col = 0, lines = 1;
	uint32_t lo, hi, flo, fhi;

	if (!t->ext || t->ext_whole)
		return 0;
	fprintf(out, "textent %zu", place);
	for (uint32_t k = 0; k < t->n; k++) {
		if (col >= HPROF_WRAP) {
			fputs("\n+", out);
			col = 0;
			lines++;
		}
		if (!profile_trace_extent(t, k, &lo, &hi))
			col += (size_t)fprintf(out, " -");
		else if (profile_func_extent(p->funcs[t->ids[k]], &flo, &fhi) && flo == lo &&
			 fhi == hi)
			col += (size_t)fprintf(out, " =");
		else
			col += (size_t)fprintf(out, " %" PRIu32 "-%" PRIu32, lo, hi);
	}
	putc('\n', out);
	return lines;
}

/*
 * The ranges of each function of trace @t (the @place-th trace line) that
 * ran more than one, before its textent; returns the lines written.
 */
static size_t write_tranges(FILE *out, const struct prof_trace *t, size_t place)
{
	size_t lines = 0;

	for (uint32_t k = 0; k < t->n; k++) {
		const struct ranges *xr = profile_trace_ranges(t, k);

		if (!xr)
			continue;
		fprintf(out, "tranges %zu %" PRIu32, place, k);
		for (uint32_t j = 0; j < xr->n; j++)
			fprintf(out, "%c%" PRIu32 "-%" PRIu32, j ? ',' : ' ', xr->v[2 * j],
				xr->v[2 * j + 1]);
		putc('\n', out);
		lines++;
	}
	return lines;
}

int hprof_write(FILE *out, const struct profile *p)
{
	const struct prof_func **fns = NULL;
	const struct prof_trace **trs = NULL;
	uint32_t *fnum = NULL;	/* 2.1: function id -> its fn line */
	struct prof_trace *t, *ttmp;
	struct prof_edge **edges;
	char **prov = NULL;
	size_t i, n, lines = 0;
	uint32_t k, lo, hi;
	int err = 0, minor = 0;

	/* the lowest minor that holds what there is, so that older readers read it */
	HASH_ITER(hh, p->traces, t, ttmp)
		if (t->traced)
			minor = HPROF_MINOR_CALLTREE;
	if (!minor && p->nseq)
		minor = HPROF_MINOR_SEQ;
	if (p->builds.n)
		minor = HPROF_MINOR_BUILD;
	for (i = 0; i < p->nfuncs; i++)
		if (profile_func_extent(p->funcs[i], &lo, &hi))
			minor = HPROF_MINOR_EXTENT;
	HASH_ITER(hh, p->traces, t, ttmp) {
		if (t->ext && !t->ext_whole && minor < HPROF_MINOR_TEXTENT)
			minor = HPROF_MINOR_TEXTENT;
		for (k = 0; k < t->n; k++)
			if (profile_trace_ranges(t, k))
				minor = HPROF_MINOR_TRANGES;
	}
	if (minor)
		fprintf(out, "%s %d.%d\n", HPROF_MAGIC, HPROF_VERSION, minor);
	else
		fprintf(out, "%s %d\n", HPROF_MAGIC, HPROF_VERSION);
	if (p->nprov) {
		/*
		 * One line each, as read back: no leading blanks, line ends
		 * inside become blanks. Sort what is written, so that a profile
		 * read back sorts the same way.
		 */
		prov = xmallocarray(p->nprov, sizeof(*prov));
		for (i = 0; i < p->nprov; i++) {
			char *c, *line = xstrdup(p->provenance[i]);

			for (c = line; *c; c++)
				if (*c == '\n' || *c == '\r')
					*c = ' ';
			prov[i] = xstrdup(line + strspn(line, " \t"));
			free(line);
		}
		qsort(prov, p->nprov, sizeof(*prov), cmp_str);
		for (i = 0; i < p->nprov; i++)
			if (!i || strcmp(prov[i], prov[i - 1])) {
				fprintf(out, "prov %s\n", prov[i]);
				lines++;
			}
		for (i = 0; i < p->nprov; i++)
			free(prov[i]);
		free(prov);
	}
	if (p->builds.n) {
		char **b = xmallocarray(p->builds.n, sizeof(*b));

		memcpy(b, p->builds.v, p->builds.n * sizeof(*b));
		qsort(b, p->builds.n, sizeof(*b), cmp_str);
		for (i = 0; i < p->builds.n; i++)
			fprintf(out, "build %s\n", b[i]);
		lines += p->builds.n;
		free(b);
		if (p->builds.more) {
			fputs("build more\n", out);
			lines++;
		}
	}
	if (p->units) {
		fputs("units", out);
		for (i = 0; i < sizeof(unit_names) / sizeof(unit_names[0]); i++)
			if (p->units & (1u << i))
				fprintf(out, " %s", unit_names[i]);
		putc('\n', out);
		lines++;
	}
	fprintf(out, "stat samples %" PRIu64 "\nstat matched %" PRIu64 "\n", p->nsamples,
		p->matched);
	for (i = 0; i < PROF_DROP_NR; i++)
		fprintf(out, "stat dropped %s %" PRIu64 "\n", stat_drop[i], p->dropped[i]);
	lines += 2 + PROF_DROP_NR;

	if (p->nfuncs) {
		fns = xmallocarray(p->nfuncs, sizeof(*fns));
		for (i = 0; i < p->nfuncs; i++)
			fns[i] = p->funcs[i];
		qsort(fns, p->nfuncs, sizeof(*fns), cmp_func);
		for (i = 0; i < p->nfuncs; i++) {
			fprintf(out, "fn %" PRIu64 " ", fns[i]->weight);
			put_name(out, fns[i]->name);
			putc('\n', out);
		}
		lines += p->nfuncs;
		for (i = 0; i < p->nfuncs; i++) {
			if (!profile_func_extent(fns[i], &lo, &hi))
				continue;
			fprintf(out, "extent %zu %" PRIu32 " %" PRIu32 "\n", i, lo, hi);
			lines++;
		}
		if (p->nseq) {
			fnum = xmallocarray(p->nfuncs, sizeof(*fnum));
			for (i = 0; i < p->nfuncs; i++)
				fnum[fns[i]->id] = (uint32_t)i;
		}
		free(fns);
	}

	edges = profile_sorted_edges(p);
	for (i = 0; i < p->nedges; i++) {
		fprintf(out, "edge %" PRIu64 " ", edges[i]->weight);
		put_name(out, p->funcs[edges[i]->caller]->name);
		putc(' ', out);
		put_name(out, p->funcs[edges[i]->callee]->name);
		putc('\n', out);
	}
	lines += p->nedges;
	free(edges);

	if (p->ntraces) {
		trs = xmallocarray(p->ntraces, sizeof(*trs));
		n = 0;
		HASH_ITER(hh, p->traces, t, ttmp)
			trs[n++] = t;
		sort_prof = p;
		qsort(trs, n, sizeof(*trs), cmp_trace);
		sort_prof = NULL;
		for (i = 0; i < n; i++) {
			size_t col = 0;

			fprintf(out, "%s %" PRIu64 " %" PRIu32, fnum ? "ntrace" : "trace",
				trs[i]->weight, trs[i]->n);
			for (k = 0; k < trs[i]->n; k++) {
				if (col >= HPROF_WRAP) {
					fputs("\n+", out);
					col = 0;
					lines++;
				}
				if (fnum) {
					col += (size_t)fprintf(out, " %" PRIu32, fnum[trs[i]->ids[k]]);
				} else {
					putc(' ', out);
					col += 1 + put_name(out, p->funcs[trs[i]->ids[k]]->name);
				}
			}
			putc('\n', out);
			lines++;
		}
		if (p->nseq)
			lines += write_seq(out, p, trs, n);
		for (i = 0; i < n; i++) {
			if (!trs[i]->traced)
				continue;
			fprintf(out, "calltree %zu\n", i);
			lines++;
		}
		for (i = 0; i < n; i++) {
			lines += write_tranges(out, trs[i], i);
			lines += write_textent(out, p, trs[i], i);
		}
		free(trs);
	}
	free(fnum);
	fprintf(out, "end %zu\n", lines);
	if (ferror(out))
		err = -EIO;
	return err;
}

/* --- reading ----------------------------------------------------------- */

struct hprof_reader {
	struct lineio lr;
	const char *name;
	struct profile *prof;
	/* a trace being read across "+" lines */
	uint32_t *ids;
	uint32_t want, have, cap;
	uint64_t tweight;
	bool by_number;		/* the trace being read is an ntrace */
	/* this file's functions in the order of their fn lines, for "ntrace" */
	uint32_t *fns;
	size_t nfns, capfns;
	uint8_t *fn_weighted;	/* by fn line: FN_WEIGHTED, FN_EXTENT */
	size_t capfnw;
	/* this file's traces in the order of their lines, for "seq" */
	struct prof_trace **traces;
	size_t ntraces, captraces;
	uint32_t *fn_ext;	/* by profile function id: its extent lines' LO HI
				 * here (0 0: none), what a textent's "=" is */
	size_t capfnext;
	uint8_t *trace_ext;	/* by trace line: a textent record came for it */
	size_t captrext;
	/* a textent being read across "+" lines: for trace line tx_place */
	size_t tx_place;
	uint32_t tx_want, tx_have;
	uint32_t *tx_ext;
	size_t captxext;
	/* tranges read for trace line tr_place, waiting for its textent */
	bool tr_pending;
	size_t tr_place;
	struct ranges *tr_xr;
	uint32_t tr_cap;
	/* a sequence being read across "+" lines */
	uint64_t seq_want, seq_have;
	uint64_t version, minor;
	uint64_t skipped;	/* records of a later minor version */
	uint64_t records;	/* lines after the header, for the "end" check */
	size_t end_line;	/* where "end" was; 0: not yet */
};

enum { FN_WEIGHTED = 1, FN_EXTENT = 2 };

static char *next_tok(char **s)
{
	char *p = *s, *t;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p)
		return NULL;
	t = p;
	while (*p && *p != ' ' && *p != '\t')
		p++;
	if (*p)
		*p++ = '\0';
	*s = p;
	return t;
}

static bool tok_u64(const char *t, uint64_t *v)
{
	const char *p = t;

	return t && lineio_parse_dec(&p, v) && !*p;
}

/* "MAJOR" or "MAJOR.MINOR" */
static bool parse_version(const char *t, uint64_t *major, uint64_t *minor)
{
	const char *p = t;

	*minor = 0;
	if (!t || !lineio_parse_dec(&p, major))
		return false;
	if (*p == '.' && (++p, !lineio_parse_dec(&p, minor)))
		return false;
	return !*p;
}

static uint32_t name_id(struct hprof_reader *r, char *t, bool *ok)
{
	if (!t || !decode_name(t) || !*t) {
		*ok = false;
		return 0;
	}
	return profile_func_id(r->prof, t);
}

/* Names of a trace, from a "trace" line or its "+" continuations. */
static bool trace_names(struct hprof_reader *r, char *rest)
{
	bool ok = true;
	char *t;

	while ((t = next_tok(&rest)) != NULL) {
		if (r->have >= r->want)
			return false;
		if (r->by_number) {
			uint64_t k;

			if (!tok_u64(t, &k) || k >= r->nfns)
				return false;
			r->ids[r->have++] = r->fns[k];
			continue;
		}
		r->ids[r->have++] = name_id(r, t, &ok);
		if (!ok)
			return false;
	}
	if (r->have == r->want) {
		XGROW(r->traces, r->captraces, r->ntraces + 1);
		XGROW(r->trace_ext, r->captrext, r->ntraces + 1);
		r->traces[r->ntraces++] = profile_add_trace(r->prof, r->ids, r->want, r->tweight);
		r->want = r->have = 0;
	}
	return true;
}

static int hprof_bad(struct hprof_reader *r, const char *what)
{
	/* hotpack writes every line whole: a bad last line without its newline
	 * is a file cut short, not a damaged record */
	if (r->lr.no_newline) {
		pr_err("%s:%zu: the file ends mid-line: this .hprof was cut short; write it "
		       "again (hotpack profile/merge write it whole)", r->name, r->lr.lineno);
		return -EINVAL;
	}
	pr_err("%s:%zu: %s; this .hprof is damaged (hotpack profile/merge write it whole)",
	       r->name, r->lr.lineno, what);
	return -EINVAL;
}

static void tranges_clear(struct hprof_reader *r)
{
	for (uint32_t k = 0; k < r->tr_cap; k++)
		ranges_release(&r->tr_xr[k]);
	r->tr_pending = false;
}

/*
 * Entries of a textent, "LO-HI", "=" or "-", from its line or its "+" lines;
 * the last one adds them to the trace.
 */
static int textent_entries(struct hprof_reader *r, char *rest)
{
	struct prof_trace *t = r->traces[r->tx_place];
	char *tok;

	while ((tok = next_tok(&rest)) != NULL) {
		uint32_t *e = &r->tx_ext[2 * r->tx_have], f;
		uint64_t lo, hi;
		const char *q = tok;

		if (r->tx_have >= r->tx_want)
			return hprof_bad(r, "textent: more entries than its trace has functions");
		if (!strcmp(tok, "-")) {
			e[0] = e[1] = 0;
		} else if (!strcmp(tok, "=")) {
			f = t->ids[r->tx_have];
			if (2 * (size_t)f >= r->capfnext || !r->fn_ext[2 * f + 1])
				return hprof_bad(r, "textent: '=' for a function without an extent line");
			e[0] = r->fn_ext[2 * f];
			e[1] = r->fn_ext[2 * f + 1];
		} else if (lineio_parse_dec(&q, &lo) && *q++ == '-' && lineio_parse_dec(&q, &hi) &&
			   !*q && lo < hi && hi <= UINT32_MAX) {
			e[0] = (uint32_t)lo;
			e[1] = (uint32_t)hi;
		} else {
			return hprof_bad(r, "textent: expected LO-HI (LO < HI), '=' or '-'");
		}
		r->tx_have++;
	}
	if (r->tx_have == r->tx_want) {
		/* the tranges held for this trace line, checked against it */
		bool held = r->tr_pending && r->tr_place == r->tx_place;

		for (uint32_t k = 0; held && k < r->tx_want; k++) {
			uint32_t lo, hi;

			if (ranges_hull(&r->tr_xr[k], &lo, &hi) &&
			    (lo != r->tx_ext[2 * k] || hi != r->tx_ext[2 * k + 1]))
				return hprof_bad(r, "textent: an entry is not the hull of the "
						 "tranges before it");
		}
		profile_trace_extent_add(t, r->tx_ext, held ? r->tr_xr : NULL, false);
		if (held)
			tranges_clear(r);
	}
	return 0;
}

/* "tranges T P LO-HI,LO-HI..." (2.6): held until trace line T's textent */
static int tranges_record(struct hprof_reader *r, char *rest)
{
	uint64_t t, pos, lo, hi, prev = 0;
	struct ranges *xr;
	const char *q;
	char *tok;
	uint32_t k;

	if (!tok_u64(next_tok(&rest), &t) || t >= r->ntraces || !tok_u64(next_tok(&rest), &pos))
		return hprof_bad(r, "tranges: expected 'tranges T P LO-HI,LO-HI...', T the place "
				 "of a trace line before it");
	if (r->trace_ext[t])
		return hprof_bad(r, "tranges: after the textent of its trace (they go before it)");
	if (r->tr_pending && r->tr_place != t)
		return hprof_bad(r, "tranges: another trace's before the textent of the last");
	if (pos >= r->traces[t]->n)
		return hprof_bad(r, "tranges: P past the functions of its trace");
	if (!r->tr_pending) {
		if (r->traces[t]->n > r->tr_cap) {
			r->tr_xr = xreallocarray(r->tr_xr, r->traces[t]->n, sizeof(*r->tr_xr));
			memset(&r->tr_xr[r->tr_cap], 0,
			       (r->traces[t]->n - r->tr_cap) * sizeof(*r->tr_xr));
			r->tr_cap = r->traces[t]->n;
		}
		r->tr_pending = true;
		r->tr_place = (size_t)t;
	}
	xr = &r->tr_xr[pos];
	if (xr->n)
		return hprof_bad(r, "tranges: a function's ranges twice");
	tok = next_tok(&rest);
	if (!tok || next_tok(&rest))
		return hprof_bad(r, "tranges: expected one list LO-HI,LO-HI... after T P");
	q = tok;
	for (k = 0;; k++) {
		if (!lineio_parse_dec(&q, &lo) || *q++ != '-' || !lineio_parse_dec(&q, &hi) ||
		    lo >= hi || hi > UINT32_MAX || (k && lo <= prev) || (*q && *q != ','))
			return hprof_bad(r, "tranges: expected LO-HI,LO-HI... (LO < HI), each "
					 "past the last");
		ranges_add(xr, (uint32_t)lo, (uint32_t)hi);
		prev = hi;
		if (!*q++)
			break;
	}
	if (!k)
		return hprof_bad(r, "tranges: one range is its textent's; give two or more");
	return 0;
}

/* Entries of a sequence, "T" or "T*R", from a "seq" line or its "+" lines. */
static int seq_entries(struct hprof_reader *r, char *rest)
{
	uint64_t place, times;
	const char *p;
	char *t;

	while ((t = next_tok(&rest)) != NULL) {
		p = t;
		times = 1;
		if (!lineio_parse_dec(&p, &place) ||
		    (*p == '*' && (++p, !lineio_parse_dec(&p, &times) || !times)) || *p)
			return hprof_bad(r, "seq: expected 'seq N T[*R]...'");
		if (place >= r->ntraces)
			return hprof_bad(r, "seq: a trace number past the trace lines before it");
		if (times > r->seq_want - r->seq_have)
			return hprof_bad(r, "seq: more entries than its count");
		r->seq_have += times;
		while (times--)
			profile_add_seq(r->prof, r->traces[place]);
	}
	return 0;
}

/* "build ARCH RELEASE BUILDID" or "build more" (2.3) */
static int build_record(struct hprof_reader *r, char *rest)
{
	char *f[3], *line;
	size_t i;

	for (i = 0; i < 3; i++) {
		f[i] = next_tok(&rest);
		if (!f[i])
			break;
	}
	if (i == 1 && !strcmp(f[0], "more")) {
		r->prof->builds.more = true;
		return 0;
	}
	if (i < 3 || next_tok(&rest))
		return hprof_bad(r, "build: expected 'build ARCH RELEASE BUILDID' or 'build more'");
	line = xasprintf("%s %s %s", f[0], f[1], f[2]);
	profile_builds_add(&r->prof->builds, line);
	free(line);
	return 0;
}

int hprof_read(FILE *in, const char *name, struct profile *prof)
{
	struct hprof_reader r = { .name = name, .prof = prof };
	char *line, *rest, *kw, *t;
	bool header = false, ok = true;
	uint64_t w, v;
	size_t len, i;
	int ret;
	int (*more)(struct hprof_reader *, char *);
	const char *cut = NULL;

	lineio_init(&r.lr, in, name);
	while ((ret = lineio_next(&r.lr, &line, &len)) > 0) {
		rest = line;
		if (!header) {
			kw = next_tok(&rest);
			if (!kw || kw[0] == '#')
				continue;
			if (strcmp(kw, HPROF_MAGIC)) {
				ret = hprof_bad(&r, "not a .hprof file (no 'hotpack-profile "
						    "VERSION' header)");
				break;
			}
			if (!parse_version(next_tok(&rest), &v, &r.minor)) {
				ret = hprof_bad(&r, "no version after 'hotpack-profile'");
				break;
			}
			if (v < HPROF_VERSION_MIN || v > HPROF_VERSION || (v < 2 && r.minor)) {
				pr_err("%s:%zu: .hprof version %" PRIu64 " but this hotpack reads "
				       "versions %d to %d; use a hotpack of that version", name,
				       r.lr.lineno, v, HPROF_VERSION_MIN, HPROF_VERSION);
				ret = -EINVAL;
				break;
			}
			r.version = v;
			header = true;
			continue;
		}
		if (r.end_line) {
			kw = next_tok(&rest);
			if (!kw || kw[0] == '#')
				continue;
			ret = hprof_bad(&r, "a record after 'end'");
			break;
		}
		if (line[0] && line[0] != '#' && *lineio_skip_ws(line))
			r.records++;
		if (r.want > r.have) {
			if (line[0] != '+' || !trace_names(&r, line + 1)) {
				ret = hprof_bad(&r, "trace shorter than its count");
				break;
			}
			continue;
		}
		/* a seq or textent goes on on "+" lines */
		more = NULL;
		if (r.seq_want > r.seq_have) {
			more = seq_entries;
			cut = "seq shorter than its count";
		} else if (r.tx_want > r.tx_have) {
			more = textent_entries;
			cut = "textent shorter than its trace";
		}
		if (more) {
			ret = line[0] == '+' ? more(&r, line + 1) : hprof_bad(&r, cut);
			if (ret)
				break;
			continue;
		}
		if (!line[0] || line[0] == '#')
			continue;
		kw = next_tok(&rest);
		if (!kw)
			continue;
		if (!strcmp(kw, "fn")) {
			if (!tok_u64(next_tok(&rest), &w)) {
				ret = hprof_bad(&r, "fn: bad weight");
				break;
			}
			i = name_id(&r, next_tok(&rest), &ok);
			if (!ok || next_tok(&rest)) {
				ret = hprof_bad(&r, "fn: expected 'fn WEIGHT NAME'");
				break;
			}
			/* whole unless an extent line says otherwise (after the
			 * last line: fn_weighted) */
			profile_add_weight_only(prof, (uint32_t)i, w);
			XGROW(r.fns, r.capfns, r.nfns + 1);
			XGROW(r.fn_weighted, r.capfnw, r.nfns + 1);
			r.fn_weighted[r.nfns] = w ? FN_WEIGHTED : 0;
			r.fns[r.nfns++] = (uint32_t)i;
		} else if (!strcmp(kw, "extent") && r.minor >= HPROF_MINOR_EXTENT) {
			uint64_t lo, hi;

			if (!tok_u64(next_tok(&rest), &v) || v >= r.nfns ||
			    !tok_u64(next_tok(&rest), &lo) || !tok_u64(next_tok(&rest), &hi) ||
			    next_tok(&rest) || lo >= hi || hi > UINT32_MAX) {
				ret = hprof_bad(&r, "extent: expected 'extent F LO HI', F the place of "
						"a fn line before it, LO < HI offsets");
				break;
			}
			profile_func_extent_add(prof->funcs[r.fns[v]], (uint32_t)lo, (uint32_t)hi,
						false);
			r.fn_weighted[v] |= FN_EXTENT;
			XGROW(r.fn_ext, r.capfnext, 2 * ((size_t)r.fns[v] + 1));
			extent_widen(&r.fn_ext[2 * r.fns[v]], &r.fn_ext[2 * r.fns[v] + 1],
				     (uint32_t)lo, (uint32_t)hi);
		} else if (!strcmp(kw, "edge")) {
			uint32_t a, b;

			if (!tok_u64(next_tok(&rest), &w)) {
				ret = hprof_bad(&r, "edge: bad weight");
				break;
			}
			a = name_id(&r, next_tok(&rest), &ok);
			b = ok ? name_id(&r, next_tok(&rest), &ok) : 0;
			if (!ok || next_tok(&rest)) {
				ret = hprof_bad(&r, "edge: expected 'edge WEIGHT CALLER CALLEE'");
				break;
			}
			profile_add_edge(prof, a, b, w);
		} else if (!strcmp(kw, "trace") ||
			   (!strcmp(kw, "ntrace") && r.minor >= HPROF_MINOR_SEQ)) {
			r.by_number = kw[0] == 'n';
			if (!tok_u64(next_tok(&rest), &w) || !tok_u64(next_tok(&rest), &v) || !v ||
			    v > (1u << 24)) {
				ret = hprof_bad(&r, r.by_number ? "ntrace: expected 'ntrace WEIGHT N F...'"
							: "trace: expected 'trace WEIGHT N NAME...'");
				break;
			}
			if (v > r.cap) {
				r.ids = xreallocarray(r.ids, v, sizeof(*r.ids));
				r.cap = (uint32_t)v;
			}
			r.want = (uint32_t)v;
			r.have = 0;
			r.tweight = w;
			if (!trace_names(&r, rest)) {
				ret = hprof_bad(&r, r.by_number ?
						"ntrace: more functions than its count, or not a fn line's place" :
						"trace: more names than its count, or a bad name");
				break;
			}
		} else if (!strcmp(kw, "calltree") && r.minor >= HPROF_MINOR_CALLTREE) {
			if (!tok_u64(next_tok(&rest), &v) || next_tok(&rest) || v >= r.ntraces) {
				ret = hprof_bad(&r, "calltree: expected 'calltree T', T the place of "
						"a trace line before it");
				break;
			}
			r.traces[v]->traced = true;
		} else if (!strcmp(kw, "textent") && r.minor >= HPROF_MINOR_TEXTENT) {
			if (!tok_u64(next_tok(&rest), &v) || v >= r.ntraces || r.trace_ext[v]) {
				ret = hprof_bad(&r, "textent: expected 'textent T E...', T the place of "
						"a trace line before it, once");
				break;
			}
			r.trace_ext[v] = 1;
			r.tx_place = (size_t)v;
			r.tx_want = r.traces[v]->n;
			r.tx_have = 0;
			XGROW(r.tx_ext, r.captxext, 2 * (size_t)r.tx_want);
			ret = textent_entries(&r, rest);
			if (ret)
				break;
		} else if (!strcmp(kw, "tranges") && r.minor >= HPROF_MINOR_TRANGES) {
			ret = tranges_record(&r, rest);
			if (ret)
				break;
		} else if (!strcmp(kw, "seq") && r.minor >= HPROF_MINOR_SEQ) {
			if (!tok_u64(next_tok(&rest), &v) || !v) {
				ret = hprof_bad(&r, "seq: expected 'seq N T[*R]...'");
				break;
			}
			r.seq_want = v;
			r.seq_have = 0;
			ret = seq_entries(&r, rest);
			if (ret)
				break;
		} else if (!strcmp(kw, "end") && r.version >= 2) {
			r.records--;	/* not counted itself */
			if (!tok_u64(next_tok(&rest), &v) || next_tok(&rest)) {
				ret = hprof_bad(&r, "end: expected 'end N'");
				break;
			}
			if (v != r.records) {
				pr_err("%s:%zu: 'end %" PRIu64 "' but %" PRIu64 " record line%s came "
				       "before it; this .hprof was cut or edited", name, r.lr.lineno,
				       v, r.records, r.records == 1 ? "" : "s");
				ret = -EINVAL;
				break;
			}
			r.end_line = r.lr.lineno;
		} else if (!strcmp(kw, "units") && r.version >= 2) {
			while ((t = next_tok(&rest)) != NULL) {
				for (i = 0; i < sizeof(unit_names) / sizeof(unit_names[0]); i++)
					if (!strcmp(t, unit_names[i]))
						break;
				if (i == sizeof(unit_names) / sizeof(unit_names[0]))
					break;
				prof->units |= 1u << i;
			}
			if (t) {
				ret = hprof_bad(&r, "units: expected 'events' or 'period'");
				break;
			}
		} else if (!strcmp(kw, "build") && r.minor >= HPROF_MINOR_BUILD) {
			ret = build_record(&r, rest);
			if (ret)
				break;
		} else if (!strcmp(kw, "prov")) {
			profile_add_provenance(prof, lineio_skip_ws(rest));
		} else if (!strcmp(kw, "stat")) {
			t = next_tok(&rest);
			if (t && !strcmp(t, "dropped")) {
				t = next_tok(&rest);
				for (i = 0; i < PROF_DROP_NR; i++)
					if (t && !strcmp(t, stat_drop[i]))
						break;
				if (i == PROF_DROP_NR || !tok_u64(next_tok(&rest), &v)) {
					ret = hprof_bad(&r, "stat dropped: unknown reason or count");
					break;
				}
				prof->dropped[i] += v;
			} else if (t && (!strcmp(t, "samples") || !strcmp(t, "matched")) &&
				   tok_u64(next_tok(&rest), &v)) {
				if (t[0] == 's')
					prof->nsamples += v;
				else
					prof->matched += v;
			} else {
				ret = hprof_bad(&r, "stat: unknown counter");
				break;
			}
		} else if (r.minor > HPROF_MINOR) {
			/* a record of a later minor version: this reader has no use for it */
			if (!r.skipped++)
				pr_info("%s:%zu: '%s' records skipped (.hprof %" PRIu64 ".%" PRIu64
					"; this hotpack knows %d.%d)", name, r.lr.lineno, kw,
					r.version, r.minor, HPROF_VERSION, HPROF_MINOR);
		} else {
			ret = hprof_bad(&r, "unknown record (fn, edge, trace, ntrace, seq, calltree, build, extent, textent, tranges, prov, stat)");
			break;
		}
	}
	if (!ret && !header) {
		pr_err("%s: empty .hprof (no 'hotpack-profile VERSION' header)", name);
		ret = -EINVAL;
	}
	if (!ret && r.seq_want > r.seq_have) {
		pr_err("%s:%zu: the file ends inside a seq; it was cut short", name, r.lr.lineno);
		ret = -EINVAL;
	}
	if (!ret && r.want > r.have) {
		pr_err("%s:%zu: the file ends inside a trace; it was cut short", name,
		       r.lr.lineno);
		ret = -EINVAL;
	}
	if (!ret && r.tx_want > r.tx_have) {
		pr_err("%s:%zu: the file ends inside a textent; it was cut short", name,
		       r.lr.lineno);
		ret = -EINVAL;
	}
	if (!ret && r.tr_pending) {
		pr_err("%s:%zu: tranges for trace line %zu and no textent after them; this .hprof "
		       "is damaged (hotpack profile/merge write it whole)", name, r.lr.lineno,
		       r.tr_place);
		ret = -EINVAL;
	}
	/* a trace with no textent: what its windows ran is not known here */
	for (size_t j = 0; !ret && j < r.ntraces; j++)
		if (!r.trace_ext[j])
			profile_trace_extent_add(r.traces[j], NULL, NULL, true);
	/* a weighted function with no extent line: its samples said no offset */
	for (size_t j = 0; !ret && j < r.nfns; j++)
		if (r.fn_weighted[j] == FN_WEIGHTED)
			profile_func_extent_add(prof->funcs[r.fns[j]], 0, 0, true);
	if (!ret && r.version >= 2 && !r.end_line) {
		pr_err("%s:%zu: no 'end' line: this .hprof was cut short; write it again "
		       "(hotpack profile/merge)", name, r.lr.lineno);
		ret = -EINVAL;
	}
	free(r.ids);
	free(r.traces);
	free(r.fns);
	free(r.fn_weighted);
	free(r.fn_ext);
	free(r.trace_ext);
	free(r.tx_ext);
	tranges_clear(&r);
	free(r.tr_xr);
	lineio_release(&r.lr);
	return ret;
}

/* The magic, on the first line only. */
static enum sniff hprof_sniff(const char *s, const char *e, bool first)
{
	const char *p = sniff_skip_blanks(s, e);

	if (first && (size_t)(e - p) >= strlen(HPROF_MAGIC) &&
	    !memcmp(p, HPROF_MAGIC, strlen(HPROF_MAGIC)))
		return SNIFF_INPUT;
	return SNIFF_NO;
}

const struct profile_reader profile_reader_hprof = {
	.name = "hprof",
	.what = ".hprof profiles",
	.desc = ".hprof",
	.sniff = hprof_sniff,
	.prio = 30,	/* the magic wins over a trace-cmd event name on its line */
	.read_profile = hprof_read,
};
