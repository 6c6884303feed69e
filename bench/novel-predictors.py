#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench/novel-predictors.py - could the image itself say which code an unseen family runs?

  novel-predictors.py VMLINUX PROFDIR EDGES [TRAIN...]

VMLINUX: the image the profiles of PROFDIR (FAMILY.hprof, e.g. profiles/
linux-6.1-ppc32/) were recorded on; EDGES: `hotpack callgraph VMLINUX
--edges`; TRAIN: training halves as bench/families.conf's SPLITS gives them
(default: SPLITS, each taken both ways, as bench/generalize.sh takes them).

For each split, the samples of its test half that fall in functions no
training family sampled (the code no order made from the training half can
place: "Why some test halves stay above 1.5x of the oracle" in
bench/RESULTS.md), and how much of them each candidate set would hold, with
the set's size (what placing all of it would put into the hot region):

  callees d1..d3  direct calls and tail calls, 1 to 3 calls deep, from the
                  functions the training half sampled (unsampled ones only)
  table siblings  functions whose address is stored within 64 bytes of the
                  address of a sampled one in .rodata, .data or
                  .data..ro_after_init (an ops table: file_operations,
                  seq_operations, inode_operations, a sysctl table; the other
                  data sections hold tables of every function, e.g. x86's
                  static call and exception tables)
  fan-in >= 20    functions of at most 1 KiB called directly from 20 or more
                  places (strcmp, memchr: leaves every path may reach)
  all             the union of the three, callees 3 deep

A Markdown table to stdout.  Needs readelf and nm (binutils).
"""
import collections
import os
import runpy
import struct
import subprocess
import sys
import types

# the halves as bench/generalize.sh takes them, from bench/families.conf
rs = types.SimpleNamespace(**runpy.run_path(os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "replay-splits.py")))
die, open_or_die = rs.sr.die, rs.sr.open_or_die

FAN_IN = 20
FAN_IN_MAX_SIZE = 1024
TABLE_SPAN = 64
TABLE_SECTIONS = (".rodata", ".data", ".data..ro_after_init")


def run(*cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        die("%s: %s" % (cmd[0], e))


def profile_heat(path):
    """Function name -> samples, from a .hprof's fn lines."""
    heat = collections.Counter()
    with open_or_die(path) as f:
        for line in f:
            if line.startswith("fn "):
                _, w, name = line.split(None, 2)
                heat[name.strip()] += int(w)
    if not heat:
        die("%s: no fn lines: not a .hprof profile" % path)
    return heat


def image_functions(vmlinux):
    """(address -> name, name -> size) of the image's code symbols."""
    by_addr, size = {}, {}
    for line in run("nm", "-S", vmlinux).splitlines():
        p = line.split()
        if len(p) == 4 and p[2] in "tTW":
            by_addr.setdefault(int(p[0], 16), p[3])
            size.setdefault(p[3], int(p[1], 16))
    return by_addr, size


def table_siblings(vmlinux, by_addr):
    """Function -> functions stored within TABLE_SPAN bytes of it in data."""
    head = run("readelf", "-hW", vmlinux)
    wide = "ELF64" in head
    fmt = ("<" if "little endian" in head else ">") + ("Q" if wide else "I")
    step = struct.calcsize(fmt)
    with open(vmlinux, "rb") as f:
        blob = f.read()
    ptrs = []
    for line in run("readelf", "-SW", vmlinux).splitlines():
        p = line.replace("[ ", "[").split()
        # [Nr] Name Type Address Off Size ES Flg ...
        if len(p) < 8 or not p[0].startswith("[") or p[1] not in TABLE_SECTIONS:
            continue
        va, off, sz = int(p[3], 16), int(p[4], 16), int(p[5], 16)
        data = blob[off:off + sz]
        for i in range(0, len(data) - step + 1, step):
            fn = by_addr.get(struct.unpack_from(fmt, data, i)[0])
            if fn:
                ptrs.append((va + i, fn))
    ptrs.sort()
    sib = collections.defaultdict(set)
    for i, (a, fa) in enumerate(ptrs):
        for b, fb in ptrs[i + 1:]:
            if b - a > TABLE_SPAN:
                break
            if fa != fb:
                sib[fa].add(fb)
                sib[fb].add(fa)
    return sib


def read_edges(path):
    """(callees, callers) by name, from `hotpack callgraph --edges`: each
    function's direct callees (call and tail call) in call-site order, once
    each, and each function's set of callers."""
    callees, callers = collections.defaultdict(list), collections.defaultdict(set)
    with open_or_die(path) as f:
        for line in f:
            p = line.split()
            if len(p) < 3 or p[2] not in ("call", "tail") or p[1] == "?":
                continue
            a = p[0].split("+")[0]
            if a not in callers[p[1]]:
                callees[a].append(p[1])
                callers[p[1]].add(a)
    return callees, callers


def main(argv):
    if len(argv) < 4:
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    vmlinux, profdir, edges = argv[1:4]
    fams = rs.FAMILIES.split()
    halves = rs.halves(argv[4:] or None)
    heat = {f: profile_heat(os.path.join(profdir, f + ".hprof")) for f in fams}
    by_addr, size = image_functions(vmlinux)
    sib = table_siblings(vmlinux, by_addr)
    callees, callers = read_edges(edges)
    fan_in = {n for n, c in callers.items()
              if len(c) >= FAN_IN and size.get(n, FAN_IN_MAX_SIZE + 1) <= FAN_IN_MAX_SIZE}

    print("| training half | test half's samples in code it never ran | functions "
          "| callees d1 | d2 | d3 | table siblings | fan-in >= %d | all |" % FAN_IN)
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for train, test in halves:
        seen = set()
        for f in train:
            seen.update(heat[f])
        th = collections.Counter()
        for f in test:
            th.update(heat[f])
        new = {n: w for n, w in th.items() if n not in seen}
        nw = sum(new.values()) or 1
        reach, front = [], set(seen)
        got = set()
        for _ in range(3):
            front = {c for f in front for c in callees[f]} - seen - got
            got |= front
            reach.append(set(got))
        sets = reach + [{x for f in seen for x in sib[f]} - seen, fan_in - seen]
        sets.append(reach[2] | sets[3] | sets[4])

        def cell(c):
            return "%.0f%% (%d, %d KiB)" % (
                100.0 * sum(w for n, w in new.items() if n in c) / nw,
                len(c), sum(size.get(n, 0) for n in c) // 1024)
        print("| %s | %.1f%% | %d | %s |" % (
            " ".join(train), 100.0 * sum(new.values()) / (sum(th.values()) or 1),
            len(new), " | ".join(cell(c) for c in sets)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
