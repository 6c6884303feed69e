#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# samples.sh BINARY STACKS: print `perf script -g`-style samples (one per 10
# units of weight, period 10000) for the call stacks in STACKS, with the
# addresses of BINARY's symbols: leaf at +0x4, callers at a call site +0x10.
set -e
bin=${1:?usage: samples.sh BINARY STACKS} stacks=${2:?usage: samples.sh BINARY STACKS}
nm "$bin" | awk -v stacks="$stacks" '
function hex(s,   v, i) {
	v = 0
	for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(tolower(s), i, 1)) - 1
	return v
}
$2 ~ /^[tTwW]$/ { addr[$3] = $1 }
END {
	t = 0
	while ((getline line < stacks) > 0) {
		if (line ~ /^#/ || line ~ /^[ \t]*$/) continue
		split(line, f, " "); n = split(f[1], fr, ";"); w = f[2]
		for (i = 1; i <= n; i++) if (!(fr[i] in addr)) {
			print "samples.sh: " fr[i] " is not in the binary" > "/dev/stderr"; exit 1
		}
		for (s = 0; s < w / 10; s++) {
			t++
			printf "qs-dd  4242 [000] %6d.%06d:      10000 cycles:k: \n", 100 + int(t / 1000), t % 1000000
			for (i = n; i >= 1; i--) {
				off = i == n ? 4 : 16
				printf "\t%16x %s+0x%x ([kernel.kallsyms])\n", hex(addr[fr[i]]) + off, fr[i], off
			}
			print ""
		}
	}
}'
