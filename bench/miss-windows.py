#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""miss-windows.py SYSTEM.MAP SAMPLES W - cut an address sample file written
in the order the events happened (the QEMU plugin's samples=) into windows of
W consecutive samples, and write each window as one `perf script -g` sample
whose frames are the distinct functions it hit (period W): which functions
missed together, for the layout algorithms (bench/RESULTS.md, "Kernel loop:
every algorithm, current main"). An experiment, not a hotpack reader."""
import bisect, sys
smap, samples, W = sys.argv[1], sys.argv[2], int(sys.argv[3])
syms = []
for line in open(smap):
    p = line.split()
    if len(p) == 3 and p[1] in "TtWw":
        syms.append((int(p[0], 16), p[2]))
syms.sort()
addrs = [int(l, 16) for l in open(samples) if l.strip()]
keys = [a for a, _ in syms]
out = sys.stdout
for k in range(0, len(addrs), W):
    win = addrs[k:k + W]
    seen = []
    for a in win:
        i = bisect.bisect_right(keys, a) - 1
        if i < 0: continue
        s = syms[i]
        if s not in seen: seen.append(s)
    out.write("ls 1/1 [000] %d.%06d: %d cycles:\n" % (k // 1000000, k % 1000000, len(win)))
    for a, n in seen:
        out.write("\t%16x %s+0x0 ([kernel.kallsyms])\n" % (a, n))
    out.write("\n")
