# SPDX-License-Identifier: GPL-2.0-or-later
# tests/lib.sh - shared helpers for shell tests: TAP output, a private
# scratch directory, and golden comparison (after elfutils' testrun_compare).
set -u
# absolute, so that a test may cd (a build configured as ../src/configure)
srcdir=$(cd "$srcdir" && pwd)
. "$srcdir/tests/arches.sh"
tap_n=0
tap_failed=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/hotpack-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

ok() {		# ok COND-EXIT-STATUS DESCRIPTION
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_failed=$((tap_failed + 1))
	fi
}

# check DESCRIPTION COMMAND...: passes when the command exits 0.
check() {
	desc=$1; shift
	if "$@" >"$TMP/check.out" 2>&1; then ok 0 "$desc"; else
		ok 1 "$desc"; sed 's/^/#   /' "$TMP/check.out" | head -40; fi
}

# same_file DESCRIPTION GOT WANT: diff -u, shown on failure.
same_file() {
	if diff -u "$3" "$2" >"$TMP/diff.out" 2>&1; then ok 0 "$1"; else
		ok 1 "$1"; sed 's/^/#   /' "$TMP/diff.out" | head -60; fi
}

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}

# tiny_kernel: decompress the real Linux 6.1 data (shared/data) into
# $TMP/tiny once: vmlinux, vmlinux.map, itlb-miss-samples.txt,
# function-graph.txt. A missing copy is a failure, never a skip.
tiny_kernel() {
	src="$SHARED_DATA/linux-6.1-x86_64-tiny"
	[ -d "$TMP/tiny" ] && return 0
	if [ ! -f "$src/vmlinux.xz" ]; then
		echo "# $src/vmlinux.xz is missing: configure --with-shared-data=DIR" >&2
		return 1
	fi
	mkdir -p "$TMP/tiny" &&
	xz -dc "$src/vmlinux.xz" >"$TMP/tiny/vmlinux" &&
	xz -dc "$src/vmlinux.map.xz" >"$TMP/tiny/vmlinux.map" &&
	xz -dc "$src/itlb-miss-samples.txt.xz" >"$TMP/tiny/itlb-miss-samples.txt" &&
	cp "$src/function-graph.txt" "$TMP/tiny/"
}
