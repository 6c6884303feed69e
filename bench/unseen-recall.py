#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench/unseen-recall.py - how much of what an unseen workload runs could an
order have guessed without its samples (bench/RESULTS.md, "The layout over
every TLB size")?

    hotpack callgraph VMLINUX --edges > EDGES
    python3 bench/unseen-recall.py VMLINUX.map EDGES TRAINED.lds ORACLE.lds

TRAINED.lds: the order made from the training half; ORACLE.lds: the order
made from the test half.  Prints how many of the oracle's functions the
trained order lacks, how many of those are direct callees (depth 1 and 2)
of the trained functions, and how many share an object file with one,
against how many functions each of those sets holds.
"""
import collections
import os
import re
import runpy
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sr = types.SimpleNamespace(**runpy.run_path(os.path.join(HERE, "stream-replay.py")))
npred = types.SimpleNamespace(**runpy.run_path(os.path.join(HERE, "novel-predictors.py")))


def order_names(path):
    """(object or None, .text.NAME) of each line of an lds order"""
    out = []
    with sr.open_or_die(path) as f:
        for line in f:
            m = re.search(r'\*:(\S+?)\((\.text\.[^)]+)\)', line)
            if m:
                out.append((m.group(1), m.group(2)))
                continue
            m = re.search(r'^\*\((\.text\.[^)]+)\)', line)
            if m:
                out.append((None, m.group(1)))
    return out


def link_map(path):
    """.text.NAME -> (object, size), of the .text output section"""
    return {name: (o, size) for name, _, size, o in sr.read_text(path)
            if name.startswith('.text.')}


def main():
    if len(sys.argv) != 5:
        sys.stderr.write(__doc__.split('\n\n')[1] + '\n')
        return 2
    mapf, edgef, trainf, oraclef = sys.argv[1:5]
    obj = link_map(mapf)
    callees, _ = npred.read_edges(edgef)
    edges = collections.defaultdict(set)
    for a, cs in callees.items():
        edges['.text.' + a] = {'.text.' + c for c in cs}
    trained = {s for _, s in order_names(trainf)}
    oracle = [s for _, s in order_names(oraclef)]
    missing = [s for s in oracle if s not in trained]
    c1 = set().union(*(edges[s] for s in trained)) - trained
    c2 = (c1 | set().union(*(edges[s] for s in c1))) - trained
    objs = {obj[s][0] for s in trained if s in obj}
    same = {s for s, (o, _) in obj.items() if o in objs} - trained
    print(f'oracle {len(oracle)} functions, trained {len(trained)}; the oracle\'s not in '
          f'the trained order: {len(missing)} ({sum(obj.get(s, ("", 0))[1] for s in missing)} bytes)')
    for name, cand in (('direct callees', c1), ('callees to depth 2', c2),
                       ('same object file', same)):
        print(f'  {name}: {sum(1 for s in missing if s in cand)} of them, in a set of '
              f'{len(cand)} functions ({sum(obj.get(s, ("", 0))[1] for s in cand)} bytes)')


if __name__ == '__main__':
    sys.exit(main())
