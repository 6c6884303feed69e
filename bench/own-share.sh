#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/own-share.sh - a workload unlike every shipped profile, and a short
# profile of its own mixed in (issue 16, items 1 and 2), in the kernel loop
# of examples/kernel/kernel.sh:
#
#   sh bench/own-share.sh OUTDIR
#
# Each family F of FAMILIES plays the user's workload, the other families
# the shipped profiles.  Orders (`hotpack order --addr-window 64`, ALGO_OPTS
# as bench/generalize.sh's): from the other families' streams alone; from
# them and the first SHARE per cent of F's stream, for each SHARE of SHARES
# [1 10] (a profile taken for a short while), and the same with that share
# an input of its own given W per cent of the total weight for each W of
# WEIGHTS [50 25] (`--weight-of SHARE=W%`; 50: as much as all the others
# together); from every family's (F's
# whole stream among them); from F's alone (its oracle).  Each order is
# relinked and booted under the plugin; F's misses are set against its
# oracle's, the other families' against the order made from them alone
# (what mixing F in costs them).  Fully associative LRU I-TLB of 4 KiB
# pages, 8..128 entries, kernel code only.  The same OUTDIR as
# generalize.sh shares its samples, orders and images (the orders from all
# families but one are its leave-one-out SPLITS').  Needs what
# generalize.sh needs.  Tables to OUTDIR/own-share.md (and stdout).
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 1 ] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
. "$TOP/bench/kernel-families.sh"
: "${SHARES:=1 10}"
: "${WEIGHTS:=50 25}"
: "${ALGO_OPTS:=}"
# per_cents NAME VALUE...: each a whole per cent from 1 to 99, else die
per_cents() {
	name=$1
	shift
	for v in "$@"; do
		case $v in
		'' | *[!0-9]* | 0 | 0*) kf_die "$name=$*: whole per cents from 1 to 99" ;;
		esac
		[ "$v" -lt 100 ] || kf_die "$name=$*: whole per cents from 1 to 99"
	done
}
# shellcheck disable=SC2086
per_cents SHARES $SHARES
# shellcheck disable=SC2086
per_cents WEIGHTS $WEIGHTS
sfx=$(kf_algo_tag)
kf_setup "$1"
mkdir -p "$OUT/samples/share"

kf_count base
for f in $FAMILIES; do kf_sample "$f"; done
# shellcheck disable=SC2086
kall=$(kf_key $FAMILIES)-$sfx
# shellcheck disable=SC2086
kf_order "$kall" "$ALGO_OPTS" $FAMILIES
kf_image "$kall"

# share_stream FAMILY P: the first P per cent of FAMILY's stream, in $share.
# (kernel-families.sh's functions set f, k, s, c, o and others: the names
# here are apart from theirs.)
share_stream() {
	share=$OUT/samples/share/$1-$2pc.txt
	[ -f "$share" ] && return 0
	lines=$(grep -c . "$OUT/samples/$1.txt")
	head -n $((lines * $2 / 100)) "$OUT/samples/$1.txt" > "$share.new"
	mv "$share.new" "$share"
}

for held in $FAMILIES; do
	# shellcheck disable=SC2086
	rest=$(kf_complement "$held")
	# shellcheck disable=SC2086
	kr=$(kf_key $rest)-$sfx ko=$(kf_key "$held")-$sfx
	# shellcheck disable=SC2086
	kf_order "$kr" "$ALGO_OPTS" $rest
	kf_image "$kr"
	kf_order "$ko" "$ALGO_OPTS" "$held"
	kf_image "$ko"
	for pct in $SHARES; do
		share_stream "$held" "$pct"
		# shellcheck disable=SC2086
		kf_streams $rest
		# shellcheck disable=SC2086
		kp=$(kf_key $rest)-plus$(kf_phase_of "$held")-${pct}pc-$sfx
		[ -f "$OUT/orders/$kp.lds" ] ||
			kf_say "order $kp: hotpack order $ALGO_OPTS --addr-window 64 from $rest and $pct% of $held"
		# shellcheck disable=SC2086
		kf_order_files "$kp" "$ALGO_OPTS" $files "$share"
		kf_image "$kp"
		# the share as an input of its own, given w% of the total
		for w in $WEIGHTS; do
			kw=$kp-w$w
			[ -f "$OUT/orders/$kw.lds" ] ||
				kf_say "order $kw: the same, $held's share as its own input weighing $w% of the total"
			# shellcheck disable=SC2086
			kf_order_inputs "$kw" "$ALGO_OPTS --weight-of $share=$w%" $files "$share"
			kf_image "$kw"
		done
	done
done

# share_row LABEL COUNTS: F's misses at every size, its ratio to the oracle at
# 32 entries, the other families' at 32 and their ratio to their own order
share_row() {
	label=$1 counts=$2
	# shellcheck disable=SC2046
	set -- $(kf_sum "$counts" "$held")
	m8=$1 m16=$2 m32=$3 m64=$4 m128=$5
	# shellcheck disable=SC2046,SC2086
	set -- $(kf_sum "$counts" $rest)
	r32=$3
	echo "| $held | $label | $(kf_fmt $m8) | $(kf_fmt $m16) | $(kf_fmt $m32) | $(kf_fmt $m64) |" \
		"$(kf_fmt $m128) | $(awk "BEGIN { printf \"%.2fx\", $m32 / ($o32 ? $o32 : 1) }") |" \
		"$(kf_fmt $r32) | $(awk "BEGIN { printf \"%.2fx\", $r32 / ($b32 ? $b32 : 1) }") |"
}

md=$OUT/own-share.md
{
	echo "Base image: $BASE; families (phase K = family K): $FAMILIES"
	echo "Orders: hotpack order ${ALGO_OPTS:+$ALGO_OPTS }--addr-window 64 (from $HOTPACK), the streams"
	echo "concatenated.  Each family in turn is the workload no other profile ran; the"
	echo "others are the profiles it is mixed with.  I-TLB misses of that family, and"
	echo "(at 32 entries) of the other families together."
	echo
	echo "| family | order | 8 | 16 | 32 | 64 | 128 entries | 32: / its own order |" \
		"the others, 32 | / their order without it |"
	echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	for held in $FAMILIES; do
		rest=$(kf_complement "$held")
		# shellcheck disable=SC2086
		kr=$(kf_key $rest)-$sfx ko=$(kf_key "$held")-$sfx
		# shellcheck disable=SC2046
		set -- $(kf_sum "$OUT/counts/kf-$ko.txt" "$held")
		o32=$3
		# shellcheck disable=SC2046,SC2086
		set -- $(kf_sum "$OUT/counts/kf-$kr.txt" $rest)
		b32=$3
		share_row "base layout" "$OUT/counts/base.txt"
		share_row "the others' alone" "$OUT/counts/kf-$kr.txt"
		for pct in $SHARES; do
			# shellcheck disable=SC2086
			kp=$(kf_key $rest)-plus$(kf_phase_of "$held")-${pct}pc-$sfx
			share_row "the others' and $pct% of its own" "$OUT/counts/kf-$kp.txt"
			for w in $WEIGHTS; do
				share_row "the same, its $pct% given $w% of the weight" "$OUT/counts/kf-$kp-w$w.txt"
			done
		done
		share_row "every family's (all of its own)" "$OUT/counts/kf-$kall.txt"
		share_row "its own alone" "$OUT/counts/kf-$ko.txt"
	done
} > "$md"
cat "$md"
