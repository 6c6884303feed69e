// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_json.c - the --json writer: nesting and commas, escapes, bytes that
 * are not UTF-8, numbers (NaN as null, 2^64-1 whole), addresses as strings,
 * a geometry, and a stream that fails.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emit/json.h"
#include "lib/hotpack.h"
#include "tap.h"

/* Run @fn on a memory stream and return what it wrote. */
static char *capture(void (*fn)(struct json *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json j;

	json_init(&j, f);
	fn(&j);
	ok(json_finish(&j) == 0, "json_finish on a good stream");
	fclose(f);
	return buf;
}

static void nested(struct json *j)
{
	json_object(j, NULL);
	json_u64(j, "n", 18446744073709551615ull);
	json_i64(j, "neg", -3);
	json_array(j, "list");
	json_num(j, NULL, 2.25);
	json_num(j, NULL, NAN);
	json_bool(j, NULL, true);
	json_null(j, NULL);
	json_end(j);
	json_array(j, "empty");
	json_end(j);
	json_object(j, "o");
	json_addr(j, "a", 0xffffffff81001000ull);
	json_str(j, "s", NULL);
	json_end(j);
	json_end(j);
}

static void strings(struct json *j)
{
	json_array(j, NULL);
	json_str(j, NULL, "q\"b\\n\nt\tc\001d\x7f");
	json_str(j, NULL, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x99\x82");
	json_str(j, NULL, "bad\xff\xc3(\xc0\xaf\xed\xa0\x80z");
	json_str(j, NULL, "cut\xe2\x82");
	json_end(j);
}

static void unclosed(struct json *j)
{
	json_object(j, NULL);
	json_array(j, "a");
	json_u64(j, NULL, 1);
}

static void begun(struct json *j)
{
	char a[] = "a.txt", b[] = "b\"c", *v[] = { a, b };

	json_begin(j, j->f, "hotpack-test", 3);
	json_strings(j, "inputs", v, 2);
}

static void geometry(struct json *j)
{
	struct geometry g;

	geom_default(&g);
	g.tlb_ways = 4;
	g.npins = 1;
	g.pins[0].start = 0x1000;
	g.pins[0].end = 0x2000;
	g.large_page = 2u << 20;
	g.large_entries = 8;
	json_geometry(j, NULL, &g);
}

int main(void)
{
	char *s;

	s = capture(nested);
	is_str(s, "{\n"
		  "  \"n\": 18446744073709551615,\n"
		  "  \"neg\": -3,\n"
		  "  \"list\": [\n"
		  "    2.25,\n"
		  "    null,\n"
		  "    true,\n"
		  "    null\n"
		  "  ],\n"
		  "  \"empty\": [],\n"
		  "  \"o\": {\n"
		  "    \"a\": \"0xffffffff81001000\",\n"
		  "    \"s\": null\n"
		  "  }\n"
		  "}\n", "nesting, commas, numbers, NaN as null, an address as a string");
	free(s);

	s = capture(strings);
	is_str(s, "[\n"
		  "  \"q\\\"b\\\\n\\nt\\tc\\u0001d\\u007f\",\n"
		  "  \"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x99\x82\",\n"
		  "  \"bad\\ufffd\\ufffd(\\ufffd\\ufffd\\ufffd\\ufffd\\ufffdz\",\n"
		  "  \"cut\\ufffd\\ufffd\"\n"
		  "]\n", "escapes; UTF-8 kept; bad, overlong, surrogate and cut bytes as U+FFFD");
	free(s);

	s = capture(unclosed);
	is_str(s, "{\n  \"a\": [\n    1\n  ]\n}\n", "json_finish closes what is open");
	free(s);

	s = capture(begun);
	is_str(s, "{\n  \"schema\": \"hotpack-test\",\n  \"schema_version\": 3,\n"
		  "  \"hotpack\": \"" HOTPACK_VERSION "\",\n"
		  "  \"inputs\": [\n    \"a.txt\",\n    \"b\\\"c\"\n  ]\n}\n",
	       "json_begin: schema, version, hotpack; json_strings");
	free(s);

	s = capture(geometry);
	ok(strstr(s, "\"page_size\": 4096,\n") && strstr(s, "\"tlb_ways\": 4,\n") &&
	   strstr(s, "\"tlb_model\": \"LRU\",\n") && strstr(s, "\"start\": \"0x1000\"") &&
	   strstr(s, "\"size\": 32768,\n") && strstr(s, "\"page_size\": 2097152,\n") &&
	   strstr(s, "\"tlb_entries\": [\n    32,\n    64,\n    128\n  ],\n") &&
	   strstr(s, "\"text\": \"4 KiB pages; "), "a geometry: every field, named");
	free(s);

	{
		FILE *f = fopen("/dev/full", "w");
		struct json j;

		if (!f) {
			ok(0, "open /dev/full");
		} else {
			setvbuf(f, NULL, _IONBF, 0);
			json_init(&j, f);
			json_object(&j, NULL);
			json_u64(&j, "n", 1);
			ok(json_finish(&j) == -EIO, "a stream that fails: -EIO");
			fclose(f);
		}
	}
	return done_testing();
}
