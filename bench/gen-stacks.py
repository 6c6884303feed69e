#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen-stacks.py SYSTEM.MAP N FUNCS DEPTH - write N `perf script -g` samples
to stdout, each a call stack of DEPTH frames drawn at random (seed 1) from
FUNCS text symbols of SYSTEM.MAP: almost every stack distinct, the worst
case for algorithms that work per stack (bench/layout-stacks.sh)."""
import random, sys
smap, n, nf, depth = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rnd = random.Random(1)
syms = []
for line in open(smap):
    p = line.split()
    if len(p) == 3 and p[1] in "Tt" and not p[2].startswith("__pfx"):
        syms.append((int(p[0], 16), p[2]))
rnd.shuffle(syms)
syms = syms[:nf]
out = sys.stdout
for i in range(n):
    out.write("cmd %d/%d [000] %d.%06d: 1 cycles:\n" % (100, 100, i // 1000000, i % 1000000))
    for _ in range(depth):
        a, s = rnd.choice(syms)
        out.write("\t%16x %s+0x0 ([kernel.kallsyms])\n" % (a, s))
    out.write("\n")
