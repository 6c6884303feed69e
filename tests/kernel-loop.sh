#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/kernel-loop.sh: the whole loop on real kernels, one per architecture
# (make check-kernel; not in make check): examples/kernel/kernel.sh loop for
# ARCHES (default "x86_64 powerpc arm64"): build Debian's linux-source-6.1
# with -ffunction-sections and the linker-scripts patch (once; $KBUILD keeps
# it), boot it under QEMU (TCG) with hotpack's plugin, record the 1 KiB
# stream, order, relink, boot the ordered kernel, hotpack verify. Each
# architecture passes when verify exits 0 and the emulated 32-entry I-TLB
# (fully associative LRU, 4 KiB pages) misses of the workload fall to at
# most half of the base image's. Needs the packages kernel.sh installs or
# names (it says which), and root for those it installs.
#   srcdir=SRC HOTPACK=BUILD/tool/hotpack PLUGIN=BUILD/tool/qemu/libhotpack-itlb.so \
#   HPMARK_X86=BUILD/tool/qemu/hpmark sh tests/kernel-loop.sh
. "$srcdir/tests/lib.sh"
ks=$srcdir/examples/kernel/kernel.sh
: "${ARCHES:=x86_64 powerpc arm64}"
: "${KBUILD:=${XDG_CACHE_HOME:-$HOME/.cache}/hotpack/kbuild}"
export KBUILD

# miss32 FILE: the workload's ("work" row) 32-entry misses of a counters file
miss32() {
	awk '$1 == "phase" { for (i = 1; i <= NF; i++) if ($i == "miss32") c = i }
	     $1 == "work" && c { print $c; exit }' "$1"
}

for arch in $ARCHES; do
	case $arch in x86_64) loop=$KBUILD/loop ;; *) loop=$KBUILD/loop-$arch ;; esac
	start=$(date +%s)
	# x86_64's phase marker is built with hotpack; the others' by kernel.sh
	hpmark=
	[ "$arch" != x86_64 ] || hpmark=${HPMARK_X86:-}
	ARCH=$arch HPMARK=$hpmark sh "$ks" loop >"$TMP/$arch.log" 2>&1
	st=$?
	ok $st "$arch: kernel.sh loop runs to the end, verify passes ($(( $(date +%s) - start )) s)"
	[ $st -eq 0 ] || { tail -20 "$TMP/$arch.log" | sed 's/^/#   /'; continue; }
	b=$(miss32 "$loop/base-counters.txt") a=$(miss32 "$loop/loop-counters.txt")
	[ -n "$b" ] && [ -n "$a" ] && [ $((a * 2)) -le "$b" ]
	ok $? "$arch: 32-entry misses of the workload $b -> $a (at most half)"
	check "$arch: verify says the order is applied" grep -q "^verdict: the order is applied" \
		"$loop/verify.txt"
done
done_testing
