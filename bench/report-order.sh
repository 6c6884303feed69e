#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/report-order.sh - how far `hotpack report --order` says an order is
# from the one a workload's own samples make, without relinking or booting,
# for the orders whose booted figures bench/RESULTS.md has ("A workload no
# profile ran", "One order serves every half it has seen"):
#
#   sh bench/report-order.sh VMLINUX PROFILE-DIR OUTDIR
#
# PROFILE-DIR holds FAMILY.hprof for every family of FAMILIES (profiles/'s
# directories do), recorded on VMLINUX (the loop's base image).  Orders
# (`hotpack order ALGO_OPTS`, cds by default) from all families but one,
# from all of them, and from each SPLITS training half (both directions, as
# bench/generalize.sh takes them); each is costed by report --order on the
# families it is measured on (the one left out, each family, the test
# half), whose own order is report's cds column.  Fully associative LRU
# I-TLB of 4 KiB pages at 8-128 entries.  Tables to OUTDIR/report-order.md
# (then stdout); the orders and reports stay in OUTDIR.  HOTPACK: the binary
# (default: the build's tool/hotpack under HPBUILD, else hotpack on PATH).
#
# BOOT: test sets to check against the kernel loop, each a family left out
# or a test half (comma-separated), e.g. BOOT="procsys
# pagecache,filewrite,walk,procsys": the orders costed on it and its own
# order (from its profiles) are relinked and counted on the loop's base
# image as bench/generalize.sh counts them (bench/kernel-families.sh: KBUILD,
# HPBUILD, ARCH, KVER; the images are kf-NAME, the counts in OUTDIR/loop),
# and a last table sets the booted ratios beside the model's.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 3 ] || { echo "usage: $0 VMLINUX PROFILE-DIR OUTDIR" >&2; exit 2; }
V=$1 P=$2 RO=$3
conf() { sed -n "s/^$1=//p" "$TOP/bench/families.conf"; }
: "${FAMILIES:=$(conf FAMILIES)}"
: "${SPLITS:=$(conf SPLITS)}"
: "${ALGO_OPTS:=}"
if [ -z "${HOTPACK:-}" ]; then
	if [ -n "${HPBUILD:-}" ]; then HOTPACK=$HPBUILD/tool/hotpack; else HOTPACK=hotpack; fi
fi
die() { echo "report-order.sh: $*" >&2; exit 1; }
[ -f "$V" ] || die "$V: no such vmlinux"
for f in $FAMILIES; do [ -f "$P/$f.hprof" ] || die "$P/$f.hprof: no such profile"; done
"$HOTPACK" --version >/dev/null 2>&1 || die "$HOTPACK: not a hotpack binary (HOTPACK, HPBUILD)"
command -v jq >/dev/null || die "jq is needed (Debian: jq)"
mkdir -p "$RO"
E=8,16,32,64,128

# hprofs FAMILY...: their profiles' paths
hprofs() { for f in "$@"; do printf '%s ' "$P/$f.hprof"; done; }
# order NAME FAMILY...: $RO/NAME.lds from those families' profiles
order() {
	name=$1
	shift
	[ -f "$RO/$name.lds" ] && return 0
	# shellcheck disable=SC2046,SC2086
	"$HOTPACK" order -q $ALGO_OPTS -o "$RO/$name.lds" "$V" $(hprofs "$@") ||
		die "hotpack order $name failed"
}
# cost NAME ORDER FAMILY...: report --order ORDER on those families, the
# JSON in $RO/NAME.json; prints the ratios at every size, then 32's misses
cost() {
	name=$1 ord=$2
	shift 2
	# shellcheck disable=SC2046,SC2086
	"$HOTPACK" report -q -n 0 $ALGO_OPTS -e $E --json --order "$RO/$ord.lds" "$V" \
		$(hprofs "$@") >"$RO/$name.json" || die "hotpack report $name failed"
	jq -r '[.order_file.ratio[] | (.ratio * 100 | round / 100 | tostring) + "x"] +
		[.order_file.ratio[2].misses, .order_file.ratio[2].against_misses] |
		join(" | ")' "$RO/$name.json"
}
others() { for g in $FAMILIES; do [ "$g" = "$1" ] || printf '%s ' "$g"; done; }
# the other half of split $1 (comma-separated families)
rest() { for g in $FAMILIES; do case ",$1," in *",$g,"*) ;; *) printf '%s ' "$g" ;; esac; done; }

{
echo "report --order on $(basename "$V") ($V), profiles $P; ${ALGO_OPTS:-cds}"
echo
echo "One family left out: the order from the other families, and the order from all of"
echo "them, on that family, against its own order (report's cds column)."
echo
echo "| family | order | 8 | 16 | 32 | 64 | 128 entries | its 32-entry misses | its own order's |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
# shellcheck disable=SC2086
order all $FAMILIES
for f in $FAMILIES; do
	# shellcheck disable=SC2046
	order "without-$f" $(others "$f")
	echo "| $f | the others | $(cost "$f-others" "without-$f" "$f") |"
	echo "| $f | all | $(cost "$f-all" all "$f") |"
done
echo
echo "Training and test halves (each split both ways): the order from the training half,"
echo "and the order from all families, on the test half, against the test half's own."
echo
echo "| test half | order | 8 | 16 | 32 | 64 | 128 entries | its 32-entry misses | the half's own order's |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
for s in $SPLITS; do
	a=$(echo "$s" | tr , ' ') b=$(rest "$s")
	for dir in 1 2; do
		if [ $dir = 1 ]; then tr=$a te=$b; else tr=$b te=$a; fi
		n=$(echo "$tr" | tr ' ' '\n' | grep -v '^$' | tr '\n' - | sed 's/-$//')
		# shellcheck disable=SC2086
		order "train-$n" $tr
		# shellcheck disable=SC2086
		echo "| $(echo $te) | trained | $(cost "test-of-$n" "train-$n" $te) |"
		# shellcheck disable=SC2086
		echo "| $(echo $te) | all | $(cost "all-on-$n" all $te) |"
	done
done

[ -z "${BOOT:-}" ] || {
	# the loop's own functions, its counts under OUTDIR/loop
	# shellcheck source=bench/kernel-families.sh
	. "$TOP/bench/kernel-families.sh"
	[ "$(readlink -f "$BASE/vmlinux")" = "$(readlink -f "$V")" ] ||
		kf_die "BOOT: $V is not the loop's base image $BASE/vmlinux"
	kf_setup "$RO/loop" >&2	# OUT is the loop's directory from here
	# boot NAME: order $RO/NAME.lds relinked as kf-ro-NAME and counted
	boot() {
		cp "$RO/$1.lds" "$OUT/orders/ro-$1.lds"
		kf_image "ro-$1" >&2
	}
	kf_count base >&2
	echo
	echo "Booted (qemu-system TCG, hotpack's plugin: fully associative LRU I-TLB of 4 KiB"
	echo "pages, the test set's phases summed), against the model's ratio above:"
	echo
	echo "| test set | order | booted 32-entry misses | its own order's | booted ratio | model's ratio | base |"
	echo "|---|---|---:|---:|---:|---:|---:|"
	: >"$RO/pairs"
	for t in $BOOT; do
		te=$(echo "$t" | tr , ' ')
		n=$(echo "$te" | tr ' ' -)
		# shellcheck disable=SC2086
		order "own-$n" $te
		boot "own-$n"
		case $t in
		*,*)
			tr=$(rest "$t" | sed 's/ $//')
			set -- "train-$(echo "$tr" | tr ' ' -)" "test-of-$(echo "$tr" | tr ' ' -)" \
				all "all-on-$(echo "$tr" | tr ' ' -)" ;;
		*) set -- "without-$t" "$t-others" all "$t-all" ;;
		esac
		# shellcheck disable=SC2086
		own=$(kf_sum "$OUT/counts/kf-ro-own-$n.txt" $te | awk '{ print $3 }')
		# shellcheck disable=SC2086
		b=$(kf_sum "$OUT/counts/base.txt" $te | awk '{ print $3 }')
		while [ $# -ge 2 ]; do
			boot "$1"
			# shellcheck disable=SC2086
			m=$(kf_sum "$OUT/counts/kf-ro-$1.txt" $te | awk '{ print $3 }')
			r=$(jq -r '.order_file.ratio[2].ratio * 100 | round / 100' "$RO/$2.json")
			echo "$m $own $r" >>"$RO/pairs"
			echo "| $te | $1 | $(kf_fmt "$m") | $(kf_fmt "$own") |" \
				"$(echo "$m $own" | awk '{ printf "%.2fx", $1 / $2 }') | ${r}x | $(kf_fmt "$b") |"
			shift 2
		done
	done
	# how far the model's ratio is from the booted one, and whether both
	# say the same of the 1.5x past which report says to mix
	echo
	awk '{ b = $1 / $2; e = $3 / b - 1; if (e < 0) e = -e
	       print e, ((b > 1.5) == ($3 > 1.5)), (b > 1.5) }' "$RO/pairs" | sort -n |
	awk '{ e[NR] = $1; same += $2; far += $3; w += $1 <= 0.10 }
	     END { med = NR % 2 ? e[(NR + 1) / 2] : (e[NR / 2] + e[NR / 2 + 1]) / 2
		   printf "%d orders: the model'"'"'s ratio within %.1f%% of the booted one " \
			"(median %.1f%%, %d within 10%%); past 1.5x booted: %d, the same " \
			"verdict for %d of %d\n", NR, 100 * e[NR], 100 * med, w, far, same, NR }'
}
} >"$RO/report-order.md.new"
mv "$RO/report-order.md.new" "$RO/report-order.md"
cat "$RO/report-order.md"
