#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/traced-loop.sh - does packing explicit traces first cost misses on
# a workload the order was not made from?  In the kernel loop of
# examples/kernel/kernel.sh (bench/kernel-families.sh):
#
#   sh bench/traced-loop.sh OUTDIR
#
# Order "without": `hotpack order --addr-window 64` (cds) from the training
# families' fine streams, as bench/generalize.sh makes it.  Order "with":
# the same order with the explicit traces' block first: the block hotpack
# makes from the function_graph trace TRACE [the shared Linux 6.1 data's
# ksys_read/ksys_write trace] on the base image, then the "without" order
# less those functions, which is what the step builds when its model keeps
# it (here the model does not: the order's header says by how much).  Both
# are relinked and counted on the trained and the unseen families.
#
# TRAIN [chardev,pagecache,filewrite,pipe]: the training families; the
# others are unseen.  The same OUTDIR as bench/generalize.sh shares its
# samples, orders and counts.  Table to OUTDIR/traced-loop.md (and stdout).
set -eu
[ $# -eq 1 ] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
: "${TRAIN:=chardev,pagecache,filewrite,pipe}"
: "${TRACE:=${SHARED_DATA:-/work/shared/data}/linux-6.1-x86_64-tiny/function-graph.txt}"
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/bench/kernel-families.sh"
[ -f "$TRACE" ] || kf_die "$TRACE: no function_graph trace; set TRACE"
kf_setup "$1"

train=$(echo "$TRAIN" | tr , ' ')
# shellcheck disable=SC2086
pre=$(kf_key $train)
# shellcheck disable=SC2086
test=$(kf_complement $train)
# shellcheck disable=SC2086
kf_order "$pre-cds" "" $train
kf_image "$pre-cds"

w=$OUT/orders/$pre-cds-traced.lds
if [ ! -f "$w" ]; then
	# shellcheck disable=SC2086
	kf_streams $train
	# what the step's model says of the block beside the stream
	# shellcheck disable=SC2086
	cat $files | "$HOTPACK" order -q --addr-window 64 -o "$OUT/orders/$pre-cds-fg.lds" \
		"$BASE/vmlinux" "$TRACE" - || kf_die "hotpack order with $TRACE failed"
	"$HOTPACK" order -q -o "$OUT/orders/traced-block.lds" "$BASE/vmlinux" "$TRACE" ||
		kf_die "hotpack order of $TRACE failed"
	sed -n '/^\. = ALIGN/,$p' "$OUT/orders/traced-block.lds" | sed 1d > "$w.block"
	{
		echo "/* bench/traced-loop.sh: the block of $TRACE, then $pre-cds.lds less it */"
		echo ". = ALIGN(4096);"
		cat "$w.block"
		sed -n '/^\. = ALIGN/,$p' "$OUT/orders/$pre-cds.lds" | sed 1d |
			grep -vxF -f "$w.block"
	} > "$w.new"
	[ "$(grep -c '^\*' "$w.new")" -eq "$(grep -c '^\*' "$OUT/orders/$pre-cds.lds")" ] ||
		kf_say "note: the block adds functions the stream's order does not have"
	mv "$w.new" "$w"
fi
kf_image "$pre-cds-traced"

# table HALF FAMILY...: the three orders' misses on those families
table() {
	printf '\nMeasured on the %s families: %s\n\n| order %s\n|---|%s\n' \
		"$1" "$(shift; echo "$*")" "$KF_HEAD" "$KF_RULE"
	shift
	kf_row "base (no order)" "$OUT/counts/base.txt" "$@"
	kf_row "cds, without the traces" "$OUT/counts/kf-$pre-cds.txt" "$@"
	kf_row "cds, the traces' block first" "$OUT/counts/kf-$pre-cds-traced.txt" "$@"
}

md=$OUT/traced-loop.md
{
	echo "Base image: $BASE; trained on: $train; trace: $TRACE"
	grep '^ \* explicit paths' "$OUT/orders/$pre-cds-fg.lds" |
		sed 's/^ \* /The step, beside the stream: /'
	# shellcheck disable=SC2086
	table trained $train
	# shellcheck disable=SC2086
	[ -z "$test" ] || table unseen $test
} > "$md"
cat "$md"
