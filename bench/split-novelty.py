#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench/split-novelty.py - how much of each test family runs code its training half never ran.

  split-novelty.py OUTDIR [TRAIN...] [--cache FILE] [--map BASE.map]

OUTDIR: a bench/generalize.sh output directory (samples/FAMILY.txt, the
base image's streams); TRAIN: a training half as generalize.sh's SPLITS
gives it, comma-separated families (default: SPLITS, or
bench/families.conf's).  Each split is taken both ways, as generalize.sh takes it.
For every family of a test half: the share of its samples that fall in
.text input sections (functions) that no family of the training half
sampled, how many such functions and their bytes.  No order can place
these from the training half's data: they stay where the link put them.
--cache FILE and --map BASE.map as in bench/replay-splits.py.  A Markdown table to stdout.
"""
import os
import runpy
import sys
import types
from collections import Counter

rs = types.SimpleNamespace(**runpy.run_path(os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "replay-splits.py")))
sr = rs.sr


def main(argv):
    args, opt = rs.common_args(argv)
    if not args:
        sys.stderr.write("usage: split-novelty.py OUTDIR [TRAIN...] [--cache FILE] [--map BASE.map]\n")
        return 2
    outdir, halves = args[0], rs.halves(args[1:])
    fams = rs.FAMILIES.split()
    base = rs.base_map(opt)
    paths = [os.path.join(outdir, "samples", f + ".txt") for f in fams]
    heat = {}
    for f, (uniq, codes) in zip(fams, rs.read_streams(paths, base, opt["cache"])):
        c = Counter()
        for code, n in Counter(codes).items():
            if uniq[code][1] >= 0:
                c[uniq[code][1]] += n
        heat[f] = c
    print("| training half | test family | its samples in functions the training half never ran | functions | bytes |")
    print("|---|---|---:|---:|---:|")
    for train, test in halves:
        seen = set()
        for f in train:
            seen.update(heat[f])
        for f in test:
            new = [i for i in heat[f] if i not in seen]
            tot = sum(heat[f].values()) or 1
            print("| %s | %s | %.1f%% | %d | %d |" % (
                " ".join(train), f, 100.0 * sum(heat[f][i] for i in new) / tot,
                len(new), sum(base[i][2] for i in new)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
