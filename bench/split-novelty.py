#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench/split-novelty.py - how much of each test family runs code its training half never ran.

  split-novelty.py OUTDIR [TRAIN...] [--cache FILE] [--map BASE.map] [--edges FILE]

OUTDIR: a bench/generalize.sh output directory (samples/FAMILY.txt, the
base image's streams); TRAIN: a training half as generalize.sh's SPLITS
gives it, comma-separated families (default: SPLITS, or
bench/families.conf's).  Each split is taken both ways, as generalize.sh takes it.
For every family of a test half: the share of its samples that fall in
.text input sections (functions) that no family of the training half
sampled, how many such functions and their bytes.  No order can place
these from the training half's data: they stay where the link put them.
--cache FILE and --map BASE.map as in bench/replay-splits.py.  A Markdown table to stdout.

--edges FILE (`hotpack callgraph VMLINUX --edges` of the base image): also
the share of those samples in functions that something the training half
ran calls directly (call or tail call), and what placing every such callee
would cost: how many functions the training half's sampled code calls
that it never ran itself, and their bytes.  Whether the static call graph
could stand in for the missing profile.
"""
import os
import runpy
import sys
import types
from collections import Counter

rs = types.SimpleNamespace(**runpy.run_path(os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "replay-splits.py")))
sr = rs.sr
npred = types.SimpleNamespace(**runpy.run_path(os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "novel-predictors.py")))


def read_callees(path, base):
    """Function index -> indices it calls directly, from callgraph --edges
    (novel-predictors.py's reader; names to base's .text.NAME indices)."""
    idx = {}
    for i, b in enumerate(base):
        if b[0].startswith(".text."):
            idx.setdefault(b[0][len(".text."):], i)
    callees, _ = npred.read_edges(path)
    out = {}
    for a, cs in callees.items():
        if a in idx:
            got = {idx[c] for c in cs if c in idx}
            if got:
                out[idx[a]] = got
    return out


def main(argv):
    edges = None
    if "--edges" in argv:
        k = argv.index("--edges")
        if k + 1 >= len(argv):
            sr.die("--edges needs a FILE")
        edges = argv[k + 1]
        argv = argv[:k] + argv[k + 2:]
    args, opt = rs.common_args(argv)
    if not args:
        sys.stderr.write("usage: split-novelty.py OUTDIR [TRAIN...] [--cache FILE] [--map BASE.map] "
                         "[--edges FILE]\n")
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
    callees = read_callees(edges, base) if edges else None
    head = "| training half | test family | its samples in functions the training half never ran | functions | bytes |"
    rule = "|---|---|---:|---:|---:|"
    if callees is not None:
        head += " of those samples, in direct callees of what it ran | all such callees | their bytes |"
        rule += "---:|---:|---:|"
    print(head)
    print(rule)
    for train, test in halves:
        seen = set()
        for f in train:
            seen.update(heat[f])
        called = set()
        if callees is not None:
            for i in seen:
                called |= callees.get(i, set())
            called -= seen
        for f in test:
            new = [i for i in heat[f] if i not in seen]
            tot = sum(heat[f].values()) or 1
            nnew = sum(heat[f][i] for i in new)
            row = "| %s | %s | %.1f%% | %d | %d |" % (
                " ".join(train), f, 100.0 * nnew / tot,
                len(new), sum(base[i][2] for i in new))
            if callees is not None:
                row += " %.1f%% | %d | %d |" % (
                    100.0 * sum(heat[f][i] for i in new if i in called) / (nnew or 1),
                    len(called), sum(base[i][2] for i in called))
            print(row)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
