#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/layout-kernel.sh - every layout algorithm on the real kernel loop:
# order the base kernel from the QEMU plugin's samples of the workload
# phases, relink, boot under the plugin (4 KiB pages and 2 MiB pages), and
# print one table row per order.  Needs a built kernel tree (see
# examples/kernel/README.md) and the plugin built in this tree.
#
#   sh bench/layout-kernel.sh OUTDIR SAMPLES [ALGO...]
#
# SAMPLES: misses of the base image recorded with sample_phases=1-5 (as in
# docs/no-pmu.md).  Environment: KBUILD, BUILD (the kernel build tree to
# relink in), BASE (the base image directory, default $KBUILD/images/base),
# HOTPACK, PLUGIN.  ALGO "empty" relinks with an empty order file;
# NAME=FILE measures an order file made elsewhere, under NAME.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: $0 OUTDIR SAMPLES [ALGO...]}
samples=${2:?usage: $0 OUTDIR SAMPLES [ALGO...]}
shift 2
[ $# -gt 0 ] || set -- empty original c3 ph cds pages
: "${KBUILD:=${XDG_CACHE_HOME:-$HOME/.cache}/hotpack/kbuild}" "${HOTPACK:=$TOP/tool/hotpack}"
: "${PLUGIN:=$TOP/tool/qemu/libhotpack-itlb.so}" "${BASE:=$KBUILD/images/base}"
export KBUILD
mkdir -p "$out"
out=$(cd "$out" && pwd)
for arg in "$@"; do
	a=${arg%%=*}
	if [ "$a" != "$arg" ]; then
		cp "${arg#*=}" "$out/order-$a.lds"
	elif [ "$a" = empty ]; then
		: > "$out/order-$a.lds"
	else
		"$HOTPACK" order -a "$a" "$BASE/vmlinux" "$samples" > "$out/order-$a.lds" \
			2> "$out/order-$a.err"
	fi
	sh "$TOP/examples/kernel/kernel.sh" relink "$out/order-$a.lds" "lk-$a" > "$out/relink-$a.out" 2>&1
	QEMU_EXTRA="-plugin $PLUGIN,entries=32:8:16:64:128,sample_phases=1-5,out=$out/$a-4k.txt" \
		sh "$TOP/examples/kernel/kernel.sh" boot "lk-$a" > "$out/$a-4k.console" 2>&1
	QEMU_EXTRA="-plugin $PLUGIN,page=2M,entries=2:4:8:16,out=$out/$a-2m.txt" \
		sh "$TOP/examples/kernel/kernel.sh" boot "lk-$a" > "$out/$a-2m.console" 2>&1
done
# one row per order: work phases (1-5), 4 KiB: distinct pages, misses with
# 8/16/32/64/128 entries, I-cache misses; 2 MiB: distinct pages, 2/4 entries
for arg in "$@"; do
	a=${arg%%=*}
	awk -v a="$a" -v f2="$out/$a-2m.txt" '
	function row(file,   l, h, i, r) {
		while ((getline l < file) > 0) {
			if (l ~ /^#/) continue
			split(l, r, /[ \t]+/)
			if (r[1] == "phase") { for (i = 1; i in r; i++) h[r[i]] = i; continue }
			if (r[1] == "work") { close(file); for (i in h) W[i] = r[h[i]]; return }
		}
	}
	BEGIN {
		row(FILENAME_4K = ARGV[1]); for (k in W) A[k] = W[k]; delete W
		row(f2)
		printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", a,
			A["kpages"], A["miss8"], A["miss16"], A["miss32"], A["miss64"], A["miss128"],
			A["icmiss"], W["kpages"], W["miss2"], W["miss4"]
		exit
	}' "$out/$a-4k.txt"
done
