#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/layout-stacks.sh - run time of the layout algorithms on synthetic
# `perf script -g` profiles with many distinct call stacks (8 random frames
# from 3,000 functions; 10,000 / 30,000 / 300,000 samples).
#
#   sh bench/layout-stacks.sh HOTPACK VMLINUX SYSTEM.MAP [ALGO...]
#
# Prints "algo samples: seconds elapsed, max RSS"; the time includes reading
# the profile, shown apart as the "original" row (link order, no work).
set -eu
hp=${1:?usage: $0 HOTPACK VMLINUX SYSTEM.MAP [ALGO...]}
vm=${2:?}; smap=${3:?}
shift 3
[ $# -gt 0 ] || set -- original c3 pages
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for n in 10000 30000 300000; do
	python3 "$(dirname "$0")/gen-stacks.py" "$smap" $n 3000 8 > "$tmp/st.txt"
	for a in "$@"; do
		/usr/bin/time -f "$a $n: %e s, %M KB" "$hp" order -q -a "$a" "$vm" "$tmp/st.txt" \
			> /dev/null
	done
done
