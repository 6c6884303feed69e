#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/same-output.sh OLD_BUILD NEW_BUILD [WORKDIR]: run one battery of
# commands with two builds of hotpack (build directories holding
# tool/hotpack and bench/layout-bench) and compare every output byte for
# byte. For changes that must not change behaviour (refactors): order files
# of every algorithm and format, report and verify texts, SVGs, .hprof
# profiles, merges, callgraph trees and the layout benchmark's rows, on the
# real Linux 6.1 x86_64 and ppc32 data (SHARED_DATA, default ../shared/data
# beside the source). Timing columns are dropped. Exit 0 when all agree.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
old=$(cd "$1" && pwd) && new=$(cd "$2" && pwd) || {
	echo "usage: bench/same-output.sh OLD_BUILD NEW_BUILD [WORKDIR]" >&2; exit 2; }
work=${3:-${TMPDIR:-/tmp}/hotpack-same-output}
data=${SHARED_DATA:-$src/../shared/data}
mkdir -p "$work/data" "$work/old" "$work/new"
work=$(cd "$work" && pwd)

unpack() {	# DIR NAME...: decompress the shared data once
	d=$1; shift
	mkdir -p "$work/data/$d"
	for f in "$@"; do
		[ -s "$work/data/$d/$f" ] && continue
		if [ -f "$data/$d/$f.xz" ]; then xz -dc "$data/$d/$f.xz" >"$work/data/$d/$f"
		else cp "$data/$d/$f" "$work/data/$d/$f"; fi || {
			echo "same-output: $data/$d/$f: missing; set SHARED_DATA=DIR" >&2
			rm -f "$work/data/$d/$f"; exit 2; }
	done
}
unpack linux-6.1-x86_64-tiny vmlinux vmlinux.map itlb-miss-samples.txt function-graph.txt
unpack linux-6.1-ppc44x-bamboo vmlinux vmlinux.map itlb-miss-samples.txt
x=$work/data/linux-6.1-x86_64-tiny
p=$work/data/linux-6.1-ppc44x-bamboo

# The battery: one line a case, "NAME COMMAND..."; @H is the hotpack, @B the
# layout-bench, @O the side's output directory.
battery() {
	for a in original c3 ph cds pages; do
		echo "order-x86-$a @H order -q -a $a -o @O/x86-$a.lds $x/vmlinux $x/itlb-miss-samples.txt"
		echo "order-ppc-$a @H order -q -a $a -o @O/ppc-$a.lds $p/vmlinux $p/itlb-miss-samples.txt"
		echo "order-fg-$a @H order -q -a $a -o @O/fg-$a.lds $x/vmlinux $x/function-graph.txt $x/itlb-miss-samples.txt"
		echo "order-win-$a @H order -q -a $a --addr-window 64 -o @O/win-$a.lds $x/vmlinux $x/itlb-miss-samples.txt"
	done
	echo "order-pages-search @H order -q -a pages --search on -o @O/pages-search.lds $x/vmlinux $x/itlb-miss-samples.txt"
	echo "order-pages-win-search @H order -q -a pages --search on --addr-window 32 -o @O/pages-win-search.lds $p/vmlinux $p/itlb-miss-samples.txt"
	echo "order-cover @H order -q --coverage 0.9 --max-hot-bytes 64K -p 16K -o @O/cover.lds $x/vmlinux $x/itlb-miss-samples.txt"
	for f in gold lld ld-section-ordering list; do
		echo "format-$f @H order -q -f $f -o @O/x86.$f $x/vmlinux $x/itlb-miss-samples.txt"
	done
	echo "report-all @H report -a all -n 5 $x/vmlinux $x/itlb-miss-samples.txt"
	echo "report-fg @H report -a all --svg @O/fg.svg $x/vmlinux $x/function-graph.txt $x/itlb-miss-samples.txt"
	echo "report-win @H report -a all --addr-window 64 $p/vmlinux $p/itlb-miss-samples.txt"
	echo "report-2m @H report -p 2M -e 8,16 $x/vmlinux $x/itlb-miss-samples.txt"
	echo "report-ways @H report -a pages --tlb-ways 4 -e 32,64 --pin 0xffffffff81000000-0xffffffff81010000 --icache 16K,32,4 $x/vmlinux $x/itlb-miss-samples.txt"
	echo "report-nodes @H report --replay nodes --budget 500 $x/vmlinux $x/itlb-miss-samples.txt"
	echo "profile-x86 @H profile --vmlinux $x/vmlinux -o @O/x86.hprof $x/itlb-miss-samples.txt"
	echo "profile-fg @H profile --vmlinux $x/vmlinux -o @O/fg.hprof $x/function-graph.txt"
	echo "profile-win @H profile --vmlinux $p/vmlinux --addr-window 16 -o @O/win.hprof $p/itlb-miss-samples.txt"
	echo "merge @H merge -o @O/merged.hprof @O/x86.hprof @O/fg.hprof"
	echo "order-hprof @H order -q -o @O/hprof.lds $x/vmlinux @O/merged.hprof"
	echo "verify-same @H verify --order @O/x86-cds.lds $x/vmlinux $x/vmlinux $x/itlb-miss-samples.txt"
	echo "verify-ppc @H verify -e 8,32 $p/vmlinux $p/vmlinux $p/itlb-miss-samples.txt"
	echo "callgraph-x86 @H callgraph $x/vmlinux --root ksys_read"
	echo "callgraph-ppc @H callgraph $p/vmlinux --root ksys_write"
	echo "bench-default @B -r 1 $x/vmlinux single many small-tlb stacks flat"
	echo "bench-2m @B -p 2M -e 8,16,32 $x/vmlinux many small-tlb"
	echo "bench-ways @B -w 4 -e 32,64 $x/vmlinux small-tlb"
}

# Drop what is not deterministic: timing columns and lines of the benchmark.
scrub() { sed -E 's/[0-9]+(\.[0-9]+)? ?(ms|s|us)\b/T/g; s/^(\| [a-z0-9-]+ +\|) +[0-9.]+ /\1 T /' "$1"; }

fail=0 n=0
battery >"$work/battery"
while read -r name cmd; do
	for side in old new; do
		[ $side = old ] && b=$old || b=$new
		o=$work/$side
		c=$(echo "$cmd" | sed "s|@H|$b/tool/hotpack|g; s|@B|$b/bench/layout-bench|g; s|@O|$o|g")
		(cd "$work" && sh -c "$c") >"$o/$name.out" 2>"$o/$name.err"
		echo "exit $?" >>"$o/$name.out"
		sed -i "s|$b|BUILD|g; s|$o|OUT|g" "$o/$name.out" "$o/$name.err"
	done
	n=$((n + 1))
	if ! cmp -s "$work/old/$name.out" "$work/new/$name.out" ||
	   ! cmp -s "$work/old/$name.err" "$work/new/$name.err"; then
		if ! diff <(scrub "$work/old/$name.out") <(scrub "$work/new/$name.out") >/dev/null 2>&1 ||
		   ! cmp -s "$work/old/$name.err" "$work/new/$name.err"; then
			echo "DIFFERS: $name  (diff $work/old/$name.* $work/new/$name.*)"
			fail=$((fail + 1))
		fi
	fi
done <"$work/battery"
# Every file the commands wrote.
for f in $(cd "$work/old" && ls | grep -vE '\.(out|err)$'); do
	n=$((n + 1))
	sed -i "s|$old|BUILD|g; s|$work/old|OUT|g" "$work/old/$f"
	sed -i "s|$new|BUILD|g; s|$work/new|OUT|g" "$work/new/$f"
	cmp -s "$work/old/$f" "$work/new/$f" || { echo "DIFFERS: file $f"; fail=$((fail + 1)); }
done
echo "same-output: $n compared, $fail differ ($work)"
[ $fail = 0 ]
