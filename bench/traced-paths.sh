#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# traced-paths.sh BASE_BUILD NEW_BUILD: the traced-path pages table of
# bench/RESULTS.md on the shared Linux 6.1 data (function_graph trace of
# ksys_read/ksys_write and the 32-entry I-TLB miss samples): per algorithm,
# the pages each traced path takes against its reachable bound, how many are
# at it (for an order, the step's own count, which takes the bound heavier
# paths leave a lighter one), and the model's 32-entry misses replaying
# every function's sample weight (--replay nodes: the samples, which the
# trace does not run).
set -e
base=$(cd "${1:?usage: traced-paths.sh BASE_BUILD NEW_BUILD}" && pwd)
new=$(cd "${2:?usage: traced-paths.sh BASE_BUILD NEW_BUILD}" && pwd)
data=${SHARED_DATA:-/work/shared/data}/linux-6.1-x86_64-tiny
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
xz -dc "$data/vmlinux.xz" >"$TMP/vmlinux"
xz -dc "$data/vmlinux.map.xz" >"$TMP/vmlinux.map"
xz -dc "$data/itlb-miss-samples.txt.xz" >"$TMP/samples.txt"
cp "$data/function-graph.txt" "$TMP/fg.txt"
cd "$TMP"
for b in base new; do
	eval h=\$$b/tool/hotpack
	"$h" report -q -a all -n 100 vmlinux fg.txt samples.txt >"$b.paths"
	"$h" report -q -a all -n 0 --replay nodes vmlinux fg.txt samples.txt >"$b.nodes"
done
# the paths table's columns: # weight funcs bound fixed now original c3 ph cds pages root
echo "| build | layout | pages per traced path (bound: fixed) | at bound | weighted pages/run | 32-entry misses, samples |"
echo "|---|---|---|---:|---:|---:|"
for b in base new; do
	col=6
	for l in now original c3 ph cds pages; do
		pages=$(awk -v c=$col '/^heaviest hot paths/ { on = 1; next } on && $1 ~ /^[0-9]+$/ {
			printf "%s%s", sep, $c; sep = " " }' "$b.paths")
		bound=$(awk '/^heaviest hot paths/ { on = 1; next } on && $1 ~ /^[0-9]+$/ {
			printf "%s%s", sep, $5; sep = " " }' "$b.paths")
		at=$(awk -v l=$l '/^explicit paths at their reachable bound/ { on = 1; next }
			on && $1 == l { sub(/;$/, "", $4); print $2, $3, $4; exit }' "$b.paths")
		ppr=$(awk -v l=$l '$1 == l && NF > 8 { print $2; exit }' "$b.paths")
		miss=$(awk -v l=$l '$1 == l && NF > 8 { print $6; exit }' "$b.nodes")
		echo "| $b | $l | $pages ($bound) | $at | $ppr | $miss |"
		col=$((col + 1))
	done
done
