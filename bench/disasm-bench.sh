#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# disasm-bench.sh - time and memory of disassembling a whole distro vmlinux
# (issue 5's goal: under 3 s and under 1 GB on this project's 2-core
# machine). Run from an optimized build without sanitizers, e.g.
#   ./configure CFLAGS=-O2 && make -j2 && sh bench/disasm-bench.sh
# The vmlinux comes from Debian's linux-image-<version>-amd64-dbg package
# (apt-cache search linux-image dbg); by default the newest installed one.
set -eu
HOTPACK=${HOTPACK:-tool/hotpack}
VM=${1:-$(ls /usr/lib/debug/boot/vmlinux-* 2>/dev/null | sort -V | tail -n 1)}
RUNS=${RUNS:-3}
[ -n "$VM" ] || { echo "no vmlinux: apt-get install linux-image-amd64-dbg" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "needs GNU time: apt-get install time" >&2; exit 1; }

echo "vmlinux: $VM"
size=$(readelf -SW "$VM" | sed -n 's/.* \.text  *PROGBITS  *[0-9a-f]*  *[0-9a-f]*  *\([0-9a-f]*\) .*/\1/p')
echo ".text: $((0x${size:-0})) bytes"
for i in $(seq "$RUNS"); do
	/usr/bin/time -f "whole image (--edges): %e s elapsed, %U s user, %M KiB max RSS" \
		"$HOTPACK" callgraph "$VM" --edges --stats 2>&1 >/dev/null | grep -v 'warning:'
done
/usr/bin/time -f "ksys_read tree: %e s elapsed, %M KiB max RSS" \
	"$HOTPACK" callgraph "$VM" --root ksys_read 2>&1 | grep -v 'warning:' | tail -n 6
