#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench/novel-appended.py - how much of a test half's gap is code its training half never ran?

  novel-appended.py OUTDIR IMAGES [FROM [TO]]

An experiment, not a method: it cheats.  For each of the six splits of
bench/generalize.sh (KEY as it names them, f1-2-3-4 ...), the order made
from the training half, OUTDIR/orders/KEY-g64-FROM.lds (default FROM:
cdsunit), gets the lines of the test half's own order (the oracle's, the
complementary split's KEY2-g64-FROM.lds) that it lacks appended after it,
in link order (by the base image's symbol addresses, IMAGES/base/vmlinux,
`nm`): every function the test half runs and the training half never
sampled, packed right after the ordered region, in the order the link had
them.  Written to OUTDIR/orders/KEY-g64-TO.lds (default TO: cheatnovel);
an existing file is left as it is.  Only lines hotpack itself wrote are
appended, so every function moved is one hotpack may move.

If such an order stays far from the oracle, the code the training half never
ran is not what keeps it there.  Relink and count them with
bench/kernel-families.sh's kf_image (bench/RESULTS.md, "The code a training
half never ran, placed by an order that knows it").
"""
import os
import re
import runpy
import subprocess
import sys
import types

rs = types.SimpleNamespace(**runpy.run_path(os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "replay-splits.py")))
die = rs.sr.die
# each training half's key, and its test half's
PAIRS = {rs.key(tr): rs.key(te) for tr, te in rs.halves()}
SECTION = re.compile(r"^\S*?\(\.text\.([^)\s]+)\)")
FAR = 1 << 64   # a line with no symbol of its name (a plain .text unit): last


def read_lines(path):
    try:
        with open(path) as f:
            return f.read().splitlines()
    except OSError as e:
        die("%s: %s; make the orders first (bench/generalize.sh, or hotpack order)" % (path, e.strerror))


def main(argv):
    if len(argv) not in (2, 3, 4):
        sys.stderr.write("usage: novel-appended.py OUTDIR IMAGES [FROM [TO]]\n")
        return 2
    outdir, images = argv[0], argv[1]
    src = argv[2] if len(argv) > 2 else "cdsunit"
    dst = argv[3] if len(argv) > 3 else "cheatnovel"
    vmlinux = os.path.join(images, "base", "vmlinux")
    if not os.path.isfile(vmlinux):
        die("%s: no such file; IMAGES is the directory with base/vmlinux" % vmlinux)
    try:
        r = subprocess.run(["nm", vmlinux], capture_output=True, text=True)
    except OSError as e:
        die("nm: %s; install binutils" % e.strerror)
    if r.returncode:
        die("nm %s: %s" % (vmlinux, r.stderr.strip()))
    nm = r.stdout
    addr = {}
    for line in nm.splitlines():
        w = line.split()
        if len(w) == 3 and w[1] in "tTwW":
            addr.setdefault(w[2], int(w[0], 16))
    for key in sorted(PAIRS):
        out = os.path.join(outdir, "orders", "%s-g64-%s.lds" % (key, dst))
        if os.path.exists(out):
            print("%s: kept as it is" % out)
            continue
        mine = read_lines(os.path.join(outdir, "orders", "%s-g64-%s.lds" % (key, src)))
        theirs = read_lines(os.path.join(outdir, "orders", "%s-g64-%s.lds" % (PAIRS[key], src)))
        have = set(l for l in mine if l.startswith("*"))
        extra = []
        for line in theirs:
            if line.startswith("*") and line not in have:
                m = SECTION.match(line)
                extra.append((addr.get(m.group(1), FAR) if m else FAR, line))
        extra.sort()
        with open(out + ".tmp", "w") as f:
            f.write("\n".join(mine + [l for a, l in extra]) + "\n")
        os.rename(out + ".tmp", out)
        print("%s: %d lines appended (%d with no symbol of their name, last)" %
              (out, len(extra), sum(1 for a, l in extra if a == FAR)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
