#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench/reorder-screen.py - priors on unseen code, screened as passes over cds's order.

  reorder-screen.py VMLINUX PROFDIR OUTDIR VARIANT...

For each training half of bench/families.conf's SPLITS (both ways, as
bench/generalize.sh takes them): cds's order from the half's shipped
profiles (PROFDIR/FAMILY.hprof, recorded on VMLINUX), each VARIANT made from
it, and `hotpack report --order` of each on the test half and on the
training half (fully associative LRU I-TLB of 4 KiB pages at 8-128 entries,
and the I-cache).  VARIANT:

  cds             the order as hotpack writes it
  first-touch:C   the functions holding a share C of the half's samples
                  (hottest first) keep cds's order; every other line follows,
                  in the order the half's windows first ran it (each
                  family's .hprof sequence; families merged by the place of a
                  function in its family's list over that list's length)
  hubs:T          the functions in at least a share T of the windows of every
                  family of the half first (cds's order among them), then the
                  rest of cds's order
  callees:D       cds's order, then the functions it lacks that its functions
                  call directly (call or tail call), D calls deep at most, in
                  the order of their first caller (EDGES needed)
  fanin:N         cds's order, then the functions of at most 1 KiB that it
                  lacks and that 20 or more places call directly, most
                  called first (EDGES needed)

The last two append after the whole order, where no training family runs,
so they can only move the test halves.  EDGES: `hotpack callgraph VMLINUX
--edges` in the environment; functions are appended only when the link map
(VMLINUX.map) has their own .text.NAME section.

A Markdown table of the six halves summed to stdout; orders, reports and a
line per half (OUTDIR/screen.txt) stay in OUTDIR.  HOTPACK: the binary
(default: hotpack on PATH).  Plain .text units (an assembly object moved
whole) stay where cds put them in every variant.
"""
import functools
import json
import os
import re
import runpy
import subprocess
import sys
import types

# the halves as bench/generalize.sh takes them, from bench/families.conf
rs = types.SimpleNamespace(**runpy.run_path(os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "replay-splits.py")))
die, open_or_die = rs.sr.die, rs.sr.open_or_die
npred = types.SimpleNamespace(**runpy.run_path(os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "novel-predictors.py")))

SIZES = "8,16,32,64,128"
SECTION = re.compile(r"\(\.text\.([^)]+)\)")


@functools.lru_cache(maxsize=None)
def read_hprof(path):
    """(names, traces, sequence, heat) of a .hprof: fn lines, ntrace lines
    as lists of fn places, the seq and + lines as trace places (read once
    for every variant; callers do not change them)."""
    names, traces, seq, heat = [], [], [], {}
    with open_or_die(path) as f:
        for line in f:
            p = line.split()
            if not p:
                continue
            if p[0] == "fn":
                name = line.split(None, 2)[2].strip()
                names.append(name)
                heat[name] = heat.get(name, 0) + int(p[1])
            elif p[0] == "ntrace":
                traces.append([int(x) for x in p[3:]])
            elif p[0] in ("seq", "+"):
                for t in p[2:] if p[0] == "seq" else p[1:]:
                    if "*" in t:
                        a, r = t.split("*")
                        seq.extend([int(a)] * int(r))
                    else:
                        seq.append(int(t))
    if not seq:
        die("%s: no window sequence (a .hprof of --addr-window --sequence)" % path)
    return names, traces, seq, heat


def split_order(path):
    """(header lines, order lines) of an lds order file."""
    with open(path) as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines) and not lines[i].startswith("*"):
        i += 1
    return lines[:i], [ln for ln in lines[i:] if ln.strip()]


def line_name(ln):
    m = SECTION.search(ln)
    return m.group(1) if m else None


def first_touch(cds, out, cover, profiles):
    key, heat = {}, {}
    for p in profiles:
        names, traces, seq, h = read_hprof(p)
        for n, w in h.items():
            heat[n] = heat.get(n, 0) + w
        first, seen = [], set()
        for t in seq:
            for i in traces[t]:
                if i not in seen:
                    seen.add(i)
                    first.append(names[i])
        for j, n in enumerate(first):
            k = (j + 0.5) / len(first)
            if k < key.get(n, 2.0):
                key[n] = k
    total, acc, core = sum(heat.values()), 0, set()
    for n, w in sorted(heat.items(), key=lambda x: -x[1]):
        if acc >= cover * total:
            break
        core.add(n)
        acc += w
    head, body = split_order(cds)
    keep = [ln for ln in body if line_name(ln) in core or line_name(ln) not in key]
    rest = sorted((key[line_name(ln)], ln) for ln in body
                  if line_name(ln) not in core and line_name(ln) in key)
    write(out, head, keep + [ln for _, ln in rest])


def hubs(cds, out, share, profiles):
    hub = None
    for p in profiles:
        names, traces, seq, _ = read_hprof(p)
        ran = {}
        for t in seq:
            for n in {names[i] for i in traces[t]}:
                ran[n] = ran.get(n, 0) + 1
        mine = {n for n, c in ran.items() if c >= share * len(seq)}
        hub = mine if hub is None else hub & mine
    head, body = split_order(cds)
    write(out, head, [ln for ln in body if line_name(ln) in hub] +
          [ln for ln in body if line_name(ln) not in hub])


@functools.lru_cache(maxsize=None)
def image_edges():
    """(callees, callers) by name, from EDGES (read once)."""
    path = os.environ.get("EDGES")
    if not path:
        die("callees and fanin need EDGES (hotpack callgraph VMLINUX --edges)")
    return npred.read_edges(path)


@functools.lru_cache(maxsize=None)
def text_sections(vmlinux):
    """Name -> size of each .text.NAME input section of VMLINUX.map."""
    out = {}
    for name, _, size, _ in rs.sr.read_text(vmlinux + ".map"):
        if name.startswith(".text."):
            out.setdefault(name[len(".text."):], size)
    return out


def append(cds, out, vmlinux, kind, arg):
    head, body = split_order(cds)
    have = {line_name(ln) for ln in body}
    secs = text_sections(vmlinux)
    callees, callers = image_edges()
    extra = []
    if kind == "callees":
        front = [line_name(ln) for ln in body if line_name(ln)]
        for _ in range(int(arg)):
            nxt = []
            for f in front:
                for c in callees[f]:
                    if c in secs and c not in have:
                        have.add(c)
                        extra.append(c)
                        nxt.append(c)
            front = nxt
    else:
        fan = [(-len(c), n) for n, c in callers.items()
               if len(c) >= int(arg) and n in secs and n not in have and secs[n] <= 1024]
        extra = [n for _, n in sorted(fan)]
    write(out, head, body + ["*(.text.%s)" % n for n in extra])


def write(path, head, body):
    with open(path + ".tmp", "w") as f:
        f.write("\n".join(head + body) + "\n")
    os.replace(path + ".tmp", path)


def hotpack(*args):
    cmd = [os.environ.get("HOTPACK", "hotpack")] + list(args)
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        die("%s: %s" % (" ".join(cmd), getattr(e, "stderr", "") or e))


def cost(vmlinux, order, profiles):
    """Misses at each size and the I-cache's, of ORDER on PROFILES."""
    rep = json.loads(hotpack("report", "-q", "-n", "0", "-e", SIZES, "--json",
                             "--order", order, vmlinux, *profiles))
    for lay in rep["layouts"]:
        if lay["name"] == "order":
            return [t["misses"] for t in lay["tlb"]] + [lay["icache_misses"] or 0]
    die("%s: report has no order column" % order)


def main(argv):
    if len(argv) < 5:
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    vmlinux, profdir, outdir, variants = argv[1], argv[2], argv[3], argv[4:]
    for v in variants:
        kind, _, arg = v.partition(":")
        if kind == "cds" and not arg:
            continue
        try:
            ok = (kind in ("first-touch", "hubs") and 0 <= float(arg) <= 1 or
                  kind in ("callees", "fanin") and arg.isdigit() and int(arg) > 0)
        except ValueError:
            ok = False
        if not ok:
            die("%s: not a variant (cds, first-touch:C, hubs:T, callees:D, fanin:N;"
                " C and T in [0, 1], D and N counts)" % v)
    halves = rs.halves()
    os.makedirs(outdir, exist_ok=True)
    prof = lambda fs: [os.path.join(profdir, f + ".hprof") for f in fs]
    sums = {v: [[0] * 6, [0] * 6] for v in variants}
    with open(os.path.join(outdir, "screen.txt"), "w") as log:
        for train, test in halves:
            name = "-".join(train)
            cds = os.path.join(outdir, "cds-%s.lds" % name)
            if not os.path.exists(cds):
                hotpack("order", "-q", "-o", cds, vmlinux, *prof(train))
            for v in variants:
                kind, _, arg = v.partition(":")
                order = os.path.join(outdir, "%s-%s.lds" % (v.replace(":", ""), name))
                if kind == "first-touch":
                    first_touch(cds, order, float(arg), prof(train))
                elif kind == "hubs":
                    hubs(cds, order, float(arg), prof(train))
                elif kind in ("callees", "fanin"):
                    append(cds, order, vmlinux, kind, arg)
                else:
                    order = cds
                te, tr = cost(vmlinux, order, prof(test)), cost(vmlinux, order, prof(train))
                log.write("%s %s test %s train %s\n" % (
                    v, name, " ".join(map(str, te)), " ".join(map(str, tr))))
                log.flush()
                for k in range(6):
                    sums[v][0][k] += te[k]
                    sums[v][1][k] += tr[k]
    print("| order | measured on | 8 | 16 | 32 | 64 | 128 entries | I-cache misses |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for side, label in ((0, "unseen test halves"), (1, "training halves")):
        for v in variants:
            ref = sums[variants[0]][side]
            cells = []
            for k, m in enumerate(sums[v][side]):
                c = "{:,}".format(m)
                if v != variants[0] and ref[k]:
                    c += " (%+.1f%%)" % (100.0 * (m - ref[k]) / ref[k])
                cells.append(c)
            print("| %s | %s | %s |" % (v, label, " | ".join(cells)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
