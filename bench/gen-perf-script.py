#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen-perf-script.py SYSTEM.MAP MEGABYTES [SEED] - write a `perf script -g`
shaped text of about MEGABYTES to stdout, for bench/parse.sh: sample headers
(comm pid/tid [cpu] time: period event:), callchains of 4-24 kernel frames
taken from the text symbols of SYSTEM.MAP (addresses and sym+0xoff agree),
a user frame at the bottom of some, a blank line after each sample.
Deterministic for a given seed. Generated at bench time, never committed."""
import random
import sys


def main():
    smap, mb = sys.argv[1], int(sys.argv[2])
    rnd = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    syms = []
    with open(smap) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3 and parts[1] in "Tt" and not parts[2].startswith("__pfx"):
                syms.append((int(parts[0], 16), parts[2]))
    syms.sort()
    # hot paths: a few hundred fixed call chains, sampled with a skew
    paths = []
    for _ in range(400):
        depth = rnd.randint(4, 24)
        paths.append([rnd.randrange(len(syms)) for _ in range(depth)])
    comms = ["dd", "bash", "kworker/0:1", "swapper", "sshd"]
    out = sys.stdout
    want = mb << 20
    size = 0
    t = 1000.0
    chunk = []
    while size < want:
        p = paths[min(int(rnd.expovariate(1 / 40)), len(paths) - 1)]
        comm = rnd.choice(comms)
        pid = rnd.randint(1, 4000)
        t += rnd.random() / 1000
        lines = ["%16s %5d/%-5d [%03d] %.6f:     250000 cycles:k: \n" %
                 (comm, pid, pid, rnd.randint(0, 7), t)]
        for i in p:
            addr, name = syms[i]
            off = rnd.randint(0, 0x40)
            lines.append("\t%16x %s+0x%x ([kernel.kallsyms])\n" % (addr + off, name, off))
        if rnd.random() < 0.5:
            lines.append("\t    7f0011223344 __libc_read+0x14 (/usr/lib/x86_64-linux-gnu/libc.so.6)\n")
        lines.append("\n")
        s = "".join(lines)
        size += len(s)
        chunk.append(s)
        if len(chunk) >= 4096:
            out.write("".join(chunk))
            chunk = []
    out.write("".join(chunk))


main()
