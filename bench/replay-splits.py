#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench/replay-splits.py - screen orders on the train/test splits without a boot.

  replay-splits.py OUTDIR ORDER.lds... [--cache FILE] [--map BASE.map] [--also MAP...]

OUTDIR: a bench/generalize.sh output directory (its samples/FAMILY.txt, the
base image's 64 B streams); ORDER.lds: orders whose file names carry the key
of the families they were made from, as kernel-families.sh names them
(f1-4-5-8-9-..., family K = the K-th of FAMILIES).  Each order is replayed
as bench/stream-replay.py replays it (its layout and LRU, the families in
phase order through one LRU), and its misses at 8, 16, 32, 64 and 128
entries are printed summed over the families the order never saw (the test
half) and over those it was made from; last, the test halves' sums over
all orders given.

--map: the base image's GNU ld link map (default: $KBUILD/images/base/
vmlinux.map, KBUILD as kernel.sh's: the x86_64 6.1 loop's; `kernel.sh
paths` says where another KVER's images are).  x86_64 only: the layout is
that of x86_64's linker script.  --also adds the maps of other links of
the same objects for the sections' alignments (stream-replay.py says
why).  --cache FILE keeps the streams, read once, in FILE (a pickle; it
is rebuilt when a stream is newer), so that each further order takes
seconds instead of a minute.

What it is for: a layout idea is screened on all splits at once; what it
finds is confirmed by relinks and counting boots (generalize.sh), as the
figures in bench/RESULTS.md are.
"""
import array
import os
import pickle
import re
import runpy
import sys
import types
from collections import Counter


def sibling(name):
    """Another bench script's functions, by its file name."""
    here = os.path.dirname(os.path.abspath(__file__))
    return types.SimpleNamespace(**runpy.run_path(os.path.join(here, name)))


sr = sibling("stream-replay.py")


def conf(name):
    """A setting of bench/families.conf (FAMILIES, SPLITS), the environment's if set."""
    if os.environ.get(name):
        return os.environ[name]
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "families.conf")
    with open(path) as f:
        for line in f:
            if line.startswith(name + "="):
                return line[len(name) + 1:].strip()
    sr.die("%s: no %s= line" % (path, name))


FAMILIES = conf("FAMILIES")


def halves(splits=None):
    """Each split of SPLITS (or of the list given) both ways, as generalize.sh
    takes them: a list of (training families, test families), the test half
    in FAMILIES' order."""
    fams, out = FAMILIES.split(), []
    for s in splits or conf("SPLITS").split():
        a = s.split(",")
        for f in a:
            if f not in fams:
                sr.die("SPLITS: %s: family %s is not one of FAMILIES (%s)" % (s, f, FAMILIES))
        b = [f for f in fams if f not in a]
        out += [(a, b), (b, a)]
    return out


def key(subset):
    """A set of families' name in orders and images, as kf_key gives it:
    chardev pagecache -> f1-2."""
    fams = FAMILIES.split()
    return "f" + "-".join(str(fams.index(f) + 1) for f in subset)


def read_streams(paths, base, cache):
    """Per stream: its distinct addresses with their sections, and the
    stream as indices into them."""
    if cache and os.path.exists(cache):
        newest = max(os.path.getmtime(p) for p in paths)
        if os.path.getmtime(cache) >= newest:
            with open(cache, "rb") as f:
                got = pickle.load(f)
            if got.get("paths") == paths:
                return got["streams"]
    section_of = sr.section_finder(base)
    streams = []
    for p in paths:
        uniq, codes, seen = [], array.array("I"), {}
        for a in sr.addresses(p):
            c = seen.get(a)
            if c is None:
                c = seen[a] = len(uniq)
                uniq.append((a, section_of(a)))
            codes.append(c)
        streams.append((uniq, codes))
    if cache:
        with open(cache, "wb") as f:
            pickle.dump({"paths": paths, "streams": streams}, f, protocol=4)
    return streams


def replay_all(streams, base, new):
    """Misses by size of each stream, one LRU carried through them all."""
    stack, out = [], []
    for uniq, codes in streams:
        page = [((new[i] + a - base[i][1]) if i >= 0 else a) >> sr.PAGE_SHIFT
                for a, i in uniq]
        seq, last = [], None
        for c in codes:
            p = page[c]
            if p != last:
                seq.append(p)
                last = p
        out.append(sr.replay(seq, stack))
    return out


def common_args(argv):
    """The arguments and the options this script and split-novelty.py take:
    --cache FILE, --map FILE, --also MAP... (the rest of the line)."""
    args, opt = [], {"cache": None, "map": None, "also": []}
    it = iter(argv[1:])
    for a in it:
        if a == "--also":
            opt["also"].extend(it)
        elif a in ("--cache", "--map"):
            opt[a[2:]] = next(it, None)
            if opt[a[2:]] is None:
                sr.die("%s needs a FILE" % a)
        else:
            args.append(a)
    return args, opt


def base_map(opt):
    """The base image's sections: --map, else the x86_64 6.1 loop's map."""
    path = opt["map"]
    if not path:
        kbuild = os.environ.get("KBUILD", os.path.join(os.environ.get(
            "XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "hotpack", "kbuild"))
        path = os.path.join(kbuild, "images", "base", "vmlinux.map")
    return sr.read_text(path)


def main(argv):
    orders, opt = common_args(argv)
    if len(orders) < 2:
        sys.stderr.write("usage: replay-splits.py OUTDIR ORDER.lds... [--cache FILE] [--map BASE.map] "
                         "[--also MAP...]\n")
        return 2
    outdir, orders = orders[0], orders[1:]
    fams = FAMILIES.split()
    base = base_map(opt)
    if not base[0][0].startswith(".head.text"):
        sr.die("%s: .text does not start with .head.text: the replay lays out x86_64's "
               "linker script only; give an x86_64 image's map" % (opt["map"] or "the base map"))
    al = sr.alignments([base] + [sr.read_text(m) for m in opt["also"]])
    paths = [os.path.join(outdir, "samples", f + ".txt") for f in fams]
    streams = read_streams(paths, base, opt["cache"])
    total = Counter()
    print("order | test half: 8 16 32 64 128 | training half: 8 16 32 64 128")
    for o in orders:
        m = re.search(r"(?:^|[^0-9a-z])f([0-9]+(?:-[0-9]+)*)", os.path.basename(o))
        if not m:
            sr.die("%s: no family key (f1-2-...) in the name" % o)
        train = [int(k) for k in m.group(1).split("-")]
        if any(k < 1 or k > len(fams) for k in train):
            sr.die("%s: family %s is not among the %d of FAMILIES" % (o, m.group(1), len(fams)))
        per = replay_all(streams, base, sr.lay_out(base, al, sr.read_order(o)))
        test = [k for k in range(1, len(fams) + 1) if k not in train]
        te = [sum(per[k - 1][j] for k in test) for j in range(len(sr.SIZES))]
        tr = [sum(per[k - 1][j] for k in train) for j in range(len(sr.SIZES))]
        for j, v in enumerate(te):
            total[j] += v
        print("%s | %s | %s" % (o, " ".join(map(str, te)), " ".join(map(str, tr))), flush=True)
    print("test halves summed | %s" % " ".join(str(total[j]) for j in range(len(sr.SIZES))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
