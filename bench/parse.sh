#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/parse.sh [MB]: parse throughput and peak memory of the perf script
# reader. Builds hotpack from this checkout with -O2 and no sanitizers (or
# uses $HOTPACK), generates a perf script text with callchains of MB
# megabytes (default 500) from the real Linux 6.1 System.map, and times
#   hotpack profile --vmlinux vmlinux BIG >/dev/null   (read + symbolize)
#   hotpack profile BIG >/dev/null                     (read, names only)
# on it and on a tenth of it (memory must not grow with the input); then the
# ftrace and address-list readers on the real data repeated to MB/5.
# Figures go to stdout; bench/RESULTS.md quotes them with this command.
set -eu
MB=${1:-500}
top=$(cd "$(dirname "$0")/.." && pwd)
data=${HOTPACK_SHARED_DATA:-$top/../shared/data}/linux-6.1-x86_64-tiny
[ -d "$data" ] || data=$top/../../shared/data/linux-6.1-x86_64-tiny
W=$(mktemp -d "${TMPDIR:-/tmp}/hotpack-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT

if [ -z "${HOTPACK:-}" ]; then
	echo "building hotpack -O2 (no sanitizers) in $W/src" >&2
	mkdir "$W/src"
	git -C "$top" archive HEAD | tar -x -C "$W/src"
	(cd "$W/src" && ./autogen.sh && ./configure CFLAGS=-O2 && make -j2) >"$W/build.log" 2>&1 ||
		{ tail -20 "$W/build.log"; exit 1; }
	HOTPACK=$W/src/tool/hotpack
fi
xz -dc "$data/vmlinux.xz" >"$W/vmlinux"
xz -dc "$data/vmlinux.map.xz" >"$W/vmlinux.map"
xz -dc "$data/System.map.xz" >"$W/System.map"
python3 "$top/bench/gen-perf-script.py" "$W/System.map" "$MB" >"$W/big.txt"
python3 "$top/bench/gen-perf-script.py" "$W/System.map" $((MB / 10)) >"$W/small.txt"

run() {	# run LABEL FILE ARGS...: elapsed, MB/s, peak RSS
	label=$1 file=$2; shift 2
	bytes=$(stat -c %s "$file")
	cat "$file" >/dev/null	# from the page cache, as a pipe from perf would be
	/usr/bin/time -f '%e %U %S %M' -o "$W/time" "$HOTPACK" profile -q "$@" "$file" >/dev/null
	read -r secs user sys kb <"$W/time"
	echo "$label: $(awk -v b="$bytes" -v s="$secs" -v u="$user" -v y="$sys" -v k="$kb" \
		'BEGIN { m = b / 1048576; printf "%.0f MB in %.2f s elapsed = %.0f MB/s; CPU %.2f s = %.0f MB/s; peak RSS %.1f MB", m, s, m / s, u + y, m / (u + y), k / 1024 }')"
}
run "read + symbolize, $MB MB" "$W/big.txt" --vmlinux "$W/vmlinux"
run "read + symbolize, $((MB / 10)) MB" "$W/small.txt" --vmlinux "$W/vmlinux"
run "read, names only, $MB MB" "$W/big.txt"
run "read, names only, $((MB / 10)) MB" "$W/small.txt"
# The other text readers on the real data, repeated to about MB/5 megabytes.
n=$((MB * 1048576 / 5 / $(stat -c %s "$data/function-graph.txt")))
perl -e 'local $/; my $s = <STDIN>; print $s x $ARGV[0]' "$n" <"$data/function-graph.txt" >"$W/fg.txt"
xz -dc "$data/itlb-miss-samples.txt.xz" >"$W/itlb1.txt"
n=$((MB * 1048576 / 5 / $(stat -c %s "$W/itlb1.txt")))
perl -e 'local $/; my $s = <STDIN>; print $s x $ARGV[0]' "$n" <"$W/itlb1.txt" >"$W/itlb.txt"
run "ftrace function_graph (real trace repeated), read + symbolize" "$W/fg.txt" --vmlinux "$W/vmlinux"
run "address list (real I-TLB misses repeated), read + symbolize" "$W/itlb.txt" --vmlinux "$W/vmlinux"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
echo "samples in $MB MB: $(grep -c 'cycles:k:' "$W/big.txt"), frames: $(grep -c '^	' "$W/big.txt")"
