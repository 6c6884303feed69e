#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/fuzz.sh BUILD OUTDIR [TARGET...]: run the libFuzzer targets that
# `make fuzz-build` left in BUILD/tests/fuzz/build/ (default: all nine),
# one after the other, each on its seeds: the tree's tests/fuzz/seeds/ and
# tests/data/profile/ (real perf text), and what is made now from the real
# Linux 6.1 x86_64 data (SHARED_DATA, default ../shared/data beside the
# source): the kernel-sized vmlinux (16 MB) for the image and disassembler
# targets, raw slices of its .text, its function_graph trace, I-TLB miss
# addresses, link map, a .hprof written by BUILD's hotpack, and verify's
# order files from tests/expected/. Nothing multi-MB is in the tree.
#
# ELF=small: the image and disassembler targets take small ELF programs
# instead (tests/fixtures/calls.c and hotcold.c built for x86_64, ppc32,
# ppc64 and aarch64 with Debian's cross compilers, plus the raw slices):
# on the kernel-sized seed one input takes a second, so 10^7 runs need
# these; run both modes, each into its own OUTDIR.
#
# RUNS (default 10000000) and MAX_TIME (seconds, default 0: no limit) stop
# each run, the first reached wins (0: none); with DEADLINE (a date(1)
# time, e.g. "13:36 UTC") each target also stops at its equal share of the
# time left until then. One fuzzer at a time (in-process, no -jobs,
# -fork=0), under nice -n 19. OUTDIR/TARGET/ keeps the corpus, any crash
# input (crash-*, leak-*, timeout-*, oom-*) and each run's log,
# log-YYYYmmddTHHMMSSZ-PID (the run's start, UTC, and this script's PID);
# OUTDIR/summary.tsv gets a line per target from that run's own log: runs,
# exec/s, wall and CPU seconds, cov, ft, corpus size, and the crash file this
# run wrote, or "interrupted". Runs side by side into one OUTDIR (a core
# each) keep apart: their own logs and rows, seeds renamed into place whole.
#
# Exit 1 when a target crashed (the others still run). A fuzzer stopped by
# SIGINT or SIGTERM (libFuzzer then prints "run interrupted" and exits 72)
# did not crash: its row says "interrupted", its corpus is kept to go on
# from, the targets after it are not run, and the exit is 130 (1 when an
# earlier target crashed). So a ^C stops the whole script, not one target.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 2 ] && build=$(cd "$1" && pwd) || {
	echo "usage: bench/fuzz.sh BUILD OUTDIR [TARGET...]" >&2; exit 2; }
out=$2
shift 2
targets=${*:-readers perf ftrace addrs hprof kimage linkmap disasm orderfile}
data=${SHARED_DATA:-$src/../shared/data}/linux-6.1-x86_64-tiny
runs=${RUNS:-10000000}
[ "$runs" = 0 ] && runs=-1	# libFuzzer's "no limit"
max_time=${MAX_TIME:-0}
bin=$build/tests/fuzz/build
mkdir -p "$out/seeds" && out=$(cd "$out" && pwd)
s=$out/seeds
run=$(date -u +%Y%m%dT%H%M%SZ)-$$	# this run's name: its logs are log-$run
tmp=$s/.tmp-$$	# this run's files until they are renamed into place
mkdir -p "$tmp" && trap 'rm -rf "$tmp"' EXIT
# place FILE: $tmp/new, written whole, becomes FILE by a rename, so that a run
# beside this one (same OUTDIR) never reads FILE half written
place() { mv -f "$tmp/new" "$1"; }

# --- seeds made now ---------------------------------------------------------
unpack() {	# NAME: the shared file, decompressed once into $s/data/
	mkdir -p "$s/data"
	[ -s "$s/data/$1" ] && return 0
	if [ -f "$data/$1.xz" ]; then xz -dc "$data/$1.xz" >"$tmp/new"
	else cp "$data/$1" "$tmp/new"; fi || {
		echo "fuzz: $data/$1: missing; set SHARED_DATA=DIR" >&2; exit 2; }
	place "$s/data/$1"
}
unpack vmlinux
unpack vmlinux.map
unpack function-graph.txt
unpack itlb-miss-samples.txt
mkdir -p "$s/real-perf" "$s/real-ftrace" "$s/real-addrs" "$s/real-hprof" "$s/elf" "$s/raw" \
	"$s/real-linkmap" "$s/orderfile"
copy() {	# DIR FILE...: each FILE into DIR, renamed into place
	dir=$1; shift
	for f in "$@"; do
		[ -e "$f" ] || continue	# a pattern that matched nothing
		cp "$f" "$tmp/new" && place "$dir/${f##*/}" || exit 2
	done
}
copy "$s/real-perf" "$src"/tests/data/profile/*.txt
copy "$s/real-ftrace" "$s/data/function-graph.txt"
head -c 60000 "$s/data/function-graph.txt" | head -n 400 >"$tmp/new" &&
	place "$s/real-ftrace/function-graph-head.txt"
head -n 4000 "$s/data/itlb-miss-samples.txt" >"$tmp/new" && place "$s/real-addrs/itlb-miss-4000.txt"
sed -n '60000,64000p' "$s/data/itlb-miss-samples.txt" >"$tmp/new" &&
	place "$s/real-addrs/itlb-miss-mid.txt"
head -c 60000 "$s/data/vmlinux.map" | sed '$d' >"$tmp/new" && place "$s/real-linkmap/vmlinux-head.map"
grep -m1 -n '^ \.text ' "$s/data/vmlinux.map" | cut -d: -f1 | while read -r n; do
	tail -n +"$n" "$s/data/vmlinux.map" | head -c 60000 | sed '$d' >"$tmp/new" &&
		place "$s/real-linkmap/vmlinux-text.map"
done
if [ ! -s "$s/real-hprof/itlb.hprof" ]; then
	"$build/tool/hotpack" profile -q --map "$s/data/vmlinux.map" --vmlinux "$s/data/vmlinux" \
		"$s/real-addrs/itlb-miss-4000.txt" -o "$tmp/new" && place "$s/real-hprof/itlb.hprof" || exit 2
fi
# the same stream's first 192 addresses as windows (2.6: ntrace, textent,
# tranges, seq): the reader's newest records, within -max_len (15 KB)
if [ ! -s "$s/real-hprof/itlb-windows.hprof" ]; then
	head -n 192 "$s/real-addrs/itlb-miss-4000.txt" | "$build/tool/hotpack" profile -q \
		--map "$s/data/vmlinux.map" --vmlinux "$s/data/vmlinux" --addr-window 64 --sequence \
		-o "$tmp/new" - && place "$s/real-hprof/itlb-windows.hprof" || exit 2
fi
copy "$s/elf" "$s/data/vmlinux"
head -c 1048576 "$s/data/vmlinux" >"$tmp/new" && place "$s/elf/vmlinux-cut-1M"	# truncated
"${CC:-cc}" -O1 -ffunction-sections -fno-pie -no-pie -nostdlib -static -fno-sanitize=all \
	-o "$tmp/new" "$src/tests/data/profile/symfix.c" && place "$s/elf/symfix" || exit 2
# raw code for the disassembler: a first byte (architecture 0: x86_64,
# 0x80: the same at the top of the address space), then 4 KiB of .text
off=$(( 0x$(readelf -SW "$s/data/vmlinux" | sed -n 's/.* \.text  *PROGBITS  *[0-9a-f]*  *\([0-9a-f]*\) .*/\1/p') ))
for k in 0 1 2 3; do
	{ printf '\000'; tail -c +$((off + 1 + k * 262144)) "$s/data/vmlinux" | head -c 4096; } \
		>"$tmp/new" && place "$s/raw/text-$k.bin"
	{ printf '\200'; tail -c +2 "$s/raw/text-$k.bin"; } >"$tmp/new" && place "$s/raw/text-top-$k.bin"
done
# small programs of every architecture the tests build (ELF=small)
if [ "${ELF:-kernel}" = small ]; then
	mkdir -p "$s/elf-small"
	# shellcheck source=tests/arches.sh
	. "$src/tests/arches.sh"
	for a in $test_arches; do
		tri=$(arch_triplet "$a") extra=
		# as tests/callgraph-arch.test builds it: the kernel's x86 call forms
		case $a in
		x86_64) extra="-mfentry -mindirect-branch=thunk-extern -mfunction-return=thunk-extern" ;;
		ppc64) extra=-mabi=elfv2 ;;
		esac
		command -v "$tri-gcc" >/dev/null || {
			echo "fuzz: $tri-gcc: missing; apt-get install the packages of .ci/packages.d/core" >&2; exit 2; }
		# shellcheck disable=SC2086
		"$tri-gcc" $extra -O2 -ffunction-sections -fno-pie -no-pie -nostdlib -pg -Wl,-e,fx_start \
			-Wl,-z,max-page-size=4096 \
			-o "$tmp/new" "$src/tests/fixtures/calls.c" && place "$s/elf-small/calls-$a" &&
		"$tri-gcc" -g -O1 -ffunction-sections -fno-pie -no-pie -nostdlib -static \
			-fno-stack-protector -ffreestanding -Wl,-z,max-page-size=4096 \
			-o "$tmp/new" "$src/tests/fixtures/hotcold.c" \
			"$src/tests/fixtures/dupname.c" && place "$s/elf-small/hotcold-$a" || exit 2
	done
	copy "$s/elf-small" "$s/elf/symfix"
fi
copy "$s/orderfile" "$src"/tests/expected/*.lds "$src"/tests/expected/*.gold \
	"$src"/tests/expected/*.lld

# --- the targets ------------------------------------------------------------
# seeds TARGET: its seed directories; maxlen TARGET: libFuzzer's -max_len (the
# image targets take the whole kernel: 16 MB, more than any text seed)
seeds() {
	t=$src/tests/fuzz/seeds bad=$src/tests/data/profile/bad
	case $1 in
	readers) echo "$t/perf $t/ftrace $t/addrs $t/hprof $s/real-perf $s/real-ftrace $s/real-addrs $s/real-hprof $bad" ;;
	perf) echo "$t/perf $s/real-perf $bad" ;;
	ftrace) echo "$t/ftrace $s/real-ftrace $bad" ;;
	addrs) echo "$t/addrs $s/real-addrs $bad" ;;
	hprof) echo "$t/hprof $s/real-hprof $src/tests/fuzz/regress $bad" ;;
	kimage) [ "${ELF:-kernel}" = small ] && echo "$s/elf-small" || echo "$s/elf" ;;
	disasm) [ "${ELF:-kernel}" = small ] && echo "$s/elf-small $s/raw" || echo "$s/elf $s/raw" ;;
	linkmap) echo "$t/linkmap $s/real-linkmap" ;;
	orderfile) echo "$t/orderfile $s/orderfile" ;;
	esac
}
maxlen() {
	case $1 in
	kimage|disasm) if [ "${ELF:-kernel}" = small ]; then
			stat -c %s "$s"/elf-small/* | sort -n | tail -1
		else stat -c %s "$s/elf/vmlinux"; fi ;;
	*) echo 16384 ;;
	esac
}
# limit TARGET: libFuzzer's -timeout (wall seconds for one input): the
# disassembler takes over a second of CPU on the whole kernel, and a
# niced run on a busy machine gets a small share of one
limit() {
	case $1 in
	kimage|disasm) [ "${ELF:-kernel}" = small ] && echo 60 || echo 900 ;;
	*) echo 60 ;;
	esac
}

# cpu=the CPU seconds (user + system) of this shell's finished children so
# far: the fuzzer's share of a busy machine, beside its wall time (times
# runs in this shell: in a $(...) subshell it would see no children)
child_cpu() {
	times >"$tmp/times"
	cpu=$(tail -1 "$tmp/times" | awk '{ split($1, u, /[ms]/); split($2, k, /[ms]/);
		printf "%.1f", u[1] * 60 + u[2] + k[1] * 60 + k[2] }')
}

status=0
nleft=$(echo $targets | wc -w)
# the header once (set -C: created, never truncated, should a run beside
# this one have made it first)
[ -s "$out/summary.tsv" ] || (set -C
	printf 'target\truns\texec_s\twall_s\tcpu_s\tcov\tft\tcorpus\tcrash\n' >"$out/summary.tsv"
) 2>/dev/null
for t in $targets; do
	[ -x "$bin/fuzz_$t" ] || { echo "fuzz: $bin/fuzz_$t: missing; make fuzz-build" >&2; exit 2; }
	d=$out/$t
	mkdir -p "$d/corpus"
	# shellcheck disable=SC2046
	set -- $(seeds "$t")
	tmax=$max_time
	if [ -n "${DEADLINE:-}" ]; then
		left=$(( ($(date -d "$DEADLINE" +%s) - $(date +%s)) / nleft ))
		[ $left -lt 1 ] && left=1
		{ [ "$tmax" = 0 ] || [ "$tmax" -gt $left ]; } && tmax=$left
	fi
	nleft=$((nleft - 1))
	echo "  FUZZ     $t: runs $runs, max_time $tmax, seeds $*" >&2
	start=$(date +%s.%N) && child_cpu && cpu0=$cpu
	log=$d/log-$run
	HP_FUZZ_ORDER_IMAGE=$s/elf/symfix nice -n 19 "$bin/fuzz_$t" -runs="$runs" \
		-max_total_time="$tmax" -max_len="$(maxlen "$t")" \
		-rss_limit_mb=4096 -malloc_limit_mb=4096 -timeout="$(limit "$t")" -fork=0 -close_fd_mask=2 \
		-print_final_stats=1 -artifact_prefix="$d/" "$d/corpus" "$@" >"$log" 2>&1
	rc=$?
	end=$(date +%s.%N) && child_cpu && cpu1=$cpu
	last=$(grep -E '^#[0-9]+' "$log" | tail -1)
	n=$(grep -E '^stat::number_of_executed_units:' "$log" | awk '{ print $2 }')
	rate=$(grep -E '^stat::average_exec_per_sec:' "$log" | awk '{ print $2 }')
	cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	# the crash input this run wrote, as its log names it: not one an earlier
	# run, or a run beside this one, left in $d (nor a slow-unit-*)
	crash=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" |
		grep -E '/(crash|leak|timeout|oom)-[^/]*$' | head -1)
	# stopped by SIGINT or SIGTERM: libFuzzer's own exit, or the signal's
	# before libFuzzer had its handlers
	interrupted=
	if [ -z "$crash" ]; then
		case $rc in
		72) grep -q 'libFuzzer: run interrupted' "$log" && interrupted=interrupted ;;
		130|143) interrupted=interrupted ;;
		esac
	fi
	row=$(printf '%s\t%s\t%s\t%.0f\t%.0f\t%s\t%s\t%s\t%s' "$t" "${n:-?}" "${rate:-?}" \
		"$(echo "$end - $start" | bc)" "$(echo "$cpu1 - $cpu0" | bc)" "${cov:-?}" \
		"${ft:-?}" "$(ls "$d/corpus" | wc -l)" "${crash:-$interrupted}")
	echo "$row" >>"$out/summary.tsv"
	echo "$row" >&2
	if [ -n "$interrupted" ]; then
		echo "fuzz: $t interrupted (exit $rc: SIGINT or SIGTERM; not a crash): $log;" \
			"$d/corpus keeps what it found, run again to go on" >&2
		[ $status -ne 0 ] && exit $status
		exit 130
	fi
	if [ $rc -ne 0 ] || [ -n "$crash" ]; then
		echo "fuzz: $t crashed (exit $rc): ${crash:-$log}; fix it and keep the input in" \
			"tests/fuzz/regress/$t/" >&2
		status=1
	fi
done
exit $status
