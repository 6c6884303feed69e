// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftrace.c - a reader for the function_graph tracer's text, written from
 * Documentation/trace/ftrace.rst: the raw tracefs `trace` file and the
 * output of `trace-cmd report`.
 *
 * A raw line is "[ABSTIME |] [CPU)] [TASK-PID |] [MARK DURATION] |  FUNCTION"
 * where every column but the function may be switched off; the function
 * column is indented two blanks per call depth and reads "f() {", "f();"
 * or "}" (with funcgraph-tail "} /\* f *\/", with return values a trailing
 * comment). trace-cmd report prints "TASK-PID [CPU] TIME: funcgraph_entry:"
 * or "funcgraph_exit:" before the same duration and function columns.
 * Context-switch banners ("A-1 => B-2") set the task of a CPU when the task
 * column is off; interrupt markers (==========> and <==========) and
 * trace_printk comments are skipped, the interrupt's calls stay nested in
 * the tree they interrupted; "[LOST N EVENTS]" ends the CPU's open trees.
 *
 * Each call tree of one task on one CPU becomes one HP_EV_TRACE event: its
 * entries in execution order with depths relative to the tree's root, weight
 * 1. A tree ends when its root returns; a trace that starts inside a call
 * (its opening was before the buffer) gives partial trees, each emitted when
 * the depth falls below where it started. Memory: the open trees only.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/lineio.h"
#include "lib/warn.h"
#include "lib/xalloc.h"
#include "profile/readers.h"

#define FT_MAX_ENTRIES 65536u	/* one tree's entries; a longer one is split */
#define FT_MAX_OPEN 1024u	/* open trees (CPU x task) */
#define FT_KEYLEN 64

struct ft_tree {
	int cpu;
	char task[FT_KEYLEN];
	uint32_t base;		/* indentation depth of the root */
	size_t line;		/* line of the first entry */
	struct hp_frame *fr;
	size_t *symat;
	size_t n, cap;
	char *arena;
	size_t alen, acap;
	uint64_t seq;		/* creation order, for a deterministic flush */
};

struct ft_cpu {
	int cpu;
	char task[FT_KEYLEN];	/* from the last banner */
};

struct ft_state {
	hp_event_cb cb;
	void *ctx;
	const char *name;
	struct ft_tree *trees;
	size_t ntrees, captrees;
	struct ft_cpu *cpus;
	size_t ncpus, capcpus;
	uint64_t seq;
	bool tracecmd;		/* trace-cmd report: other events may be mixed in */
};

static bool is_ws(char c)
{
	return c == ' ' || c == '\t';
}

static int ft_emit(struct ft_state *st, struct ft_tree *t)
{
	struct hp_event ev = { .kind = HP_EV_TRACE, .weight = 1, .file = st->name };
	size_t i;

	if (!t->n)
		return 0;
	for (i = 0; i < t->n; i++)
		t->fr[i].sym = t->symat[i] == SIZE_MAX ? NULL : t->arena + t->symat[i];
	ev.frames = t->fr;
	ev.nframes = t->n;
	ev.line = t->line;
	t->n = 0;
	t->alen = 0;
	return st->cb(&ev, st->ctx);
}

static void ft_tree_free(struct ft_tree *t)
{
	free(t->fr);
	free(t->symat);
	free(t->arena);
}

/* Emit and forget tree @i. */
static int ft_close(struct ft_state *st, size_t i)
{
	int ret = ft_emit(st, &st->trees[i]);

	ft_tree_free(&st->trees[i]);
	st->trees[i] = st->trees[--st->ntrees];
	return ret;
}

static struct ft_tree *ft_find(struct ft_state *st, int cpu, const char *task, size_t *idx)
{
	size_t i;

	for (i = 0; i < st->ntrees; i++)
		if (st->trees[i].cpu == cpu && !strcmp(st->trees[i].task, task)) {
			*idx = i;
			return &st->trees[i];
		}
	return NULL;
}

/* Emit trees in the order they were opened: output must not depend on slots. */
static int ft_close_oldest(struct ft_state *st, int cpu, bool any_cpu)
{
	size_t i, best;
	int ret;

	for (;;) {
		best = SIZE_MAX;
		for (i = 0; i < st->ntrees; i++)
			if ((any_cpu || st->trees[i].cpu == cpu) &&
			    (best == SIZE_MAX || st->trees[i].seq < st->trees[best].seq))
				best = i;
		if (best == SIZE_MAX)
			return 0;
		ret = ft_close(st, best);
		if (ret)
			return ret;
	}
}

static struct ft_cpu *ft_cpu(struct ft_state *st, int cpu)
{
	size_t i;

	for (i = 0; i < st->ncpus; i++)
		if (st->cpus[i].cpu == cpu)
			return &st->cpus[i];
	XGROW(st->cpus, st->capcpus, st->ncpus + 1);
	st->cpus[st->ncpus].cpu = cpu;
	st->cpus[st->ncpus].task[0] = '\0';
	return &st->cpus[st->ncpus++];
}

static void copy_task(char *dst, const char *s, size_t n)
{
	if (n >= FT_KEYLEN)
		n = FT_KEYLEN - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

static void ft_push(struct ft_tree *t, const struct hp_frame *fr, const char *sym, size_t symlen)
{
	if (t->n >= t->cap) {
		XGROW(t->fr, t->cap, t->n + 1);
		t->symat = xreallocarray(t->symat, t->cap, sizeof(*t->symat));
	}
	t->fr[t->n] = *fr;
	t->symat[t->n] = t->alen;
	if (t->alen + symlen + 1 > t->acap)
		XGROW(t->arena, t->acap, t->alen + symlen + 1);
	memcpy(t->arena + t->alen, sym, symlen);
	t->arena[t->alen + symlen] = '\0';
	t->alen += symlen + 1;
	t->n++;
}

enum ft_kind { FT_ENTRY, FT_LEAF, FT_CLOSE };

/*
 * One function-column event for (cpu, task): an entry "f() {", a leaf
 * "f();" or a close "}", at indentation depth @d.
 */
static int ft_event(struct ft_state *st, int cpu, const char *task, enum ft_kind kind, uint32_t d,
		    const struct hp_frame *fr, const char *sym, size_t symlen, size_t lineno)
{
	struct ft_tree *t;
	size_t idx;
	int ret;

	t = ft_find(st, cpu, task, &idx);
	if (kind == FT_CLOSE) {
		if (!t)
			return 0;	/* its entry was before the trace began */
		if (d <= t->base)
			return ft_close(st, idx);
		return 0;
	}
	if (t && (d <= t->base || t->n >= FT_MAX_ENTRIES)) {
		/* a new root (the old tree lost its close), or a giant tree */
		ret = ft_close(st, idx);
		if (ret)
			return ret;
		t = NULL;
	}
	if (!t) {
		if (st->ntrees >= FT_MAX_OPEN) {
			ret = ft_close_oldest(st, 0, true);
			if (ret)
				return ret;
		}
		XGROW(st->trees, st->captrees, st->ntrees + 1);
		idx = st->ntrees++;
		t = &st->trees[idx];
		memset(t, 0, sizeof(*t));
		t->cpu = cpu;
		copy_task(t->task, task, strlen(task));
		t->base = d;
		t->line = lineno;
		t->seq = st->seq++;
	}
	{
		struct hp_frame f = *fr;

		f.depth = d - t->base;
		ft_push(t, &f, sym, symlen);
	}
	if (kind == FT_LEAF && d == t->base)
		return ft_close(st, idx);
	return 0;
}

/*
 * Parse the function column (after the indentation): "name() {",
 * "name();", "}" with optional trailing comments. Module functions print
 * as "name [mod]", with sym-offset as "name+0x0/0x40".
 */
static int ft_function(const char *s, enum ft_kind *kind, struct hp_frame *fr, const char **sym,
		       size_t *symlen)
{
	const char *paren, *e, *q;

	memset(fr, 0, sizeof(*fr));
	fr->dso = HP_DSO_KERNEL;
	if (s[0] == '}') {
		*kind = FT_CLOSE;
		return 0;
	}
	if (s[0] == '/' && s[1] == '*')
		return 1;	/* trace_printk comment */
	paren = strstr(s, "()");
	if (!paren || paren == s)
		return -1;
	q = paren + 2;
	while (is_ws(*q))
		q++;
	if (*q == '{')
		*kind = FT_ENTRY;
	else if (*q == ';')
		*kind = FT_LEAF;
	else
		return -1;
	e = paren;
	if (e[-1] == ']') {	/* "name [module]" */
		q = e - 1;
		while (q > s && q[-1] != '[')
			q--;
		if (q > s + 1 && q[-2] == ' ') {
			fr->dso = HP_DSO_MODULE;
			e = q - 2;
		}
	}
	for (q = s; q < e; q++)
		if (*q == '+' || is_ws(*q))
			break;
	if (*q == '+') {
		const char *h = q + 1;

		if (lineio_parse_hex(&h, &fr->off))
			fr->has_off = 1;
	}
	*sym = s;
	*symlen = (size_t)(q - s);
	return *symlen ? 0 : -1;
}

/* Depth from the indentation of the function column at @col. */
static const char *ft_indent(const char *col, uint32_t *depth)
{
	const char *p = col;

	while (*p == ' ')
		p++;
	*depth = (uint32_t)((p - col) / 2);
	return p;
}

/* A "comm-pid" token: something, a dash, digits. */
static bool is_task(const char *s, size_t n)
{
	size_t i = n;

	while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
		i--;
	return i > 1 && i < n && s[i - 1] == '-';
}

static int ft_bad(struct ft_state *st, size_t lineno)
{
	pr_err("%s:%zu: not an ftrace function_graph line (trace file or trace-cmd report); "
	       "check the tracer was function_graph, or force a format with --input-format",
	       st->name, lineno);
	return -EINVAL;
}

/* "[LOST 123 EVENTS]" / "CPU:2 [LOST ...]": the CPU's trees are incomplete. */
static int ft_lost(struct ft_state *st, const char *line)
{
	const char *c = strstr(line, "CPU:");

	if (c)
		return ft_close_oldest(st, atoi(c + 4), false);
	return ft_close_oldest(st, 0, true);
}

/* " 0)   bash-1234   =>   dd-38": the CPU now runs the task after "=>". */
static int ft_banner(struct ft_state *st, const char *p, const char *after, size_t lineno)
{
	const char *n = lineio_skip_ws(after), *ne = n, *o, *oe;
	int cpu = *p >= '0' && *p <= '9' ? atoi(p) : 0;
	struct ft_cpu *c;
	size_t i;

	while (*ne && !is_ws(*ne))
		ne++;
	if (ne == n)
		return ft_bad(st, lineno);
	c = ft_cpu(st, cpu);
	if (!c->task[0]) {
		/* the first banner names the task that ran before it */
		for (oe = after - 2; oe > p && is_ws(oe[-1]); oe--)
			;
		for (o = oe; o > p && !is_ws(o[-1]); o--)
			;
		for (i = 0; i < st->ntrees; i++)
			if (st->trees[i].cpu == cpu && !st->trees[i].task[0])
				copy_task(st->trees[i].task, o, (size_t)(oe - o));
	}
	copy_task(c->task, n, (size_t)(ne - n));
	return 0;
}

/* "TASK-PID [CPU] [FLAGS] TIME: funcgraph_entry: DURATION |  FUNCTION" */
static int ft_tracecmd(struct ft_state *st, char *line, const char *ev, size_t lineno)
{
	const char *p = line, *br, *bar, *col, *sym = NULL, *t0, *t1;
	char task[FT_KEYLEN];
	struct hp_frame fr;
	enum ft_kind kind;
	size_t symlen = 0;
	uint32_t d;
	int cpu, r;

	br = strchr(p, '[');
	if (!br || br >= ev)
		return ft_bad(st, lineno);
	cpu = atoi(br + 1);
	t0 = lineio_skip_ws(p);
	t1 = br;
	while (t1 > t0 && is_ws(t1[-1]))
		t1--;
	copy_task(task, t0, (size_t)(t1 - t0));
	bar = strchr(ev, '|');
	if (!bar)
		return ft_bad(st, lineno);
	col = ft_indent(bar + 1, &d);
	r = ft_function(col, &kind, &fr, &sym, &symlen);
	if (r < 0)
		return ft_bad(st, lineno);
	if (r > 0)
		return 0;
	return ft_event(st, cpu, task, kind, d, &fr, sym, symlen, lineno);
}

static int ft_line(struct ft_state *st, char *line, size_t lineno)
{
	const char *p = lineio_skip_ws(line), *bar = NULL, *cmt, *q, *col, *tok, *te;
	const char *sym = NULL, *task = NULL;
	size_t tasklen = 0, symlen = 0;
	char taskbuf[FT_KEYLEN];
	struct hp_frame fr;
	enum ft_kind kind;
	int cpu = -1, r;
	uint32_t d;

	if (!*p || *p == '#')
		return 0;
	if (strstr(p, "[LOST") || strstr(p, "LOST EVENTS"))
		return ft_lost(st, p);
	q = strstr(p, "funcgraph_entry:");
	if (q) {
		st->tracecmd = true;
		return ft_tracecmd(st, line, q + 16, lineno);
	}
	q = strstr(p, "funcgraph_exit:");
	if (q) {
		st->tracecmd = true;
		return ft_tracecmd(st, line, q + 15, lineno);
	}
	if (strspn(p, "-") == strlen(p))
		return 0;	/* banner rule */
	if (!strncmp(p, "Tracing \"", 9) || !strncmp(p, "Ending tracing...", 17))
		return 0;	/* perf-tools' funcgraph says what it traces */
	if (strstr(p, "==========>") || strstr(p, "<=========="))
		return 0;	/* irq entry/exit: its calls stay nested */
	/* trace-cmd report headers */
	if (!strncmp(p, "version = ", 10) || !strncmp(p, "cpus=", 5) ||
	    (!strncmp(p, "CPU ", 4) && strstr(p, " is empty"))) {
		st->tracecmd = true;
		return 0;
	}

	/* the last '|' before any comment ends the columns */
	cmt = strstr(p, "/*");
	for (q = p; *q && (!cmt || q < cmt); q++)
		if (*q == '|')
			bar = q;
	if (!bar && (q = strstr(p, "=>")) != NULL)
		return ft_banner(st, p, q + 2, lineno);
	if (!bar && st->tracecmd && (q = strchr(p, '[')) != NULL && q[1] >= '0' &&
	    q[1] <= '9' && strstr(q, ": ")) {
		return 0;	/* trace-cmd report: an event other than the graph's */
	}

	/* the left columns: [ABSTIME |] [CPU)] [TASK-PID] ... */
	for (tok = p; *tok && (!bar || tok < bar); tok = lineio_skip_ws(te)) {
		te = tok;
		while (*te && !is_ws(*te) && (!bar || te < bar))
			te++;
		if (te == tok) {
			te++;
			continue;
		}
		if (cpu < 0 && te[-1] == ')' && te - tok >= 2 && tok[0] >= '0' && tok[0] <= '9') {
			cpu = atoi(tok);
			if (!bar) {	/* no duration column: the function follows ") " */
				bar = te - 1;
				break;
			}
		} else if (!task && is_task(tok, (size_t)(te - tok))) {
			task = tok;
			tasklen = (size_t)(te - tok);
		}
	}
	if (!bar)
		return ft_bad(st, lineno);
	/* funcgraph-duration off: the CPU column is the last before the function */
	q = lineio_skip_ws(bar + 1);
	if (cpu < 0 && *q >= '0' && *q <= '9') {
		tok = q;
		while (*q >= '0' && *q <= '9')
			q++;
		if (*q == ')' && is_ws(q[1])) {
			cpu = atoi(tok);
			bar = q;
		}
	}
	if (cpu < 0)
		cpu = 0;
	if (task) {
		copy_task(taskbuf, task, tasklen);
	} else {
		copy_task(taskbuf, ft_cpu(st, cpu)->task, strlen(ft_cpu(st, cpu)->task));
	}
	col = ft_indent(bar + 1, &d);
	if (!*col)
		return 0;	/* an empty column (irq marker leftovers) */
	r = ft_function(col, &kind, &fr, &sym, &symlen);
	if (r < 0)
		return ft_bad(st, lineno);
	if (r > 0)
		return 0;
	return ft_event(st, cpu, taskbuf, kind, d, &fr, sym, symlen, lineno);
}

static int ft_each_line(void *ctx, char *line, size_t lineno)
{
	return ft_line(ctx, line, lineno);
}

static int ftrace_read(FILE *in, const char *name, const struct read_opts *ro, hp_event_cb cb,
		       void *ctx)
{
	struct ft_state st = { .cb = cb, .ctx = ctx, .name = name };
	size_t i;
	int ret;

	ret = lineio_each(in, name, ft_each_line, &st);
	if (!ret)
		ret = ft_close_oldest(&st, 0, true);	/* partial trees at the end */
	for (i = 0; i < st.ntrees; i++)
		ft_tree_free(&st.trees[i]);
	free(st.trees);
	free(st.cpus);
	return ret;
}

/* --- detection ----------------------------------------------------------- */

/*
 * " 0)  ...  |  func() {" and its kin: a '|' and then a call, a '}' or a
 * marker; without the duration column (funcgraph-duration off, perf-tools'
 * funcgraph -D) " 0)   func() {", the CPU column then the call.
 */
static bool ft_sniff_graph(const char *s, const char *e)
{
	const char *bar = NULL, *p;

	for (p = s; p < e; p++)
		if (*p == '|')
			bar = p;
	if (!bar) {
		p = sniff_skip_blanks(s, e);
		if (p == e || *p < '0' || *p > '9')
			return false;
		while (p < e && *p >= '0' && *p <= '9')
			p++;
		if (p + 1 >= e || *p != ')' || !sniff_is_blank(p[1]))
			return false;
		bar = p;
	}
	while (e > bar && sniff_is_blank(e[-1]))
		e--;
	return sniff_has(bar, e, "() {") || sniff_has(bar, e, "();") ||
	       (e > bar && e[-1] == '}') || sniff_has(bar, e, "} /*") ||
	       sniff_has(s, e, "==========>") || sniff_has(s, e, "<==========");
}

/* The tracer's header or trace-cmd's event names say it; else the graph. */
static enum sniff ftrace_sniff(const char *s, const char *e, bool first)
{
	if (sniff_has(s, e, "# tracer: function_graph") || sniff_has(s, e, "funcgraph_entry:") ||
	    sniff_has(s, e, "funcgraph_exit:"))
		return SNIFF_INPUT;
	return ft_sniff_graph(s, e) ? SNIFF_LINE : SNIFF_NO;
}

static const char *const ftrace_aliases[] = { "function_graph", "trace-cmd", NULL };

const struct profile_reader profile_reader_ftrace = {
	.name = "ftrace",
	.aliases = ftrace_aliases,
	.what = "ftrace function_graph text",
	.desc = "ftrace function_graph text (trace file or trace-cmd report)",
	.sniff = ftrace_sniff,
	.prio = 20,	/* trace-cmd's lines have perf's time stamps */
	.read = ftrace_read,
	.units = PROF_UNIT_EVENTS,
};
