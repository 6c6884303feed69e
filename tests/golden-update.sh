#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# golden-update.sh BUILDDIR: rewrite tests/expected/ from the current build.
# Review the result with `git diff tests/expected` before committing.
set -e
b=$(cd "${1:?usage: golden-update.sh BUILDDIR}" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
SHARED_DATA=$(sed -n "s/^SHARED_DATA = //p" "$b/Makefile")
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
srcdir=${srcdir:-$here}
. "$here/tests/lib.sh"
tiny_kernel
cd "$TMP/tiny"
h="$b/tool/hotpack" e="$here/tests/expected"
"$h" --algo c3 vmlinux itlb-miss-samples.txt >"$e/tiny-itlb-c3.lds"
"$h" --algo original vmlinux itlb-miss-samples.txt >"$e/tiny-itlb-original.lds"
"$h" --algo c3 --format gold vmlinux itlb-miss-samples.txt >"$e/tiny-itlb-c3.gold"
"$h" --algo c3 --format lld vmlinux itlb-miss-samples.txt >"$e/tiny-itlb-c3.lld"
"$h" --algo c3 vmlinux function-graph.txt >"$e/tiny-fgraph-c3.lds"
