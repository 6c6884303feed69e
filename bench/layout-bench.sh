#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/layout-bench.sh [WORKDIR]: the layout benchmark of bench/RESULTS.md.
# Decompresses the real Linux 6.1 data (SHARED_DATA, default ../shared/data
# beside the source), builds the committed tree without sanitizers (-O2) in
# WORKDIR, then runs layout-bench's kernel-shaped cases (also written to
# WORKDIR/corpus as .hprof profiles and run again through `hotpack report`)
# and `hotpack report` on the real I-TLB miss samples and ftrace traces.
set -e
src=$(cd "$(dirname "$0")/.." && pwd)
data=${SHARED_DATA:-$src/../shared/data}/linux-6.1-x86_64-tiny
work=${1:-/tmp/hotpack-layout-bench}
mkdir -p "$work"
work=$(cd "$work" && pwd)
for f in vmlinux vmlinux.map itlb-miss-samples.txt; do
	[ -s "$work/$f" ] || xz -dc "$data/$f.xz" >"$work/$f"
done
cp "$data/function-graph.txt" "$work/"
if [ ! -x "$work/src/bench/layout-bench" ] || [ -n "${REBUILD:-}" ]; then
	rm -rf "$work/src"
	mkdir -p "$work/src"
	(cd "$src" && git archive HEAD) | tar -x -C "$work/src"
	(cd "$work/src" && ./autogen.sh && ./configure CFLAGS=-O2 && make -j2) >"$work/build.log" 2>&1
fi
b=$work/src
v=$work/vmlinux
echo "## layout-bench: default geometry"
mkdir -p "$work/corpus"
"$b/bench/layout-bench" -r 3 -o "$work/corpus" "$v" single many small-tlb stacks flat timing
"$b/bench/layout-bench" "$v" timing-stacks
echo
echo "## layout-bench: 2 MiB pages (x86_64 core text), I-cache the honest figure"
"$b/bench/layout-bench" -p 2M -e 8,16,32 "$v" many small-tlb
echo
echo "## layout-bench: 4-way set-associative 32 and 64 entries"
"$b/bench/layout-bench" -w 4 -e 32,64 "$v" small-tlb
echo
for c in single many small-tlb stacks flat; do
	echo "## the $c case written as a profile, through hotpack report"
	(cd "$work" && "$b/tool/hotpack" report -q --algo all --time --paths 0 vmlinux \
		"corpus/$c.hprof")
	echo
done
echo "## real: I-TLB miss samples + ftrace traces, hot paths replayed"
(cd "$work" && "$b/tool/hotpack" report -q --algo all --time vmlinux itlb-miss-samples.txt \
	function-graph.txt)
echo
echo "## real: the same, the miss samples' weights replayed"
(cd "$work" && "$b/tool/hotpack" report -q --algo all --time --replay nodes --paths 0 \
	vmlinux itlb-miss-samples.txt function-graph.txt)
echo
echo "## real: I-TLB miss samples only (static call edges added)"
(cd "$work" && "$b/tool/hotpack" report -q --algo all --time --paths 0 vmlinux \
	itlb-miss-samples.txt)
