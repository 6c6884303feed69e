#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench/stream-on-image.py - a base image's sample stream replayed on a relinked image.

  stream-on-image.py [--extents] BASE.map NEW.map STREAM...

BASE.map: the link map of the image the streams were sampled on; NEW.map: the
link map of a relink of the same objects (an order's image, kf-NAME/vmlinux.map
of bench/kernel-families.sh); STREAM: the plugin's sample streams of the base
image, in the order their phases ran.  Each sampled address moves with its
input section (name and object) to where NEW.map has it, and the stream's
pages go through a fully associative LRU I-TLB of 4 KiB pages at 8-128
entries, as bench/stream-replay.py does; unlike it, nothing is laid out
here, so it holds for any architecture's linker script.  Prints the misses of
each stream and in all, and the page references.

--extents replays what hotpack's model replays instead: at each change of
section, every page of the bytes the whole stream ever sampled in that
section (the .hprof's extent line), not the page the sample is on.  The two
against a boot tell the model's error from the stream's (bench/RESULTS.md,
"Why the model over-counts a far order on arm64").
"""
import bisect
import os
import runpy
import sys
import types

sr = types.SimpleNamespace(**runpy.run_path(os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "stream-replay.py")))


def moved_to(base, newmap):
    """Each base section's address in the new image (its own when the new
    map has none, or more than one, of that name and object)."""
    where = {}
    for n, a, s, o in newmap:
        where.setdefault((n, o), []).append(a)
    out = []
    for n, a, s, o in base:
        w = where.get((n, o))
        out.append(w[0] if w and len(w) == 1 else a)
    return out


def visits(path, section_of):
    """(section index or -1, address) of every sample, in order."""
    for addr in sr.addresses(path):
        yield section_of(addr), addr


def main(argv):
    args = argv[1:]
    extents = bool(args) and args[0] == '--extents'
    if extents:
        args = args[1:]
    if len(args) < 3:
        sr.die("usage: stream-on-image.py [--extents] BASE.map NEW.map STREAM...")
    base = [x for x in sr.read_text(args[0]) if x[2] > 0]
    base.sort(key=lambda x: x[1])
    new = moved_to(base, sr.read_text(args[1]))
    section_of = sr.section_finder(base)
    ext = {}
    if extents:
        # the bytes each section's samples hit, over every stream (64 B each)
        for s in args[2:]:
            for i, addr in visits(s, section_of):
                if i >= 0:
                    o = addr - base[i][1]
                    lo, hi = ext.get(i, (o, o + 63))
                    ext[i] = (min(lo, o), max(hi, o + 63))
    stack, total, refs = [], [0] * len(sr.SIZES), 0
    print("stream " + " ".join("miss%d" % s for s in sr.SIZES) + " refs")
    for s in args[2:]:
        seq, last = [], None
        for i, addr in visits(s, section_of):
            if extents and i >= 0:
                if i == last:
                    continue
                lo, hi = ext[i]
                first, end = (new[i] + lo) >> sr.PAGE_SHIFT, (new[i] + hi) >> sr.PAGE_SHIFT
                seq.extend(range(first, end + 1))
            else:
                seq.append((addr if i < 0 else new[i] + addr - base[i][1]) >> sr.PAGE_SHIFT)
            last = i
        # a page repeated back to back is one reference, as the plugin counts it
        seq = [p for k, p in enumerate(seq) if not k or seq[k - 1] != p]
        m = sr.replay(seq, stack)
        total = [a + b for a, b in zip(total, m)]
        refs += len(seq)
        print(s + " " + " ".join(str(x) for x in m) + " " + str(len(seq)))
    print("total " + " ".join(str(x) for x in total) + " " + str(refs))


if __name__ == '__main__':
    main(sys.argv)
