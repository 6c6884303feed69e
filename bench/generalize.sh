#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/generalize.sh - do orders hold on workloads they never saw (issue 16,
# item 3)?  On the kernel loop of examples/kernel/kernel.sh (Linux 6.1
# x86_64, qemu-system-x86_64 TCG, hotpack's QEMU plugin):
#
#   sh bench/generalize.sh OUTDIR
#
# For each workload family of examples/kernel/workloads/ the base image's
# fine sample stream is recorded (every change of 1 KiB block of code).
# Each split of the families into a training half and a test half: hotpack
# orders from the training half's streams concatenated (`hotpack order
# --addr-window 64`, the default algorithm), the kernel is relinked with it
# and booted; the test half's misses are compared with the base layout's and
# with the oracle's (the order made from the test half itself).  The splits
# come in complementary pairs, so each pair's two orders are each other's
# oracle.  All figures: emulated fully associative LRU I-TLB of 4 KiB pages
# at 8..128 entries, I-cache 32 KiB 8-way 64 B lines, kernel code only.
# Tables to OUTDIR/generalize.md (and stdout).
#
# Needs: a built kernel tree (examples/kernel/kernel.sh
# build), hotpack and its QEMU plugin built (HPBUILD=the build directory),
# qemu-system-x86_64, busybox-static.  See bench/kernel-families.sh for the
# environment (KBUILD, HPBUILD, FAMILIES, SPLITS below).  A rerun reuses
# what OUTDIR already holds.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 1 ] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
. "$TOP/bench/kernel-families.sh"
# training halves, comma-separated families; each test half is the rest
# [bench/families.conf's]; leave-one-out: every family left out in turn
# (each set of all families but one)
: "${SPLITS:=$(kf_conf SPLITS)}"
SPLITS=$(kf_splits "$SPLITS")
kf_setup "$1"
# hotpack order's options, e.g. "-a pages --search on"; empty: the default
# algorithm (cds).  They name the images: ...-cds, ...-pages-search.
: "${ALGO_OPTS:=}"
sfx=$(kf_algo_tag)
# the order from all families, in every table
# shellcheck disable=SC2086
ka=$(kf_key $FAMILIES)-$sfx

kf_count base
for f in $FAMILIES; do kf_sample "$f"; done

# every order: each training half, each test half (its oracle), and all
sets=
for s in $SPLITS; do
	train=$(echo "$s" | tr , ' ')
	# shellcheck disable=SC2086
	test=$(kf_complement $train)
	sets="$sets $s $(echo $test | tr ' ' ,)"
done
sets="$sets $(echo $FAMILIES | tr ' ' ,)"
for s in $sets; do
	fams=$(echo "$s" | tr , ' ')
	# shellcheck disable=SC2086
	key=$(kf_key $fams)-$sfx
	# shellcheck disable=SC2086
	kf_order "$key" "$ALGO_OPTS" $fams
	kf_image "$key"
done

# each_split FUNCTION: FUNCTION once per split and direction, with tr and te
# the training and test families, kt and ko the keys of their orders.
each_split() {
	for s in $SPLITS; do
		a=$(echo "$s" | tr , ' ')
		# shellcheck disable=SC2086
		b=$(kf_complement $a)
		for dir in ab ba; do
			if [ $dir = ab ]; then tr=$a te=$b; else tr=$b te=$a; fi
			# shellcheck disable=SC2086
			kt=$(kf_key $tr)-$sfx ko=$(kf_key $te)-$sfx
			"$1"
		done
	done
}
summary_row() {
	# shellcheck disable=SC2086
	set -- $(kf_sum "$OUT/counts/base.txt" $te)
	m0=$3
	# shellcheck disable=SC2086
	set -- $(kf_sum "$OUT/counts/kf-$kt.txt" $te)
	mt=$3
	# shellcheck disable=SC2086
	set -- $(kf_sum "$OUT/counts/kf-$ko.txt" $te)
	mo=$3
	# shellcheck disable=SC2086
	set -- $(kf_sum "$OUT/counts/kf-$ka.txt" $te)
	ma=$3
	echo "| $tr | $te | $(kf_fmt $m0) | $(kf_fmt $mt) | $(kf_fmt $mo) |" \
		"$(awk "BEGIN { printf \"%.2fx | %.1fx |\", $mt / $mo, $m0 / $mo }")" \
		"$(kf_fmt $ma) | $(awk "BEGIN { printf \"%.2fx |\", $ma / $mo }")"
}
split_table() {
	echo
	echo "Trained on: $tr ($kt); tested on: $te"
	echo
	echo "| measured on | layout $KF_HEAD"
	echo "|---|---|$KF_RULE"
	# shellcheck disable=SC2086
	kf_row "test half | base" "$OUT/counts/base.txt" $te
	# shellcheck disable=SC2086
	kf_row "test half | trained order" "$OUT/counts/kf-$kt.txt" $te
	# shellcheck disable=SC2086
	kf_row "test half | oracle (order from the test half)" "$OUT/counts/kf-$ko.txt" $te
	# shellcheck disable=SC2086
	kf_row "training half | base" "$OUT/counts/base.txt" $tr
	# shellcheck disable=SC2086
	kf_row "training half | trained order" "$OUT/counts/kf-$kt.txt" $tr
}

# each test family alone: which of them the trained order fails
family_rows() {
	for f in $te; do
		set -- $(kf_sum "$OUT/counts/kf-$kt.txt" "$f")
		mt=$3 pt=$7
		set -- $(kf_sum "$OUT/counts/kf-$ko.txt" "$f")
		mo=$3 po=$7
		echo "| $tr | $f | $(kf_fmt $mt) | $(kf_fmt $mo) |" \
			"$(awk "BEGIN { printf \"%.2fx\", $mt / ($mo ? $mo : 1) }") | $pt | $po |"
	done
}

md=$OUT/generalize.md
{
	echo "Base image: $BASE; families (phase K = family K): $FAMILIES"
	echo "Orders: hotpack order ${ALGO_OPTS:+$ALGO_OPTS }--addr-window 64 (from $HOTPACK), the streams of the"
	echo "named families concatenated.  Misses summed over the measured families' phases."
	echo
	echo "Summary: 32-entry misses on the test half"
	echo
	echo "| training half | test half | base | trained order | oracle | trained / oracle | base / oracle | order from all | all / oracle |"
	echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
	each_split summary_row
	echo
	echo "(order from all: the order made from every family, the test half's among them;"
	echo "its ratio says how near one order can come to each half's own when it has seen it.)"
	echo
	echo "Each test family: 32-entry misses under the trained order and the oracle of its half"
	echo
	echo "| training half | test family | trained order | oracle | trained / oracle | distinct pages: trained | oracle |"
	echo "|---|---|---:|---:|---:|---:|---:|"
	each_split family_rows
	each_split split_table
	echo
	echo "Each family: base and the order from all families ($ka)"
	echo
	echo "| family | layout $KF_HEAD"
	echo "|---|---|$KF_RULE"
	for f in $FAMILIES; do
		kf_row "$f | base" "$OUT/counts/base.txt" "$f"
		kf_row "$f | order from all" "$OUT/counts/kf-$ka.txt" "$f"
	done
} > "$md"
cat "$md"
