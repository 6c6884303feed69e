#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/profiles.sh - is an order made from the shipped .hprof profiles as
# good as one made from the sample streams they were recorded from (issue
# 16)?  On the kernel loop of examples/kernel/kernel.sh (Linux $KVER, 6.1 or
# 6.12, on $ARCH: x86_64, arm64 or powerpc (ppc32), under QEMU TCG with
# hotpack's QEMU plugin):
#
#   [KVER=6.12] [ARCH=arm64] sh bench/profiles.sh OUTDIR [PROFILEDIR]
#
# PROFILEDIR [profiles/linux-$KVER-ARCH, ARCH as the issue names it:
# x86_64, arm64, ppc32 for powerpc] holds FAMILY.hprof for every
# family; missing ones are made from the streams as profiles/README.md
# says.  Two orders (hotpack order ${ALGO_OPTS}, the default algorithm when
# empty): from the nine streams, each an input, with --addr-window 64; and
# from the nine .hprof.  Both are relinked and booted; the table gives each
# family's misses under each order.  TAG [shipped] names the .hprof order's
# image, so that profiles of two formats can be compared side by side.
# OTHER, a directory of FAMILY.hprof recorded on another kernel version
# (e.g. profiles/linux-6.1-x86_64 when KVER=6.12), adds a third order: from
# those, against this version's vmlinux (names matched across versions),
# relinked and counted the same way.  Where hotpack refuses those files
# (too little of their weight matches: another kernel's), the run says so
# and goes on without the third order; OTHER_OPTS are added to that
# order's options (--min-match 0 takes the files as they are).  The table
# also gives the base image's misses, and a second one the base and the
# .hprof order on every family at every size (8-128 entries).  See
# bench/kernel-families.sh for the environment (KBUILD, HPBUILD, FAMILIES,
# KVER); a rerun reuses what OUTDIR holds.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: $0 OUTDIR [PROFILEDIR]" >&2; exit 2; }
. "$TOP/bench/kernel-families.sh"
case $ARCH in powerpc) parch=ppc32 ;; *) parch=$ARCH ;; esac
PDIR=${2:-$TOP/profiles/linux-$KVER-$parch}
: "${ALGO_OPTS:=}"
: "${TAG:=shipped}"
: "${OTHER:=}"
: "${OTHER_OPTS:=}"
sfx=$(kf_algo_tag)
kf_setup "$1"
PDIR=$(mkdir -p "$PDIR" && cd "$PDIR" && pwd)

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

# order_try NAME "OPTIONS" INPUT...: $OUT/orders/NAME.lds (hotpack order
# $ALGO_OPTS OPTIONS), or hotpack's errors on stderr and a failure
order_try() {
	o=$OUT/orders/$1.lds opts=$2
	shift 2
	[ -f "$o" ] && return 0
	kf_say "order ${o##*/}: hotpack order $ALGO_OPTS${opts:+ $opts} $*"
	# shellcheck disable=SC2086
	if ! "$HOTPACK" order $ALGO_OPTS $opts -o "$o.new" "$BASE/vmlinux" "$@" 2> "${o%.lds}.err"; then
		cat "${o%.lds}.err" >&2
		rm -f "$o.new"
		return 1
	fi
	mv "$o.new" "$o"
}
# order NAME INPUT...: the same with no more options, or the end of the run
order() {
	name=$1
	shift
	order_try "$name" "" "$@" || kf_die "hotpack order failed"
}
ks=prof-streams$KF_GRAIN_TAG-$sfx kh=prof-hprof$KF_GRAIN_TAG-$TAG-$sfx
# shellcheck disable=SC2086
order "$ks" --addr-window 64 $streams
# shellcheck disable=SC2086
order "$kh" $profs
# (the profiles first: they are what ships)
kf_count base
kf_image "$ks"
kf_image "$kh"
ko= kerr=
if [ -n "$OTHER" ]; then
	ko=prof-other$KF_GRAIN_TAG-$(basename "$OTHER")-$sfx
	# its options name its image, so that a rerun with others makes it anew
	[ -z "$OTHER_OPTS" ] || ko=$ko-$(ALGO_OPTS=$OTHER_OPTS; kf_algo_tag)
	kerr=$OUT/orders/$ko.err
	others=
	for f in $FAMILIES; do
		[ -f "$OTHER/$f.hprof" ] || kf_die "$OTHER/$f.hprof: no such profile (OTHER)"
		others="$others $OTHER/$f.hprof"
	done
	# shellcheck disable=SC2086
	if order_try "$ko" "$OTHER_OPTS" $others; then
		kf_image "$ko"
	else
		kf_say "hotpack order failed on $OTHER's profiles (above); the third order is left out"
		ko=
	fi
fi

# pct A B: B against A, in per cent
pct() { awk "BEGIN { printf \"%+.2f%%\", ($2 - $1) * 100 / $1 }"; }

md=$OUT/profiles-$TAG-$sfx.md
{
	echo "Linux $KVER $ARCH. Orders: hotpack order ${ALGO_OPTS:+$ALGO_OPTS }(from $HOTPACK) of the nine"
	echo "streams (--addr-window 64) and of the nine .hprof in $PDIR."
	# the header comment names the inputs; the rest is the order
	sed '1,/^ \*\/$/d' "$OUT/orders/$ks.lds" > "$OUT/orders/$ks.body"
	sed '1,/^ \*\/$/d' "$OUT/orders/$kh.lds" > "$OUT/orders/$kh.body"
	if cmp -s "$OUT/orders/$ks.body" "$OUT/orders/$kh.body"; then
		echo "The two orders are the same (cmp, but for their header comment)."
	else
		echo "The two orders differ ($(cmp "$OUT/orders/$ks.body" "$OUT/orders/$kh.body" 2>&1 | head -1))."
	fi
	echo
	if [ -n "$kerr" ]; then
		if [ -n "$ko" ]; then
			echo "Third order: from the nine .hprof in $OTHER${OTHER_OPTS:+ ($OTHER_OPTS)}, against this"
			echo "vmlinux; what hotpack order said of them:"
		else
			echo "No third order: hotpack order refused the nine .hprof in $OTHER against"
			echo "this vmlinux (OTHER_OPTS=\"--min-match 0\" takes them as they are):"
		fi
		echo
		grep -v '^$' "$kerr" | sed 's/^/    /'
		echo
	fi
	echo "32-entry misses (4 KiB pages, fully associative LRU):"
	echo
	if [ -n "$ko" ]; then
		echo "| family | base | streams | .hprof | .hprof / streams | $(basename "$OTHER") .hprof | / streams |"
		echo "|---|---:|---:|---:|---:|---:|---:|"
	else
		echo "| family | base | streams | .hprof | .hprof / streams |"
		echo "|---|---:|---:|---:|---:|"
	fi
	tb=0 ts=0 th=0 to=0
	for f in $FAMILIES all; do
		if [ "$f" = all ]; then
			b=$tb s=$ts h=$th o=$to
		else
			set -- $(kf_sum "$OUT/counts/base.txt" "$f")
			b=$3
			set -- $(kf_sum "$OUT/counts/kf-$ks.txt" "$f")
			s=$3
			set -- $(kf_sum "$OUT/counts/kf-$kh.txt" "$f")
			h=$3
			o=0
			if [ -n "$ko" ]; then
				set -- $(kf_sum "$OUT/counts/kf-$ko.txt" "$f")
				o=$3
			fi
			tb=$((tb + b)) ts=$((ts + s)) th=$((th + h)) to=$((to + o))
		fi
		row="| $f | $(kf_fmt $b) | $(kf_fmt $s) | $(kf_fmt $h) | $(pct $s $h) |"
		[ -z "$ko" ] || row="$row $(kf_fmt $o) | $(pct $s $o) |"
		echo "$row"
	done
	echo
	echo "Each family: base and the order from the nine .hprof ($kh), every size"
	echo "(4 KiB pages, fully associative LRU, kernel code only):"
	echo
	echo "| family | layout $KF_HEAD"
	echo "|---|---|$KF_RULE"
	worse=
	for f in $FAMILIES; do
		kf_row "$f | base" "$OUT/counts/base.txt" "$f"
		kf_row "$f | .hprof order" "$OUT/counts/kf-$kh.txt" "$f"
		set -- $(kf_sum "$OUT/counts/base.txt" "$f")
		b="$1 $2 $3 $4 $5"
		set -- $(kf_sum "$OUT/counts/kf-$kh.txt" "$f")
		h="$1 $2 $3 $4 $5"
		w=$(echo "$b $h" | awk '{ for (i = 1; i <= 5; i++) if ($(i + 5) > $i) printf " %d", 8 * 2 ^ (i - 1) }')
		[ -z "$w" ] || worse="$worse $f:$w"
	done
	echo
	if [ -z "$worse" ]; then
		echo "No family at any size from 8 to 128 entries misses more under the .hprof order than the base layout."
	else
		echo "Worse than the base layout (family: entries):$worse"
	fi
} > "$md"
cat "$md"
