// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * json.c - the --json writer. Pretty-printed, two spaces an indent level,
 * one member a line: diffable, and jq or python3 -m json.tool read it.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>

#include "emit/json.h"
#include "lib/hotpack.h"
#include "lib/warn.h"

void json_init(struct json *j, FILE *f)
{
	*j = (struct json){ .f = f };
}

static void json_str_body(FILE *f, const char *s);

/* The comma, newline and indent before a value, and its key. */
static void member(struct json *j, const char *key)
{
	if (j->depth) {
		fputs(j->more[j->depth - 1] ? ",\n" : "\n", j->f);
		j->more[j->depth - 1] = true;
		for (unsigned int i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	if (key) {
		json_str_body(j->f, key);
		fputs(": ", j->f);
	}
}

/* A string's quoted, escaped body; bytes that are not UTF-8 become U+FFFD. */
static void json_str_body(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	while (*p) {
		unsigned char c = *p;
		int n = c < 0x80 ? 0 : (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2
					 : (c & 0xf8) == 0xf0 ? 3 : -1;
		bool valid = n >= 0 && !(n == 1 && c < 0xc2) && !(n == 3 && c > 0xf4);

		for (int k = 1; valid && k <= n; k++)
			valid = (p[k] & 0xc0) == 0x80;
		/* no overlong three- or four-byte forms, no surrogates */
		if (valid && n == 2)
			valid = !(c == 0xe0 && p[1] < 0xa0) && !(c == 0xed && p[1] >= 0xa0);
		if (valid && n == 3)
			valid = !(c == 0xf0 && p[1] < 0x90) && !(c == 0xf4 && p[1] >= 0x90);
		if (!valid) {
			fputs("\\ufffd", f);
			p++;
			continue;
		}
		if (n) {
			fwrite(p, 1, (size_t)n + 1, f);
			p += n + 1;
			continue;
		}
		switch (c) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\t': fputs("\\t", f); break;
		case '\r': fputs("\\r", f); break;
		default:
			if (c < 0x20 || c == 0x7f)
				fprintf(f, "\\u%04x", c);
			else
				fputc(c, f);
		}
		p++;
	}
	fputc('"', f);
}

static void open_value(struct json *j, const char *key, char open, char close)
{
	member(j, key);
	fputc(open, j->f);
	if (j->depth < JSON_MAX_DEPTH) {
		j->close[j->depth] = close;
		j->more[j->depth] = false;
	}
	j->depth++;
}

void json_object(struct json *j, const char *key)
{
	open_value(j, key, '{', '}');
}

void json_array(struct json *j, const char *key)
{
	open_value(j, key, '[', ']');
}

void json_end(struct json *j)
{
	bool more;

	if (!j->depth)
		return;
	j->depth--;
	more = j->depth < JSON_MAX_DEPTH && j->more[j->depth];
	if (more) {
		fputc('\n', j->f);
		for (unsigned int i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	fputc(j->depth < JSON_MAX_DEPTH ? j->close[j->depth] : '}', j->f);
}

void json_str(struct json *j, const char *key, const char *s)
{
	member(j, key);
	if (s)
		json_str_body(j->f, s);
	else
		fputs("null", j->f);
}

void json_u64(struct json *j, const char *key, uint64_t v)
{
	member(j, key);
	fprintf(j->f, "%" PRIu64, v);
}

void json_i64(struct json *j, const char *key, int64_t v)
{
	member(j, key);
	fprintf(j->f, "%" PRId64, v);
}

void json_num(struct json *j, const char *key, double v)
{
	member(j, key);
	if (isfinite(v))
		fprintf(j->f, "%.6g", v);
	else
		fputs("null", j->f);
}

void json_bool(struct json *j, const char *key, bool v)
{
	member(j, key);
	fputs(v ? "true" : "false", j->f);
}

void json_null(struct json *j, const char *key)
{
	member(j, key);
	fputs("null", j->f);
}

void json_addr(struct json *j, const char *key, uint64_t v)
{
	member(j, key);
	fprintf(j->f, "\"%#" PRIx64 "\"", v);
}

int json_finish(struct json *j)
{
	while (j->depth)
		json_end(j);
	fputc('\n', j->f);
	if (ferror(j->f)) {
		pr_err("writing the JSON failed; check the disk and retry");
		return -EIO;
	}
	return 0;
}

void json_begin(struct json *j, FILE *f, const char *schema, unsigned int version)
{
	json_init(j, f);
	json_object(j, NULL);
	json_str(j, "schema", schema);
	json_u64(j, "schema_version", version);
	json_str(j, "hotpack", HOTPACK_VERSION);
}

void json_strings(struct json *j, const char *key, char *const *v, int n)
{
	json_array(j, key);
	for (int i = 0; i < n; i++)
		json_str(j, NULL, v[i]);
	json_end(j);
}

int json_commit(struct json *j, struct cli_out *out)
{
	if (json_finish(j)) {
		cli_out_abort(out);
		return -EIO;
	}
	return cli_out_commit(out);
}

void json_geometry(struct json *j, const char *key, const struct geometry *g)
{
	char buf[320];

	json_object(j, key);
	json_str(j, "name", g->name);
	json_str(j, "text", geom_str(g, buf, sizeof(buf)));
	json_u64(j, "page_size", g->page_size);
	json_array(j, "tlb_entries");
	for (size_t k = 0; k < g->ntlb; k++)
		json_u64(j, NULL, g->tlb_entries[k]);
	json_end(j);
	json_u64(j, "tlb_ways", g->tlb_ways);
	json_str(j, "tlb_model", g->tlb_model ? g->tlb_model : GEOM_TLB_MODEL_DEFAULT);
	json_array(j, "pins");
	for (size_t k = 0; k < g->npins; k++) {
		json_object(j, NULL);
		json_addr(j, "start", g->pins[k].start);
		json_addr(j, "end", g->pins[k].end);
		json_end(j);
	}
	json_end(j);
	if (g->icache.size) {
		json_object(j, "icache");
		json_u64(j, "size", g->icache.size);
		json_u64(j, "line", g->icache.line);
		json_u64(j, "ways", g->icache.ways);
		json_end(j);
	} else {
		json_null(j, "icache");
	}
	if (g->large_page) {
		json_object(j, "large_pages");
		json_u64(j, "page_size", g->large_page);
		json_u64(j, "tlb_entries", g->large_entries);
		json_end(j);
	} else {
		json_null(j, "large_pages");
	}
	json_end(j);
}

void json_model(struct json *j, const struct model_result *r, const struct geometry *g)
{
	json_num(j, "pages_per_run", model_mean_pages(r));
	json_num(j, "bound_fixed", model_mean_fixed_bound(r));
	json_num(j, "bound", model_mean_bound(r));
	json_object(j, "set");
	json_u64(j, "functions", r->set_nodes);
	json_u64(j, "bytes", r->set_bytes);
	json_u64(j, "pages", r->set_pages);
	json_u64(j, "bound", r->set_bound);
	json_end(j);
	json_u64(j, "runs", r->runs);
	json_u64(j, "tlb_refs", r->tlb_refs);
	json_array(j, "tlb");
	for (size_t k = 0; k < g->ntlb; k++) {
		json_object(j, NULL);
		json_u64(j, "entries", g->tlb_entries[k]);
		json_u64(j, "misses", r->tlb_misses[k]);
		json_end(j);
	}
	json_end(j);
	/* null without an I-cache model (--no-icache) */
	for (int k = 0; k < 2; k++) {
		const char *key = k ? "icache_misses" : "icache_refs";

		if (g->icache.size)
			json_u64(j, key, k ? r->icache_misses : r->icache_refs);
		else
			json_null(j, key);
	}
}
