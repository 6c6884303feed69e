#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/model-boots.sh - how near `hotpack report --order` is to the boots
# on workloads an order never saw, with each window's own ranges of bytes
# (.hprof 2.6 `tranges`), with their hulls only (the same file as 2.5:
# `textent`) and without either (as 2.4):
#
#   sh bench/model-boots.sh OUTDIR
#
# For each training half of SPLITS (bench/families.conf's, plus
# chardev,pipe,forkexec,signals,mm: arm64's worst half's), the order from
# its families' streams (`hotpack order --addr-window 64`, cds) is relinked
# and counted on the kernel loop (bench/kernel-families.sh: KBUILD, HPBUILD,
# ARCH, KVER); then for every family of its test half, the booted misses of
# that family's phase beside report --order's on that family's .hprof
# (`hotpack profile --addr-window 64 --sequence` of its stream), on the
# same .hprof with its tranges records taken out, and with its textent
# records taken out too.  Fully associative LRU
# I-TLB of 4 KiB pages at 8, 16, 32, 64, 128 entries and the I-cache (32 KiB,
# 8-way, 64 B lines), kernel code only.  One row per (order, family) to
# OUTDIR/model-boots.txt, then a summary of the model's error per size to
# stdout.  A rerun reuses what OUTDIR holds.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 1 ] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
. "$TOP/bench/kernel-families.sh"
command -v jq > /dev/null || kf_die "jq not found; apt-get install jq"
kf_setup "$1"
kf_count base
for f in $FAMILIES; do kf_sample "$f"; done

# FAMILY.hprof (2.6), FAMILY-25.hprof (its tranges records dropped) and
# FAMILY-24.hprof (its textent records too)
for f in $FAMILIES; do
	h=$OUT/samples/$f.hprof
	[ -f "$h" ] && head -n 1 "$h" | grep -qx 'hotpack-profile 2.6' ||
		"$HOTPACK" profile -q --vmlinux "$BASE/vmlinux" --addr-window 64 \
			--sequence -o "$h" "$OUT/samples/$f.txt"
	head -n 1 "$h" | grep -qx 'hotpack-profile 2.6' ||
		kf_die "$h: not .hprof 2.6; is $HOTPACK older than this script?"
	for v in 25 24; do
		awk -v v=$v 'NR == 1 { sub(/2\.6$/, v == 25 ? "2.5" : "2.4") }
		/^tranges / { next }
		v == 24 && /^textent / { skip = 1; next }
		skip && /^\+/ { next }
		{ skip = 0 }
		/^end / { print "end " n; next }
		!/^hotpack-profile/ { n++ }
		{ print }' "$h" > "$OUT/samples/$f-$v.hprof"
	done
done

# booted FAMILY's phase of COUNTS: misses at 8..128 entries, I-cache misses
booted() {
	awk -v k="$(kf_phase_of "$2")" '
	$1 == "phase" { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$1 == k { print $c["miss8"], $c["miss16"], $c["miss32"], $c["miss64"], $c["miss128"], $c["icmiss"] }
	' "$1"
}
# modelled ORDER HPROF: the same, from report --order
modelled() {
	"$HOTPACK" report -q -n 0 -e 8,16,32,64,128 --json --order "$1" "$BASE/vmlinux" "$2" |
		jq -r '.layouts[] | select(.name == "order") | [.tlb[].misses, .icache_misses] |
			map(tostring) | join(" ")'
}

mb_rows=$OUT/model-boots.txt
: > "$mb_rows.new"
for sp in $(kf_conf SPLITS) chardev,pipe,forkexec,signals,mm; do
	tr=$(echo "$sp" | tr , ' ')
	# shellcheck disable=SC2086
	key=t-$(kf_key $tr)
	# shellcheck disable=SC2086
	kf_order "$key" "" $tr
	kf_image "$key"
	# shellcheck disable=SC2086
	for f in $(kf_complement $tr); do
		echo "$key $f booted $(booted "$OUT/counts/kf-$key.txt" "$f")" \
			"model26 $(modelled "$OUT/orders/$key.lds" "$OUT/samples/$f.hprof")" \
			"model25 $(modelled "$OUT/orders/$key.lds" "$OUT/samples/$f-25.hprof")" \
			"model24 $(modelled "$OUT/orders/$key.lds" "$OUT/samples/$f-24.hprof")" >> "$mb_rows.new"
	done
done
mv "$mb_rows.new" "$mb_rows"

# the model's error against the boots: of the sum over the rows, and the
# median and largest of each row's (rows of 1,000 misses or more)
python3 - "$mb_rows" <<'EOF'
import sys
rows = [l.split() for l in open(sys.argv[1])]
sizes = ["8", "16", "32", "64", "128", "I-cache"]
print("| model | " + " | ".join(sizes) + " |")
print("|---|" + "---:|" * len(sizes))
for name, at in (("per window, its ranges (2.6)", 10), ("per window, one range (2.5)", 17),
                 ("per function (2.4)", 24)):
    cells = []
    for k in range(len(sizes)):
        b = [int(r[3 + k]) for r in rows]
        m = [int(r[at + k]) for r in rows]
        e = sorted(abs(y - x) / x for x, y in zip(b, m) if x >= 1000)
        rel = "%+.1f%% / " % (100 * (sum(m) - sum(b)) / sum(b))
        if e:
            rel += "%.1f%% / %.1f%%" % (100 * e[len(e) // 2], 100 * e[-1])
        else:
            rel += "- / -"
        cells.append(rel)
    print("| %s | %s |" % (name, " | ".join(cells)))
EOF
