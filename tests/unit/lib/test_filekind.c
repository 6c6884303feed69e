// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_filekind.c - lib/filekind.h: the magic numbers told apart, and the
 * one error for a directory given as a file, in both its forms (the build
 * directory holding the file, or not).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/filekind.h"
#include "tap.h"

/* What filekind_directory_error() printed, in a buffer the caller frees. */
static char *directory_error(const char *path, const char *what, const char *file,
			     const char *otherwise)
{
	FILE *saved = stderr;
	char *buf = NULL;
	size_t len = 0;

	stderr = open_memstream(&buf, &len);
	filekind_directory_error(path, what, file, otherwise);
	fclose(stderr);
	stderr = saved;
	return buf;
}

int main(void)
{
	char dir[] = "/tmp/test_filekind.XXXXXX", *in, *msg, *want;
	FILE *f;

	ok(strstr(filekind_advice("PERFILE2\0\0", 10), "perf script"), "perf.data: perf script");
	ok(filekind_is_profile("PERFILE2", 8), "perf.data is a recording");
	ok(!filekind_is_profile("\x7f" "ELF", 4), "an ELF file is not a recording");
	ok(!filekind_advice("hot_a\n", 6), "text: no advice");

	if (!ok(mkdtemp(dir), "a directory to give"))
		return done_testing();
	msg = directory_error(dir, "the vmlinux file", "vmlinux", "the vmlinux file of the build");
	want = NULL;
	if (asprintf(&want, "hotpack: error: %s: is a directory; give the vmlinux file of the "
		     "build\n", dir) < 0)
		return 1;
	is_str(msg, want, "no vmlinux in it: what to give instead");
	free(msg);
	free(want);

	if (asprintf(&in, "%s/vmlinux", dir) < 0)
		return 1;
	f = fopen(in, "w");
	ok(f && !fclose(f), "a vmlinux in the directory");
	msg = directory_error(dir, "the vmlinux file", "vmlinux", "the vmlinux file of the build");
	if (asprintf(&want, "hotpack: error: %s: is a directory; give the vmlinux file in it "
		     "(%s)\n", dir, in) < 0)
		return 1;
	is_str(msg, want, "a vmlinux in it: named");
	free(msg);
	free(want);
	unlink(in);
	rmdir(dir);
	free(in);
	return done_testing();
}
