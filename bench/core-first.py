#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench/core-first.py - an experiment of bench/RESULTS.md ("The layout over
every TLB size"): does an order hold better on unseen workloads when the
code every phase of the training stream runs comes first?

    python3 bench/core-first.py VMLINUX.map ORDER.lds OUT.lds K MIN STREAM...

Cuts the concatenated STREAMs (hex addresses, one a line) into K equal
chunks; the functions of ORDER.lds that run in at least MIN of them go
first, the others after, each in ORDER's sequence (a stable partition).
"""
import sys, re, bisect
mapf, order, out, K, MIN = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
streams = sys.argv[6:]
starts=[]; ends=[]; keys=[]
lines=open(mapf).read().split('\n')
for i,l in enumerate(lines):
    m=re.match(r'^ (\.text\.\S+)\s*$',l)
    if m and i+1<len(lines):
        p=lines[i+1].split()
        if len(p)==3 and p[0].startswith('0x'):
            a=int(p[0],16); s=int(p[1],16)
            if s: starts.append(a); ends.append(a+s); keys.append((p[2],m.group(1)))
        continue
    m=re.match(r'^ (\.text\.\S+)\s+0x(\S+)\s+0x(\S+)\s+(\S+)',l)
    if m:
        a=int(m.group(2),16); s=int(m.group(3),16)
        if s: starts.append(a); ends.append(a+s); keys.append((m.group(4),m.group(1)))
idx=sorted(range(len(starts)),key=lambda i:starts[i])
starts=[starts[i] for i in idx]; ends=[ends[i] for i in idx]; keys=[keys[i] for i in idx]
addrs=[]
for f in streams:
    with open(f) as fh:
        for l in fh:
            addrs.append(int(l,16))
n=len(addrs)
mask={}
for j,a in enumerate(addrs):
    i=bisect.bisect_right(starts,a)-1
    if i>=0 and a<ends[i]:
        k=keys[i]; c=j*K//n
        mask[k]=mask.get(k,0)|(1<<c)
bysec={}
for (o,s),m in mask.items():
    bysec.setdefault(s,[]).append(bin(m).count('1'))
def breadth(line):
    m=re.search(r'\*:(\S+?)\((\.text\.[^)]+)\)',line)
    if m: return bin(mask.get((m.group(1),m.group(2)),0)).count('1')
    m=re.search(r'\*\((\.text\.[^)]+)\)',line)
    if m: return max(bysec.get(m.group(1),[0]))
    return None
head=[];body=[]
for l in open(order):
    if l.startswith('*'): body.append(l)
    else: (head if not body else body).append(l)
core=[l for l in body if (breadth(l) or 0)>=MIN]
rest=[l for l in body if (breadth(l) or 0)<MIN]
open(out,'w').write(''.join(head+core+rest))
print(f'{len(core)} core of {len(body)} (K={K} MIN={MIN})', file=sys.stderr)
