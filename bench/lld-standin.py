#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench/lld-standin.py - let lld's call-graph sort order this GCC-built vmlinux.

lld cannot link the GCC-built vmlinux, so its order is taken from a stand-in:
one section per text input section (vmlinux.map) that defines a function the
call graph names, of the same size, with those functions' symbols at their
offsets in it; ld.lld links it with the call graph `hotpack profile --format
lld-cg` wrote (the one hotpack's algorithms work on).  The output's order is
then written as an order file in hotpack's lds format (one `*(.text.NAME)`
line per movable function) for kernel.sh relink.

  lld-standin.py standin VMLINUX.MAP NM-OUTPUT CG PREFIX
      NM-OUTPUT: `nm VMLINUX`; CG: the call graph.  Writes PREFIX.s (the
      stand-in object's source) and PREFIX.names (stand-in symbol -> input
      section, object file, movable or not)
  lld-standin.py lds PREFIX NM-N-OUTPUT > ORDER.lds
      the movable sections in the order `nm -n` of the linked stand-in
      lists them

lld reads the call graph's names as symbols and orders the input sections
that define them: several functions of one section (.sched.text, the plain
.text of an assembly file) are one node, as in a real lld link of the
kernel.  Only `.text.*` sections go into the order; the fixed ones stay
where the kernel's script puts them.
"""
import sys
from bisect import bisect_right
from collections import Counter


def die(msg):
    sys.stderr.write("lld-standin.py: error: %s\n" % msg)
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


def read_cg(path):
    """The names of a --call-graph-ordering-file, in their first line's order."""
    names = {}
    try:
        f = open(path)
    except OSError as e:
        die("%s: %s" % (path, e.strerror))
    with f:
        for n, line in enumerate(f, 1):
            w = line.split()
            if not w or w[0][0] == "#":
                continue
            if len(w) != 3 or not w[2].isdigit():
                die("%s:%d: not CALLER CALLEE WEIGHT" % (path, n))
            names.setdefault(w[0], len(names))
            names.setdefault(w[1], len(names))
    if not names:
        die("%s: no arcs; is it hotpack profile --format lld-cg output?" % path)
    return names


def cmd_standin(mapfile, nmfile, cgfile, prefix):
    secs = read_map(mapfile)
    starts = [s[0] for s in secs]
    want = read_cg(cgfile)
    at = {}         # name -> address
    with open(nmfile) as f:
        for line in f:
            w = line.split()
            if len(w) != 3 or w[2] not in want or w[1] not in "tTwW":
                continue
            if w[2] in at and at[w[2]] != int(w[0], 16):
                die("%s: %s is defined twice; the call graph should not name it"
                    % (nmfile, w[2]))
            at[w[2]] = int(w[0], 16)
    syms = {}       # section index -> [(offset, name)]
    missing = 0
    for name, a in at.items():
        i = bisect_right(starts, a) - 1
        if i < 0 or a >= secs[i][0] + secs[i][1]:
            missing += 1
            continue
        syms.setdefault(i, []).append((a - secs[i][0], name))
    missing += len(want) - len(at)
    if not syms:
        die("no function of %s is in .text of %s" % (cgfile, mapfile))
    with open(prefix + ".s", "w") as s, open(prefix + ".names", "w") as nm:
        for i in sorted(syms):
            start, size, name, obj = secs[i]
            movable = name.startswith(".text.") and len(name) > 6
            s.write('.section .text.hp%d,"ax",@progbits\n.p2align 4\n'
                    '.globl s%d\ns%d:\n' % (i, i, i))
            off = 0
            for o, sym in sorted(syms[i]):
                if o > off:
                    s.write(".skip %d, 0xcc\n" % (o - off))
                    off = o
                s.write('.globl "%s"\n"%s":\n' % (sym, sym))
            if size > off:
                s.write(".skip %d, 0xcc\n" % (size - off))
            nm.write("s%d %s %s %d\n" % (i, name, obj, 1 if movable else 0))
    sys.stderr.write("lld-standin.py: %d names, %d sections; %d names not in .text\n"
                     % (len(want), len(syms), missing))


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
    sys.stdout.write("/* lld call-graph order via bench/lld-standin.py: %d functions */\n"
                     ". = ALIGN(4096);\n" % len(out))
    for p in out:
        sys.stdout.write(p + "\n")


def main(argv):
    if len(argv) == 6 and argv[1] == "standin":
        cmd_standin(argv[2], argv[3], argv[4], argv[5])
    elif len(argv) == 4 and argv[1] == "lds":
        cmd_lds(argv[2], argv[3])
    else:
        sys.stderr.write("usage:\n" + __doc__.split("\n\n")[2] + "\n")
        sys.exit(2)


if __name__ == "__main__":
    main(sys.argv)
