#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/qemu-itlb.sh PLUGIN BZIMAGE INITRAMFS [RUNS]: the QEMU plugin's cost
# on a kernel boot plus workload (qemu-system-x86_64, TCG, -icount, fixed
# RTC): wall time of RUNS boots without the plugin and RUNS with it, and
# whether the runs with it gave identical counters and samples. The
# initramfs's /init must end with `reboot -f` (QEMU runs with -no-reboot).
# Not part of `make check` (a boot takes seconds).
set -eu
plugin=${1:?usage: qemu-itlb.sh PLUGIN BZIMAGE INITRAMFS [RUNS]}
kernel=${2:?usage: qemu-itlb.sh PLUGIN BZIMAGE INITRAMFS [RUNS]}
initrd=${3:?usage: qemu-itlb.sh PLUGIN BZIMAGE INITRAMFS [RUNS]}
runs=${4:-3}
args=${PLUGIN_ARGS:-entries=32:8:16:64:128}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/qemu-itlb.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

boot() {	# boot EXTRA-ARGS...: prints the wall time in seconds
	t0=$(date +%s.%N)
	qemu-system-x86_64 -accel tcg -m 256 -nographic -no-reboot \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 quiet loglevel=3" \
		-icount shift=3,align=off,sleep=off \
		-rtc base=2026-01-01T00:00:00,clock=vm "$@" </dev/null >"$tmp/console" 2>&1
	t1=$(date +%s.%N)
	echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }'
}

without=""
with=""
i=1
while [ "$i" -le "$runs" ]; do
	without="$without $(boot)"
	with="$with $(boot -plugin "$plugin,$args,out=$tmp/c$i.txt,samples=$tmp/s$i.txt")"
	i=$((i + 1))
done
echo "without plugin (s):$without"
echo "with plugin ($args) (s):$with"
echo "$without | $with" | awk -F'|' '{
	n = split($1, a, " "); m = split($2, b, " ")
	for (i = 1; i <= n; i++) sa += a[i]; for (i = 1; i <= m; i++) sb += b[i]
	printf "mean: %.2f s without, %.2f s with: +%.0f%%\n", sa / n, sb / m, 100 * (sb / m - sa / n) / (sa / n) }'
same=yes
i=2
while [ "$i" -le "$runs" ]; do
	cmp -s "$tmp/c1.txt" "$tmp/c$i.txt" && cmp -s "$tmp/s1.txt" "$tmp/s$i.txt" || same=no
	i=$((i + 1))
done
echo "identical counters and samples over $runs runs: $same"
echo "samples: $(wc -l <"$tmp/s1.txt") lines"
grep -E '^(phase|work|total)' "$tmp/c1.txt" | cut -c1-140
