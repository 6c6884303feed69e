#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# order-bench.sh HOTPACK [VMLINUX]: time `hotpack order` end to end on the
# largest vmlinux at hand (default: Debian's linux-image-*-dbg vmlinux), with
# samples at every third function's start (about 16,500 hot functions), and
# on the real 6.1 tiny kernel with its 123,809 I-TLB miss samples.
set -e
h=${1:?usage: order-bench.sh HOTPACK [VMLINUX]}
v=${2:-$(ls /usr/lib/debug/boot/vmlinux-* 2>/dev/null | head -1)}
[ -n "$v" ] || { echo "no vmlinux: apt-get install linux-image-amd64-dbg" >&2; exit 1; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
nm "$v" | awk '$2 == "T" || $2 == "t" { if (++n % 3 == 0) print $1 }' >"$t/addrs.txt"
echo "== $v: $(wc -l <"$t/addrs.txt") samples"
/usr/bin/time -f "%e s elapsed, %M KB max RSS" "$h" -q "$v" "$t/addrs.txt" >"$t/o.lds"
sed -n 's/^ \* //p' "$t/o.lds" | grep 'functions placed'
d=$(dirname "$0")/../../shared/data/linux-6.1-x86_64-tiny
if [ -d "$d" ]; then
	xz -dc "$d/vmlinux.xz" >"$t/vmlinux"; xz -dc "$d/vmlinux.map.xz" >"$t/vmlinux.map"
	xz -dc "$d/itlb-miss-samples.txt.xz" >"$t/s.txt"
	echo "== tiny 6.1 kernel, 123,809 I-TLB miss samples"
	/usr/bin/time -f "%e s elapsed, %M KB max RSS" "$h" -q "$t/vmlinux" "$t/s.txt" >"$t/o.lds"
	sed -n 's/^ \* //p' "$t/o.lds" | grep 'functions placed'
fi
