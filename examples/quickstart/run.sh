#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# run.sh HOTPACK OUTDIR: the quickstart. Build a kernel-shaped program of a
# few hundred functions with -ffunction-sections and its link map, make
# samples of its read and write paths, let hotpack write order.lds, relink
# with the order, and show the pages the hot functions span before and after.
set -e
hotpack=${1:?usage: run.sh HOTPACK OUTDIR} out=${2:?usage: run.sh HOTPACK OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
cc=${CC:-cc}
mkdir -p "$out"
out=$(cd "$out" && pwd)
flags="-O1 -ffunction-sections -fno-pie -no-pie"

"$here/gen.sh" "$out/kernel.c"
$cc $flags -Wl,-Map="$out/kernel.map" -o "$out/kernel" "$out/kernel.c"
"$here/samples.sh" "$out/kernel" "$here/stacks.txt" >"$out/samples.txt"
echo "== $(grep -c 'NOINLINE' "$out/kernel.c") functions, $(grep -c cycles "$out/samples.txt") samples of the read and write paths"

echo "== hotpack $out/kernel $out/samples.txt -o $out/order.lds"
"$hotpack" "$out/kernel" "$out/samples.txt" -o "$out/order.lds"
sed -n 's/^ \* //p' "$out/order.lds" | grep -E '^(algorithm|functions placed|samples)'

"$here/ld-with-order.sh" ld "$out/order.lds" "$out/ordered.lds"
$cc $flags -Wl,-T,"$out/ordered.lds" -o "$out/kernel.ordered" "$out/kernel.c"
"$out/kernel.ordered"

# Pages (4 KiB) the ordered functions span in each binary, from the symbols.
pages() {
	nm -S "$1" | awk -v list="$out/order.lds" '
	function hex(s,  v, i) { v = 0; for (i = 1; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", substr(tolower(s), i, 1)) - 1; return v }
	BEGIN { while ((getline l < list) > 0) if (l ~ /^\*\(\.text\./) {
		sub(/^\*\(\.text\.(unlikely\.|hot\.)?/, "", l); sub(/\)$/, "", l); want[l] = 1 } }
	$4 in want { a = hex($1); e = a + hex($2) - 1
		for (p = int(a / 4096); p <= int(e / 4096); p++) pg[p] = 1 }
	END { n = 0; for (p in pg) n++; print n }'
}
echo "== hot functions span $(pages "$out/kernel") pages of 4 KiB in the stock link, $(pages "$out/kernel.ordered") after relinking with order.lds"
