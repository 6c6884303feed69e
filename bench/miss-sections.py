#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench/miss-sections.py - where a kernel image's samples fall, by section.

  miss-sections.py IMAGE-DIR SAMPLES

IMAGE-DIR: a kernel.sh image directory (vmlinux.map, System.map); SAMPLES:
the plugin's samples (one hex address a line), e.g. every 32-entry miss of
that image (samples=FILE,sample_tlb=32) or the 1 KiB-block stream.  Each
sample is placed in the region (before __hotpack_text_start: the fixed
sections; the ordered region; after it) and in the .text input section that
holds it (bench/lld-standin.py reads the map): what an order can still
gain, and what it cannot move.  Counts to stdout.
"""
import importlib.util
import os
import sys
from bisect import bisect_right
from collections import Counter


def load_standin():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lld-standin.py")
    spec = importlib.util.spec_from_file_location("lld_standin", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: miss-sections.py IMAGE-DIR SAMPLES\n")
        return 2
    d, samples = argv[1], argv[2]
    syms = {}
    try:
        with open(os.path.join(d, "System.map")) as f:
            for line in f:
                w = line.split()
                if len(w) >= 3:
                    syms[w[2]] = int(w[0], 16)
    except OSError as e:
        sys.stderr.write("miss-sections.py: error: %s/System.map: %s\n" % (d, e.strerror))
        return 1
    # an image without an order has no ordered region: everything is "after"
    hs = syms.get("__hotpack_text_start", 0)
    he = syms.get("__hotpack_text_end", 0)
    secs = load_standin().read_map(os.path.join(d, "vmlinux.map"))
    starts = [s[0] for s in secs]
    reg, sec, obj, page = Counter(), Counter(), Counter(), Counter()
    n = 0
    try:
        f = open(samples)
    except OSError as e:
        sys.stderr.write("miss-sections.py: error: %s: %s\n" % (samples, e.strerror))
        return 1
    with f:
        for line in f:
            line = line.strip()
            if not line or line[0] == "#":
                continue
            a = int(line.split()[0], 16)
            n += 1
            r = "fixed (before the order)" if a < hs else "ordered" if a < he else "after the order"
            reg[r] += 1
            i = bisect_right(starts, a) - 1
            if i >= 0 and a < secs[i][0] + secs[i][1]:
                name = secs[i][2]
                sec[(r, ".text.*" if name.startswith(".text.") else name)] += 1
                if r != "ordered":
                    obj[(name, os.path.basename(secs[i][3]))] += 1
            else:
                sec[(r, "(not in .text)")] += 1
            page[a >> 12] += 1
    if not n:
        sys.stderr.write("miss-sections.py: error: %s: no samples\n" % samples)
        return 1
    print("samples: %d, 4 KiB pages: %d" % (n, len(page)))
    for r, c in reg.most_common():
        print("  %-26s %9d %5.1f%%" % (r, c, 100.0 * c / n))
    print("by region and input section:")
    for (r, s), c in sec.most_common():
        print("  %-26s %-22s %9d %5.1f%%" % (r, s, c, 100.0 * c / n))
    print("outside the ordered region, the top input sections (section, object):")
    for (s, o), c in obj.most_common(15):
        print("  %-34s %-24s %9d" % (s, o, c))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
