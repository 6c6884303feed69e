#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/peers.sh - hotpack's layout algorithms against lld's call-graph sorts
# given the same profile (issue 17, item 1), in the kernel loop of
# examples/kernel/kernel.sh:
#
#   sh bench/peers.sh OUTDIR
#
# Profile: the base image's fine sample stream (every change of 1 KiB block
# of code) of the training families.  Orders: `hotpack order -a ALGO
# --addr-window 64` for each algorithm (original c3 ph cds pages, and pages
# --search on), and ld.lld's --call-graph-profile-sort=cdsort and hfsort
# given the call graph hotpack's algorithms work on (`hotpack profile
# --format lld-cg --addr-window 64`: the windows' arcs, the static calls,
# each function's samples a self arc), ordering a stand-in object of the
# same sections (bench/lld-standin.py); its output order is the kernel's
# order file.  Each order is relinked and booted under
# the plugin; misses (fully associative LRU, 4 KiB pages, 8..128 entries) on
# the trained families and on the test families they never saw.
#
# ALGOS: hotpack's algorithms (original c3 ph cds pages pages-search,
# cds-repeats-RULE: cds with --repeats RULE) and lld-cdsort lld-hfsort.
# TRAIN_SETS [all families, then chardev,pagecache,filewrite,pipe]:
# training sets, comma-separated; "all" is FAMILIES (then nothing is
# unseen).  The same OUTDIR as bench/generalize.sh shares its samples and
# images.  Needs what generalize.sh needs, and ld.lld (LLD [ld.lld-22];
# apt-get install lld-22), as (binutils), nm, python3.  LLD_CG_OPTS
# [--addr-window 64]: how hotpack profile makes the call graph.  Tables to
# OUTDIR/peers.md (and stdout).
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 1 ] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
. "$TOP/bench/kernel-families.sh"
: "${LLD:=ld.lld-22}"
: "${TRAIN_SETS:=all chardev,pagecache,filewrite,pipe}"
: "${ALGOS:=original c3 ph cds pages pages-search lld-cdsort lld-hfsort}"
command -v "$LLD" > /dev/null || kf_die "$LLD not found; apt-get install lld-22 (or set LLD)"
command -v python3 > /dev/null || kf_die "python3 not found; apt-get install python3"
command -v as > /dev/null && command -v nm > /dev/null ||
	kf_die "as and nm not found; apt-get install binutils"
kf_setup "$1"
: "${LLD_CG_OPTS:=--addr-window 64}"
# lld's orders from a graph weighed with --repeats carry the rule in their
# names (-hpcg-repeats-log), so that both live in one OUTDIR
CG_TAG=$(echo "$LLD_CG_OPTS" | sed -n 's/.*--repeats[ =]\([a-z]*\).*/-repeats-\1/p')
CONV=$TOP/bench/lld-standin.py

# kf_lld_order NAME SORT FAMILY...: $OUT/orders/NAME.lds from lld's SORT
kf_lld_order() {
	name=$1 sort=$2
	shift 2
	o=$OUT/orders/$name.lds
	[ -f "$o" ] && return 0
	kf_streams "$@"
	p=$OUT/orders/$name.lld
	kf_say "order $name: $LLD --call-graph-profile-sort=$sort from $*"
	# shellcheck disable=SC2086
	cat $files | "$HOTPACK" profile --format lld-cg $LLD_CG_OPTS --vmlinux "$BASE/vmlinux" \
		-o "$p.cg" - 2> "$OUT/orders/$name.err" ||
		{ cat "$OUT/orders/$name.err" >&2; kf_die "hotpack profile --format lld-cg failed"; }
	nm "$BASE/vmlinux" > "$p.syms"
	python3 "$CONV" standin "$BASE/vmlinux.map" "$p.syms" "$p.cg" "$p" \
		2>> "$OUT/orders/$name.err" ||
		{ cat "$OUT/orders/$name.err" >&2; kf_die "lld-standin.py standin failed"; }
	as -o "$p.o" "$p.s"
	start=$(date +%s.%N)
	"$LLD" -o "$p.elf" -e 0 --call-graph-ordering-file="$p.cg" \
		--call-graph-profile-sort="$sort" "$p.o" 2>> "$OUT/orders/$name.err" ||
		{ cat "$OUT/orders/$name.err" >&2; kf_die "$LLD failed"; }
	end=$(date +%s.%N)
	echo "$end - $start" | bc > "$OUT/orders/$name.time"
	nm -n "$p.elf" > "$p.nm"
	python3 "$CONV" lds "$p" "$p.nm" > "$o.new"
	rm -f "$p.o" "$p.elf" "$p.s" "$p.syms"
	mv "$o.new" "$o"
}

# peer_order NAME-PREFIX ALGO FAMILY...: the order of one algorithm (lld's
# are named -hpcg: from hotpack's call graph, not the sample transitions
# of the first measurement)
peer_order() {
	pre=$1 algo=$2
	shift 2
	case $algo in
	lld-*) kf_lld_order "$pre-$algo-hpcg$CG_TAG" "${algo#lld-}" "$@"
		kf_image "$pre-$algo-hpcg$CG_TAG"
		return ;;
	pages-search) kf_order "$pre-$algo" "-a pages --search on" "$@" ;;
	cds-repeats-*) kf_order "$pre-$algo" "--repeats ${algo#cds-repeats-}" "$@" ;;
	cds) kf_order "$pre-$algo" "" "$@" ;;     # the default, as generalize.sh
	*) kf_order "$pre-$algo" "-a $algo" "$@" ;;
	esac
	kf_image "$pre-$algo"
}

kf_count base
for s in $TRAIN_SETS; do
	[ "$s" != all ] || s=$(echo $FAMILIES | tr ' ' ,)
	train=$(echo "$s" | tr , ' ')
	# shellcheck disable=SC2086
	pre=$(kf_key $train)
	for a in $ALGOS; do
		# shellcheck disable=SC2086
		peer_order "$pre" "$a" $train
	done
done

label() {
	case $1 in
	lld-cdsort) echo "lld cdsort" ;;
	lld-hfsort) echo "lld hfsort (C3)" ;;
	pages-search) echo "hotpack pages --search on" ;;
	cds) echo "hotpack cds (default)" ;;
	cds-repeats-*) echo "hotpack cds --repeats ${1#cds-repeats-}" ;;
	*) echo "hotpack $1" ;;
	esac
}

md=$OUT/peers.md
{
	echo "Base image: $BASE; families (phase K = family K): $FAMILIES"
	echo "hotpack: $HOTPACK order -a ALGO --addr-window 64; lld: $LLD --call-graph-profile-sort=SORT"
	echo "given hotpack's call graph (hotpack profile --format lld-cg $LLD_CG_OPTS; bench/lld-standin.py)."
	echo "Misses summed over the measured families' phases."
	for s in $TRAIN_SETS; do
		[ "$s" != all ] || s=$(echo $FAMILIES | tr ' ' ,)
		train=$(echo "$s" | tr , ' ')
		# shellcheck disable=SC2086
		test=$(kf_complement $train)
		# shellcheck disable=SC2086
		pre=$(kf_key $train)
		for half in trained unseen; do
			if [ $half = trained ]; then m=$train; else m=$test; fi
			[ -n "$m" ] || continue
			echo
			echo "Trained on: $train; measured on the $half families: $m"
			echo
			echo "| order $KF_HEAD order time (s; lld: the stand-in's link) |"
			echo "|---|$KF_RULE---:|"
			# shellcheck disable=SC2086
			kf_row "base (no order)" "$OUT/counts/base.txt" $m | sed 's/$/ |/'
			for a in $ALGOS; do
				n=$pre-$a
				case $a in lld-*) n=$n-hpcg$CG_TAG ;; esac
				t=$(printf '%.2f' "$(cat "$OUT/orders/$n.time")")
				# shellcheck disable=SC2086
				kf_row "$(label "$a")" "$OUT/counts/kf-$n.txt" $m | sed "s/\$/ $t |/"
			done
		done
	done
} > "$md"
cat "$md"
