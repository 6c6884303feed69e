// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_regress.c FILE|DIR... - replay inputs through every fuzz target
 * (tests/fuzz/fuzz_targets.c) under the test suite's sanitizers: the crash
 * inputs kept in tests/fuzz/regress/, the fuzzing seeds, the malformed set.
 * Each file runs through all parsers, whatever its format. A crash or
 * sanitizer report fails the test; a refused input is fine.
 */
#include "config.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz/fuzz_targets.h"
#include "tap.h"

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void replay(const char *path)
{
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n;
	FILE *f = fopen(path, "rb");
	char what[1024];

	if (!f) {
		ok(0, path);
		return;
	}
	do {
		if (len + 65536 > cap) {
			cap = (len + 65536) * 2;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
		n = fread(buf + len, 1, 65536, f);
		len += n;
	} while (n);
	fclose(f);
	fuzz_readers(buf, len);
	fuzz_hprof(buf, len);
	fuzz_kimage(buf, len);
	fuzz_linkmap(buf, len);
	fuzz_disasm(buf, len);
	fuzz_orderfile(buf, len);
	snprintf(what, sizeof(what), "replayed %s (%zu bytes)", path, len);
	ok(1, what);
	free(buf);
}

static void walk(const char *path)
{
	struct stat st;
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, i;
	DIR *d;

	if (stat(path, &st)) {
		ok(0, path);
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		replay(path);
		return;
	}
	d = opendir(path);
	while (d && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		names = realloc(names, (n + 1) * sizeof(*names));
		if (!names || asprintf(&names[n], "%s/%s", path, de->d_name) < 0)
			abort();
		n++;
	}
	if (d)
		closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp);
	for (i = 0; i < n; i++) {
		walk(names[i]);
		free(names[i]);
	}
	free(names);
}

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		walk(argv[i]);
	return done_testing();
}
