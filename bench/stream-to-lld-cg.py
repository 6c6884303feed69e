#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench/stream-to-lld-cg.py - give lld's call-graph sort the profile hotpack uses.

lld cannot link this GCC-built vmlinux, so its order is taken from a stand-in:
one section per kernel text input section that the samples hit, of the same
size, linked by ld.lld with the call graph made from the sample stream; the
output's symbol order is then written as an order file in hotpack's lds
format (one `*(.text.NAME)` line per movable function) for kernel.sh relink.

  stream-to-lld-cg.py graph VMLINUX.MAP PREFIX SAMPLES...
      writes PREFIX.cg (lld --call-graph-ordering-file: "caller callee
      weight"), PREFIX.s (the stand-in object's source) and PREFIX.names
      (stand-in symbol -> input section, object file, movable or not)
  stream-to-lld-cg.py lds PREFIX NM-N-OUTPUT > ORDER.lds
      the movable sections in the order `nm -n` of the linked stand-in
      lists them

The graph, as issue 17 describes it: each sample (a hex address: every
change of 1 KiB block of code, the plugin's fine stream) is mapped to the
text input section that holds it (vmlinux.map); each change of section
between consecutive samples is an edge caller -> callee weighted by how often
it occurs, and each section's sample count is a self edge (lld adds it to the
node's weight).  Samples outside the `.text` output section are dropped.  The
fixed sections (.sched.text, .entry.text, plain .text, ...) stay in the graph
as nodes, as they would in a real lld link, but only `.text.*` sections go
into the order.  This is what the issue asks `hotpack profile --format
lld-cg` to write; until then it lives here.
"""
import sys
from bisect import bisect_right
from collections import Counter


def die(msg):
    sys.stderr.write("stream-to-lld-cg.py: error: %s\n" % msg)
    sys.exit(1)


def read_map(path):
    """Input sections of the .text output section: (start, size, name, obj)."""
    secs = []
    try:
        f = open(path)
    except OSError as e:
        die("%s: %s; give the vmlinux.map beside the vmlinux (CONFIG_VMLINUX_MAP)"
            % (path, e.strerror))
    in_text = False
    pending = None
    with f:
        for line in f:
            if line[:1] not in (" ", "\t", "\n", ""):
                in_text = line.split()[0] == ".text"
                pending = None
                continue
            if not in_text:
                continue
            w = line.split()
            if pending is not None:
                if len(w) >= 3 and w[0].startswith("0x"):
                    secs.append((int(w[0], 16), int(w[1], 16), pending, w[2]))
                pending = None
                continue
            if not w or not line.startswith(" .") or line.startswith(" *"):
                continue
            if len(w) == 1:
                pending = w[0]          # long name: address on the next line
            elif len(w) >= 4 and w[1].startswith("0x"):
                secs.append((int(w[1], 16), int(w[2], 16), w[0], w[3]))
    secs = [s for s in secs if s[1] > 0]
    secs.sort()
    if not secs:
        die("%s: no input sections in .text; is it a GNU ld map (-Map)?" % path)
    return secs


def cmd_graph(mapfile, prefix, samples):
    secs = read_map(mapfile)
    starts = [s[0] for s in secs]
    selfw = Counter()
    edges = Counter()
    prev = None
    n = dropped = 0
    for path in samples:
        try:
            f = open(path)
        except OSError as e:
            die("%s: %s" % (path, e.strerror))
        with f:
            for line in f:
                line = line.strip()
                if not line or line[0] == "#":
                    continue
                n += 1
                a = int(line, 16)
                i = bisect_right(starts, a) - 1
                if i < 0 or a >= secs[i][0] + secs[i][1]:
                    dropped += 1
                    continue
                selfw[i] += 1
                if prev is not None and prev != i:
                    edges[(prev, i)] += 1
                prev = i
    if not selfw:
        die("no sample fell in .text of %s" % mapfile)
    nodes = sorted(selfw)
    with open(prefix + ".s", "w") as s, open(prefix + ".names", "w") as nm:
        for i in nodes:
            start, size, name, obj = secs[i]
            movable = name.startswith(".text.") and len(name) > 6
            s.write('.section .text.hp%d,"ax",@progbits\n.p2align 4\n'
                    '.globl s%d\ns%d:\n.skip %d, 0xcc\n' % (i, i, i, size))
            nm.write("s%d %s %s %d\n" % (i, name, obj, 1 if movable else 0))
    with open(prefix + ".cg", "w") as cg:
        cg.write("# from %d samples (%d outside .text): %d sections, %d edges\n"
                 % (n, dropped, len(nodes), len(edges)))
        for i in nodes:
            cg.write("s%d s%d %d\n" % (i, i, selfw[i]))
        for (a, b), w in sorted(edges.items()):
            cg.write("s%d s%d %d\n" % (a, b, w))
    sys.stderr.write("stream-to-lld-cg.py: %d samples, %d outside .text; "
                     "%d sections, %d edges\n" % (n, dropped, len(nodes), len(edges)))


def cmd_lds(prefix, nmout):
    names = {}
    count = Counter()
    with open(prefix + ".names") as f:
        for line in f:
            sym, name, obj, movable = line.split()
            names[sym] = (name, obj, movable == "1")
            count[name] += 1
    out = []
    seen = set()
    with open(nmout) as f:
        for line in f:
            w = line.split()
            if len(w) < 3 or w[2] not in names:
                continue
            name, obj, movable = names[w[2]]
            if not movable:
                continue
            # a name in several objects (static functions): name the object,
            # as hotpack does (linker-scripts/README.md)
            if count[name] > 1:
                pat = "*:%s(%s) :%s(%s)" % (obj, name, obj, name)
            else:
                pat = "*(%s)" % name
            if pat not in seen:
                seen.add(pat)
                out.append(pat)
    if not out:
        die("%s: no stand-in symbol of %s.names; was the stand-in linked?" % (nmout, prefix))
    sys.stdout.write("/* lld call-graph order via bench/stream-to-lld-cg.py: %d functions */\n"
                     ". = ALIGN(4096);\n" % len(out))
    for p in out:
        sys.stdout.write(p + "\n")


def main(argv):
    if len(argv) >= 5 and argv[1] == "graph":
        cmd_graph(argv[2], argv[3], argv[4:])
    elif len(argv) == 4 and argv[1] == "lds":
        cmd_lds(argv[2], argv[3])
    else:
        sys.stderr.write("usage:\n" + __doc__.split("\n\n")[2] + "\n")
        sys.exit(2)


if __name__ == "__main__":
    main(sys.argv)
