/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json.h - the machine-readable output (--json): a small streaming JSON
 * writer, and the objects the commands share, a geometry and a layout's
 * model figures. The schema is docs/json.md.
 *
 * Calls name a member's key inside an object and pass NULL inside an array
 * or for the top value; the writer puts the commas and the indentation.
 * Numbers are JSON numbers; addresses, which pass 2^53 (where readers that
 * hold numbers as doubles round), are "0x..." strings. A string's bytes
 * that are not UTF-8 become U+FFFD, so the output is always valid JSON.
 */
#ifndef HP_JSON_H
#define HP_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/cli.h"
#include "lib/geometry.h"
#include "model/model.h"

#define JSON_MAX_DEPTH 16

struct json {
	FILE *f;
	unsigned int depth;
	char close[JSON_MAX_DEPTH];	/* '}' or ']' of each open value */
	bool more[JSON_MAX_DEPTH];	/* a member was written at that depth */
};

void json_init(struct json *j, FILE *f);
void json_object(struct json *j, const char *key);
void json_array(struct json *j, const char *key);
/** Close the innermost object or array. */
void json_end(struct json *j);

/** A string; NULL writes null. */
void json_str(struct json *j, const char *key, const char *s);
void json_u64(struct json *j, const char *key, uint64_t v);
void json_i64(struct json *j, const char *key, int64_t v);
/** Six significant digits; NaN and infinities write null. */
void json_num(struct json *j, const char *key, double v);
void json_bool(struct json *j, const char *key, bool v);
void json_null(struct json *j, const char *key);
/** An address as "0x..." (see above). */
void json_addr(struct json *j, const char *key, uint64_t v);

/**
 * json_finish() - end the output (a newline after the top value). Returns 0,
 * or -EIO after saying so when the stream failed.
 */
int json_finish(struct json *j);

/**
 * json_begin() - start a command's object on @f: its "schema" name and
 * "schema_version" (docs/json.md), and the "hotpack" version writing it.
 */
void json_begin(struct json *j, FILE *f, const char *schema, unsigned int version);
/** An array of @n strings. */
void json_strings(struct json *j, const char *key, char *const *v, int n);
/**
 * json_commit() - json_finish(), then @out written whole (cli_out_commit())
 * or, when the stream failed, nothing. Returns 0 or -errno (printed).
 */
int json_commit(struct json *j, struct cli_out *out);

/** @g as an object: page size, TLB sizes, ways, model, pins, I-cache, large pages. */
void json_geometry(struct json *j, const char *key, const struct geometry *g);

/**
 * json_model() - the members of a layout's figures @r under @g (into the
 * object open): pages per run and its bounds, the executed set, the
 * replay's references and misses per TLB size, the I-cache's.
 */
void json_model(struct json *j, const struct model_result *r, const struct geometry *g);

#endif
