// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_build.c - build-id lines as perf prints them (build.h): perf
 * buildid-list's "BUILDID DSO" and perf script -v's "build id event
 * received for DSO: BUILDID [SIZE]"; the kernel's id is taken, other DSOs'
 * lines are known and skipped, and frames or headers are not such lines.
 */
#include "config.h"

#include <string.h>

#include "profile/build.h"
#include "tap.h"

#define ID "1eaa285996affce2d74d8e66dcea09a80c9941de"

static void kernel(const char *line, const char *want, const char *what)
{
	char hex[BUILD_ID_HEX_LEN] = "";

	is_int(build_id_line(line, hex, sizeof(hex)), BUILD_ID_KERNEL, what);
	is_str(hex, want, what);
}

int main(void)
{
	char hex[BUILD_ID_HEX_LEN];

	kernel(ID " [kernel.kallsyms]", ID, "buildid-list: the kernel's line");
	kernel("  " ID "\t[kernel.kallsyms]\r", ID, "blanks, a tab and a CR around it");
	kernel("1EAA285996AFFCE2D74D8E66DCEA09A80C9941DE [kernel.kallsyms]", ID,
	       "upper case read as lower case");
	kernel(ID " /usr/lib/debug/boot/vmlinux-6.1.0-13-amd64", ID,
	       "the vmlinux path perf found is the kernel too");
	kernel("build id event received for [kernel.kallsyms]: " ID " [20]", ID,
	       "perf script -v's line, with the size");
	kernel("build id event received for vmlinux: " ID, ID, "perf -v's line without the size");
	kernel("0123456789abcdef0123456789abcdef [kernel.kallsyms]",
	       "0123456789abcdef0123456789abcdef", "a 16-byte (MD5) id");
	is_int(build_id_line(ID " /lib/modules/6.1.0/kernel/fs/ext4/ext4.ko", hex, sizeof(hex)),
	       BUILD_ID_OTHER, "a module's line: known, not the kernel's");
	is_int(build_id_line(ID " [vdso]", hex, sizeof(hex)), BUILD_ID_OTHER, "the vdso's");
	is_int(build_id_line("build id event received for /usr/bin/dd: " ID " [20]", hex,
			     sizeof(hex)), BUILD_ID_OTHER, "perf -v's line of a program");
	is_int(build_id_line("ffffffff81000000 [kernel.kallsyms]", hex, sizeof(hex)),
	       BUILD_ID_NONE, "a 16-digit address is not a build-id");
	is_int(build_id_line("\tffffffff8100abcd vfs_read+0x1d ([kernel.kallsyms])", hex,
			     sizeof(hex)), BUILD_ID_NONE, "a callchain frame");
	is_int(build_id_line("dd 1234 [000] 10.000001: 250000 cycles:", hex, sizeof(hex)),
	       BUILD_ID_NONE, "a sample header");
	is_int(build_id_line(ID " [kernel.kallsyms] extra", hex, sizeof(hex)), BUILD_ID_NONE,
	       "more after the DSO");
	is_int(build_id_line(ID, hex, sizeof(hex)), BUILD_ID_NONE, "an id without a DSO");
	is_int(build_id_line(ID "x [kernel.kallsyms]", hex, sizeof(hex)), BUILD_ID_NONE,
	       "a non-hex digit in the id");
	is_int(build_id_line("build id event received for [kernel.kallsyms] " ID, hex,
			     sizeof(hex)), BUILD_ID_NONE, "perf -v's line without its colon");
	is_int(build_id_line(ID " [kernel.kallsyms]", hex, 10), BUILD_ID_OTHER,
	       "no room for the id: not taken");
	return done_testing();
}
