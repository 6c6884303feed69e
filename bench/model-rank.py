#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench/model-rank.py - does hotpack's model rank the loop's layouts as the emulator does?

  model-rank.py OUTDIR IMAGES LAYOUT[,LAYOUT...] [--hotpack PATH] [--grain G]

OUTDIR: a bench/generalize.sh output directory (samples/FAMILY.txt, the base
image's streams; counts/kf-KEY-gG-LAYOUT.txt, the emulator's counts of each
relinked image); IMAGES: its images directory (base/vmlinux and
kf-KEY-gG-LAYOUT/vmlinux).  For each of the six splits (KEY as
generalize.sh names them) the test half's streams are made into a .hprof
with windows of 64 (`hotpack profile --addr-window 64`, kept in
OUTDIR/model-rank/), and `hotpack verify` replays it on every LAYOUT's
image: the model's 32-entry I-TLB and I-cache misses beside the emulator's
(the test families' phases summed).  `-e 32` is given, so the model's
geometry is hotpack's default, not the image's machine: 4 KiB pages, a
fully associative LRU I-TLB, an I-cache of 32 KiB, 8 ways, 64 B lines,
the QEMU plugin's as bench/kernel-families.sh runs it.  Then, over every pair of layouts of
one split whose emulated figures differ by under 2%, 5%, 10% and by any: how often
the model puts them in the emulator's order.  Layouts with no image or no
counts, or whose image no longer holds OUTDIR/orders' order (`verify
--order`; lld's and the original are not checked), are left out, and said
so on stderr.  --hotpack: the hotpack binary
(default: $HOTPACK, else hotpack on PATH); --grain: the streams' grain in
the names (default 64).  A Markdown table to stdout.
"""
import itertools
import os
import re
import runpy
import subprocess
import sys
import types

rs = types.SimpleNamespace(**runpy.run_path(os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "replay-splits.py")))
die = rs.sr.die
FAMILIES = rs.FAMILIES.split()
USAGE = "usage: model-rank.py OUTDIR IMAGES LAYOUT[,LAYOUT...] [--hotpack PATH] [--grain G]\n"


def counts(path, phases):
    """The emulator's 32-entry and I-cache misses over the phases (a qemu-itlb counts file)."""
    col, rows = None, {}
    try:
        with open(path) as f:
            for line in f:
                w = line.split()
                if not w or line.startswith("#"):
                    continue
                if w[0] == "phase":
                    col = {n: i for i, n in enumerate(w)}
                elif w[0].isdigit():
                    rows[int(w[0])] = w
    except OSError as e:
        die("%s: %s; run bench/generalize.sh for it first" % (path, e.strerror))
    if col is None or "miss32" not in col or "icmiss" not in col:
        die("%s: no 'phase' header with miss32 and icmiss; is it a counts file of the QEMU plugin?" % path)
    missing = [p for p in phases if p not in rows]
    if missing:
        die("%s: no row for phase %s; the boot did not run every family" % (path, missing[0]))
    return (sum(int(rows[p][col["miss32"]]) for p in phases),
            sum(int(rows[p][col["icmiss"]]) for p in phases))


def model(hotpack, base, image, order, hprof):
    """The model's 32-entry and I-cache misses of IMAGE on HPROF (hotpack verify);
    None when IMAGE does not hold ORDER (relinked from another order since)."""
    cmd = [hotpack, "verify", "-e", "32", "-n", "0"] + (["--order", order] if order else [])
    r = subprocess.run(cmd + [base, image, hprof], capture_output=True, text=True)
    if r.returncode == 3:
        return None
    m32 = re.search(r"32 entries: before +\d+, after +(\d+)", r.stdout)
    mic = re.search(r"I-cache misses: before \d+, after (\d+)", r.stdout)
    if r.returncode or not m32 or not mic:
        die("hotpack verify %s: exit %d, %s" % (image, r.returncode, r.stderr.strip()[-300:]))
    return int(m32.group(1)), int(mic.group(1))


def main(argv):
    args, hotpack, grain = [], os.environ.get("HOTPACK", "hotpack"), "64"
    it = iter(argv)
    for a in it:
        if a in ("--hotpack", "--grain"):
            v = next(it, None)
            if v is None:
                sys.stderr.write(USAGE)
                return 2
            if a == "--hotpack":
                hotpack = v
            else:
                grain = v
        elif a.startswith("-"):
            sys.stderr.write(USAGE)
            return 2
        else:
            args.append(a)
    if len(args) != 3:
        sys.stderr.write(USAGE)
        return 2
    outdir, images, layouts = args[0], args[1], args[2].split(",")
    base = os.path.join(images, "base", "vmlinux")
    if not os.path.exists(base):
        die("%s: no such file; IMAGES is the directory with base/vmlinux" % base)
    os.makedirs(os.path.join(outdir, "model-rank"), exist_ok=True)
    print("| split (trained on) | layout | model: 32 entries | emulator | model: I-cache | emulator |")
    print("|---|---|---:|---:|---:|---:|")
    pairs = []          # (what, emulated a, emulated b, model agrees)
    for train_fams, test_fams in rs.halves():
        key = rs.key(train_fams)
        train = [FAMILIES.index(f) + 1 for f in train_fams]
        test = [FAMILIES.index(f) + 1 for f in test_fams]
        hprof = os.path.join(outdir, "model-rank", "test-%s.hprof" % key)
        if not os.path.exists(hprof):
            streams = [os.path.join(outdir, "samples", FAMILIES[i - 1] + ".txt") for i in test]
            for s in streams:
                if not os.path.exists(s):
                    die("%s: no such file; OUTDIR is generalize.sh's output directory" % s)
            with subprocess.Popen(["cat"] + streams, stdout=subprocess.PIPE) as cat:
                r = subprocess.run([hotpack, "profile", "-q", "--addr-window", "64", "--vmlinux", base,
                                    "-o", hprof + ".tmp", "-"], stdin=cat.stdout, capture_output=True, text=True)
            if r.returncode:
                die("hotpack profile for %s: %s" % (key, r.stderr.strip()[-300:]))
            os.rename(hprof + ".tmp", hprof)
        rows = []
        for lay in layouts:
            name = "kf-%s-g%s-%s" % (key, grain, lay)
            image = os.path.join(images, name, "vmlinux")
            cnt = os.path.join(outdir, "counts", name + ".txt")
            if not (os.path.exists(image) and os.path.exists(cnt)):
                sys.stderr.write("model-rank.py: %s: no image or no counts, left out\n" % name)
                continue
            order = os.path.join(outdir, "orders", name[3:] + ".lds")
            if lay.startswith("lld-") or lay == "original" or not os.path.exists(order):
                order = None    # linked from lld's own orders, or by no order
            m = model(hotpack, base, image, order, hprof)
            if m is None:
                sys.stderr.write("model-rank.py: %s: the image does not hold %s, left out\n" % (name, order))
                continue
            rows.append((lay,) + m + counts(cnt, test))
        for lay, m32, mic, e32, eic in rows:
            print("| %s | %s | %s | %s | %s | %s |" % (",".join(FAMILIES[i - 1] for i in train), lay,
                  "{:,}".format(m32), "{:,}".format(e32), "{:,}".format(mic), "{:,}".format(eic)))
        for a, b in itertools.combinations(rows, 2):
            if a[1:] == b[1:]:
                continue        # the same image twice (one order under two names)
            for what, m, e in (("32 entries", 1, 3), ("I-cache", 2, 4)):
                if a[m] != b[m] and a[e] != b[e]:
                    pairs.append((what, a[e], b[e], (a[m] < b[m]) == (a[e] < b[e])))
    print()
    print("| emulated figures of the two layouts differ by under | 32 entries: pairs the model ranks as the emulator | I-cache: pairs |")
    print("|---|---:|---:|")
    for lim in (2, 5, 10, None):
        cell = []
        for what in ("32 entries", "I-cache"):
            near = [ok for w, x, y, ok in pairs
                    if w == what and (lim is None or abs(x - y) * 100 < lim * min(x, y))]
            cell.append("%d of %d" % (sum(near), len(near)))
        print("| %s | %s | %s |" % ("%d%%" % lim if lim else "any", cell[0], cell[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
