#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench/stream-replay.py - an order's I-TLB misses without a relink or a boot.

  stream-replay.py BASE.map ORDER.lds|base STREAM... [--also MAP...]

BASE.map: the base image's GNU ld link map (examples/kernel/kernel.sh saves
it as images/base/vmlinux.map); ORDER.lds: an order in hotpack's lds format
(or `base` for the base layout); STREAM: the plugin's sample streams of the
base image, one per workload phase, in the order the phases ran (bench/
kernel-families.sh's samples/FAMILY.txt).  Prints, for each stream and in
all, the misses of a fully associative LRU I-TLB of 4 KiB pages at 8, 16,
32, 64 and 128 entries, one LRU carried from stream to stream as the
counting boot carries it from phase to phase.

How: the text input sections of BASE.map are laid out as the kernel's linker
script does with the order (the ordered sections first from the 4 KiB
boundary after .head.text, then the rest in link order, .entry.text and
what follows it where the base image has them), each at its alignment (the
smallest power of two over every map given: BASE.map and the --also maps of
other links of the same objects, since a map shows addresses, not
alignments); each sampled address moves with its section.

It is only as good as the stream: with every change of 64 B block
(GRAIN=64) it reproduces the counting boot within a few per cent at 8-64
entries (bench/RESULTS.md, "The sample stream's grain"); with 1 KiB blocks
it misses the calls and returns between functions of one block and
undercounts an order by up to half.  At 128 entries the boot's phase 0
(the kernel's own boot), which no stream covers, makes the difference.
"""
import bisect
import os
import re
import sys

PAGE_SHIFT = 12
SIZES = (8, 16, 32, 64, 128)
SEC1 = re.compile(r'^ (\.\S+)\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S+)')
SECNAME = re.compile(r'^ (\.\S+)\s*$')
CONT = re.compile(r'^\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S+)')
ORDER = re.compile(r'^(\S*?)\(([^)\s]+)\)')


def die(msg):
    # the script run, which may be another that loads these helpers
    prog = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "stream-replay.py"
    sys.stderr.write("%s: error: %s\n" % (prog, msg))
    sys.exit(1)


def open_or_die(path):
    try:
        return open(path)
    except OSError as e:
        die("%s: %s" % (path, e.strerror))


def read_text(path):
    """The .text output section's input sections: [name, addr, size, obj]."""
    out, intext, pend = [], False, None
    with open_or_die(path) as f:
        for line in f:
            if not intext:
                intext = line.startswith('.text ')
                continue
            if line[:1] not in (' ', '\t', '\n', '*'):
                break
            if pend is not None:
                m = CONT.match(line)
                if m:
                    out.append([pend, int(m.group(1), 16), int(m.group(2), 16), m.group(3)])
                pend = None
                continue
            m = SEC1.match(line)
            if m:
                out.append([m.group(1), int(m.group(2), 16), int(m.group(3), 16), m.group(4)])
                continue
            m = SECNAME.match(line)
            if m:
                pend = m.group(1)
    if not out:
        die("%s: no .text output section with input sections; give a GNU ld link map" % path)
    return out


def alignments(maps):
    al = {}
    for secs in maps:
        for n, a, s, o in secs:
            low = a & -a if a else 4096
            al[(n, o)] = min(al.get((n, o), 4096), low, 4096)
    return al


def read_order(path):
    """[(object or None, section)] of an lds order: *(SEC) or *:OBJ(SEC)."""
    names = []
    with open_or_die(path) as f:
        for line in f:
            m = ORDER.match(line.strip())
            if m:
                obj = m.group(1)
                obj = obj.split(':', 1)[1] if ':' in obj else obj
                names.append((None if obj == '*' else obj, m.group(2)))
    if not names:
        die("%s: no *(SECTION) lines; give an order in hotpack's lds format" % path)
    return names


def lay_out(base, al, order):
    """Each base section's address under the order."""
    first = next(i for i, x in enumerate(base) if not x[0].startswith('.head.text'))
    fixed = next((i for i, x in enumerate(base) if x[0] == '.entry.text'), len(base))
    new = [x[1] for x in base]
    if order is None:
        return new
    byname = {}
    for i in range(first, fixed):
        byname.setdefault(base[i][0], []).append(i)
    pc = (base[first][1] + 4095) & ~4095
    placed = set()

    def put(i):
        nonlocal pc
        a = al[(base[i][0], base[i][3])]
        pc = (pc + a - 1) & ~(a - 1)
        new[i] = pc
        pc += base[i][2]
        placed.add(i)
    for obj, name in order:
        for i in byname.get(name, []):
            if i not in placed and (obj is None or base[i][3] == obj):
                put(i)
    for i in range(first, fixed):
        if i not in placed:
            put(i)
    return new


def section_finder(base):
    """A function from an address to the index of the base section that
    holds it, or -1."""
    nz = sorted((x[1], i) for i, x in enumerate(base) if x[2] > 0)
    starts, index = [a for a, i in nz], [i for a, i in nz]

    def section_of(addr):
        j = bisect.bisect_right(starts, addr) - 1
        if j >= 0 and addr < base[index[j]][1] + base[index[j]][2]:
            return index[j]
        return -1
    return section_of


def addresses(path):
    """The sampled addresses of the plugin's samples file, in order."""
    with open_or_die(path) as f:
        for n, line in enumerate(f, 1):
            try:
                yield int(line, 16)
            except ValueError:
                die("%s:%d: not a hex address; give the plugin's samples file" % (path, n))


def pages(path, section_of, base, new):
    """The stream's pages under the new layout, repeats dropped."""
    out, last, moved = [], None, {}
    for addr in addresses(path):
        r = moved.get(addr)
        if r is None:
            i = section_of(addr)
            r = addr if i < 0 else new[i] + addr - base[i][1]
            moved[addr] = r
        p = r >> PAGE_SHIFT
        if p != last:
            out.append(p)
            last = p
    return out


def replay(seq, stack):
    """Misses at each size; stack: the LRU order, carried between calls."""
    miss = [0] * len(SIZES)
    top = SIZES[-1]
    for p in seq:
        try:
            d = stack.index(p)
        except ValueError:
            d = top
        for k, s in enumerate(SIZES):
            if d >= s:
                miss[k] += 1
        if d < top:
            del stack[d]
        stack.insert(0, p)
        if len(stack) > top:
            stack.pop()
    return miss


def main(argv):
    args, also = [], []
    it = iter(argv[1:])
    for a in it:
        if a == '--also':
            also.extend(it)
        else:
            args.append(a)
    if len(args) < 3:
        die("usage: stream-replay.py BASE.map ORDER.lds|base STREAM... [--also MAP...]")
    base = read_text(args[0])
    al = alignments([base] + [read_text(m) for m in also])
    order = None if args[1] == 'base' else read_order(args[1])
    new = lay_out(base, al, order)
    section_of = section_finder(base)
    stack, total = [], [0] * len(SIZES)
    print("stream " + " ".join("miss%d" % s for s in SIZES))
    for s in args[2:]:
        m = replay(pages(s, section_of, base, new), stack)
        total = [a + b for a, b in zip(total, m)]
        print(s + " " + " ".join(str(x) for x in m))
    print("total " + " ".join(str(x) for x in total))


if __name__ == '__main__':
    main(sys.argv)
