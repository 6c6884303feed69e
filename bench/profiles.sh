#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/profiles.sh - is an order made from the shipped .hprof profiles as
# good as one made from the sample streams they were recorded from (issue
# 16)?  On the kernel loop of examples/kernel/kernel.sh (Linux 6.1 x86_64,
# qemu-system-x86_64 TCG, hotpack's QEMU plugin):
#
#   sh bench/profiles.sh OUTDIR [PROFILEDIR]
#
# PROFILEDIR [profiles/linux-6.1-x86_64] holds FAMILY.hprof for every
# family; missing ones are made from the streams as profiles/README.md
# says.  Two orders (hotpack order ${ALGO_OPTS}, the default algorithm when
# empty): from the nine streams, each an input, with --addr-window 64; and
# from the nine .hprof.  Both are relinked and booted; the table gives each
# family's misses under each order.  TAG [shipped] names the .hprof order's
# image, so that profiles of two formats can be compared side by side.
# See bench/kernel-families.sh for the environment (KBUILD, HPBUILD,
# FAMILIES); a rerun reuses what OUTDIR holds.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: $0 OUTDIR [PROFILEDIR]" >&2; exit 2; }
. "$TOP/bench/kernel-families.sh"
PDIR=${2:-$TOP/profiles/linux-6.1-x86_64}
: "${ALGO_OPTS:=}"
: "${TAG:=shipped}"
sfx=$(echo "${ALGO_OPTS:-cds}" | sed 's/-a //; s/--search on/search/; s/[^a-z0-9]\{1,\}/-/g; s/^-//; s/-$//')
kf_setup "$1"
PDIR=$(mkdir -p "$PDIR" && cd "$PDIR" && pwd)

kf_count base
streams= profs=
for f in $FAMILIES; do
	kf_sample "$f"
	p=$PDIR/$f.hprof
	if [ ! -f "$p" ]; then
		kf_say "profile $f: hotpack profile --addr-window 64 --sequence"
		# from the samples' directory: the .hprof names its input FAMILY.txt
		(cd "$OUT/samples" && "$HOTPACK" profile -q --vmlinux "$BASE/vmlinux" \
			--addr-window 64 --sequence -o "$p" "$f.txt")
	fi
	streams="$streams $OUT/samples/$f.txt"
	profs="$profs $p"
done

# order NAME INPUT...: $OUT/orders/NAME.lds (hotpack order $ALGO_OPTS)
order() {
	o=$OUT/orders/$1.lds
	shift
	[ -f "$o" ] && return 0
	kf_say "order ${o##*/}: hotpack order $ALGO_OPTS $*"
	# shellcheck disable=SC2086
	"$HOTPACK" order $ALGO_OPTS -o "$o.new" "$BASE/vmlinux" "$@" 2> "${o%.lds}.err" ||
		{ cat "${o%.lds}.err" >&2; kf_die "hotpack order failed"; }
	mv "$o.new" "$o"
}
ks=prof-streams-$sfx kh=prof-hprof-$TAG-$sfx
# shellcheck disable=SC2086
order "$ks" --addr-window 64 $streams
# shellcheck disable=SC2086
order "$kh" $profs
kf_image "$ks"
kf_image "$kh"

md=$OUT/profiles-$TAG-$sfx.md
{
	echo "Orders: hotpack order ${ALGO_OPTS:+$ALGO_OPTS }(from $HOTPACK) of the nine"
	echo "streams (--addr-window 64) and of the nine .hprof in $PDIR."
	# the header comment names the inputs; the rest is the order
	if [ "$(sed '1,/^ \*\/$/d' "$OUT/orders/$ks.lds" | md5sum)" = \
	     "$(sed '1,/^ \*\/$/d' "$OUT/orders/$kh.lds" | md5sum)" ]; then
		echo "The two orders are the same (but for their header comment)."
	fi
	echo
	echo "| family | streams: 32-entry misses | .hprof: 32-entry misses | .hprof / streams |"
	echo "|---|---:|---:|---:|"
	ts=0 th=0
	for f in $FAMILIES; do
		set -- $(kf_sum "$OUT/counts/kf-$ks.txt" "$f")
		s=$3
		set -- $(kf_sum "$OUT/counts/kf-$kh.txt" "$f")
		h=$3
		ts=$((ts + s)) th=$((th + h))
		echo "| $f | $(kf_fmt $s) | $(kf_fmt $h) | $(awk "BEGIN { printf \"%+.2f%%\", ($h - $s) * 100 / $s }") |"
	done
	echo "| all | $(kf_fmt $ts) | $(kf_fmt $th) | $(awk "BEGIN { printf \"%+.2f%%\", ($th - $ts) * 100 / $ts }") |"
} > "$md"
cat "$md"
