#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/kernel-relink.sh - what an order costs at link time: relink the
# kernel that examples/kernel/kernel.sh built (6.1 x86_64 by default) with no
# order, an empty order, and orders of 1,000 and 10,000 function sections,
# RUNS times each, and time (a) `make vmlinux` as a user runs it (Kbuild's
# tree walk plus link-vmlinux.sh's three links and kallsyms), and (b) the
# final `ld` alone. Both as CPU time (user+sys of the whole process tree,
# GNU time), which other jobs on a shared machine disturb far less than
# the wall-clock time, given beside it. The orders list the map's .text.<name> sections in
# reverse address order (every one moves; static names that repeat are
# qualified by object as hotpack writes them). Prints a Markdown table of
# medians over RUNS.
#   usage: bench/kernel-relink.sh [RUNS]    (env: KBUILD, KVER, JOBS as kernel.sh)
set -eu
RUNS=${1:-3}
: "${KVER:=6.1}" "${KBUILD:=${XDG_CACHE_HOME:-$HOME/.cache}/hotpack/kbuild}" "${JOBS:=2}"
SRC=$KBUILD/linux-source-$KVER
BUILD=${BUILD:-$KBUILD/build-$KVER-x86_64}
OUT=$KBUILD/bench-relink
[ -f "$BUILD/vmlinux.o" ] || { echo "run examples/kernel/kernel.sh build first" >&2; exit 1; }
mkdir -p "$OUT"
KMAKE="make -C $SRC O=$BUILD ARCH=x86_64 -j$JOBS KCFLAGS=-ffunction-sections"

# A base link without an order gives the map the orders are made from.
$KMAKE vmlinux >/dev/null 2>&1
cp "$BUILD/vmlinux.map" "$OUT/base.map"

# mkorder N: the last N function sections of the main text, last first.
mkorder() {
	awk -v n="$1" '
	/^ \*\(\.text \.text\.\[0-9a-zA-Z_\]\*/ { inmain = 1; next }
	inmain && /^ \*\(/ { inmain = 0 }
	!inmain { next }
	/^ \.text\.[^ ]+$/ { pend = $1; next }
	{
		if ($1 ~ /^\.text\./ && NF == 4) { name = $1; size = $3; obj = $4 }
		else if (pend != "" && NF == 3 && $1 ~ /^0x/) { name = pend; size = $2; obj = $3 }
		else { pend = ""; next }
		pend = ""
		if (size == "0x0") next
		k++; sec[k] = name; ob[k] = obj; cnt[name]++
	}
	END {
		print "/* bench order: " n " sections, reverse address order */"
		print ". = ALIGN(4096);"
		for (i = k; i > 0 && i > k - n; i--)
			if (cnt[sec[i]] > 1)
				printf "*:%s(%s) :%s(%s)\n", ob[i], sec[i], ob[i], sec[i]
			else
				printf "*(%s)\n", sec[i]
	}' "$OUT/base.map"
}
: > "$OUT/empty.lds"
mkorder 1000 > "$OUT/order1000.lds"
mkorder 10000 > "$OUT/order10000.lds"

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# cpu FILE COMMAND...: append "wall cpu" seconds of COMMAND to FILE
cpu() {
	f=$1; shift
	/usr/bin/time -f "%e %U %S" -o "$OUT/time.tmp" "$@" >"$OUT/run.out" 2>&1 || true
	awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' "$OUT/time.tmp" >> "$f"
}
# A relink must compile nothing but init/version-timestamp.o. Kbuild's
# compiler probes (cc-option) were seen to fail once on this shared machine
# under heavy load, which changes every compile command and recompiles all.
relink_only() {
	if grep -E '^  CC ' "$OUT/run.out" | grep -qv 'init/version-timestamp.o'; then
		echo "kernel-relink.sh: make recompiled sources, the timing is void:" >&2
		grep -E '^  CC ' "$OUT/run.out" | head -3 >&2
		exit 1
	fi
}

# Run once with V=1 to catch the final ld command link-vmlinux.sh runs.
rm -f "$BUILD/vmlinux"
$KMAKE V=1 vmlinux 2>&1 | grep -E "^\+ (ld|x86_64-linux-gnu-ld) .* -o vmlinux " | tail -1 |
	sed 's/^+ //' > "$OUT/final-ld.cmd"
[ -s "$OUT/final-ld.cmd" ] || { echo "could not find the final ld command" >&2; exit 1; }

echo "| order | lines | make vmlinux: CPU s (wall s) | final ld alone: CPU s (wall s) |"
echo "|---|---|---|---|"
for o in none empty order1000 order10000; do
	if [ $o = none ]; then ovar= lines=0; else
		ovar=HOTPACK_ORDER=$OUT/$o.lds
		lines=$(grep -c '(' "$OUT/$o.lds" || true)
	fi
	$KMAKE $ovar vmlinux >/dev/null 2>"$OUT/$o.err"
	if grep -qi warning "$OUT/$o.err"; then echo "warnings with $o:" >&2; cat "$OUT/$o.err" >&2; fi
	: > "$OUT/$o.make"; : > "$OUT/$o.ld"
	i=0
	while [ $i -lt "$RUNS" ]; do
		rm -f "$BUILD/vmlinux"
		cpu "$OUT/$o.make" $KMAKE $ovar vmlinux
		relink_only
		# the same final link (vmlinux.lds now has this order) into a scratch file
		(cd "$BUILD" && cpu "$OUT/$o.ld" sh -c "$(sed "s| -o vmlinux | -o $OUT/scratch.vmlinux |; s|-Map=vmlinux.map|-Map=$OUT/scratch.map|" "$OUT/final-ld.cmd")")
		i=$((i + 1))
	done
	printf "| %s | %s | %.2f (%.2f) | %.2f (%.2f) |\n" "$o" "$lines" \
		"$(awk '{ print $2 }' "$OUT/$o.make" | median)" "$(awk '{ print $1 }' "$OUT/$o.make" | median)" \
		"$(awk '{ print $2 }' "$OUT/$o.ld" | median)" "$(awk '{ print $1 }' "$OUT/$o.ld" | median)"
done
