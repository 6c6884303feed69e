// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * emit.c - the order written for each linker. A function is named by its
 * real input section (from the map or object); a section name that several
 * functions share (static functions of one name) is qualified by its object
 * file when the map gave it, and otherwise left out and reported, so that one
 * line never drags an unrelated function along.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit.h"
#include "lib/hotpack.h"
#include "lib/warn.h"
#include "lib/xalloc.h"

static const char *const format_names[] = {
	[EMIT_LDS] = "lds",
	[EMIT_GOLD] = "gold",
	[EMIT_LLD] = "lld",
	[EMIT_LD_SECTION_ORDERING] = "ld-section-ordering",
	[EMIT_LIST] = "list",
};

int emit_format_from_name(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(format_names) / sizeof(format_names[0]); i++)
		if (!strcmp(name, format_names[i]))
			return (int)i;
	return -1;
}

const char *emit_format_name(enum emit_format f)
{
	return format_names[f];
}

/*
 * Is another function of the image in an input section of the same name?
 * *same_object: one of those also came from f's object file, so the object
 * cannot tell them apart (a final link of one vmlinux.o, as with IBT or LTO).
 */
static bool section_name_shared(const struct kimage *img, const struct kfunc *f,
				bool *same_object)
{
	const struct kfunc *o;
	bool shared = false;

	*same_object = false;
	if (!(f->flags & KF_DUPNAME))
		return (f->flags & KF_SHAREDSEC) != 0;
	for (o = kimage_find_func_by_name(img, f->name); o;
	     o = o->next_same_name >= 0 ? &img->funcs[o->next_same_name] : NULL) {
		if (o == f || !o->section || strcmp(o->section, f->section))
			continue;
		shared = true;
		if (f->object && o->object && !strcmp(o->object, f->object))
			*same_object = true;
	}
	return shared || (f->flags & KF_SHAREDSEC);
}

/*
 * An input-section statement limited to one object file. A plain file name
 * without wildcards would make GNU ld load that file a second time, and
 * "*OBJ" also matches every path that ends in OBJ; checked with GNU ld 2.40:
 * "*:OBJ" matches OBJ only as an archive member (Kbuild links vmlinux.a, a
 * thin archive that keeps the members' paths, as the map prints them) and
 * ":OBJ" only as a file on the command line, so both are written and one
 * matches. The map prints a member of an ordinary archive as "LIB.a(OBJ)":
 * that is "LIB.a:OBJ" in a script.
 */
static void emit_qualified(FILE *out, const char *indent, const char *object,
			   const char *section)
{
	size_t len = strlen(object);
	const char *paren = strchr(object, '(');

	if (paren && len > 2 && object[len - 1] == ')') {
		fprintf(out, "%s%.*s:%.*s(%s)\n", indent, (int)(paren - object), object,
			(int)(len - (size_t)(paren - object) - 2), paren + 1, section);
		return;
	}
	fprintf(out, "%s*:%s(%s) :%s(%s)\n", indent, object, section, object, section);
}

/* Which explicit traces are at their reachable bound, and why not. */
static void emit_traced(FILE *out, const char *mid, const struct cgraph *cg,
			const struct layout_traced *t)
{
	const char *root = cg->img ? cg->img->funcs[cg->nodes[t->top_root].func].name : "?";

	fprintf(out, "%sexplicit paths: %zu of %zu at their reachable bound (heaviest, %s: "
		"%u page%s, bound %u)", mid, t->at_bound, t->npaths, root, t->top_pages,
		t->top_pages == 1 ? "" : "s", t->top_bound);
	if (!t->packed)
		fprintf(out, "; not packed first: model: packing costs %" PRIu64 " misses "
			"more than it saves (the paths %" PRIu64 " -> %" PRIu64 ", the rest "
			"%" PRIu64 " -> %" PRIu64 ")",
			t->path_misses[1] + t->node_misses[1] - t->path_misses[0] - t->node_misses[0],
			t->path_misses[0], t->path_misses[1], t->node_misses[0], t->node_misses[1]);
	fprintf(out, "\n");
	for (size_t k = 0; k < t->nshown; k++) {
		char why[512];

		fprintf(out, "%s  %s\n", mid, layout_traced_why(cg, t, k, why, sizeof(why)));
	}
	if (t->nshown < t->npaths)
		fprintf(out, "%s  and %zu lighter explicit paths\n", mid, t->npaths - t->nshown);
}

void emit_summary_print(FILE *out, const char *mid, const struct emit_summary *s)
{
	fprintf(out, "%sfunctions placed: %zu (%" PRIu64 " bytes), pages used: %zu (now: %zu), "
		"lower bound: %zu\n", mid, s->placed, s->bytes, s->pages_after, s->pages_now,
		s->pages_bound);
	fprintf(out, "%shot functions: %zu (%zu cannot move), pages touched: %zu (now: %zu), "
		"lower bound: %zu\n", mid, s->hot, s->fixed, s->set_after, s->set_now,
		s->set_bound);
	fprintf(out, "%smodel: %u-entry I-TLB misses: %" PRIu64 " (now: %" PRIu64 ")%s\n", mid,
		s->tlb_entries, s->misses_after, s->misses_now,
		emit_summary_worse(s) ? "; MORE than now: the order is predicted worse than the "
					"current layout" : "");
}

/* "4.4% fewer misses ... on average over its 5 TLB sizes"; a search that
 * lost says "more", and one size is not an average */
static void search_gain_print(FILE *out, const struct layout_search_outcome *s)
{
	double g = s->gain_pct;

	if (g < 0 && g > -0.05)
		g = 0;
	fprintf(out, "%.1f%% %s misses in the model than the pick, ", g < 0 ? -g : g,
		g < 0 ? "more" : "fewer");
	if (s->nsizes == 1)
		fprintf(out, "at its one TLB size\n");
	else
		fprintf(out, "on average over its %zu TLB sizes\n", s->nsizes);
}

void emit_search_print(FILE *out, const char *mid, const struct layout_search_outcome *s)
{
	switch (s->what) {
	case LAYOUT_SEARCH_KEPT:
		fprintf(out, "%ssearch: kept: ", mid);
		search_gain_print(out, s);
		break;
	case LAYOUT_SEARCH_NOT_KEPT:
		fprintf(out, "%ssearch: not kept (%s): ", mid, s->why);
		search_gain_print(out, s);
		break;
	case LAYOUT_SEARCH_NOT_RUN:
		fprintf(out, "%ssearch: not run: %s\n", mid, s->why);
		break;
	default:
		break;
	}
}

static void emit_header(FILE *out, const char *open, const char *mid, const char *close,
			const struct cgraph *cg, const struct emit_info *info, enum emit_format fmt,
			size_t n)
{
	const struct kimage *img = cg->img;
	static const char *const secsrc[] = {
		[KSEC_NONE] = "none", [KSEC_MAP] = "link map", [KSEC_OBJECT] = "object file",
		[KSEC_ASSUMED] = "ASSUMED (.text.<name>; no link map or vmlinux.o given)",
	};
	int i;

	fprintf(out, "%shotpack %s: function order (%s format)\n", open, HOTPACK_VERSION,
		emit_format_name(fmt));
	fprintf(out, "%simage: %s (%s), section names: %s%s%s\n", mid, img->path, img->arch->name,
		secsrc[img->secnames], img->secnames_from ? " " : "",
		img->secnames_from ? img->secnames_from : "");
	fprintf(out, "%sinputs:", mid);
	for (i = 0; i < info->ninputs; i++)
		fprintf(out, " %s", info->inputs[i]);
	fprintf(out, "\n%salgorithm: %s, page size: %" PRIu64 "\n", mid, info->algo,
		info->page_size);
	if (cg->repeats != REPEATS_COUNT)
		fprintf(out, "%sweights: --repeats %s, each window of the stream weighs %s of its "
			"repeats (the windows kept %.1f%% of their weight)\n", mid,
			repeats_name(cg->repeats), repeats_weighs(cg->repeats),
			100 * cg->repeats_kept);
	if (info->geom && info->geom->name) {
		char g[320], m[256];

		fprintf(out, "%sgeometry: %s; %s\n", mid, geom_str(info->geom, g, sizeof(g)),
			geom_meaning(info->geom, m, sizeof(m)));
	}
	if (info->summary)
		emit_summary_print(out, mid, info->summary);
	else
		fprintf(out, "%sfunctions placed: %zu\n", mid, n);
	if (info->prof) {
		const struct profile *p = info->prof;

		fprintf(out, "%ssamples: %" PRIu64 " read, %" PRIu64 " matched; unmatched: "
			"module %" PRIu64 ", user %" PRIu64 ", bpf %" PRIu64 ", unknown %" PRIu64
			", not in image %" PRIu64 "\n", mid, p->nsamples, p->matched,
			p->dropped[PROF_DROP_MODULE], p->dropped[PROF_DROP_USER],
			p->dropped[PROF_DROP_BPF], p->dropped[PROF_DROP_UNKNOWN],
			p->dropped[PROF_DROP_NOT_IN_IMAGE]);
	}
	if (info->traced && info->traced->npaths)
		emit_traced(out, mid, cg, info->traced);
	if (info->search)
		emit_search_print(out, mid, info->search);
	fprintf(out, "%s", close);
}

/* The first few functions left out are named; the rest are counted, unless
 * -v asks for every name. A distro vmlinux without its map has hundreds. */
#define EMIT_NAMED_LEFT_OUT 5

static void note_left_out(const struct kimage *img, const struct kfunc *f, const char *why,
			  size_t already)
{
	if (already < EMIT_NAMED_LEFT_OUT || hp_verbosity >= 2)
		pr_warn("%s: %s: %s; left out of the order", img->path, f->name, why);
}

/* Why @f cannot be named exactly in @fmt, or NULL when it can. */
static const char *why_unnameable(enum emit_format fmt, const struct kimage *img,
				  const struct kfunc *f)
{
	bool same_object = false;
	bool shared = f->section && section_name_shared(img, f, &same_object);

	if (fmt == EMIT_LIST)
		return NULL;
	if (fmt == EMIT_LLD)
		/* lld orders by symbol: a local symbol of a shared name
		 * would order every function of that name. */
		return (f->flags & KF_DUPNAME) ? "more than one function has this name "
						 "(lld orders by symbol name)" : NULL;
	if (!f->section)
		return "input section unknown";
	if (!shared)
		return NULL;
	if (fmt == EMIT_GOLD && (f->flags & KF_UNIT))
		return "it stands for its object's plain .text, which gold's ordering file "
		       "cannot tell from the other objects' .text";
	if (fmt == EMIT_GOLD && f->object && !same_object)
		return "its section name is shared with another function and gold's "
		       "ordering file cannot name the object";
	if (!f->object || same_object)
		return "its section name is shared with another function and its object "
		       "file does not tell them apart";
	return NULL;
}

size_t emit_filter(enum emit_format fmt, const struct cgraph *cg, uint32_t *order, size_t n)
{
	const struct kimage *img = cg->img;
	size_t i, out = 0, skipped = 0;

	for (i = 0; i < n; i++) {
		const struct kfunc *f = &img->funcs[cg->nodes[order[i]].func];
		const char *why = why_unnameable(fmt, img, f);

		if (why) {
			note_left_out(img, f, why, skipped++);
			continue;
		}
		order[out++] = order[i];
	}
	if (skipped > EMIT_NAMED_LEFT_OUT && hp_verbosity < 2)
		pr_warn("%s: %zu more functions left out of the order for the same reasons "
			"(-v names them); the link map (--map) names the objects of static "
			"functions that share a name", img->path, skipped - EMIT_NAMED_LEFT_OUT);
	return out;
}

int emit_order(FILE *out, enum emit_format fmt, const struct cgraph *cg, const uint32_t *order,
	       size_t n, const struct emit_info *info)
{
	const struct kimage *img = cg->img;
	const char *indent = fmt == EMIT_LD_SECTION_ORDERING ? "\t" : "";
	size_t i;

	switch (fmt) {
	case EMIT_LDS:
		emit_header(out, "/* ", " * ", " */\n", cg, info, fmt, n);
		fprintf(out, ". = ALIGN(%" PRIu64 ");\n", info->page_size);
		break;
	case EMIT_LD_SECTION_ORDERING:
		emit_header(out, "/* ", " * ", " */\n", cg, info, fmt, n);
		fprintf(out, ".text : {\n");
		break;
	case EMIT_LIST:
		emit_header(out, "# ", "# ", "", cg, info, fmt, n);
		break;
	case EMIT_GOLD:
	case EMIT_LLD:
		/* These linkers read every line as a name: no header. */
		break;
	}
	for (i = 0; i < n; i++) {
		const struct kfunc *f = &img->funcs[cg->nodes[order[i]].func];
		bool same_object = false;

		if (fmt == EMIT_LLD || fmt == EMIT_LIST)
			fprintf(out, "%s\n", f->name);
		else if (fmt == EMIT_GOLD)
			fprintf(out, "%s\n", f->section);
		else if (section_name_shared(img, f, &same_object))
			emit_qualified(out, indent, f->object, f->section);
		else
			fprintf(out, "%s*(%s)\n", indent, f->section);
	}
	if (fmt == EMIT_LD_SECTION_ORDERING)
		fprintf(out, "}\n");
	/* gold sorts by the line a section matches and puts sections that
	 * match no line first (checked with gold 1.16): a last catch-all line
	 * puts the listed ones ahead of the rest of the text, which keeps its
	 * own order. */
	if (fmt == EMIT_GOLD)
		fprintf(out, ".text*\n");
	if (fflush(out) || ferror(out))
		return -EIO;
	return 0;
}
